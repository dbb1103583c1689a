// SPDX-License-Identifier: GPL-2.0
/*
 * LOCK requests and the byte-range lock rules.
 */
#include "compat.h"
#include "lock.h"
#include "ntstatus.h"
#include "pdu.h"

u32 smb2_lock_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_lock_req *r)
{
	const u8 *body = pdu + SMB2_HDR_SIZE;
	u32 body_len;

	if (pdu_len < SMB2_HDR_SIZE)
		return STATUS_INVALID_PARAMETER;
	body_len = pdu_len - SMB2_HDR_SIZE;
	if (smb2_body_check(body, body_len, SMB2_LOCK_REQ_SIZE))
		return STATUS_INVALID_PARAMETER;
	r->count = get_unaligned_le16(body + SMB2_LOCK_REQ_COUNT);
	r->sequence = get_unaligned_le32(body + SMB2_LOCK_REQ_SEQUENCE);
	r->file_id = body + SMB2_LOCK_REQ_FILE_ID;
	r->locks = body + SMB2_LOCK_REQ_LOCKS;
	/* At most 65535 elements of 24 bytes: no overflow in 32 bits. */
	if (!r->count ||
	    body_len - SMB2_LOCK_REQ_LOCKS < (u32)r->count * SMB2_LOCK_ELEM_SIZE)
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

void smb2_lock_req_elem(const struct smb2_lock_req *r, u16 i,
			struct smb2_lock_elem *e)
{
	const u8 *p = r->locks + (u32)i * SMB2_LOCK_ELEM_SIZE;

	e->offset = get_unaligned_le64(p + SMB2_LOCK_ELEM_OFFSET);
	e->length = get_unaligned_le64(p + SMB2_LOCK_ELEM_LENGTH);
	e->flags = get_unaligned_le32(p + SMB2_LOCK_ELEM_FLAGS);
}

enum smb2_lock_kind smb2_lock_kind(u32 flags)
{
	switch (flags) {
	case SMB2_LOCKFLAG_SHARED_LOCK:
	case SMB2_LOCKFLAG_SHARED_LOCK | SMB2_LOCKFLAG_FAIL_IMMEDIATELY:
		return SMB2_LOCK_KIND_SHARED;
	case SMB2_LOCKFLAG_EXCLUSIVE_LOCK:
	case SMB2_LOCKFLAG_EXCLUSIVE_LOCK | SMB2_LOCKFLAG_FAIL_IMMEDIATELY:
		return SMB2_LOCK_KIND_EXCLUSIVE;
	case SMB2_LOCKFLAG_UNLOCK:
		return SMB2_LOCK_KIND_UNLOCK;
	default:
		return SMB2_LOCK_KIND_INVALID;
	}
}

bool smb2_lock_range_valid(u64 offset, u64 length)
{
	return !length || offset + length - 1 >= offset;
}

bool smb2_lock_conflicts(u64 held_offset, u64 held_length, bool held_exclusive,
			 bool same_owner, u64 offset, u64 length,
			 bool exclusive, bool lock_intent)
{
	u64 last, held_last;

	if ((!offset && !length) || (!held_offset && !held_length))
		return false;
	/*
	 * Last bytes, wrapping for zero lengths: a zero-length range at X
	 * ends at X - 1, so it overlaps a range only when that range holds
	 * both X - 1 and X.
	 */
	last = offset + length - 1;
	held_last = held_offset + held_length - 1;
	if (offset > held_last || last < held_offset)
		return false;
	if (!held_exclusive)
		return exclusive;
	/* An open may read, write and share-lock under its own lock. */
	return !same_owner || (exclusive && lock_intent);
}

u32 smb2_lock_rsp_encode(u8 *body)
{
	put_unaligned_le16(SMB2_LOCK_RSP_SIZE, body);
	put_unaligned_le16(0, body + 2);
	return SMB2_LOCK_RSP_SIZE;
}
