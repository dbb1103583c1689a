// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: previous versions over SMB2 (see snap.h).
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../file.h"
#include "../session.h"
#include "../snap.h"
#include "../status.h"
#include "../vfs.h"
#include "../wire/create.h"
#include "../wire/fscc.h"
#include "../wire/fsctl.h"
#include "../wire/info.h"
#include "../wire/ioctl.h"
#include "../wire/snap.h"
#include "fsctl.h"
#include "smb2.h"
#include "snap.h"

u32 smbsrv_snap_create_tree(struct smbsrv_req *req,
			    const struct smb2_create_req *r, char *path,
			    struct smbsrv_tree **tree)
{
	const struct smb2_create_ctx *x = &r->ctx[SMB2_CTX_TIMEWARP_TOKEN];
	bool twrp = smb2_create_has(r, SMB2_CTX_TIMEWARP_TOKEN);
	bool enabled = smbsrv_snap_enabled(req->tree);
	const struct cred *old;
	u64 t = 0, token;
	int err;

	*tree = req->tree;
	if (twrp) {
		err = smb_twrp_decode(x->data, x->data_len, &t);
		/* A time no snapshot can have is one there is none of. */
		if (err == -ERANGE)
			return STATUS_OBJECT_NAME_NOT_FOUND;
		if (err)
			return STATUS_INVALID_PARAMETER;
	}
	/* Without previous versions an @GMT name is an ordinary one. */
	if (enabled && smb_gmt_strip(path, &token) && !twrp) {
		t = token;
		twrp = true;
	}
	if (!twrp)
		return STATUS_SUCCESS;
	old = smbsrv_vfs_creds_begin(req->tree);
	err = enabled ? smbsrv_snap_view(req->tree, t, tree) : -ENOENT;
	smbsrv_vfs_creds_end(old);
	if (!err)
		return STATUS_SUCCESS;
	*tree = req->tree;
	if (err != -ENOENT && err != -EACCES)
		return smbsrv_errno_status(err);
	if (err == -EACCES)
		return STATUS_ACCESS_DENIED;
	/* Whatever the depth of the name, as Samba answers. */
	return STATUS_OBJECT_NAME_NOT_FOUND;
}

void smbsrv_snap_create_end(struct smbsrv_req *req, struct smbsrv_tree *tree)
{
	if (tree && tree != req->tree)
		smbsrv_tree_put(tree);
}

u32 smbsrv_snap_create_new(u32 disposition)
{
	if (disposition == FILE_OPEN || disposition == FILE_OVERWRITE)
		return STATUS_OBJECT_NAME_NOT_FOUND;
	return STATUS_MEDIA_WRITE_PROTECTED;
}

u32 smbsrv_snap_create_existing(u32 disposition, u32 options)
{
	if ((disposition != FILE_OPEN && disposition != FILE_OPEN_IF) ||
	    (options & FILE_DELETE_ON_CLOSE))
		return STATUS_MEDIA_WRITE_PROTECTED;
	return STATUS_SUCCESS;
}

u32 smbsrv_snap_set_info(const struct smbsrv_file *f, u8 info_type, u8 cls)
{
	if (!(f->flags & SMBSRV_FILE_SNAPSHOT))
		return STATUS_SUCCESS;
	switch (info_type) {
	case SMB2_0_INFO_FILE:
		switch (cls) {
		case FILE_POSITION_INFORMATION:
		case FILE_MODE_INFORMATION:
			/* The open's own state, not the file's. */
			return STATUS_SUCCESS;
		case FILE_RENAME_INFORMATION:
		case FILE_RENAME_INFORMATION_EX:
		case FILE_LINK_INFORMATION:
			return STATUS_NOT_SAME_DEVICE;
		default:
			return STATUS_MEDIA_WRITE_PROTECTED;
		}
	case SMB2_0_INFO_SECURITY:
	case SMB2_0_INFO_QUOTA:
		return STATUS_MEDIA_WRITE_PROTECTED;
	default:
		return STATUS_SUCCESS;
	}
}

u32 smbsrv_snap_fsctl_check(const struct smbsrv_file *f, u32 ctl_code)
{
	if (!(f->flags & SMBSRV_FILE_SNAPSHOT))
		return STATUS_SUCCESS;
	switch (ctl_code) {
	case FSCTL_SET_SPARSE:
	case FSCTL_SET_ZERO_DATA:
	case FSCTL_SRV_COPYCHUNK:
	case FSCTL_SRV_COPYCHUNK_WRITE:
	case FSCTL_SET_REPARSE_POINT:
	case FSCTL_DELETE_REPARSE_POINT:
	case FSCTL_SET_OBJECT_ID:
	case FSCTL_DELETE_OBJECT_ID:
	case FSCTL_DUPLICATE_EXTENTS_TO_FILE:
	case FSCTL_SET_COMPRESSION:
	case FSCTL_SET_INTEGRITY_INFORMATION:
	case FSCTL_FILE_LEVEL_TRIM:
		return STATUS_MEDIA_WRITE_PROTECTED;
	default:
		return STATUS_SUCCESS;
	}
}

u32 smbsrv_snap_fsctl_enumerate(struct smbsrv_req *req,
				struct smb2_ioctl_req *r)
{
	const struct cred *old;
	u32 n = 0, len, status;
	u64 *times = NULL;
	u8 *out;
	int err;

	if (r->max_out < SMB_SNAP_ARRAY_MIN_OUT)
		return STATUS_INVALID_PARAMETER;
	if (!smbsrv_snap_enabled(req->tree))
		return STATUS_INVALID_DEVICE_REQUEST;
	old = smbsrv_vfs_creds_begin(req->tree);
	err = smbsrv_snap_list(req->tree, &times, &n);
	smbsrv_vfs_creds_end(old);
	/* No snapshot directory (yet): no snapshots. */
	if (err == -ENOENT)
		n = 0;
	else if (err)
		return smbsrv_errno_status(err);
	/* All of them, or the counts alone (16 bytes) when they do not fit. */
	len = SMB_SNAP_ARRAY_HDR + smb_snap_array_size(n);
	if (r->max_out < len)
		len = SMB_SNAP_ARRAY_MIN_OUT;
	out = smbsrv_ioctl_out(req, r, len);
	if (out)
		status = len == smb_snap_array_encode(out, r->max_out, times, n) ?
			 STATUS_SUCCESS : STATUS_INTERNAL_ERROR;
	else
		status = STATUS_INSUFFICIENT_RESOURCES;
	kvfree(times);
	return status;
}
