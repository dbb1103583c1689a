// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: LOCK (MS-SMB2 3.3.5.14).
 *
 * The locks themselves, their conflicts with READ and WRITE, waiting and
 * the POSIX mirror are brl.c's.  LockSequenceNumber/Index matter only for
 * resilient, durable or persistent handles and multichannel, none of
 * which smbsrv offers, so they are ignored as 3.3.5.14 says.
 */
#include "../brl.h"
#include "../file.h"
#include "../wire/fscc.h"
#include "../wire/lock.h"
#include "smb2.h"

u32 smbsrv_smb2_lock(struct smbsrv_req *req)
{
	struct smb2_lock_req r;
	struct smbsrv_file *f;
	u32 status;

	status = smb2_lock_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	f = smbsrv_file_lookup(req, r.file_id);
	if (!f)
		return STATUS_FILE_CLOSED;
	/* MS-FSA 2.1.5.8: no byte-range locks on directories. */
	if (smbsrv_file_is_dir(f) || (f->flags & SMBSRV_FILE_REPARSE))
		status = STATUS_INVALID_PARAMETER;
	else if (!(f->access & (FILE_READ_DATA | FILE_WRITE_DATA)))
		status = STATUS_ACCESS_DENIED;
	else
		status = smbsrv_brl_request(req, f, &r);
	/* Read caching cannot cover locked ranges (oplock.c). */
	if (status == STATUS_SUCCESS || status == STATUS_PENDING)
		smbsrv_cache_break_write(f);
	smbsrv_file_put(f);
	return status;
}
