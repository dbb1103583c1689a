// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: IOCTL (MS-SMB2 3.3.5.15): the FSCTLs of the protocol core;
 * file-system FSCTLs are fsctl.c's.
 */
#include <linux/string.h>

#include "../conn.h"
#include "../session.h"
#include "../smbsrv.h"
#include "../wire/fsctl.h"
#include "../wire/ioctl.h"
#include "../wire/negotiate.h"
#include "fsctl.h"
#include "pipe.h"
#include "smb2.h"

/*
 * FSCTL_VALIDATE_NEGOTIATE_INFO (3.3.5.15.12): a 3.0/3.0.2 client checks
 * that nobody tampered with the NEGOTIATE exchange.  Any mismatch
 * terminates the connection.
 */
static u32 smbsrv_validate_negotiate(struct smbsrv_req *req,
				     const struct smb2_ioctl_req *r)
{
	struct smbsrv_conn *conn = req->conn;
	struct smb2_vneg_req v;
	u16 i, dialect;
	u8 *out;

	if (conn->dialect == SMB2_DIALECT_311 ||
	    r->max_out < SMB2_VNEG_RSP_SIZE)
		return SMBSRV_DISCONNECT;
	if (smb2_vneg_decode(r->in, r->in_len, &v))
		return STATUS_INVALID_PARAMETER;
	if (v.dialect_count != conn->client_dialect_count ||
	    v.dialect_count > SMBSRV_MAX_DIALECTS)
		return SMBSRV_DISCONNECT;
	for (i = 0; i < v.dialect_count; i++)
		if (get_unaligned_le16(v.dialects + 2 * i) !=
		    conn->client_dialects[i])
			return SMBSRV_DISCONNECT;
	dialect = smb2_dialect_select(v.dialects, v.dialect_count,
				      READ_ONCE(smbsrv_server.knobs.min_dialect),
				      READ_ONCE(smbsrv_server.knobs.max_dialect));
	if (dialect != conn->dialect ||
	    memcmp(v.guid, conn->client_guid, 16) ||
	    v.security_mode != conn->client_security_mode ||
	    v.capabilities != conn->client_caps)
		return SMBSRV_DISCONNECT;

	out = smbsrv_ioctl_out(req, r, SMB2_VNEG_RSP_SIZE);
	if (!out)
		return STATUS_INSUFFICIENT_RESOURCES;
	smb2_vneg_rsp_encode(out, conn->server_caps, smbsrv_server_guid,
			     conn->server_security_mode, conn->dialect);
	/* The client terminates if this answer is not signed. */
	req->sign_rsp = true;
	return STATUS_SUCCESS;
}

u32 smbsrv_smb2_ioctl(struct smbsrv_req *req)
{
	struct smb2_ioctl_req r;
	u32 status;

	status = smb2_ioctl_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	status = smbsrv_req_check_charge(req);
	if (status)
		return status;
	if (!(r.flags & SMB2_0_IOCTL_IS_FSCTL))
		return STATUS_NOT_SUPPORTED;
	/* 3.3.5.15: nothing beyond what the connection transacts. */
	if (r.in_len > req->conn->max_trans ||
	    r.max_in > req->conn->max_trans ||
	    r.max_out > req->conn->max_trans)
		return STATUS_INVALID_PARAMETER;

	switch (r.ctl_code) {
	case FSCTL_VALIDATE_NEGOTIATE_INFO:
		return smbsrv_validate_negotiate(req, &r);
	case FSCTL_PIPE_TRANSCEIVE:
		/* On a disk share there is no pipe to talk to. */
		if (!(req->tree->share_flags & SMBSRV_SHARE_FLAGS_IPC))
			return STATUS_INVALID_DEVICE_REQUEST;
		return smbsrv_pipe_transceive(req, &r);
	default:
		return smbsrv_fsctl_fs(req, &r);
	}
}
