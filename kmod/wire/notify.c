// SPDX-License-Identifier: GPL-2.0
/*
 * CHANGE_NOTIFY and FILE_NOTIFY_INFORMATION.
 */
#include "compat.h"
#include "notify.h"
#include "ntstatus.h"
#include "pdu.h"
#include "utf16.h"

u32 smb2_notify_req_decode(const u8 *pdu, u32 pdu_len,
			   struct smb2_notify_req *r)
{
	const u8 *body = pdu + SMB2_HDR_SIZE;

	if (pdu_len < SMB2_HDR_SIZE ||
	    smb2_body_check(body, pdu_len - SMB2_HDR_SIZE,
			    SMB2_NOTIFY_REQ_SIZE))
		return STATUS_INVALID_PARAMETER;
	r->flags = get_unaligned_le16(body + SMB2_NOTIFY_REQ_FLAGS);
	r->output_length = get_unaligned_le32(body +
					      SMB2_NOTIFY_REQ_OUTPUT_LENGTH);
	r->file_id = body + SMB2_NOTIFY_REQ_FILE_ID;
	r->filter = get_unaligned_le32(body + SMB2_NOTIFY_REQ_FILTER);
	return STATUS_SUCCESS;
}

u32 smb2_notify_rsp_encode(u8 *body, u32 out_len)
{
	memset(body, 0, SMB2_NOTIFY_RSP_FIXED);
	put_unaligned_le16(SMB2_NOTIFY_RSP_SIZE, body);
	if (!out_len) {
		body[SMB2_NOTIFY_RSP_FIXED] = 0;
		return SMB2_NOTIFY_RSP_FIXED + 1;
	}
	put_unaligned_le16(SMB2_NOTIFY_RSP_OUT_OFF, body + 2);
	put_unaligned_le32(out_len, body + 4);
	return SMB2_NOTIFY_RSP_FIXED + out_len;
}

int smb_notify_info_append(u8 *buf, u32 cap, u32 *pos, u32 *last, u32 action,
			   const char *name, u32 len)
{
	u32 start = *pos, size;
	int n;

	if (!len)
		return -EINVAL;
	n = smb_utf8_to_utf16le(name, len, NULL, 0x7ffffffe,
				SMB_UTF16_BACKSLASH);
	if (n < 0)
		return n;
	/* The last record needs no padding: only what it holds must fit. */
	size = SMB_NOTIFY_INFO_HDR + (u32)n;
	if (start > cap || cap - start < size)
		return -ENOSPC;
	put_unaligned_le32(0, buf + start);
	put_unaligned_le32(action, buf + start + 4);
	put_unaligned_le32((u32)n, buf + start + 8);
	smb_utf8_to_utf16le(name, len, buf + start + SMB_NOTIFY_INFO_HDR,
			    (u32)n, SMB_UTF16_BACKSLASH);
	if (start)
		put_unaligned_le32(start - *last, buf + *last);
	*last = start;
	/* The next record starts 4-byte aligned. */
	size = smb_notify_info_size((u32)n);
	if (size > cap - start)
		size = cap - start;
	memset(buf + start + SMB_NOTIFY_INFO_HDR + n, 0,
	       size - SMB_NOTIFY_INFO_HDR - (u32)n);
	*pos = start + size;
	return 0;
}
