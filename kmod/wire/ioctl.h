/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IOCTL request and response (2.2.31, 2.2.32).
 */
#ifndef _SMBSRV_WIRE_IOCTL_H
#define _SMBSRV_WIRE_IOCTL_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

struct smb2_ioctl_req {
	u32 ctl_code;
	const u8 *file_id;	/* 16 bytes in the PDU */
	u64 fid_persistent;	/* as received, echoed by the response */
	u64 fid_volatile;
	const u8 *in;		/* NULL when empty */
	u32 in_len;
	u32 max_in;		/* MaxInputResponse */
	u32 max_out;		/* MaxOutputResponse */
	u32 flags;
};

/* Returns STATUS_SUCCESS or STATUS_INVALID_PARAMETER. */
u32 smb2_ioctl_req_decode(const u8 *pdu, u32 pdu_len, struct smb2_ioctl_req *r);

/* Offset of the response's output buffer from the SMB2 header. */
#define SMB2_IOCTL_RSP_OUT_OFF	(SMB2_HDR_SIZE + SMB2_IOCTL_RSP_FIXED)

/*
 * Encode the fixed part of a response whose @out_len output bytes the
 * caller puts at body + SMB2_IOCTL_RSP_FIXED; returns the body size.
 */
u32 smb2_ioctl_rsp_encode(u8 *body, const struct smb2_ioctl_req *r,
			  u32 out_len);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_IOCTL_H */
