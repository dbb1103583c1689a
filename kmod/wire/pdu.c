// SPDX-License-Identifier: GPL-2.0
/*
 * SMB2 framing and headers.
 */
#include "compat.h"
#include "ntstatus.h"
#include "pdu.h"

enum smb2_frame_kind smb2_frame_decode(const u8 hdr[SMB2_FRAME_HDR_SIZE],
				       u32 *len)
{
	*len = (u32)hdr[1] << 16 | (u32)hdr[2] << 8 | hdr[3];
	if (hdr[0] == 0)
		return SMB2_FRAME_MESSAGE;
	if (hdr[0] == SMB2_NBSS_KEEPALIVE && *len == 0)
		return SMB2_FRAME_KEEPALIVE;
	return SMB2_FRAME_BAD;
}

void smb2_frame_encode(u8 hdr[SMB2_FRAME_HDR_SIZE], u32 len)
{
	hdr[0] = 0;
	hdr[1] = (u8)(len >> 16);
	hdr[2] = (u8)(len >> 8);
	hdr[3] = (u8)len;
}

int smb2_hdr_decode(const u8 *buf, u32 avail, struct smb2_hdr *h)
{
	if (avail < SMB2_HDR_SIZE ||
	    get_unaligned_le32(buf + SMB2_HDR_PROTOCOL) != SMB2_PROTO_NUMBER ||
	    get_unaligned_le16(buf + SMB2_HDR_STRUCT_SIZE) != SMB2_HDR_SIZE)
		return -EPROTO;

	h->credit_charge = get_unaligned_le16(buf + SMB2_HDR_CREDIT_CHARGE);
	h->status = get_unaligned_le32(buf + SMB2_HDR_STATUS);
	h->command = get_unaligned_le16(buf + SMB2_HDR_COMMAND);
	h->credits = get_unaligned_le16(buf + SMB2_HDR_CREDIT);
	h->flags = get_unaligned_le32(buf + SMB2_HDR_FLAGS);
	h->next_command = get_unaligned_le32(buf + SMB2_HDR_NEXT_COMMAND);
	h->message_id = get_unaligned_le64(buf + SMB2_HDR_MESSAGE_ID);
	if (h->flags & SMB2_FLAGS_ASYNC_COMMAND) {
		h->async_id = get_unaligned_le64(buf + SMB2_HDR_ASYNC_ID);
		h->process_id = 0;
		h->tree_id = 0;
	} else {
		h->async_id = 0;
		h->process_id = get_unaligned_le32(buf + SMB2_HDR_PROCESS_ID);
		h->tree_id = get_unaligned_le32(buf + SMB2_HDR_TREE_ID);
	}
	h->session_id = get_unaligned_le64(buf + SMB2_HDR_SESSION_ID);

	if (!h->next_command)
		return (int)avail;
	/*
	 * The next PDU of a compound starts 8-byte aligned and leaves room
	 * for at least its header.
	 */
	if (h->next_command % 8 || h->next_command < SMB2_HDR_SIZE ||
	    h->next_command > avail || avail - h->next_command < SMB2_HDR_SIZE)
		return -EPROTO;
	return (int)h->next_command;
}

void smb2_hdr_encode_rsp(u8 *buf, const struct smb2_hdr *req, u32 status,
			 u16 credits, u32 flags, u64 async_id)
{
	memset(buf, 0, SMB2_HDR_SIZE);
	put_unaligned_le32(SMB2_PROTO_NUMBER, buf + SMB2_HDR_PROTOCOL);
	put_unaligned_le16(SMB2_HDR_SIZE, buf + SMB2_HDR_STRUCT_SIZE);
	put_unaligned_le16(req->credit_charge, buf + SMB2_HDR_CREDIT_CHARGE);
	put_unaligned_le32(status, buf + SMB2_HDR_STATUS);
	put_unaligned_le16(req->command, buf + SMB2_HDR_COMMAND);
	put_unaligned_le16(credits, buf + SMB2_HDR_CREDIT);
	flags |= SMB2_FLAGS_SERVER_TO_REDIR;
	put_unaligned_le32(flags, buf + SMB2_HDR_FLAGS);
	put_unaligned_le64(req->message_id, buf + SMB2_HDR_MESSAGE_ID);
	if (flags & SMB2_FLAGS_ASYNC_COMMAND) {
		put_unaligned_le64(async_id, buf + SMB2_HDR_ASYNC_ID);
	} else {
		put_unaligned_le32(req->process_id, buf + SMB2_HDR_PROCESS_ID);
		put_unaligned_le32(req->tree_id, buf + SMB2_HDR_TREE_ID);
	}
	put_unaligned_le64(req->session_id, buf + SMB2_HDR_SESSION_ID);
}

bool smb2_msg_peek_id(const u8 *msg, u32 len, u64 *mid, u16 *cmd)
{
	*mid = 0;
	*cmd = 0;
	if (len < SMB2_HDR_SIZE ||
	    get_unaligned_le32(msg + SMB2_HDR_PROTOCOL) != SMB2_PROTO_NUMBER)
		return false;
	*mid = get_unaligned_le64(msg + SMB2_HDR_MESSAGE_ID);
	*cmd = get_unaligned_le16(msg + SMB2_HDR_COMMAND);
	return true;
}

void smb2_hdr_set_next(u8 *buf, u32 next)
{
	put_unaligned_le32(next, buf + SMB2_HDR_NEXT_COMMAND);
}

u32 smb2_body_check(const u8 *body, u32 body_len, u16 struct_size)
{
	if (body_len < 2 || body_len < (u32)(struct_size & ~1u) ||
	    get_unaligned_le16(body) != struct_size)
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

int smb2_field(const u8 *pdu, u32 pdu_len, u32 off, u32 len, u32 min_off,
	       const u8 **field)
{
	*field = NULL;
	if (!len)
		return 0;
	if (off < min_off || off > pdu_len || len > pdu_len - off)
		return -EINVAL;
	*field = pdu + off;
	return 0;
}

u32 smb2_error_encode(u8 *body)
{
	memset(body, 0, SMB2_ERR_RSP_BODY);
	put_unaligned_le16(SMB2_ERR_RSP_SIZE, body);
	return SMB2_ERR_RSP_BODY;
}

int smb2_transform_decode(const u8 *buf, u32 len, struct smb2_transform *t)
{
	if (len < SMB2_TRANSFORM_HDR_SIZE ||
	    get_unaligned_le32(buf) != SMB2_TRANSFORM_PROTO_NUMBER)
		return -EPROTO;
	t->signature = buf + SMB2_TF_SIGNATURE;
	t->nonce = buf + SMB2_TF_NONCE;
	t->orig_size = get_unaligned_le32(buf + SMB2_TF_ORIG_SIZE);
	t->flags = get_unaligned_le16(buf + SMB2_TF_FLAGS);
	t->session_id = get_unaligned_le64(buf + SMB2_TF_SESSION_ID);
	if (t->orig_size != len - SMB2_TRANSFORM_HDR_SIZE ||
	    t->orig_size < SMB2_HDR_SIZE ||
	    t->flags != SMB2_TRANSFORM_FLAG_ENCRYPTED)
		return -EPROTO;
	return 0;
}

static u32 max_u64_u32(u64 a, u64 b)
{
	u64 m = a > b ? a : b;

	return m > 0xffffffffu ? 0xffffffffu : (u32)m;
}

/* A little-endian field of a body, or 0 when the body is too short. */
static u32 body_le32(const u8 *body, u32 body_len, u32 off)
{
	return body_len >= off + 4 ? get_unaligned_le32(body + off) : 0;
}

static u32 body_le16(const u8 *body, u32 body_len, u32 off)
{
	return body_len >= off + 2 ? get_unaligned_le16(body + off) : 0;
}

u32 smb2_payload_size(u16 command, const u8 *body, u32 body_len)
{
	switch (command) {
	case SMB2_READ:		/* Length + ReadChannelInfoLength */
		return max_u64_u32((u64)body_le32(body, body_len, 4) +
				   body_le16(body, body_len, 46), 0);
	case SMB2_WRITE:	/* Length + WriteChannelInfoLength */
		return max_u64_u32((u64)body_le32(body, body_len, 4) +
				   body_le16(body, body_len, 42), 0);
	case SMB2_IOCTL:	/* sent in+out vs. max in+out responses */
		return max_u64_u32((u64)body_le32(body, body_len, 28) +
				   body_le32(body, body_len, 40),
				   (u64)body_le32(body, body_len, 32) +
				   body_le32(body, body_len, 44));
	case SMB2_QUERY_DIRECTORY:	/* OutputBufferLength */
		return body_le32(body, body_len, 28);
	case SMB2_CHANGE_NOTIFY:	/* OutputBufferLength */
		return body_le32(body, body_len, 4);
	case SMB2_QUERY_INFO:	/* OutputBufferLength vs. InputBufferLength */
		return max_u64_u32(body_le32(body, body_len, 4),
				   body_le32(body, body_len, 12));
	case SMB2_SET_INFO:	/* BufferLength */
		return body_le32(body, body_len, 4);
	default:
		return 0;
	}
}
