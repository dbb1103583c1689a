// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: ECHO and CANCEL (MS-SMB2 3.3.5.16, 3.3.5.17).
 */
#include "../conn.h"
#include "../wire/logon.h"
#include "smb2.h"

u32 smbsrv_smb2_echo(struct smbsrv_req *req)
{
	if (!smbsrv_rsp_body(req, SMB2_SIMPLE_SIZE))
		return STATUS_INSUFFICIENT_RESOURCES;
	smb2_simple_rsp_encode(req->rsp + SMB2_HDR_SIZE);
	return STATUS_SUCCESS;
}

/*
 * CANCEL names a request by its AsyncId (async) or MessageId; it has no
 * response of its own, and naming no pending request is not an error.
 */
u32 smbsrv_smb2_cancel(struct smbsrv_req *req)
{
	smbsrv_cancel_one(req->conn, &req->hdr);
	return STATUS_SUCCESS;
}
