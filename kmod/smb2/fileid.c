// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the open a request names by its FileId.
 *
 * The objects below (session.c, file.c) look opens up by session, tree
 * and FileId; what a FileId of a request means is the protocol's: in a
 * related compound chain, all 0xFF stands for the open the chain is
 * working on (MS-SMB2 3.3.5.2.7.2): the one the previous request used or
 * created, which the dispatcher carries from one request to the next in
 * req->fid_persistent/fid_volatile.
 *
 * On a 3.x connection a request that names an open is also checked
 * against the open's ChannelSequence (MS-SMB2 3.3.5.2.10, wire/chseq.h)
 * and counted as outstanding until it ends: a WRITE, SET_INFO, IOCTL or
 * LOCK of a channel the client gave up on is refused with
 * STATUS_FILE_NOT_AVAILABLE rather than done after what it sent again.
 */
#include "../conn.h"
#include "../file.h"
#include "../session.h"
#include "smb2.h"

static void smbsrv_req_file_id(struct smbsrv_req *req, const u8 *field,
			       u64 *persistent, u64 *volatile_id)
{
	*persistent = get_unaligned_le64(field);
	*volatile_id = get_unaligned_le64(field + 8);
	if (req->related && *persistent == SMB2_FILE_ID_NONE &&
	    *volatile_id == SMB2_FILE_ID_NONE) {
		*persistent = req->fid_persistent;
		*volatile_id = req->fid_volatile;
	}
	/*
	 * The next related request uses the FileId this one used, not only
	 * one a CREATE made (3.3.5.2.7.2): FLUSH then a related CLOSE.
	 */
	req->fid_persistent = *persistent;
	req->fid_volatile = *volatile_id;
}

u16 smbsrv_req_csn(const struct smbsrv_req *req)
{
	return req->hdr.status & 0xffff;
}

/* 3.3.5.2.10: false when @req may not use @op (a stale sequence). */
static bool smbsrv_req_chseq(struct smbsrv_req *req, struct smbsrv_open *op)
{
	bool replay = req->hdr.flags & SMB2_FLAGS_REPLAY_OPERATION;

	/* Counted once, against the first open it names. */
	if (req->conn->dialect < SMB2_DIALECT_300 || req->csn_open)
		return true;
	switch (smbsrv_open_chseq_admit(op, smbsrv_req_csn(req), replay)) {
	case SMB2_CHSEQ_COUNTED:
		refcount_inc(&op->ref);
		req->csn_open = op;
		return true;
	case SMB2_CHSEQ_STALE:
		if (!smb2_chseq_guarded(req->hdr.command))
			return true;
		req->fid_status = STATUS_FILE_NOT_AVAILABLE;
		return false;
	default:
		return true;
	}
}

struct smbsrv_open *smbsrv_req_open(struct smbsrv_req *req, const u8 *field)
{
	struct smbsrv_open *op;
	u64 p, v;

	if (!req->sess || !req->tree)
		return NULL;
	smbsrv_req_file_id(req, field, &p, &v);
	op = smbsrv_open_lookup(req->sess, req->tree, p, v);
	if (op && !smbsrv_req_chseq(req, op)) {
		smbsrv_open_put(op);
		return NULL;
	}
	return op;
}

u32 smbsrv_req_fid_status(const struct smbsrv_req *req)
{
	return req->fid_status ?: STATUS_FILE_CLOSED;
}

void smbsrv_req_fid_end(struct smbsrv_req *req)
{
	if (!req->csn_open)
		return;
	smbsrv_open_chseq_done(req->csn_open, smbsrv_req_csn(req));
	smbsrv_open_put(req->csn_open);
	req->csn_open = NULL;
}

struct smbsrv_file *smbsrv_req_file(struct smbsrv_req *req, const u8 *field)
{
	return smbsrv_file_from_open(smbsrv_req_open(req, field));
}
