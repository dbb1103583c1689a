// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: SET_INFO (MS-SMB2 3.3.5.21; MS-FSA 2.1.5.14 for what each class
 * does) for files and file systems; security descriptors are in
 * security.c.
 *
 * Each class checks the access it needs against the open's granted mask
 * first (basic: WRITE_ATTRIBUTES; rename and disposition: DELETE; end of
 * file and allocation: WRITE_DATA; EAs: WRITE_EA), then changes the file
 * as the tree's user, so the kernel's own permission checks apply too.
 *
 * Rename and hard links resolve the new name beneath the share root as
 * CREATE does; a rename locks both parents (lock_rename_child()) and
 * refuses what Windows refuses: replacing without ReplaceIfExists
 * (STATUS_OBJECT_NAME_COLLISION), replacing a directory or a file that is
 * open (STATUS_ACCESS_DENIED), renaming a directory with open files below
 * it (STATUS_ACCESS_DENIED).  Delete on close is file.c's delete pending:
 * FileDispositionInformation sets or clears it, after the read-only and
 * empty-directory checks; FileDispositionInformationEx adds POSIX
 * semantics (the name goes at once) and the per-handle ON_CLOSE form.
 */
#include <linux/fs.h>
#include <linux/falloc.h>
#include <linux/file.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <uapi/linux/smbsrv.h>

#include "../audit.h"
#include "../acl.h"
#include "../cluster.h"
#include "../conn.h"
#include "../file.h"
#include "../fruit.h"
#include "../fold.h"
#include "../session.h"
#include "../status.h"
#include "../stream.h"
#include "../times.h"
#include "../upcall.h"
#include "../vfs.h"
#include "../wtime.h"
#include "../wire/create.h"
#include "../wire/dosattr.h"
#include "../wire/fscc.h"
#include "../wire/info.h"
#include "../wire/name.h"
#include "meta.h"
#include "smb2.h"
#include "snap.h"

/* ---- FileBasicInformation ----------------------------------------------- */

/* 0 leaves a time alone; -1 and -2 (MS-FSA 2.1.5.14.2) do too. */
static bool smbsrv_time_set(u64 t)
{
	return t && t != (u64)-1 && t != (u64)-2;
}

static struct timespec64 smbsrv_time_ts(u64 nt)
{
	struct timespec64 ts;
	long long sec;
	u32 nsec;

	smb_nttime_to_unix(nt, &sec, &nsec);
	ts.tv_sec = sec;
	ts.tv_nsec = nsec;
	return ts;
}

static u32 smbsrv_set_dos(struct smbsrv_req *req, struct smbsrv_file *f,
			  const struct smb_set_basic *bp, bool dos);

static u32 smbsrv_set_basic(struct smbsrv_req *req, struct smbsrv_file *f,
			    const u8 *buf, u32 len)
{
	const struct path *path = &f->filp->f_path;
	struct smbsrv_tree *tree = req->tree;
	struct inode *inode = d_inode(path->dentry);
	bool dos = tree->share_flags & SMBSRV_SHARE_FLAGS_STORE_DOS_ATTRIBUTES;
	struct smb_set_basic b;
	struct iattr ia = {};
	u32 status;
	int err;

	status = smb_set_basic_decode(buf, len, &b);
	if (status)
		return status;
	if (!(f->access & FILE_WRITE_ATTRIBUTES))
		return STATUS_ACCESS_DENIED;
	if ((s64)b.creation_time < -2 || (s64)b.access_time < -2 ||
	    (s64)b.write_time < -2 || (s64)b.change_time < -2)
		return STATUS_INVALID_PARAMETER;
	if ((b.attributes & FILE_ATTRIBUTE_DIRECTORY) && !smbsrv_file_is_dir(f))
		return STATUS_INVALID_PARAMETER;
	if ((b.attributes & FILE_ATTRIBUTE_TEMPORARY) && smbsrv_file_is_dir(f))
		return STATUS_INVALID_PARAMETER;
	/* Any basic set, even of nothing, makes a pending update happen. */
	smbsrv_wtime_flush(f);

	if (smbsrv_time_set(b.access_time)) {
		ia.ia_valid |= ATTR_ATIME | ATTR_ATIME_SET;
		ia.ia_atime = smbsrv_time_ts(b.access_time);
	}
	if (smbsrv_time_set(b.write_time)) {
		ia.ia_valid |= ATTR_MTIME | ATTR_MTIME_SET;
		ia.ia_mtime = smbsrv_time_ts(b.write_time);
	}
	/* ChangeTime cannot be set on Linux: kept by times.c, below. */
	if (ia.ia_valid) {
		ia.ia_valid |= ATTR_CTIME;
		err = mnt_want_write(path->mnt);
		if (err)
			return smbsrv_errno_status(err);
		inode_lock(inode);
		err = notify_change(mnt_idmap(path->mnt), path->dentry, &ia,
				    NULL);
		inode_unlock(inode);
		mnt_drop_write(path->mnt);
		if (err)
			return smbsrv_errno_status(err);
	}

	/* Set, it stays whatever is written until the last close. */
	smbsrv_wtime_set(f, b.write_time);
	status = smbsrv_set_dos(req, f, &b, dos);
	if (!status && smbsrv_time_set(b.change_time))
		f->change_time = b.change_time;
	/* Set through this open, it stays what this open changes. */
	if (!status && f->change_time)
		smbsrv_times_set_change(inode, f->change_time);
	return status;
}

/* FileBasicInformation's attributes and creation time. */
static u32 smbsrv_set_dos(struct smbsrv_req *req, struct smbsrv_file *f,
			  const struct smb_set_basic *bp, bool dos)
{
	const struct path *path = &f->filp->f_path;
	struct smbsrv_tree *tree = req->tree;
	struct inode *inode = d_inode(path->dentry);
	struct smb_set_basic b = *bp;
	struct smb_dosattr da = {};
	int err;

	if (!b.attributes && !smbsrv_time_set(b.creation_time))
		return STATUS_SUCCESS;
	if (!dos) {
		/* Only READONLY can be kept: as the lack of write bits. */
		if (!b.attributes || S_ISLNK(inode->i_mode))
			return STATUS_SUCCESS;
		if (b.attributes & FILE_ATTRIBUTE_READONLY)
			err = smbsrv_vfs_chmod(path, inode->i_mode & ~0222);
		else if (!(inode->i_mode & 0200))
			err = smbsrv_vfs_chmod(path, inode->i_mode | 0200);
		else
			err = 0;
		return smbsrv_errno_status(err);
	}
	if (S_ISLNK(inode->i_mode))
		return STATUS_SUCCESS;
	/* Merge with what is stored; the creation time stays unless set. */
	err = smbsrv_vfs_get_dosattr(path->dentry, &da);
	if (err && err != -ENODATA && err != -EINVAL)
		return smbsrv_errno_status(err);
	if (!(da.valid & SMB_DOSINFO_CREATE_TIME)) {
		struct smbsrv_fattr fa;

		if (!smbsrv_vfs_getattr(tree, path, &fa)) {
			da.valid |= SMB_DOSINFO_CREATE_TIME;
			da.create_time = fa.creation_time;
		}
	}
	if (!(da.valid & SMB_DOSINFO_ATTRIB)) {
		struct smbsrv_fattr fa;

		if (!smbsrv_vfs_getattr(tree, path, &fa)) {
			da.valid |= SMB_DOSINFO_ATTRIB;
			da.attrib = fa.attributes & (FILE_ATTRIBUTE_KEPT |
						     FILE_ATTRIBUTE_SPARSE_FILE);
		}
	}
	if (b.attributes) {
		da.valid |= SMB_DOSINFO_ATTRIB;
		/*
		 * FILE_ATTRIBUTE_NORMAL alone clears them all; SPARSE_FILE
		 * is FSCTL_SET_SPARSE's and stays (MS-FSA 2.1.5.14.2).
		 */
		da.attrib = (b.attributes & FILE_ATTRIBUTE_KEPT) |
			    (da.attrib & FILE_ATTRIBUTE_SPARSE_FILE);
	}
	if (smbsrv_time_set(b.creation_time)) {
		da.valid |= SMB_DOSINFO_CREATE_TIME;
		da.create_time = b.creation_time;
	}
	err = smbsrv_vfs_set_dosattr(path, &da);
	return smbsrv_errno_status(err);
}

/* ---- rename and hard links ---------------------------------------------- */

/* Tries for a steady answer in a directory that keeps changing. */
#define SMBSRV_RENAME_TRIES	3

/* The new name of a rename or link, as a path below the root. */
static u32 smbsrv_new_path(struct smbsrv_tree *tree,
			   const struct smb_set_rename *rn, char *path)
{
	const u8 *name = rn->name;
	u32 len = rn->name_len;
	const char *stream;
	u32 status;

	/* Some clients send the path with a leading backslash. */
	if (len >= 2 && get_unaligned_le16(name) == '\\') {
		name += 2;
		len -= 2;
	}
	status = smb_name_to_path(name, len, path, PATH_MAX, &stream);
	if (status)
		return status == STATUS_INVALID_PARAMETER ?
		       STATUS_OBJECT_NAME_INVALID : status;
	/* A file is renamed to a file name ("name::$DATA" is one). */
	if (stream && *stream)
		return *path ? STATUS_OBJECT_NAME_INVALID : STATUS_NOT_SUPPORTED;
	if (!*path)
		return STATUS_OBJECT_NAME_INVALID;
	if (tree->share->veto_files && smb_veto_path(tree->share->veto_files,
						     path))
		return STATUS_OBJECT_NAME_INVALID;
	return STATUS_SUCCESS;
}

/* May @target (positive) be replaced?  Not a directory, not open. */
static int smbsrv_may_replace(struct smbsrv_file *f, const struct path *parent,
			      struct dentry *target)
{
	const struct smbsrv_tree *tree = f->open.tree;
	struct path t = { .mnt = parent->mnt, .dentry = target };

	if (d_is_dir(target))
		return -EACCES;
	if (smbsrv_inode_open_count(d_inode(target)))
		return -EACCES;
	/* Cluster mode: nor open on another node (one read of its record). */
	if (smbsrv_cluster_on() && smbsrv_cluster_opened(d_inode(target)))
		return -EACCES;
	/* NT ACLs: replacing a file deletes it (acl.c). */
	if ((tree->share_flags & SMBSRV_SHARE_FLAGS_ACL_XATTR) &&
	    !(smbsrv_acl_maximal_access(tree, &t) & DELETE))
		return -EACCES;
	return 0;
}

/*
 * The new name, as spelt or (@fold, on a share without case) an entry
 * equal to it without case (@real, or none), under the parent's lock:
 * -EAGAIN when the directory changed since @real was found.
 */
struct smbsrv_new_name {
	const struct qstr *last;
	bool fold;
	const char *real;	/* NULL: no entry equal without case */
	u64 version;
};

static struct dentry *smbsrv_new_target(const struct path *parent,
					const struct smbsrv_new_name *nn,
					struct dentry *src)
{
	struct mnt_idmap *idmap = mnt_idmap(parent->mnt);
	struct dentry *target, *alt;

	if (nn->fold && !smbsrv_fold_still(d_inode(parent->dentry),
					   nn->version))
		return ERR_PTR(-EAGAIN);
	target = lookup_one(idmap, nn->last->name, parent->dentry,
			    nn->last->len);
	if (IS_ERR(target) || d_is_positive(target) || !nn->real)
		return target;
	alt = lookup_one(idmap, nn->real, parent->dentry, strlen(nn->real));
	if (IS_ERR(alt) || d_is_negative(alt) || alt == src) {
		/* Its own name in another case: renamed to that spelling. */
		if (!IS_ERR(alt))
			dput(alt);
		return target;
	}
	/* Another entry differing only in case: the name is taken. */
	dput(target);
	return alt;
}

static int smbsrv_do_rename(struct smbsrv_file *f, const struct path *parent,
			    const struct smbsrv_new_name *nn, bool replace)
{
	struct dentry *src = f->filp->f_path.dentry, *trap, *sparent, *target;
	struct mnt_idmap *idmap = mnt_idmap(parent->mnt);
	struct renamedata rd = {};
	int err;

	trap = lock_rename_child(src, parent->dentry);
	if (IS_ERR(trap))
		return PTR_ERR(trap);
	sparent = dget(src->d_parent);
	if (d_unhashed(src) || d_is_negative(src)) {
		err = -ENOENT;
		goto unlock;
	}
	target = smbsrv_new_target(parent, nn, src);
	if (IS_ERR(target)) {
		err = PTR_ERR(target);
		goto unlock;
	}
	err = 0;
	if (target == src)
		goto put;	/* its own name: nothing to do */
	err = -EINVAL;
	if (src == trap)
		goto put;	/* into itself */
	err = -ENOTEMPTY;
	if (target == trap)
		goto put;
	if (d_is_positive(target)) {
		err = -EEXIST;
		if (!replace)
			goto put;
		err = smbsrv_may_replace(f, parent, target);
		if (err)
			goto put;
	}
	rd.old_mnt_idmap = idmap;
	rd.old_dir = d_inode(sparent);
	rd.old_dentry = src;
	rd.new_mnt_idmap = idmap;
	rd.new_dir = d_inode(parent->dentry);
	rd.new_dentry = target;
	rd.flags = replace ? 0 : RENAME_NOREPLACE;
	err = vfs_rename(&rd);
	/*
	 * CephFS takes no flags (-EINVAL): the target was found negative
	 * under the parents' locks above, which is what this node can
	 * check; another CephFS client creating it meanwhile is replaced.
	 */
	if (err == -EINVAL && rd.flags) {
		rd.flags = 0;
		err = vfs_rename(&rd);
	}
put:
	dput(target);
unlock:
	unlock_rename(sparent, parent->dentry);
	dput(sparent);
	return err;
}

static int smbsrv_do_link(struct smbsrv_file *f, const struct path *parent,
			  const struct smbsrv_new_name *nn, bool replace)
{
	struct dentry *src = f->filp->f_path.dentry, *target;
	struct mnt_idmap *idmap = mnt_idmap(parent->mnt);
	struct inode *dir = d_inode(parent->dentry);
	const struct qstr *last = nn->last;
	int err;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	target = smbsrv_new_target(parent, nn, NULL);
	if (IS_ERR(target)) {
		err = PTR_ERR(target);
		goto unlock;
	}
	if (d_is_positive(target)) {
		err = 0;
		if (d_inode(target) == d_inode(src))
			goto put;	/* already a link to this file */
		err = -EEXIST;
		if (!replace)
			goto put;
		err = smbsrv_may_replace(f, parent, target);
		if (!err)
			err = vfs_unlink(idmap, dir, target, NULL);
		if (err)
			goto put;
		dput(target);
		target = lookup_one(idmap, last->name, parent->dentry,
				    last->len);
		if (IS_ERR(target)) {
			err = PTR_ERR(target);
			goto unlock;
		}
	}
	err = vfs_link(src, idmap, dir, target, NULL);
put:
	dput(target);
unlock:
	inode_unlock(dir);
	return err;
}

/*
 * FileRenameInformation on a named stream (MS-FSA 2.1.5.14.11.1): the
 * new name is ":name[:$DATA]" on the same file; another stream of that
 * name is replaced only when asked (and not while it is open).
 */
static u32 smbsrv_set_stream_name(struct smbsrv_file *f,
				  const struct smb_set_rename *rn)
{
	const char *stream;
	char *path;
	u32 status;
	int err;

	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path)
		return STATUS_INSUFFICIENT_RESOURCES;
	status = smb_name_to_path(rn->name, rn->name_len, path, PATH_MAX,
				  &stream);
	if (!status && (*path || !stream || !*stream))
		status = STATUS_INVALID_PARAMETER;	/* not a named stream */
	if (!status) {
		err = smbsrv_stream_rename(f, stream, strlen(stream),
					   rn->flags & FILE_RENAME_REPLACE_IF_EXISTS);
		status = err == -EINVAL ? STATUS_OBJECT_NAME_INVALID :
			 smbsrv_errno_status(err);
	}
	kfree(path);
	return status;
}

/* A rename of @f to @to (share-relative; NULL if it was not worked out). */
static void smbsrv_audit_rename(const struct smbsrv_tree *tree,
				const struct smbsrv_file *f, u32 status,
				const char *to)
{
	if (smbsrv_audit_wants(tree, SMBSRV_AUDIT_OP_RENAMEAT, status))
		smbsrv_audit_tree(tree, SMBSRV_AUDIT_OP_RENAMEAT, status,
				  f->name, to, 0);
}

static u32 smbsrv_set_name(struct smbsrv_req *req, struct smbsrv_file *f,
			   u8 cls, const u8 *buf, u32 len)
{
	struct smbsrv_tree *tree = req->tree;
	bool link = cls == FILE_LINK_INFORMATION;
	struct dentry *src = f->filp->f_path.dentry;
	struct smbsrv_new_name nn = {};
	struct smb_set_rename rn;
	struct filename *name;
	struct path parent;
	struct qstr last;
	char *path, *real;
	u32 status;
	int err, i;

	status = smb_set_rename_decode(cls, buf, len, &rn);
	if (status)
		return status;
	if (!link && !(f->access & DELETE)) {
		smbsrv_audit_rename(tree, f, STATUS_ACCESS_DENIED, NULL);
		return STATUS_ACCESS_DENIED;
	}
	if (smbsrv_file_is_stream(f))
		return link ? STATUS_INVALID_PARAMETER :
			      smbsrv_set_stream_name(f, &rn);
	if (link && smbsrv_file_is_dir(f))
		return STATUS_FILE_IS_A_DIRECTORY;
	if (src == tree->root.dentry)
		return STATUS_ACCESS_DENIED;
	path = kmalloc(PATH_MAX + NAME_MAX + 1, GFP_KERNEL);
	if (!path)
		return STATUS_INSUFFICIENT_RESOURCES;
	path[0] = '\0';
	real = path + PATH_MAX;
	status = smbsrv_new_path(tree, &rn, path);
	if (status)
		goto out;
	/*
	 * A directory with anything open below it, here or (cluster mode) on
	 * another node, stays where it is, but for a Mac on a fruit share
	 * (fruit:posix_rename).
	 */
	if (!link && smbsrv_file_is_dir(f) &&
	    !(READ_ONCE(req->conn->aapl) &&
	      smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_POSIX_RENAME)) &&
	    (smbsrv_file_open_below(src) ||
	     (smbsrv_cluster_on() && smbsrv_cluster_open_below(d_inode(src))))) {
		status = STATUS_ACCESS_DENIED;
		goto out;
	}
	err = smbsrv_vfs_parent(tree, path, &parent, &last, &name);
	if (err) {
		status = err == -ENOENT || err == -ENOTDIR ?
			 STATUS_OBJECT_PATH_NOT_FOUND : smbsrv_errno_status(err);
		goto out;
	}
	if (parent.mnt != f->filp->f_path.mnt) {
		status = STATUS_NOT_SAME_DEVICE;
		goto put;
	}
	/* NT ACLs: the new name is added to its parent as a create would. */
	if (tree->share_flags & SMBSRV_SHARE_FLAGS_ACL_XATTR) {
		status = smbsrv_acl_may_create(tree, &parent,
					       smbsrv_file_is_dir(f));
		if (status)
			goto put;
	}
	/*
	 * A rename adds an entry to the new parent, as a create there
	 * would (FILE_ADD_FILE or FILE_ADD_SUBDIRECTORY, sharing read and
	 * write, as Windows and Samba check): an open of that directory
	 * with DELETE access, or not sharing write, is a sharing violation.
	 */
	if (!link &&
	    smbsrv_inode_share_conflict(d_inode(parent.dentry),
					smbsrv_file_is_dir(f) ?
					FILE_APPEND_DATA : FILE_WRITE_DATA,
					FILE_SHARE_READ | FILE_SHARE_WRITE, f)) {
		status = STATUS_SHARING_VIOLATION;
		goto put;
	}
	err = mnt_want_write(parent.mnt);
	if (err) {
		status = smbsrv_errno_status(err);
		goto put;
	}
	nn.last = &last;
	for (i = 0; i < SMBSRV_RENAME_TRIES; i++) {
		/* The last try takes the name as spelt, come what may. */
		nn.fold = i + 1 < SMBSRV_RENAME_TRIES &&
			  !(f->flags & SMBSRV_FILE_POSIX) &&
			  smbsrv_vfs_fold_last(tree, &parent, &last, real,
					       &nn.version) >= 0;
		nn.real = nn.fold && *real ? real : NULL;
		if (link)
			err = smbsrv_do_link(f, &parent, &nn, rn.flags &
					     FILE_RENAME_REPLACE_IF_EXISTS);
		else
			err = smbsrv_do_rename(f, &parent, &nn, rn.flags &
					       FILE_RENAME_REPLACE_IF_EXISTS);
		if (err != -EAGAIN)
			break;
	}
	/* Other clients' cached handles name the old path (cache.c). */
	if (!err && !link) {
		smbsrv_cache_break_handles(f);
		if (smbsrv_cluster_on())
			smbsrv_cluster_break_handles(f->fnode);
	}
	mnt_drop_write(parent.mnt);
	status = err == -ENOENT ? STATUS_OBJECT_NAME_NOT_FOUND :
		 smbsrv_errno_status(err);
put:
	path_put(&parent);
	putname(name);
out:
	if (!link)
		smbsrv_audit_rename(tree, f, status, path[0] ? path : NULL);
	kfree(path);
	return status;
}

/* ---- delete on close ---------------------------------------------------- */

struct smbsrv_empty {
	struct dir_context ctx;
	bool empty;
};

static bool smbsrv_empty_actor(struct dir_context *ctx, const char *name,
			       int len, loff_t off, u64 ino, unsigned int type)
{
	struct smbsrv_empty *e = container_of(ctx, struct smbsrv_empty, ctx);

	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	e->empty = false;
	return false;
}

/* Whether a directory has nothing but "." and "..": a fresh read of it. */
static int smbsrv_dir_empty(const struct path *path, bool *empty)
{
	struct smbsrv_empty e = { .ctx.actor = smbsrv_empty_actor,
				  .empty = true };
	struct file *filp;
	int err;

	filp = dentry_open(path, O_RDONLY | O_DIRECTORY, current_cred());
	if (IS_ERR(filp))
		return PTR_ERR(filp);
	err = iterate_dir(filp, &e.ctx);
	fput(filp);
	*empty = e.empty;
	return err;
}

static u32 smbsrv_set_disposition_do(struct smbsrv_req *req,
				     struct smbsrv_file *f, u32 flags)
{
	const struct path *path = &f->filp->f_path;
	bool del = flags & FILE_DISPOSITION_DELETE, empty;
	struct smbsrv_fattr fa;
	u32 status;
	int err;

	if (!(f->access & DELETE))
		return STATUS_ACCESS_DENIED;
	if (del) {
		if (path->dentry == req->tree->root.dentry &&
		    !smbsrv_file_is_stream(f))
			return STATUS_CANNOT_DELETE;
		err = smbsrv_vfs_getattr(req->tree, path, &fa);
		if (err)
			return smbsrv_errno_status(err);
		if ((fa.attributes & FILE_ATTRIBUTE_READONLY) &&
		    !(flags & FILE_DISPOSITION_IGNORE_READONLY_ATTRIBUTE))
			return STATUS_CANNOT_DELETE;
		if (smbsrv_file_is_dir(f)) {
			err = smbsrv_dir_empty(path, &empty);
			if (err)
				return smbsrv_errno_status(err);
			if (!empty)
				return STATUS_DIRECTORY_NOT_EMPTY;
		}
	}
	if (flags & FILE_DISPOSITION_ON_CLOSE) {
		/* This handle's delete on close, as the CREATE option. */
		if (del)
			WRITE_ONCE(f->flags,
				   f->flags | SMBSRV_FILE_DELETE_ON_CLOSE);
		else
			WRITE_ONCE(f->flags,
				   f->flags & ~SMBSRV_FILE_DELETE_ON_CLOSE);
		return STATUS_SUCCESS;
	}
	if (del && (flags & FILE_DISPOSITION_POSIX_SEMANTICS)) {
		/* The name goes now; the opens keep the file. */
		if (smbsrv_file_is_stream(f))
			err = smbsrv_stream_delete(f);
		else
			err = smbsrv_vfs_remove(path);
		status = err == -ENOENT ? STATUS_SUCCESS :
			 smbsrv_errno_status(err);
		if (!err && smbsrv_audit_wants(req->tree,
					       SMBSRV_AUDIT_OP_UNLINKAT, 0))
			smbsrv_audit_tree(req->tree, SMBSRV_AUDIT_OP_UNLINKAT,
					  0, f->name, NULL, 0);
		return status;
	}
	status = smbsrv_file_set_delete_pending(f, del);
	if (status)
		return status;
	/* Other clients' cached handles keep it from going (cache.c). */
	if (del)
		smbsrv_cache_break_handles(f);
	return STATUS_SUCCESS;
}

/* A delete refused is audited here; one done, when the file goes. */
static u32 smbsrv_set_disposition(struct smbsrv_req *req,
				  struct smbsrv_file *f, u32 flags)
{
	u32 status = smbsrv_set_disposition_do(req, f, flags);

	if (status && (flags & FILE_DISPOSITION_DELETE) &&
	    smbsrv_audit_wants(req->tree, SMBSRV_AUDIT_OP_UNLINKAT, status))
		smbsrv_audit_tree(req->tree, SMBSRV_AUDIT_OP_UNLINKAT, status,
				  f->name, NULL, 0);
	return status;
}

/* ---- sizes, position, mode, EAs ----------------------------------------- */

/* A stream's end of file; its allocation only ever cuts it shorter. */
static u32 smbsrv_set_stream_size(struct smbsrv_file *f, u8 cls, u64 size)
{
	ssize_t n;

	if (cls != FILE_END_OF_FILE_INFORMATION) {
		n = smbsrv_stream_size(f);
		if (n < 0)
			return smbsrv_errno_status(n);
		if (size >= n)
			return STATUS_SUCCESS;
	}
	return smbsrv_errno_status(smbsrv_stream_truncate(f, size));
}

static u32 smbsrv_set_size(struct smbsrv_req *req, struct smbsrv_file *f,
			   u8 cls, u64 size)
{
	const struct path *path = &f->filp->f_path;
	struct smbsrv_fattr fa;
	int err;

	if (!(f->access & FILE_WRITE_DATA))
		return STATUS_ACCESS_DENIED;
	if (smbsrv_file_is_dir(f) || (f->flags & SMBSRV_FILE_REPARSE))
		return STATUS_INVALID_PARAMETER;
	if (size > (u64)S64_MAX)
		return STATUS_INVALID_PARAMETER;
	/* Other clients caching reads lose it (cache.c). */
	smbsrv_cache_break_write(f);
	if (smbsrv_file_is_stream(f))
		return smbsrv_set_stream_size(f, cls, size);
	if (cls == FILE_END_OF_FILE_INFORMATION)
		return smbsrv_errno_status(vfs_truncate(path, size));
	/*
	 * FileAllocationInformation: less than the data truncates it; more
	 * reserves space where the file system can.
	 */
	err = smbsrv_vfs_getattr(req->tree, path, &fa);
	if (err)
		return smbsrv_errno_status(err);
	if (size < fa.eof)
		return smbsrv_errno_status(vfs_truncate(path, size));
	if (size > fa.allocation && size <= MAX_LFS_FILESIZE) {
		err = vfs_fallocate(f->filp, FALLOC_FL_KEEP_SIZE, 0, size);
		if (err && err != -EOPNOTSUPP)
			return smbsrv_errno_status(err);
	}
	return STATUS_SUCCESS;
}

static u32 smbsrv_set_mode(struct smbsrv_file *f, u32 mode)
{
	const u32 sync = FILE_SYNCHRONOUS_IO_ALERT |
			 FILE_SYNCHRONOUS_IO_NONALERT;
	const u32 keep = FILE_WRITE_THROUGH | FILE_SEQUENTIAL_ONLY |
			 FILE_NO_INTERMEDIATE_BUFFERING;
	u32 options = READ_ONCE(f->options);

	if ((mode & ~FILE_MODE_VALID) || (mode & sync) == sync ||
	    (mode & sync) != (options & sync))
		return STATUS_INVALID_PARAMETER;
	WRITE_ONCE(f->options, (options & ~keep) | (mode & keep));
	return STATUS_SUCCESS;
}

static u32 smbsrv_set_eas(struct smbsrv_file *f, const u8 *buf, u32 len)
{
	struct smb_ea ea;
	u32 pos = 0;
	int n, err;

	if (!(f->access & FILE_WRITE_EA))
		return STATUS_ACCESS_DENIED;
	/* The whole list is checked before anything is changed. */
	while ((n = smb_ea_next(buf, len, &pos, &ea)) > 0)
		;
	if (n == -EILSEQ)
		return STATUS_INVALID_EA_NAME;
	if (n < 0)
		return STATUS_EA_LIST_INCONSISTENT;
	pos = 0;
	while (smb_ea_next(buf, len, &pos, &ea) > 0) {
		err = smbsrv_vfs_set_ea(&f->filp->f_path, ea.name, ea.value,
					ea.value_len);
		if (err)
			return smbsrv_errno_status(err);
	}
	return STATUS_SUCCESS;
}

static u32 smbsrv_set_file(struct smbsrv_req *req, struct smbsrv_file *f,
			   const struct smb2_set_info_req *r)
{
	u8 cls = r->info_class, v8;
	u32 status, v32;
	u64 v64;

	switch (cls) {
	case FILE_BASIC_INFORMATION:
		return smbsrv_set_basic(req, f, r->buf, r->len);
	case FILE_RENAME_INFORMATION:
	case FILE_RENAME_INFORMATION_EX:
	case FILE_LINK_INFORMATION:
		return smbsrv_set_name(req, f, cls, r->buf, r->len);
	case FILE_DISPOSITION_INFORMATION:
		status = smb_set_u8_decode(r->buf, r->len, &v8);
		return status ? status : smbsrv_set_disposition(req, f, v8 ?
						FILE_DISPOSITION_DELETE : 0);
	case FILE_DISPOSITION_INFORMATION_EX:
		status = smb_set_u32_decode(r->buf, r->len, &v32);
		return status ? status : smbsrv_set_disposition(req, f, v32);
	case FILE_POSITION_INFORMATION:
		status = smb_set_u64_decode(r->buf, r->len, &v64);
		if (status)
			return status;
		if (v64 > (u64)S64_MAX ||
		    ((READ_ONCE(f->options) & FILE_NO_INTERMEDIATE_BUFFERING) &&
		     v64 % 512))
			return STATUS_INVALID_PARAMETER;
		WRITE_ONCE(f->position, v64);
		return STATUS_SUCCESS;
	case FILE_MODE_INFORMATION:
		status = smb_set_u32_decode(r->buf, r->len, &v32);
		return status ? status : smbsrv_set_mode(f, v32);
	case FILE_ALLOCATION_INFORMATION:
	case FILE_END_OF_FILE_INFORMATION:
		status = smb_set_u64_decode(r->buf, r->len, &v64);
		if (status)
			return status;
		status = smbsrv_set_size(req, f, cls, v64);
		/* A pending LastWriteTime update happens now (wtime.h). */
		if (!status)
			smbsrv_wtime_flush(f);
		return status;
	case FILE_FULL_EA_INFORMATION:
		return smbsrv_set_eas(f, r->buf, r->len);
	default:
		/* Documented as settable (or local) but not served here. */
		if (smb_file_class_uses(cls) & (SMB_INFO_SET | SMB_INFO_LOCAL))
			return STATUS_NOT_SUPPORTED;
		return STATUS_INVALID_INFO_CLASS;
	}
}

static u32 smbsrv_set_fs(struct smbsrv_file *f, u8 cls)
{
	if (!(smb_fs_class_uses(cls) & (SMB_INFO_SET | SMB_INFO_LOCAL)))
		return STATUS_INVALID_INFO_CLASS;
	if ((cls == FILE_FS_CONTROL_INFORMATION ||
	     cls == FILE_FS_OBJECT_ID_INFORMATION) &&
	    !(f->access & FILE_WRITE_DATA))
		return STATUS_ACCESS_DENIED;
	/* No quotas, labels or object ids to change. */
	return STATUS_NOT_SUPPORTED;
}

u32 smbsrv_smb2_set_info(struct smbsrv_req *req)
{
	struct smb2_set_info_req r;
	struct smbsrv_file *f;
	const struct cred *old;
	u32 status;
	u8 *body;

	status = smb2_set_info_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	if (r.len > req->conn->max_trans)
		return STATUS_INVALID_PARAMETER;
	status = smbsrv_req_check_charge(req);
	if (status)
		return status;
	f = smbsrv_req_file(req, r.file_id);
	if (!f)
		return smbsrv_req_fid_status(req);
	/* A previous version is read-only (snap.h). */
	status = smbsrv_snap_set_info(f, r.info_type, r.info_class);
	if (status) {
		smbsrv_file_put(f);
		return status;
	}
	old = smbsrv_vfs_creds_begin(req->tree);
	switch (r.info_type) {
	case SMB2_0_INFO_FILE:
		status = smbsrv_set_file(req, f, &r);
		break;
	case SMB2_0_INFO_FILESYSTEM:
		status = smbsrv_set_fs(f, r.info_class);
		break;
	case SMB2_0_INFO_SECURITY:
		status = smbsrv_set_security(req, f, &r);
		if (smbsrv_audit_wants(req->tree, SMBSRV_AUDIT_OP_FSET_NT_ACL,
				       status))
			smbsrv_audit_tree(req->tree,
					  SMBSRV_AUDIT_OP_FSET_NT_ACL, status,
					  f->name, NULL, 0);
		break;
	case SMB2_0_INFO_QUOTA:
		status = STATUS_NOT_SUPPORTED;
		break;
	default:
		status = STATUS_INVALID_PARAMETER;
		break;
	}
	smbsrv_vfs_creds_end(old);
	smbsrv_file_put(f);
	if (status)
		return status;
	body = smbsrv_rsp_body(req, SMB2_SINFO_RSP_SIZE);
	if (!body)
		return STATUS_INSUFFICIENT_RESOURCES;
	smb2_set_info_rsp_encode(body);
	return STATUS_SUCCESS;
}
