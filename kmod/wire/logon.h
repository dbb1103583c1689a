/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SESSION_SETUP and TREE_CONNECT requests and responses.
 */
#ifndef _SMBSRV_WIRE_LOGON_H
#define _SMBSRV_WIRE_LOGON_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

struct smb2_sess_req {
	u8 flags;
	u8 security_mode;
	u32 capabilities;
	u64 prev_session_id;
	const u8 *blob;		/* NULL when empty */
	u32 blob_len;
};

/* Returns STATUS_SUCCESS or STATUS_INVALID_PARAMETER. */
u32 smb2_sess_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_sess_req *r);

/* Offset of the response's security buffer from the SMB2 header. */
#define SMB2_SESS_RSP_BLOB_OFF	(SMB2_HDR_SIZE + SMB2_SESS_RSP_FIXED)

/*
 * Encode the fixed part of a response whose security buffer of @blob_len
 * bytes the caller puts at body + SMB2_SESS_RSP_FIXED; returns the body
 * size.
 */
u32 smb2_sess_rsp_encode(u8 *body, u16 session_flags, u32 blob_len);

struct smb2_tcon_req {
	u16 flags;
	const u8 *path;		/* UTF-16LE, NULL when empty */
	u32 path_len;
};

u32 smb2_tcon_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_tcon_req *r);

/*
 * The share name of a tree connect path "\\server\share" (or a bare
 * "share"), as UTF-8 in @out[@cap].  Returns STATUS_SUCCESS,
 * STATUS_BAD_NETWORK_NAME for an empty or unusable name, or
 * STATUS_INVALID_PARAMETER for malformed UTF-16.
 */
u32 smb2_tcon_share_name(const u8 *path, u32 len, char *out, u32 cap);

/* Encode a TREE_CONNECT response body (16 bytes); returns its size. */
u32 smb2_tcon_rsp_encode(u8 *body, u8 share_type, u32 share_flags,
			 u32 capabilities, u32 maximal_access);

/* Encode the 4-byte body of LOGOFF/TREE_DISCONNECT/ECHO responses. */
u32 smb2_simple_rsp_encode(u8 *body);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_LOGON_H */
