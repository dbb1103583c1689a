// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: OPLOCK_BREAK requests, the acknowledgments of oplock and lease
 * breaks (MS-SMB2 3.3.5.22).  The state they change is oplock.c's.
 */
#include "../conn.h"
#include "../file.h"
#include "../oplock.h"
#include "../wire/oplock.h"
#include "smb2.h"

u32 smbsrv_smb2_oplock_break(struct smbsrv_req *req)
{
	struct smb2_break_ack a;
	struct smbsrv_file *f;
	u8 *body, level = 0;
	u32 status;

	status = smb2_break_ack_decode(req->body, req->body_len, &a);
	if (status)
		return status;
	if (a.lease) {
		if (!(req->conn->server_caps & SMB2_GLOBAL_CAP_LEASING))
			return STATUS_INVALID_PARAMETER;
		status = smbsrv_cache_lease_ack(req->conn, a.lease_key,
						a.lease_state);
		if (status)
			return status;
		body = smbsrv_rsp_body(req, SMB2_LEASE_BREAK_ACK_SIZE);
		if (!body)
			return STATUS_INSUFFICIENT_RESOURCES;
		smb2_lease_break_rsp_encode(body, a.lease_key, a.lease_state);
		return STATUS_SUCCESS;
	}
	f = smbsrv_req_file(req, req->body + 8);
	if (!f)
		return STATUS_FILE_CLOSED;
	status = smbsrv_cache_oplock_ack(f, a.oplock_level, &level);
	if (!status) {
		body = smbsrv_rsp_body(req, SMB2_OPLOCK_BREAK_SIZE);
		if (body)
			smb2_oplock_break_encode(body, level,
						 f->open.id_persistent,
						 f->open.id_volatile);
		else
			status = STATUS_INSUFFICIENT_RESOURCES;
	}
	smbsrv_file_put(f);
	return status;
}
