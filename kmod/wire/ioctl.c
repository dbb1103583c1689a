// SPDX-License-Identifier: GPL-2.0
/*
 * IOCTL.
 */
#include "compat.h"
#include "ioctl.h"
#include "ntstatus.h"
#include "pdu.h"

u32 smb2_ioctl_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_ioctl_req *r)
{
	const u8 *body = pdu + SMB2_HDR_SIZE;
	const u8 *out;
	u32 off, len;

	if (pdu_len < SMB2_HDR_SIZE ||
	    smb2_body_check(body, pdu_len - SMB2_HDR_SIZE, SMB2_IOCTL_REQ_SIZE))
		return STATUS_INVALID_PARAMETER;
	r->ctl_code = get_unaligned_le32(body + SMB2_IOCTL_REQ_CTL_CODE);
	r->file_id = body + SMB2_IOCTL_REQ_FILE_ID;
	r->fid_persistent = get_unaligned_le64(body + SMB2_IOCTL_REQ_FILE_ID);
	r->fid_volatile = get_unaligned_le64(body + SMB2_IOCTL_REQ_FILE_ID + 8);
	r->max_in = get_unaligned_le32(body + SMB2_IOCTL_REQ_MAX_INPUT);
	r->max_out = get_unaligned_le32(body + SMB2_IOCTL_REQ_MAX_OUTPUT);
	r->flags = get_unaligned_le32(body + SMB2_IOCTL_REQ_FLAGS);
	off = get_unaligned_le32(body + SMB2_IOCTL_REQ_INPUT_OFFSET);
	len = get_unaligned_le32(body + SMB2_IOCTL_REQ_INPUT_COUNT);
	if (smb2_field(pdu, pdu_len, off, len,
		       SMB2_HDR_SIZE + SMB2_IOCTL_REQ_BUFFER, &r->in))
		return STATUS_INVALID_PARAMETER;
	r->in_len = len;
	/* The output buffer of a request is unused but must be in bounds. */
	off = get_unaligned_le32(body + SMB2_IOCTL_REQ_OUTPUT_OFFSET);
	len = get_unaligned_le32(body + SMB2_IOCTL_REQ_OUTPUT_COUNT);
	if (smb2_field(pdu, pdu_len, off, len,
		       SMB2_HDR_SIZE + SMB2_IOCTL_REQ_BUFFER, &out))
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

u32 smb2_ioctl_rsp_encode(u8 *body, const struct smb2_ioctl_req *r,
			  u32 out_len)
{
	memset(body, 0, SMB2_IOCTL_RSP_FIXED);
	put_unaligned_le16(SMB2_IOCTL_RSP_SIZE, body);
	put_unaligned_le32(r->ctl_code, body + SMB2_IOCTL_RSP_CTL_CODE);
	put_unaligned_le64(r->fid_persistent, body + SMB2_IOCTL_RSP_FILE_ID);
	put_unaligned_le64(r->fid_volatile, body + SMB2_IOCTL_RSP_FILE_ID + 8);
	put_unaligned_le32(SMB2_IOCTL_RSP_OUT_OFF,
			   body + SMB2_IOCTL_RSP_INPUT_OFFSET);
	put_unaligned_le32(SMB2_IOCTL_RSP_OUT_OFF,
			   body + SMB2_IOCTL_RSP_OUTPUT_OFFSET);
	put_unaligned_le32(out_len, body + SMB2_IOCTL_RSP_OUTPUT_COUNT);
	return SMB2_IOCTL_RSP_FIXED + out_len;
}
