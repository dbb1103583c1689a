/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CLOSE, FLUSH, READ and WRITE requests and responses (MS-SMB2 2.2.15 -
 * 2.2.22).
 */
#ifndef _SMBSRV_WIRE_RW_H
#define _SMBSRV_WIRE_RW_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CLOSE (2.2.15, 2.2.16). */
#define SMB2_CLOSE_REQ_SIZE		24
#define SMB2_CLOSE_REQ_FLAGS		2
#define SMB2_CLOSE_REQ_FILE_ID		8
#define SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB 0x0001
#define SMB2_CLOSE_RSP_SIZE		60

/* FLUSH (2.2.17, 2.2.18). */
#define SMB2_FLUSH_REQ_SIZE		24
#define SMB2_FLUSH_REQ_FILE_ID		8

/* READ (2.2.19, 2.2.20). */
#define SMB2_READ_REQ_SIZE		49
#define SMB2_READ_REQ_FLAGS		3
#define SMB2_READ_REQ_LENGTH		4
#define SMB2_READ_REQ_OFFSET		8
#define SMB2_READ_REQ_FILE_ID		16
#define SMB2_READ_REQ_MINIMUM		32
#define SMB2_READ_REQ_CHANNEL		36
#define SMB2_READ_REQ_REMAINING		40
#define SMB2_READ_REQ_CHINFO_OFFSET	44
#define SMB2_READ_REQ_CHINFO_LENGTH	46
#define SMB2_READ_REQ_BUFFER		48
#define SMB2_READFLAG_READ_UNBUFFERED	0x01
#define SMB2_READFLAG_REQUEST_COMPRESSED 0x02

#define SMB2_READ_RSP_SIZE		17
#define SMB2_READ_RSP_FIXED		16
/* The data of a READ response follows its fixed part, from the header. */
#define SMB2_READ_RSP_DATA_OFF		(SMB2_HDR_SIZE + SMB2_READ_RSP_FIXED)

/* WRITE (2.2.21, 2.2.22). */
#define SMB2_WRITE_REQ_SIZE		49
#define SMB2_WRITE_REQ_DATA_OFFSET	2
#define SMB2_WRITE_REQ_LENGTH		4
#define SMB2_WRITE_REQ_OFFSET		8
#define SMB2_WRITE_REQ_FILE_ID		16
#define SMB2_WRITE_REQ_CHANNEL		32
#define SMB2_WRITE_REQ_REMAINING	36
#define SMB2_WRITE_REQ_CHINFO_OFFSET	40
#define SMB2_WRITE_REQ_CHINFO_LENGTH	42
#define SMB2_WRITE_REQ_FLAGS		44
#define SMB2_WRITE_REQ_BUFFER		48
#define SMB2_WRITEFLAG_WRITE_THROUGH	0x00000001
#define SMB2_WRITEFLAG_WRITE_UNBUFFERED	0x00000002
/* Offset meaning "at the end of the file" (MS-FSA 2.1.5.3). */
#define SMB2_WRITE_APPEND		0xffffffffffffffffULL

#define SMB2_WRITE_RSP_SIZE		17
#define SMB2_WRITE_RSP_FIXED		16

#define SMB2_CHANNEL_NONE		0

/* Largest offset + length a READ or WRITE may reach (MS-FSA). */
#define SMB2_RW_OFFSET_MAX		((u64)0x7fffffffffffffffULL)

struct smb2_close_req {
	u16 flags;
	const u8 *file_id;	/* 16 bytes in the PDU */
};

struct smb2_read_req {
	u8 flags;
	u32 length;
	u64 offset;
	const u8 *file_id;
	u32 minimum;
	u32 channel;
	u32 remaining;
};

struct smb2_write_req {
	u32 length;
	u64 offset;
	const u8 *file_id;
	u32 channel;
	u32 remaining;
	u32 flags;
	const u8 *data;		/* @length bytes in the PDU, NULL when empty */
};

/* Each returns STATUS_SUCCESS or STATUS_INVALID_PARAMETER. */
u32 smb2_close_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_close_req *r);
/* FLUSH: just the FileId. */
u32 smb2_flush_req_decode(const u8 *pdu, u32 pdu_len, const u8 **file_id);
/* READ: the channel info, if any, must lie in the PDU. */
u32 smb2_read_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_read_req *r);
/* WRITE: the data and channel info must lie in the PDU. */
u32 smb2_write_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_write_req *r);
/*
 * The same for a WRITE whose @data_len (> 0) bytes of data are not in
 * @pdu but follow it (received into pages): DataOffset must be @pdu_len
 * and Length @data_len; r->data is NULL.
 */
u32 smb2_write_req_decode_ext(const u8 *pdu, u32 pdu_len, u32 data_len,
			      struct smb2_write_req *r);

/* What CLOSE with POSTQUERY_ATTRIB reports (all 0 without it). */
struct smb2_close_rsp {
	u16 flags;
	u64 creation_time;
	u64 access_time;
	u64 write_time;
	u64 change_time;
	u64 allocation;
	u64 eof;
	u32 attributes;
};

/* Encoders; each returns the body size. */
u32 smb2_close_rsp_encode(u8 *body, const struct smb2_close_rsp *r);
/* READ: @data_len bytes of data are at body + SMB2_READ_RSP_FIXED. */
u32 smb2_read_rsp_encode(u8 *body, u32 data_len, u32 remaining);
u32 smb2_write_rsp_encode(u8 *body, u32 count);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_RW_H */
