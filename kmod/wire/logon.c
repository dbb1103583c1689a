// SPDX-License-Identifier: GPL-2.0
/*
 * SESSION_SETUP and TREE_CONNECT.
 */
#include "compat.h"
#include "logon.h"
#include "ntstatus.h"
#include "pdu.h"
#include "utf16.h"

u32 smb2_sess_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_sess_req *r)
{
	const u8 *body = pdu + SMB2_HDR_SIZE;
	u32 off, len;

	if (pdu_len < SMB2_HDR_SIZE ||
	    smb2_body_check(body, pdu_len - SMB2_HDR_SIZE, SMB2_SESS_REQ_SIZE))
		return STATUS_INVALID_PARAMETER;
	r->flags = body[SMB2_SESS_REQ_FLAGS];
	r->security_mode = body[SMB2_SESS_REQ_SECURITY_MODE];
	r->capabilities = get_unaligned_le32(body + SMB2_SESS_REQ_CAPABILITIES);
	r->prev_session_id = get_unaligned_le64(body + SMB2_SESS_REQ_PREV_SESSION);
	off = get_unaligned_le16(body + SMB2_SESS_REQ_SECBUF_OFFSET);
	len = get_unaligned_le16(body + SMB2_SESS_REQ_SECBUF_LENGTH);
	if (smb2_field(pdu, pdu_len, off, len,
		       SMB2_HDR_SIZE + SMB2_SESS_REQ_BUFFER, &r->blob))
		return STATUS_INVALID_PARAMETER;
	r->blob_len = len;
	return STATUS_SUCCESS;
}

u32 smb2_sess_rsp_encode(u8 *body, u16 session_flags, u32 blob_len)
{
	memset(body, 0, SMB2_SESS_RSP_FIXED);
	put_unaligned_le16(SMB2_SESS_RSP_SIZE, body);
	put_unaligned_le16(session_flags, body + SMB2_SESS_RSP_FLAGS);
	put_unaligned_le16(blob_len ? SMB2_SESS_RSP_BLOB_OFF : 0,
			   body + SMB2_SESS_RSP_SECBUF_OFFSET);
	put_unaligned_le16((u16)blob_len, body + SMB2_SESS_RSP_SECBUF_LENGTH);
	/* StructureSize 9: at least one byte of buffer follows. */
	if (!blob_len) {
		body[SMB2_SESS_RSP_FIXED] = 0;
		return SMB2_SESS_RSP_FIXED + 1;
	}
	return SMB2_SESS_RSP_FIXED + blob_len;
}

u32 smb2_tcon_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_tcon_req *r)
{
	const u8 *body = pdu + SMB2_HDR_SIZE;
	u32 off, len;

	if (pdu_len < SMB2_HDR_SIZE ||
	    smb2_body_check(body, pdu_len - SMB2_HDR_SIZE, SMB2_TCON_REQ_SIZE))
		return STATUS_INVALID_PARAMETER;
	r->flags = get_unaligned_le16(body + SMB2_TCON_REQ_FLAGS);
	off = get_unaligned_le16(body + SMB2_TCON_REQ_PATH_OFFSET);
	len = get_unaligned_le16(body + SMB2_TCON_REQ_PATH_LENGTH);
	if (smb2_field(pdu, pdu_len, off, len,
		       SMB2_HDR_SIZE + SMB2_TCON_REQ_BUFFER, &r->path))
		return STATUS_INVALID_PARAMETER;
	r->path_len = len;
	return STATUS_SUCCESS;
}

u32 smb2_tcon_share_name(const u8 *path, u32 len, char *out, u32 cap)
{
	char *p, *share;
	int n;

	if (!path || !len)
		return STATUS_INVALID_PARAMETER;
	n = smb_utf16le_to_utf8(path, len, out, cap);
	if (n == -ENAMETOOLONG)
		return STATUS_BAD_NETWORK_NAME;
	if (n < 0)
		return STATUS_INVALID_PARAMETER;
	share = out;
	/* \\server\share: skip the server component. */
	if (out[0] == '\\' && out[1] == '\\') {
		p = strchr(out + 2, '\\');
		if (!p)
			return STATUS_BAD_NETWORK_NAME;
		share = p + 1;
	}
	if (!*share || strchr(share, '\\') || strchr(share, '/'))
		return STATUS_BAD_NETWORK_NAME;
	memmove(out, share, strlen(share) + 1);
	return STATUS_SUCCESS;
}

u32 smb2_tcon_rsp_encode(u8 *body, u8 share_type, u32 share_flags,
			 u32 capabilities, u32 maximal_access)
{
	memset(body, 0, SMB2_TCON_RSP_SIZE);
	put_unaligned_le16(SMB2_TCON_RSP_SIZE, body);
	body[SMB2_TCON_RSP_SHARE_TYPE] = share_type;
	put_unaligned_le32(share_flags, body + SMB2_TCON_RSP_SHARE_FLAGS);
	put_unaligned_le32(capabilities, body + SMB2_TCON_RSP_CAPABILITIES);
	put_unaligned_le32(maximal_access, body + SMB2_TCON_RSP_MAXIMAL_ACCESS);
	return SMB2_TCON_RSP_SIZE;
}

u32 smb2_simple_rsp_encode(u8 *body)
{
	put_unaligned_le16(SMB2_SIMPLE_SIZE, body);
	put_unaligned_le16(0, body + 2);
	return SMB2_SIMPLE_SIZE;
}
