/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CREATE request and response (MS-SMB2 2.2.13, 2.2.14), their create
 * contexts (2.2.13.2, 2.2.14.2) and the EA list a CREATE may carry
 * (MS-FSCC 2.4.15 FILE_FULL_EA_INFORMATION).
 */
#ifndef _SMBSRV_WIRE_CREATE_H
#define _SMBSRV_WIRE_CREATE_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CREATE request (2.2.13), offsets in the body. */
#define SMB2_CREATE_REQ_SIZE		57
#define SMB2_CREATE_REQ_OPLOCK		3
#define SMB2_CREATE_REQ_IMPERSONATION	4
#define SMB2_CREATE_REQ_ACCESS		24
#define SMB2_CREATE_REQ_ATTRIBUTES	28
#define SMB2_CREATE_REQ_SHARE		32
#define SMB2_CREATE_REQ_DISPOSITION	36
#define SMB2_CREATE_REQ_OPTIONS		40
#define SMB2_CREATE_REQ_NAME_OFFSET	44
#define SMB2_CREATE_REQ_NAME_LENGTH	46
#define SMB2_CREATE_REQ_CTX_OFFSET	48
#define SMB2_CREATE_REQ_CTX_LENGTH	52
#define SMB2_CREATE_REQ_BUFFER		56

/* CREATE response (2.2.14). */
#define SMB2_CREATE_RSP_SIZE		89
#define SMB2_CREATE_RSP_FIXED		88
#define SMB2_CREATE_RSP_OPLOCK		2
#define SMB2_CREATE_RSP_FLAGS		3
#define SMB2_CREATE_RSP_ACTION		4
#define SMB2_CREATE_RSP_CREATION_TIME	8
#define SMB2_CREATE_RSP_ACCESS_TIME	16
#define SMB2_CREATE_RSP_WRITE_TIME	24
#define SMB2_CREATE_RSP_CHANGE_TIME	32
#define SMB2_CREATE_RSP_ALLOCATION	40
#define SMB2_CREATE_RSP_EOF		48
#define SMB2_CREATE_RSP_ATTRIBUTES	56
#define SMB2_CREATE_RSP_FILE_ID		64
#define SMB2_CREATE_RSP_CTX_OFFSET	80
#define SMB2_CREATE_RSP_CTX_LENGTH	84
/* Create contexts of a response start here, from the SMB2 header. */
#define SMB2_CREATE_RSP_CTX_OFF		(SMB2_HDR_SIZE + SMB2_CREATE_RSP_FIXED)

/* A create context (2.2.13.2): header, then name and data. */
#define SMB2_CREATE_CTX_HDR		16
#define SMB2_CREATE_CTX_NEXT		0
#define SMB2_CREATE_CTX_NAME_OFFSET	4
#define SMB2_CREATE_CTX_NAME_LENGTH	6
#define SMB2_CREATE_CTX_DATA_OFFSET	10
#define SMB2_CREATE_CTX_DATA_LENGTH	12

/* The create contexts smbsrv knows (by their 4-byte tags). */
enum smb2_create_ctx_id {
	SMB2_CTX_EA_BUFFER,		/* "ExtA" */
	SMB2_CTX_SD_BUFFER,		/* "SecD" */
	SMB2_CTX_DURABLE_REQ,		/* "DHnQ" */
	SMB2_CTX_DURABLE_RECONNECT,	/* "DHnC" */
	SMB2_CTX_DURABLE_REQ_V2,	/* "DH2Q" */
	SMB2_CTX_DURABLE_RECONNECT_V2,	/* "DH2C" */
	SMB2_CTX_ALLOCATION_SIZE,	/* "AlSi" */
	SMB2_CTX_QUERY_MAXIMAL_ACCESS,	/* "MxAc" */
	SMB2_CTX_TIMEWARP_TOKEN,	/* "TWrp" */
	SMB2_CTX_QUERY_ON_DISK_ID,	/* "QFid" */
	SMB2_CTX_REQUEST_LEASE,		/* "RqLs" */
	SMB2_CTX_POSIX,			/* SMB2_CREATE_TAG_POSIX (posix.h) */
	SMB2_CTX_AAPL,			/* "AAPL" (aapl.h) */
	SMB2_CTX_NR
};

/* Response data sizes. */
#define SMB2_MXAC_RSP_SIZE		8	/* QueryStatus, MaximalAccess */
#define SMB2_QFID_RSP_SIZE		32	/* DiskFileId, VolumeId, Reserved */

struct smb2_create_ctx {
	const u8 *name;
	u32 name_len;
	const u8 *data;		/* NULL when empty */
	u32 data_len;
};

struct smb2_create_req {
	u8 oplock;			/* RequestedOplockLevel */
	u32 impersonation;
	u32 access;			/* DesiredAccess */
	u32 attributes;			/* FileAttributes */
	u32 share;			/* ShareAccess */
	u32 disposition;
	u32 options;			/* CreateOptions */
	const u8 *name;			/* UTF-16LE, NULL when empty */
	u32 name_len;			/* bytes, even */
	/* The contexts smbsrv knows, by enum smb2_create_ctx_id. */
	struct smb2_create_ctx ctx[SMB2_CTX_NR];
	u32 ctx_present;		/* bit per enum smb2_create_ctx_id */
	u32 ctx_count;			/* all contexts, known or not */
};

/*
 * Decode a CREATE request: the fixed part, the name (in the PDU, an even
 * number of bytes, past the fixed part) and the create contexts (a chain
 * inside the PDU, each within its own bounds, names at least 4 bytes, a
 * known one at most once).  Returns STATUS_SUCCESS or
 * STATUS_INVALID_PARAMETER.  Values are not judged here.
 */
u32 smb2_create_req_decode(const u8 *pdu, u32 pdu_len,
			   struct smb2_create_req *r);

static inline bool smb2_create_has(const struct smb2_create_req *r,
				   enum smb2_create_ctx_id id)
{
	return r->ctx_present & (1u << id);
}

/* What a CREATE response says, apart from its contexts. */
struct smb2_create_rsp {
	u8 oplock;
	u8 flags;
	u32 action;
	u64 creation_time;
	u64 access_time;
	u64 write_time;
	u64 change_time;
	u64 allocation;
	u64 eof;
	u32 attributes;
	u64 fid_persistent;
	u64 fid_volatile;
	u32 ctx_len;		/* contexts the caller put at SMB2_CREATE_RSP_FIXED */
};

/* Encode the fixed part of a CREATE response; returns the body size. */
u32 smb2_create_rsp_encode(u8 *body, const struct smb2_create_rsp *r);

/*
 * Room a response context with a 4-byte tag and @data_len bytes of data
 * takes, padded to 8 bytes for the next one.
 */
static inline u32 smb2_create_ctx_size(u32 data_len)
{
	return (SMB2_CREATE_CTX_HDR + 8 + data_len + 7) & ~7u;
}

/*
 * Write a response context at @buf (smb2_create_ctx_size() bytes, zeroed
 * by the caller): @tag (4 bytes), @data.  Next is left 0: link contexts
 * with smb2_create_ctx_link().  Returns the unpadded length.
 */
u32 smb2_create_ctx_encode(u8 *buf, const char *tag, const u8 *data,
			   u32 data_len);

/* The same for a context named by @name_len bytes (a 16-byte tag). */
static inline u32 smb2_create_ctx_size_named(u32 name_len, u32 data_len)
{
	return (SMB2_CREATE_CTX_HDR + ((name_len + 7) & ~7u) + data_len + 7) &
	       ~7u;
}

u32 smb2_create_ctx_encode_named(u8 *buf, const u8 *name, u32 name_len,
				 const u8 *data, u32 data_len);
void smb2_create_ctx_link(u8 *ctx, u32 next);

/* One FILE_FULL_EA_INFORMATION entry (MS-FSCC 2.4.15). */
struct smb_ea {
	u8 flags;
	const char *name;	/* name_len bytes, NUL-terminated in the buffer */
	u32 name_len;
	const u8 *value;
	u32 value_len;
};

/*
 * Walk an EA list: @pos starts at 0; returns 1 with *ea filled, 0 after
 * the last entry, -EINVAL when the list is malformed (an entry past the
 * buffer, a NextEntryOffset not a multiple of 4 or too small, a name not
 * NUL-terminated).  -EILSEQ: the name has a character MS-FSCC forbids in
 * EA names (STATUS_INVALID_EA_NAME) or is empty.
 */
int smb_ea_next(const u8 *buf, u32 len, u32 *pos, struct smb_ea *ea);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_CREATE_H */
