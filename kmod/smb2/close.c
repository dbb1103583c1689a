// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: CLOSE (MS-SMB2 3.3.5.10).
 *
 * Ending the open takes it off its file's opens and, if it was the last
 * one of a file pending deletion, removes the file (file.c).  With
 * SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB the attributes are those after the
 * close: the struct file lives until the last reference to the open, so
 * they are there even when the close deleted the file.
 */
#include <uapi/linux/smbsrv.h>

#include "../file.h"
#include "../vfs.h"
#include "../wire/rw.h"
#include "pipe.h"
#include "smb2.h"

u32 smbsrv_smb2_close(struct smbsrv_req *req)
{
	struct smb2_close_rsp rsp = {};
	struct smbsrv_fattr fa;
	struct smb2_close_req r;
	struct smbsrv_file *f;
	const struct cred *old;
	u32 status;
	u8 *body;

	status = smb2_close_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	if (req->tree->share_flags & SMBSRV_SHARE_FLAGS_IPC)
		return smbsrv_pipe_close(req, r.file_id);
	f = smbsrv_req_file(req, r.file_id);
	if (!f)
		return STATUS_FILE_CLOSED;
	body = smbsrv_rsp_body(req, SMB2_CLOSE_RSP_SIZE);
	if (!body) {
		smbsrv_file_put(f);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	smbsrv_open_end(&f->open);
	if (r.flags & SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB) {
		old = smbsrv_vfs_creds_begin(req->tree);
		if (!smbsrv_vfs_getattr(req->tree, &f->filp->f_path, &fa)) {
			rsp.flags = SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB;
			rsp.creation_time = fa.creation_time;
			rsp.access_time = fa.access_time;
			rsp.write_time = fa.write_time;
			rsp.change_time = fa.change_time;
			rsp.allocation = fa.allocation;
			rsp.eof = fa.eof;
			rsp.attributes = fa.attributes;
		}
		smbsrv_vfs_creds_end(old);
	}
	smbsrv_file_put(f);
	smb2_close_rsp_encode(body, &rsp);
	return STATUS_SUCCESS;
}
