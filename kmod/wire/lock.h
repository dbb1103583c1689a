/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LOCK request and response (MS-SMB2 2.2.26, 2.2.27), and the byte-range
 * lock rules of the object store (MS-FSA 2.1.4.10, 2.1.5.8, 2.1.5.9) as
 * pure functions, so that the module and the unit tests share them.
 */
#ifndef _SMBSRV_WIRE_LOCK_H
#define _SMBSRV_WIRE_LOCK_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* LOCK request (2.2.26): StructureSize counts one element. */
#define SMB2_LOCK_REQ_SIZE		48
#define SMB2_LOCK_REQ_COUNT		2
#define SMB2_LOCK_REQ_SEQUENCE		4
#define SMB2_LOCK_REQ_FILE_ID		8
#define SMB2_LOCK_REQ_LOCKS		24

/* SMB2_LOCK_ELEMENT (2.2.26.1). */
#define SMB2_LOCK_ELEM_SIZE		24
#define SMB2_LOCK_ELEM_OFFSET		0
#define SMB2_LOCK_ELEM_LENGTH		8
#define SMB2_LOCK_ELEM_FLAGS		16

#define SMB2_LOCKFLAG_SHARED_LOCK	0x00000001
#define SMB2_LOCKFLAG_EXCLUSIVE_LOCK	0x00000002
#define SMB2_LOCKFLAG_UNLOCK		0x00000004
#define SMB2_LOCKFLAG_FAIL_IMMEDIATELY	0x00000010

/* LOCK response (2.2.27). */
#define SMB2_LOCK_RSP_SIZE		4

struct smb2_lock_req {
	u16 count;		/* LockCount, at least 1 */
	u32 sequence;		/* LockSequenceNumber (4 bits) and Index */
	const u8 *file_id;	/* 16 bytes in the PDU */
	const u8 *locks;	/* @count elements in the PDU */
};

struct smb2_lock_elem {
	u64 offset;
	u64 length;
	u32 flags;
};

/*
 * Decode a LOCK request: LockCount must be at least 1 and every element
 * must lie in the PDU.  Returns STATUS_SUCCESS or STATUS_INVALID_PARAMETER.
 */
u32 smb2_lock_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_lock_req *r);

/* Element @i (< r->count) of a decoded request. */
void smb2_lock_req_elem(const struct smb2_lock_req *r, u16 i,
			struct smb2_lock_elem *e);

/* What an element asks for (2.2.26.1: the valid flag combinations). */
enum smb2_lock_kind {
	SMB2_LOCK_KIND_INVALID,
	SMB2_LOCK_KIND_SHARED,
	SMB2_LOCK_KIND_EXCLUSIVE,
	SMB2_LOCK_KIND_UNLOCK,
};

enum smb2_lock_kind smb2_lock_kind(u32 flags);

/*
 * A range is valid when it has no byte beyond 2^64 - 1 (MS-FSA 2.1.5.8:
 * otherwise STATUS_INVALID_LOCK_RANGE); zero-length ranges are valid.
 */
bool smb2_lock_range_valid(u64 offset, u64 length);

/*
 * MS-FSA 2.1.4.10: does an access to [@offset, @offset + @length) conflict
 * with a held lock?  @held_*: the held lock; @same_owner: it belongs to the
 * open making the access (SMB2 has no lock keys: the open is the owner).
 * @exclusive: the access has exclusive intent (an exclusive lock, or a
 * write); @lock_intent: it is a lock request rather than I/O.  The {0, 0}
 * range never conflicts; a zero-length range conflicts with a lock that
 * strictly contains its offset.
 */
bool smb2_lock_conflicts(u64 held_offset, u64 held_length, bool held_exclusive,
			 bool same_owner, u64 offset, u64 length,
			 bool exclusive, bool lock_intent);

/* Encode the 4-byte response body; returns its size. */
u32 smb2_lock_rsp_encode(u8 *body);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_LOCK_H */
