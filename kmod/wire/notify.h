/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CHANGE_NOTIFY request and response (MS-SMB2 2.2.35, 2.2.36) and the
 * FILE_NOTIFY_INFORMATION records they carry (MS-FSCC 2.7.1).
 */
#ifndef _SMBSRV_WIRE_NOTIFY_H
#define _SMBSRV_WIRE_NOTIFY_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CHANGE_NOTIFY request (2.2.35). */
#define SMB2_NOTIFY_REQ_SIZE		32
#define SMB2_NOTIFY_REQ_FLAGS		2
#define SMB2_NOTIFY_REQ_OUTPUT_LENGTH	4
#define SMB2_NOTIFY_REQ_FILE_ID		8
#define SMB2_NOTIFY_REQ_FILTER		24
#define SMB2_WATCH_TREE			0x0001

/* CHANGE_NOTIFY response (2.2.36). */
#define SMB2_NOTIFY_RSP_SIZE		9
#define SMB2_NOTIFY_RSP_FIXED		8
#define SMB2_NOTIFY_RSP_OUT_OFF		(SMB2_HDR_SIZE + SMB2_NOTIFY_RSP_FIXED)

/* CompletionFilter (2.2.35). */
#define FILE_NOTIFY_CHANGE_FILE_NAME	0x00000001
#define FILE_NOTIFY_CHANGE_DIR_NAME	0x00000002
#define FILE_NOTIFY_CHANGE_ATTRIBUTES	0x00000004
#define FILE_NOTIFY_CHANGE_SIZE		0x00000008
#define FILE_NOTIFY_CHANGE_LAST_WRITE	0x00000010
#define FILE_NOTIFY_CHANGE_LAST_ACCESS	0x00000020
#define FILE_NOTIFY_CHANGE_CREATION	0x00000040
#define FILE_NOTIFY_CHANGE_EA		0x00000080
#define FILE_NOTIFY_CHANGE_SECURITY	0x00000100
#define FILE_NOTIFY_CHANGE_STREAM_NAME	0x00000200
#define FILE_NOTIFY_CHANGE_STREAM_SIZE	0x00000400
#define FILE_NOTIFY_CHANGE_STREAM_WRITE	0x00000800
#define FILE_NOTIFY_CHANGE_ALL		0x00000fff

/* FILE_NOTIFY_INFORMATION Action (MS-FSCC 2.7.1). */
#define FILE_ACTION_ADDED		0x00000001
#define FILE_ACTION_REMOVED		0x00000002
#define FILE_ACTION_MODIFIED		0x00000003
#define FILE_ACTION_RENAMED_OLD_NAME	0x00000004
#define FILE_ACTION_RENAMED_NEW_NAME	0x00000005
#define FILE_ACTION_ADDED_STREAM	0x00000006
#define FILE_ACTION_REMOVED_STREAM	0x00000007
#define FILE_ACTION_MODIFIED_STREAM	0x00000008

/* A record: NextEntryOffset, Action, FileNameLength, then the name. */
#define SMB_NOTIFY_INFO_HDR		12

struct smb2_notify_req {
	u16 flags;
	u32 output_length;	/* OutputBufferLength */
	const u8 *file_id;	/* 16 bytes in the PDU */
	u32 filter;		/* CompletionFilter */
};

/* Returns STATUS_SUCCESS or STATUS_INVALID_PARAMETER. */
u32 smb2_notify_req_decode(const u8 *pdu, u32 pdu_len,
			   struct smb2_notify_req *r);

/*
 * Encode a response whose @out_len bytes of records the caller put at
 * body + SMB2_NOTIFY_RSP_FIXED (one byte of buffer when empty); returns
 * the body size.
 */
u32 smb2_notify_rsp_encode(u8 *body, u32 out_len);

/*
 * Size of the record for a name of @name_bytes UTF-16LE bytes, padded to
 * 4 bytes as records are chained (MS-FSCC 2.7.1).
 */
static inline u32 smb_notify_info_size(u32 name_bytes)
{
	return (SMB_NOTIFY_INFO_HDR + name_bytes + 3) & ~3u;
}

/*
 * Append a record for @action on @name (@len bytes of UTF-8, '/'-separated,
 * relative to the watched directory) to the list at @buf, which has @cap
 * bytes and whose records so far end at *@pos; *@last is the offset of the
 * previous record (ignored while *@pos is 0), whose NextEntryOffset is
 * linked to the new one.  Returns 0, -ENOSPC when the record does not fit
 * (nothing written), -EINVAL when @name is not UTF-8 or empty.
 */
int smb_notify_info_append(u8 *buf, u32 cap, u32 *pos, u32 *last, u32 action,
			   const char *name, u32 len);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_NOTIFY_H */
