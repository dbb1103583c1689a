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
 */
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

struct smbsrv_open *smbsrv_req_open(struct smbsrv_req *req, const u8 *field)
{
	u64 p, v;

	if (!req->sess || !req->tree)
		return NULL;
	smbsrv_req_file_id(req, field, &p, &v);
	return smbsrv_open_lookup(req->sess, req->tree, p, v);
}

struct smbsrv_file *smbsrv_req_file(struct smbsrv_req *req, const u8 *field)
{
	return smbsrv_file_from_open(smbsrv_req_open(req, field));
}
