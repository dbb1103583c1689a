// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the SMB3.1.1 POSIX extensions (posix.h).
 */
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/statfs.h>
#include <uapi/linux/smbsrv.h>

#include "../conn.h"
#include "../file.h"
#include "../session.h"
#include "../smbsrv.h"
#include "../status.h"
#include "../vfs.h"
#include "../wire/dir.h"
#include "../wire/fscc.h"
#include "../wire/fsctl.h"
#include "../wire/negotiate.h"
#include "../wire/ntstatus.h"
#include "../wire/posix.h"
#include "meta.h"
#include "posix.h"
#include "smb2.h"

u32 smbsrv_posix_negotiate(struct smbsrv_conn *conn,
			   const struct smb2_neg_ctxs *c)
{
	int n;

	conn->posix = false;
	/* Samba: a context the server does not offer is not looked at. */
	if (!c->posix || !READ_ONCE(smbsrv_server.knobs.smb3_unix_extensions))
		return STATUS_SUCCESS;
	n = smb2_posix_neg_ctx_decode(c->posix_data, c->posix_len);
	if (n < 0)
		return STATUS_INVALID_PARAMETER;
	conn->posix = n > 0;
	return STATUS_SUCCESS;
}

bool smbsrv_posix_tree(const struct smbsrv_req *req)
{
	return req->conn->posix &&
	       (req->tree->share_flags & SMBSRV_SHARE_FLAGS_POSIX);
}

u32 smbsrv_posix_reparse_tag(umode_t mode)
{
	if (S_ISLNK(mode))
		return IO_REPARSE_TAG_SYMLINK;
	if (smbsrv_posix_special(mode))
		return IO_REPARSE_TAG_NFS;
	return 0;
}

/* DOS attributes of a POSIX view: special files are reparse points. */
static u32 smbsrv_posix_attributes(const struct smbsrv_fattr *fa)
{
	u32 attr = fa->attributes;

	if (smbsrv_posix_special(fa->mode)) {
		attr &= ~FILE_ATTRIBUTE_NORMAL;
		attr |= FILE_ATTRIBUTE_REPARSE_POINT;
	}
	return attr;
}

void smbsrv_posix_from_fattr(const struct smbsrv_fattr *fa,
			     struct smb_posix_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->creation_time = fa->creation_time;
	pi->access_time = fa->access_time;
	pi->write_time = fa->write_time;
	pi->change_time = fa->change_time;
	/* A symlink's size is its target's length, as lstat() says. */
	pi->eof = S_ISDIR(fa->mode) ? 0 : fa->eof;
	pi->allocation = fa->allocation;
	pi->attributes = smbsrv_posix_attributes(fa);
	pi->ino = fa->ino;
	pi->dev = new_encode_dev(fa->dev);
	pi->nlink = fa->nlink;
	pi->reparse_tag = smbsrv_posix_reparse_tag(fa->mode);
	pi->mode = fa->mode;
	pi->uid = fa->uid;
	pi->gid = fa->gid;
}

void smbsrv_posix_dirent(const struct smbsrv_fattr *fa, struct smb_dirent *e)
{
	e->attributes = smbsrv_posix_attributes(fa);
	e->reparse_tag = smbsrv_posix_reparse_tag(fa->mode);
	e->nlink = fa->nlink;
	e->mode = fa->mode;
	e->uid = fa->uid;
	e->gid = fa->gid;
	e->dev = new_encode_dev(fa->dev);
}

const struct path *smbsrv_posix_path(const struct smbsrv_file *f)
{
	/* Pairs with the release in smb2/fsctl.c. */
	if (smp_load_acquire(&f->flags) & SMBSRV_FILE_REPLACED)
		return &f->replaced;
	return &f->filp->f_path;
}

u32 smbsrv_posix_query_file(struct smbsrv_req *req, struct smbsrv_file *f,
			    u32 out_len)
{
	struct smb_posix_info pi;
	struct smbsrv_fattr fa;
	struct smb_out o;
	int err;

	/* Samba answers the class on POSIX opens only. */
	if (!(f->flags & SMBSRV_FILE_POSIX))
		return STATUS_INVALID_LEVEL;
	if (!(f->access & FILE_READ_ATTRIBUTES))
		return STATUS_ACCESS_DENIED;
	if (out_len < SMB_POSIX_INFO_SIZE)
		return STATUS_INFO_LENGTH_MISMATCH;
	err = smbsrv_vfs_getattr(req->tree, smbsrv_posix_path(f), &fa);
	if (err)
		return smbsrv_errno_status(err);
	smbsrv_posix_from_fattr(&fa, &pi);
	/* A stream: its base's POSIX view, its own sizes (as the others). */
	if (smbsrv_file_is_stream(f))
		pi.attributes &= ~FILE_ATTRIBUTE_DIRECTORY;
	o.buf = smbsrv_qinfo_out(req, SMB_POSIX_INFO_SIZE);
	if (!o.buf)
		return STATUS_INSUFFICIENT_RESOURCES;
	o.cap = SMB_POSIX_INFO_SIZE;
	smb_posix_info_encode(&pi, &o, 0);
	return STATUS_SUCCESS;
}

u32 smbsrv_posix_query_fs(struct smbsrv_req *req, struct smbsrv_file *f,
			  u32 out_len)
{
	const struct path *path = &f->filp->f_path;
	struct smb_posix_fsinfo fs;
	struct kstatfs st;
	struct smb_out o;
	int err;

	if (!(f->flags & SMBSRV_FILE_POSIX))
		return STATUS_INVALID_LEVEL;
	if (out_len < SMB_POSIX_FSINFO_SIZE)
		return STATUS_INFO_LENGTH_MISMATCH;
	err = vfs_statfs(path, &st);
	if (err)
		return smbsrv_errno_status(err);
	fs.optimal_transfer = st.f_bsize;
	fs.block_size = st.f_bsize;
	fs.total_blocks = st.f_blocks;
	fs.free_blocks = st.f_bfree;
	fs.avail_blocks = st.f_bavail;
	fs.total_files = st.f_files;
	fs.free_files = st.f_ffree;
	fs.fsid = (u64)st.f_fsid.val[0] | (u64)st.f_fsid.val[1] << 32;
	o.buf = smbsrv_qinfo_out(req, SMB_POSIX_FSINFO_SIZE);
	if (!o.buf)
		return STATUS_INSUFFICIENT_RESOURCES;
	o.cap = SMB_POSIX_FSINFO_SIZE;
	smb_posix_fsinfo_encode(&fs, &o);
	return STATUS_SUCCESS;
}
