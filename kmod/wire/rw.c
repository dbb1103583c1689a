// SPDX-License-Identifier: GPL-2.0
/*
 * CLOSE, FLUSH, READ and WRITE.
 */
#include "compat.h"
#include "ntstatus.h"
#include "pdu.h"
#include "rw.h"

static const u8 *smb2_body(const u8 *pdu, u32 pdu_len, u16 size)
{
	if (pdu_len < SMB2_HDR_SIZE ||
	    smb2_body_check(pdu + SMB2_HDR_SIZE, pdu_len - SMB2_HDR_SIZE, size))
		return NULL;
	return pdu + SMB2_HDR_SIZE;
}

u32 smb2_close_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_close_req *r)
{
	const u8 *body = smb2_body(pdu, pdu_len, SMB2_CLOSE_REQ_SIZE);

	if (!body)
		return STATUS_INVALID_PARAMETER;
	r->flags = get_unaligned_le16(body + SMB2_CLOSE_REQ_FLAGS);
	r->file_id = body + SMB2_CLOSE_REQ_FILE_ID;
	return STATUS_SUCCESS;
}

u32 smb2_flush_req_decode(const u8 *pdu, u32 pdu_len, const u8 **file_id)
{
	const u8 *body = smb2_body(pdu, pdu_len, SMB2_FLUSH_REQ_SIZE);

	if (!body)
		return STATUS_INVALID_PARAMETER;
	*file_id = body + SMB2_FLUSH_REQ_FILE_ID;
	return STATUS_SUCCESS;
}

u32 smb2_read_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_read_req *r)
{
	const u8 *body = smb2_body(pdu, pdu_len, SMB2_READ_REQ_SIZE);
	const u8 *info;
	u32 off, len;

	if (!body)
		return STATUS_INVALID_PARAMETER;
	r->flags = body[SMB2_READ_REQ_FLAGS];
	r->length = get_unaligned_le32(body + SMB2_READ_REQ_LENGTH);
	r->offset = get_unaligned_le64(body + SMB2_READ_REQ_OFFSET);
	r->file_id = body + SMB2_READ_REQ_FILE_ID;
	r->minimum = get_unaligned_le32(body + SMB2_READ_REQ_MINIMUM);
	r->channel = get_unaligned_le32(body + SMB2_READ_REQ_CHANNEL);
	r->remaining = get_unaligned_le32(body + SMB2_READ_REQ_REMAINING);
	off = get_unaligned_le16(body + SMB2_READ_REQ_CHINFO_OFFSET);
	len = get_unaligned_le16(body + SMB2_READ_REQ_CHINFO_LENGTH);
	if (smb2_field(pdu, pdu_len, off, len,
		       SMB2_HDR_SIZE + SMB2_READ_REQ_BUFFER, &info))
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

/*
 * @ext_len: 0 when the data is inside the PDU; otherwise the data is not
 * in @pdu but follows it in the message (a WRITE received with its data
 * in pages, recv.c): it must start right where the PDU ends and be
 * exactly @ext_len bytes long.
 */
static u32 smb2_write_decode(const u8 *pdu, u32 pdu_len, u32 ext_len,
			     struct smb2_write_req *r)
{
	const u8 *body = smb2_body(pdu, pdu_len, SMB2_WRITE_REQ_SIZE);
	const u8 *info;
	u32 off, len;

	if (!body)
		return STATUS_INVALID_PARAMETER;
	r->length = get_unaligned_le32(body + SMB2_WRITE_REQ_LENGTH);
	r->offset = get_unaligned_le64(body + SMB2_WRITE_REQ_OFFSET);
	r->file_id = body + SMB2_WRITE_REQ_FILE_ID;
	r->channel = get_unaligned_le32(body + SMB2_WRITE_REQ_CHANNEL);
	r->remaining = get_unaligned_le32(body + SMB2_WRITE_REQ_REMAINING);
	r->flags = get_unaligned_le32(body + SMB2_WRITE_REQ_FLAGS);
	off = get_unaligned_le16(body + SMB2_WRITE_REQ_DATA_OFFSET);
	if (ext_len) {
		r->data = NULL;
		if (off != pdu_len || r->length != ext_len)
			return STATUS_INVALID_PARAMETER;
	} else if (smb2_field(pdu, pdu_len, off, r->length,
			      SMB2_HDR_SIZE + SMB2_WRITE_REQ_BUFFER, &r->data)) {
		return STATUS_INVALID_PARAMETER;
	}
	off = get_unaligned_le16(body + SMB2_WRITE_REQ_CHINFO_OFFSET);
	len = get_unaligned_le16(body + SMB2_WRITE_REQ_CHINFO_LENGTH);
	if (smb2_field(pdu, pdu_len, off, len,
		       SMB2_HDR_SIZE + SMB2_WRITE_REQ_BUFFER, &info))
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

u32 smb2_write_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_write_req *r)
{
	return smb2_write_decode(pdu, pdu_len, 0, r);
}

u32 smb2_write_req_decode_ext(const u8 *pdu, u32 pdu_len, u32 data_len,
			      struct smb2_write_req *r)
{
	if (!data_len)
		return STATUS_INVALID_PARAMETER;
	return smb2_write_decode(pdu, pdu_len, data_len, r);
}

u32 smb2_close_rsp_encode(u8 *body, const struct smb2_close_rsp *r)
{
	memset(body, 0, SMB2_CLOSE_RSP_SIZE);
	put_unaligned_le16(SMB2_CLOSE_RSP_SIZE, body);
	put_unaligned_le16(r->flags, body + 2);
	put_unaligned_le64(r->creation_time, body + 8);
	put_unaligned_le64(r->access_time, body + 16);
	put_unaligned_le64(r->write_time, body + 24);
	put_unaligned_le64(r->change_time, body + 32);
	put_unaligned_le64(r->allocation, body + 40);
	put_unaligned_le64(r->eof, body + 48);
	put_unaligned_le32(r->attributes, body + 56);
	return SMB2_CLOSE_RSP_SIZE;
}

u32 smb2_read_rsp_encode(u8 *body, u32 data_len, u32 remaining)
{
	memset(body, 0, SMB2_READ_RSP_FIXED);
	put_unaligned_le16(SMB2_READ_RSP_SIZE, body);
	body[2] = SMB2_READ_RSP_DATA_OFF;
	put_unaligned_le32(data_len, body + 4);
	put_unaligned_le32(remaining, body + 8);
	if (!data_len) {
		/* StructureSize 17: one byte of buffer even when empty. */
		body[SMB2_READ_RSP_FIXED] = 0;
		return SMB2_READ_RSP_FIXED + 1;
	}
	return SMB2_READ_RSP_FIXED + data_len;
}

u32 smb2_write_rsp_encode(u8 *body, u32 count)
{
	memset(body, 0, SMB2_WRITE_RSP_FIXED);
	put_unaligned_le16(SMB2_WRITE_RSP_SIZE, body);
	put_unaligned_le32(count, body + 4);
	return SMB2_WRITE_RSP_FIXED;
}
