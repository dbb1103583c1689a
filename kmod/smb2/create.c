// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: CREATE (MS-SMB2 3.3.5.9; MS-FSA 2.1.5.1 for what the object
 * store does).
 *
 * The name becomes a path below the share root (wire/name.c: no "..",
 * no absolute name, no wildcard or control character gets that far),
 * looked up beneath the root with the tree's credentials (vfs.c), then
 * opened or created as the disposition says.  Access is what the POSIX
 * permissions grant (smbsrv_vfs_maximal_access()); sharing is checked
 * against the other opens of the inode (file.c) before anything is
 * truncated.  Create contexts: MxAc and QFid are answered, AlSi and ExtA
 * applied, DHnQ/DH2Q and RqLs ignored (no durable handles or leases are
 * offered), DHnC/DH2C find nothing; TWrp and @GMT names open previous
 * versions (snap.h).
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/falloc.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include <uapi/linux/smbsrv.h>

#include "../audit.h"
#include "../acl.h"
#include "../cache.h"
#include "../conn.h"
#include "../durable.h"
#include "../file.h"
#include "../fnode.h"
#include "../fruit.h"
#include "../klease.h"
#include "../session.h"
#include "../status.h"
#include "../stream.h"
#include "../upcall.h"
#include "../vfs.h"
#include "../wire/create.h"
#include "../wire/fscc.h"
#include "../wire/fsctl.h"
#include "../wire/info.h"
#include "../wire/name.h"
#include "../wire/oplock.h"
#include "../wire/posix.h"
#include "create.h"
#include "notify.h"
#include "pipe.h"
#include "posix.h"
#include "smb2.h"
#include "snap.h"

static u32 smbsrv_map_generic(u32 access)
{
	if (access & GENERIC_READ)
		access |= FILE_GENERIC_READ;
	if (access & GENERIC_WRITE)
		access |= FILE_GENERIC_WRITE;
	if (access & GENERIC_EXECUTE)
		access |= FILE_GENERIC_EXECUTE;
	if (access & GENERIC_ALL)
		access |= FILE_ALL_ACCESS;
	return access & ~(GENERIC_READ | GENERIC_WRITE | GENERIC_EXECUTE |
			  GENERIC_ALL);
}

/* What 3.3.5.9 and the object store refuse before looking at the name. */
static u32 smbsrv_create_check(struct smbsrv_create *c)
{
	struct smb2_create_req *r = &c->r;

	if (r->impersonation > SMB2_IMPERSONATION_DELEGATE)
		return STATUS_BAD_IMPERSONATION_LEVEL;
	if (r->options & FILE_OPTIONS_INVALID)
		return STATUS_INVALID_PARAMETER;
	if (r->options & FILE_OPTIONS_NOT_SUPPORTED)
		return STATUS_NOT_SUPPORTED;
	if (r->disposition > FILE_OVERWRITE_IF)
		return STATUS_INVALID_PARAMETER;
	/* Access is judged before attributes (smbtorture's gentest). */
	if (!r->access || (r->access & ACCESS_INVALID))
		return STATUS_ACCESS_DENIED;
	if (r->access & ACCESS_SYSTEM_SECURITY)
		return STATUS_PRIVILEGE_NOT_HELD;
	if (r->attributes & ~FILE_ATTRIBUTE_CREATE_VALID)
		return STATUS_INVALID_PARAMETER;
	if ((r->options & FILE_DIRECTORY_FILE) &&
	    (r->options & FILE_NON_DIRECTORY_FILE))
		return STATUS_INVALID_PARAMETER;
	if ((r->options & FILE_DIRECTORY_FILE) &&
	    r->disposition != FILE_CREATE && r->disposition != FILE_OPEN &&
	    r->disposition != FILE_OPEN_IF)
		return STATUS_INVALID_PARAMETER;
	c->max_allowed = r->access & MAXIMUM_ALLOWED;
	c->access = smbsrv_map_generic(r->access & ~MAXIMUM_ALLOWED);
	if ((r->options & FILE_DELETE_ON_CLOSE) && !(c->access & DELETE) &&
	    !c->max_allowed)
		return STATUS_INVALID_PARAMETER;
	if (smb2_create_has(r, SMB2_CTX_ALLOCATION_SIZE) &&
	    r->ctx[SMB2_CTX_ALLOCATION_SIZE].data_len < 8)
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

/* Check an EA list before anything is created; STATUS_SUCCESS if usable. */
static u32 smbsrv_create_check_eas(const struct smb2_create_ctx *x)
{
	struct smb_ea ea;
	u32 pos = 0;
	int n;

	while ((n = smb_ea_next(x->data, x->data_len, &pos, &ea)) > 0)
		;
	if (n == -EILSEQ)
		return STATUS_INVALID_EA_NAME;
	return n ? STATUS_INVALID_PARAMETER : STATUS_SUCCESS;
}

static void smbsrv_create_set_eas(struct smbsrv_create *c)
{
	const struct smb2_create_ctx *x = &c->r.ctx[SMB2_CTX_EA_BUFFER];
	struct smb_ea ea;
	u32 pos = 0;
	int err;

	while (smb_ea_next(x->data, x->data_len, &pos, &ea) > 0) {
		err = smbsrv_vfs_set_ea(&c->obj, ea.name, ea.value,
					ea.value_len);
		if (err)
			pr_debug("smbsrv: EA %s on %s: error %d\n", ea.name,
				 c->path, err);
	}
}

/*
 * Mode bits of a new object: the share's masks and forced bits, or with
 * `inherit permissions` its parent's (Samba's rules: a directory takes
 * the parent's mode but set-uid, and owner write; a file the parent's
 * read and write bits; masks and forced bits do not apply).
 */
static umode_t smbsrv_create_mode(const struct smbsrv_tree *tree,
				  const struct smbsrv_create *c,
				  const struct smbsrv_lookup *lk, bool dir)
{
	const struct smbsrv_share_info *s = tree->share;
	umode_t mode, pmode;

	pmode = d_inode(lk->parent.dentry)->i_mode & 07777 & ~S_ISUID;
	if (tree->share_flags & SMBSRV_SHARE_FLAGS_INHERIT_PERMISSIONS) {
		if (dir)
			return pmode | 0200;
		mode = pmode & 0666;
	} else {
		if (dir)
			return (0777 & s->directory_mask) |
			       s->force_directory_mode;
		mode = (0777 & s->create_mask) | s->force_create_mode;
	}
	/* Without stored DOS attributes, READONLY is the lack of write bits. */
	if ((c->r.attributes & FILE_ATTRIBUTE_READONLY) &&
	    !(tree->share_flags & SMBSRV_SHARE_FLAGS_STORE_DOS_ATTRIBUTES))
		mode &= ~0222;
	return mode;
}

/*
 * NT ACLs (vfs objects = acl_xattr, acl.c): the parent's descriptor must
 * let the user add the object, and a SecD context must be one the user
 * may give; then the new object's descriptor is inherited or given.
 */
static u32 smbsrv_create_acl_check(struct smbsrv_tree *tree,
				   struct smbsrv_create *c,
				   struct smbsrv_lookup *lk, bool dir)
{
	const struct smb2_create_ctx *x = &c->r.ctx[SMB2_CTX_SD_BUFFER];
	u32 status;

	status = smbsrv_acl_may_create(tree, &lk->parent, dir);
	if (!status && smb2_create_has(&c->r, SMB2_CTX_SD_BUFFER))
		status = smbsrv_acl_check_secd(tree, x->data, x->data_len);
	return status;
}

static u32 smbsrv_create_acl_set(struct smbsrv_tree *tree,
				 struct smbsrv_create *c,
				 struct smbsrv_lookup *lk, bool dir)
{
	const struct smb2_create_ctx *x = &c->r.ctx[SMB2_CTX_SD_BUFFER];
	const struct smbsrv_share_info *s = tree->share;
	bool secd = smb2_create_has(&c->r, SMB2_CTX_SD_BUFFER);

	return smbsrv_acl_new_object(tree, &lk->parent, &c->obj, dir,
				     secd ? x->data : NULL,
				     secd ? x->data_len : 0,
				     dir ? s->directory_mask : s->create_mask,
				     dir ? s->force_directory_mode :
					   s->force_create_mode);
}

/* A name that does not exist yet. */
static u32 smbsrv_create_new(struct smbsrv_req *req, struct smbsrv_create *c,
			     struct smbsrv_lookup *lk)
{
	struct smbsrv_tree *tree = c->tree;
	bool dir = c->r.options & FILE_DIRECTORY_FILE;
	struct smbsrv_dir_actor actor;
	bool acl = tree->share_flags & SMBSRV_SHARE_FLAGS_ACL_XATTR;
	umode_t mode;
	u32 status;
	int err;

	if (tree->snapshot)
		return smbsrv_snap_create_new(c->r.disposition);
	if (c->r.disposition == FILE_OPEN || c->r.disposition == FILE_OVERWRITE)
		return STATUS_OBJECT_NAME_NOT_FOUND;
	if (tree->share_flags & SMBSRV_SHARE_FLAGS_READ_ONLY)
		return STATUS_ACCESS_DENIED;
	/* A standalone server cannot encrypt files. */
	if (c->r.attributes & FILE_ATTRIBUTE_ENCRYPTED)
		return STATUS_ACCESS_DENIED;
	/* A new read-only file cannot be deleted on close (MS-FSA 2.1.5.1.1). */
	if ((c->r.options & FILE_DELETE_ON_CLOSE) &&
	    (c->r.attributes & FILE_ATTRIBUTE_READONLY))
		return STATUS_CANNOT_DELETE;
	if (acl) {
		status = smbsrv_create_acl_check(tree, c, lk, dir);
		if (status)
			return status;
	}
	/*
	 * With NT ACLs, mode 0 until the descriptor is in place (acl.c); a
	 * POSIX open's new object has the mode its client asked for (Samba).
	 */
	if (acl)
		mode = 0;
	else if (c->posix_mode)
		mode = c->posix_perms;
	else
		mode = smbsrv_create_mode(tree, c, lk, dir);
	smbsrv_dir_actor_begin(&actor, req->conn->client_guid, &c->cr);
	err = smbsrv_vfs_create(lk, mode, dir);
	smbsrv_dir_actor_end(&actor);
	if (err)
		return smbsrv_errno_status(err);
	c->obj.mnt = mntget(lk->parent.mnt);
	c->obj.dentry = dget(lk->dentry);
	smbsrv_vfs_lookup_unlock(lk);
	/*
	 * The kernel applied its umask; the share's modes are what count,
	 * and the set-group-ID bit a directory gets from its parent stays.
	 * With NT ACLs the descriptor sets the mode (acl.c).
	 */
	if (dir && !acl && !c->posix_mode)
		mode |= d_inode(c->obj.dentry)->i_mode & S_ISGID;
	err = acl ? 0 : smbsrv_vfs_chmod(&c->obj, mode);
	if (err)
		pr_debug("smbsrv: mode of %s: error %d\n", c->path, err);
	if (acl) {
		status = smbsrv_create_acl_set(tree, c, lk, dir);
		if (status) {
			/* Nothing is left behind by a CREATE that failed. */
			smbsrv_vfs_remove(&c->obj);
			return status;
		}
	}
	c->created = true;
	c->action = FILE_CREATED;
	if (dir)
		c->flags |= SMBSRV_FILE_DIR;
	c->maximal = smbsrv_vfs_maximal_access(tree, &c->obj);
	c->mxac_set = false;	/* the existing object a retry saw is gone */
	/*
	 * The creator gets what it asked for; MAXIMUM_ALLOWED on an object
	 * that did not exist is all of it, whatever its new mode (Samba),
	 * as open(O_CREAT | O_RDWR) with mode 0444 writes on POSIX.
	 */
	c->granted = c->access | (c->max_allowed ? FILE_ALL_ACCESS : 0);
	return STATUS_SUCCESS;
}

/* An existing object: the checks MS-FSA makes before opening it. */
static u32 smbsrv_create_existing(struct smbsrv_req *req,
				  struct smbsrv_create *c)
{
	struct smbsrv_tree *tree = c->tree;
	struct inode *inode = d_inode(c->obj.dentry);
	u32 disp = c->r.disposition, need, attrs;
	bool dir = S_ISDIR(inode->i_mode);
	int err;

	if (disp == FILE_CREATE)
		return STATUS_OBJECT_NAME_COLLISION;
	if (tree->snapshot) {
		c->flags |= SMBSRV_FILE_SNAPSHOT;
		err = smbsrv_snap_create_existing(disp, c->r.options);
		if (err)
			return err;
	}
	if (S_ISLNK(inode->i_mode)) {
		/* Only as itself, for its reparse data. */
		c->flags |= SMBSRV_FILE_REPARSE;
		if (disp != FILE_OPEN && disp != FILE_OPEN_IF)
			return STATUS_ACCESS_DENIED;
	} else if (c->posix && smbsrv_posix_special(inode->i_mode)) {
		/*
		 * A POSIX client sees an NFS-style reparse point, opened only
		 * as itself (O_PATH), as Samba serves it.
		 */
		if (!(c->r.options & FILE_OPEN_REPARSE_POINT))
			return STATUS_IO_REPARSE_TAG_NOT_HANDLED;
		c->flags |= SMBSRV_FILE_REPARSE;
		if (disp != FILE_OPEN && disp != FILE_OPEN_IF)
			return STATUS_ACCESS_DENIED;
	} else if (!dir && !S_ISREG(inode->i_mode)) {
		/* Devices, FIFOs and sockets are not served. */
		return STATUS_ACCESS_DENIED;
	}
	if (dir && (c->r.options & FILE_NON_DIRECTORY_FILE))
		return STATUS_FILE_IS_A_DIRECTORY;
	if (!dir && (c->r.options & FILE_DIRECTORY_FILE))
		return STATUS_NOT_A_DIRECTORY;
	/* "dir::$DATA" names a data stream a directory does not have. */
	if (dir && c->data_stream)
		return c->r.options & FILE_DIRECTORY_FILE ?
		       STATUS_NOT_A_DIRECTORY : STATUS_FILE_IS_A_DIRECTORY;
	c->overwrite = disp == FILE_SUPERSEDE || disp == FILE_OVERWRITE ||
		       disp == FILE_OVERWRITE_IF;
	if (dir && c->overwrite)
		return STATUS_INVALID_PARAMETER;
	if (dir)
		c->flags |= SMBSRV_FILE_DIR;

	err = smbsrv_vfs_getattr(tree, &c->obj, &c->fa);
	if (err)
		return smbsrv_errno_status(err);
	attrs = c->fa.attributes;
	c->maximal = smbsrv_vfs_maximal_access(tree, &c->obj);
	c->mxac = c->maximal;
	c->mxac_set = true;
	/* A read-only file keeps its data (MS-FSA 2.1.5.1.2). */
	if (!dir && (attrs & FILE_ATTRIBUTE_READONLY)) {
		c->maximal &= ~(FILE_WRITE_DATA | FILE_APPEND_DATA);
		if (c->overwrite)
			return STATUS_ACCESS_DENIED;
		if (c->r.options & FILE_DELETE_ON_CLOSE)
			return STATUS_CANNOT_DELETE;
	}
	need = c->access;
	if (c->overwrite) {
		need |= FILE_WRITE_DATA;
		/*
		 * Hidden and system files stay so, or stay as they are; a
		 * name the share reports hidden (hide dot files, hide files)
		 * is not a hidden file (smbtorture's smb2.dosmode).
		 */
		attrs = c->fa.own_attributes;
		if (((attrs & FILE_ATTRIBUTE_HIDDEN) &&
		     !(c->r.attributes & FILE_ATTRIBUTE_HIDDEN)) ||
		    ((attrs & FILE_ATTRIBUTE_SYSTEM) &&
		     !(c->r.attributes & FILE_ATTRIBUTE_SYSTEM)))
			return STATUS_ACCESS_DENIED;
	}
	/*
	 * SYNCHRONIZE too is the descriptor's to grant, as on Windows and
	 * Samba (the mode always grants it).
	 */
	if (need & ~c->maximal)
		return STATUS_ACCESS_DENIED;
	c->granted = c->access | (c->max_allowed ? c->maximal : 0);
	if ((c->r.options & FILE_DELETE_ON_CLOSE) && !(c->granted & DELETE))
		return STATUS_ACCESS_DENIED;
	c->action = disp == FILE_SUPERSEDE ? FILE_SUPERSEDED :
		    c->overwrite ? FILE_OVERWRITTEN : FILE_OPENED;
	return STATUS_SUCCESS;
}

/*
 * A symlink met as the last component, without FILE_OPEN_REPARSE_POINT, on
 * a share that does not follow symlinks: STATUS_STOPPED_ON_SYMLINK carrying
 * its target (MS-SMB2 3.3.5.9, 2.2.2.2.1), as Windows answers, so that the
 * client resolves it itself.  The server never follows it.
 */
static u32 smbsrv_create_stopped_on_symlink(struct smbsrv_req *req,
					    struct dentry *dentry, bool posix)
{
	DEFINE_DELAYED_CALL(done);
	const char *target;
	u32 status = STATUS_STOPPED_ON_SYMLINK, cap;
	u8 *data, *body;
	int n;

	target = vfs_get_link(dentry, &done);
	if (IS_ERR(target))
		return smbsrv_errno_status(PTR_ERR(target));
	/* Two UTF-16 names of at most two bytes per byte, and the header. */
	cap = 32 + 4 * strlen(target);
	data = kmalloc(cap, GFP_KERNEL);
	n = data ? smb_symlink_error_encode(data, cap, target, strlen(target),
					   target[0] != '/', posix, 0) :
		   -ENOMEM;
	do_delayed_call(&done);
	if (n < 0) {
		kfree(data);
		/* A target SMB cannot carry: refused as before. */
		return n == -ENOMEM ? STATUS_INSUFFICIENT_RESOURCES :
				      STATUS_ACCESS_DENIED;
	}
	body = smbsrv_rsp_body(req, smb2_error_data_size(n));
	if (body)
		req->rsp_len = SMB2_HDR_SIZE +
			smb2_error_data_encode(body, req->conn->dialect ==
					       SMB2_DIALECT_311, data, n);
	else
		status = STATUS_INSUFFICIENT_RESOURCES;
	kfree(data);
	return status;
}

/* Find or make the object; c->obj is set on success. */
static u32 smbsrv_create_lookup(struct smbsrv_req *req,
				struct smbsrv_create *c)
{
	struct smbsrv_tree *tree = c->tree;
	struct smbsrv_lookup lk;
	bool follow, may_create;
	u32 status;
	int err;

	/* Where the name may be created, write access first (vfs.h). */
	may_create = c->r.disposition != FILE_OPEN &&
		     c->r.disposition != FILE_OVERWRITE &&
		     !(tree->share_flags & SMBSRV_SHARE_FLAGS_READ_ONLY) &&
		     !tree->snapshot;
	/* A POSIX open names exactly what it spells. */
	if (c->posix)
		err = smbsrv_vfs_lookup_exact(tree, c->path, may_create, &lk);
	else
		err = smbsrv_vfs_lookup(tree, c->path, may_create, &lk);
	if (err) {
		/* Something on the way is missing or not a directory. */
		if (err == -ENOENT || err == -ENOTDIR)
			return STATUS_OBJECT_PATH_NOT_FOUND;
		return smbsrv_errno_status(err);
	}
	if (d_really_is_negative(lk.dentry)) {
		status = smbsrv_create_new(req, c, &lk);
		smbsrv_vfs_lookup_end(&lk);
		return status;
	}
	follow = d_is_symlink(lk.dentry) &&
		 !(c->r.options & FILE_OPEN_REPARSE_POINT);
	/* The server follows no symlink of a POSIX open (Samba). */
	if (follow && (c->posix ||
		       !(tree->share_flags & SMBSRV_SHARE_FLAGS_FOLLOW_SYMLINKS))) {
		status = smbsrv_create_stopped_on_symlink(req, lk.dentry,
							  c->posix);
		smbsrv_vfs_lookup_end(&lk);
		return status;
	}
	if (!follow) {
		c->obj.mnt = mntget(lk.parent.mnt);
		c->obj.dentry = dget(lk.dentry);
	}
	smbsrv_vfs_lookup_end(&lk);
	if (follow) {
		/* Only where the share follows symlinks, beneath the root. */
		err = smbsrv_vfs_resolve(tree, c->path, &c->obj);
		if (err)
			return smbsrv_errno_status(err);
	}
	return smbsrv_create_existing(req, c);
}

/* The creation time of a new object: its mtime, the time it was made. */
static u64 smbsrv_new_time(const struct path *path)
{
	struct timespec64 t = inode_get_mtime(d_inode(path->dentry));

	return smb_nttime(t.tv_sec, (u32)t.tv_nsec);
}

/* ---- client caching (cache.c) -------------------------------------------- */

/*
 * An existing object is about to be opened: break the caching this open
 * conflicts with.  SMBSRV_CACHE_WAIT: wait for c->wait_fn, run again.
 */
static u32 smbsrv_create_cache_check(struct smbsrv_req *req,
				     struct smbsrv_create *c)
{
	if (c->created || (c->flags & SMBSRV_FILE_REPARSE))
		return STATUS_SUCCESS;
	/* An overwrite writes, whatever access was asked for. */
	c->cr.access = c->granted | (c->overwrite ? FILE_WRITE_DATA : 0);
	c->cr.dir = c->flags & SMBSRV_FILE_DIR;
	return smbsrv_cache_open_check(req->tree, d_inode(c->obj.dentry), NULL,
				       &c->cr, c->retry, &c->wait_fn,
				       &c->wait_gen);
}

/* The open is registered: what caching it gets. */
static u32 smbsrv_create_cache_grant(struct smbsrv_create *c)
{
	c->cr.access = c->granted | (c->overwrite ? FILE_WRITE_DATA : 0);
	c->cr.dir = c->flags & SMBSRV_FILE_DIR;
	return smbsrv_cache_grant(c->f, &c->cr, &c->ca);
}

/* After the open is registered: truncate, attributes, EAs, allocation. */
static u32 smbsrv_create_finish(struct smbsrv_req *req,
				struct smbsrv_create *c)
{
	struct smbsrv_tree *tree = c->tree;
	struct smb_dosattr da = {};
	u64 alloc;
	int err;

	if (c->overwrite) {
		err = vfs_truncate(&c->obj, 0);
		if (err)
			return smbsrv_errno_status(err);
		/* A new file's data: the named streams go with the old. */
		if (tree->share_flags & SMBSRV_SHARE_FLAGS_STREAMS) {
			err = smbsrv_stream_remove_all(&c->obj);
			if (err)
				return smbsrv_errno_status(err);
		}
	}
	if ((c->created || c->overwrite) &&
	    (tree->share_flags & SMBSRV_SHARE_FLAGS_STORE_DOS_ATTRIBUTES)) {
		/* What the client asked for, ARCHIVE for files (MS-FSA). */
		da.valid = SMB_DOSINFO_ATTRIB;
		da.attrib = c->r.attributes & FILE_ATTRIBUTE_KEPT;
		if (!(c->flags & SMBSRV_FILE_DIR))
			da.attrib |= FILE_ATTRIBUTE_ARCHIVE;
		if (c->created) {
			/* A new file's times are all one (as on Windows). */
			da.valid |= SMB_DOSINFO_CREATE_TIME;
			da.create_time = smbsrv_new_time(&c->obj);
		} else if (c->fa.creation_time) {
			da.valid |= SMB_DOSINFO_CREATE_TIME;
			da.create_time = c->fa.creation_time;
		}
		err = smbsrv_vfs_set_dosattr(&c->obj, &da);
		if (err && err != -EOPNOTSUPP)
			pr_debug("smbsrv: DOS attributes of %s: error %d\n",
				 c->path, err);
	}
	if ((c->created || c->overwrite) &&
	    smb2_create_has(&c->r, SMB2_CTX_EA_BUFFER))
		smbsrv_create_set_eas(c);
	if ((c->created || c->overwrite) && !(c->flags & SMBSRV_FILE_DIR) &&
	    smb2_create_has(&c->r, SMB2_CTX_ALLOCATION_SIZE)) {
		alloc = get_unaligned_le64(c->r.ctx[SMB2_CTX_ALLOCATION_SIZE].data);
		if (alloc && alloc <= MAX_LFS_FILESIZE) {
			err = vfs_fallocate(c->f->filp, FALLOC_FL_KEEP_SIZE, 0,
					    alloc);
			if (err && err != -EOPNOTSUPP)
				return smbsrv_errno_status(err);
		}
	}
	if (c->created)
		smbsrv_notify_created_done(d_inode(c->obj.dentry));
	err = smbsrv_vfs_getattr(tree, &c->obj, &c->fa);
	return smbsrv_errno_status(err);
}

static u32 smbsrv_create_open(struct smbsrv_req *req, struct smbsrv_create *c)
{
	struct file *filp;
	bool write;
	u32 status;

	status = smbsrv_create_lookup(req, c);
	if (status)
		return status;
	status = smbsrv_create_cache_check(req, c);
	if (status)
		return status;
	/* A snapshot is never written: its opens only read (snap.h). */
	write = !c->tree->snapshot &&
		((c->granted & (FILE_WRITE_DATA | FILE_APPEND_DATA)) ||
		 c->overwrite);
	filp = smbsrv_vfs_open(&c->obj, write);
	if (IS_ERR(filp))
		return smbsrv_errno_status(PTR_ERR(filp));
	if (c->r.options & FILE_DELETE_ON_CLOSE)
		c->flags |= SMBSRV_FILE_DELETE_ON_CLOSE;
	if (c->posix)
		c->flags |= SMBSRV_FILE_POSIX;
	if (c->overwrite)
		c->flags |= SMBSRV_FILE_OVERWRITE;
	status = smbsrv_file_open(req->tree, filp, c->path, NULL, c->granted,
				  c->r.share & FILE_SHARE_ALL, c->r.options,
				  c->flags, &c->f, &c->wait_fn, &c->wait_gen);
	if (status)
		goto undo;
	status = smbsrv_create_cache_grant(c);
	if (!status)
		status = smbsrv_create_finish(req, c);
	if (!status) {
		c->dur.action = c->action;
		c->dur_granted = smbsrv_durable_grant(c->f, &c->dur);
	}
	if (status) {
		smbsrv_open_end(&c->f->open);
		smbsrv_file_put(c->f);
		c->f = NULL;
		goto undo;
	}
	return STATUS_SUCCESS;
undo:
	/* Nothing is left behind by a CREATE that failed. */
	if (c->created)
		smbsrv_vfs_remove(&c->obj);
	return status;
}

/* The attributes a stream open reports: its base's, its own sizes. */
static u32 smbsrv_create_stream_attrs(struct smbsrv_req *req,
				      struct smbsrv_create *c)
{
	ssize_t size;
	int err;

	err = smbsrv_vfs_getattr(c->tree, &c->obj, &c->fa);
	if (err)
		return smbsrv_errno_status(err);
	size = smbsrv_stream_size(c->f);
	if (size < 0)
		return smbsrv_errno_status(size);
	c->fa.eof = size;
	c->fa.allocation = smbsrv_stream_allocation(size);
	c->fa.attributes &= ~FILE_ATTRIBUTE_DIRECTORY;
	if (!c->fa.attributes)
		c->fa.attributes = FILE_ATTRIBUTE_NORMAL;
	return STATUS_SUCCESS;
}

/*
 * A named stream (share with vfs objects = streams_xattr): the base file
 * is found, or created as an OPEN_IF would, with the access checks of
 * the base (a stream has its base's security); then the stream's xattr
 * is opened, created or emptied as the disposition says, after sharing
 * was checked against the other opens of that stream.
 */
static u32 smbsrv_create_stream(struct smbsrv_req *req,
				struct smbsrv_create *c)
{
	u32 disp = c->r.disposition, options = c->r.options, status;
	struct smb_dosattr da = {};
	bool exists, made = false, afp;
	struct file *filp;
	char *xname;
	int err;

	if (options & FILE_DIRECTORY_FILE)
		return STATUS_NOT_A_DIRECTORY;
	/* The base: opened as it is, or created when the stream may be. */
	c->r.disposition = disp == FILE_OPEN || disp == FILE_OVERWRITE ?
			   FILE_OPEN : FILE_OPEN_IF;
	c->r.options &= ~FILE_NON_DIRECTORY_FILE;
	status = smbsrv_create_lookup(req, c);
	c->r.disposition = disp;
	c->r.options = options;
	if (status)
		return status;
	if (c->flags & SMBSRV_FILE_REPARSE) {
		status = STATUS_ACCESS_DENIED;
		goto undo;
	}
	c->flags &= ~SMBSRV_FILE_DIR;
	/* An Apple stream: a "._" file beside the base is converted first. */
	if (smbsrv_fruit_tree(req->tree) &&
	    smb_afp_stream_kind(c->stream, strlen(c->stream)) != SMB_AFP_NONE)
		smbsrv_fruit_convert(req->tree, &c->obj);
	/* AFP_AfpInfo on a fruit share: kept where fruit:metadata says. */
	afp = smbsrv_fruit_tree(req->tree) &&
	      smb_afp_stream_kind(c->stream, strlen(c->stream)) == SMB_AFP_INFO;
	if (afp) {
		xname = smbsrv_fruit_afp_xname(req->tree, &c->obj, &exists);
		c->flags |= SMBSRV_FILE_AFPINFO;
		if (smbsrv_fruit_has(req->tree,
				     SMBSRV_FRUIT_FLAGS_METADATA_NETATALK))
			c->flags |= SMBSRV_FILE_AFP_NETATALK;
	} else {
		xname = smbsrv_stream_resolve(c->obj.dentry, c->stream,
					      strlen(c->stream), &exists);
		if (smbsrv_fruit_tree(req->tree) &&
		    smb_afp_stream_kind(c->stream, strlen(c->stream)) ==
		    SMB_AFP_RESOURCE)
			c->flags |= SMBSRV_FILE_AFPRESOURCE;
	}
	if (IS_ERR(xname)) {
		status = PTR_ERR(xname) == -EINVAL ? STATUS_OBJECT_NAME_INVALID :
			 smbsrv_errno_status(PTR_ERR(xname));
		goto undo;
	}
	c->overwrite = false;
	if (c->tree->snapshot) {
		status = exists ? smbsrv_snap_create_existing(disp, options) :
				  smbsrv_snap_create_new(disp);
		if (status)
			goto out;
	}
	/*
	 * To a Mac an empty stream does not exist (Samba: FILE_OPEN of a
	 * stream of size 0 is OBJECT_NAME_NOT_FOUND once AAPL is on).
	 */
	if (exists && !afp && disp == FILE_OPEN &&
	    READ_ONCE(req->conn->aapl) && smbsrv_fruit_tree(req->tree) &&
	    !__vfs_getxattr(c->obj.dentry, d_inode(c->obj.dentry), xname,
			    NULL, 0)) {
		status = STATUS_OBJECT_NAME_NOT_FOUND;
		goto out;
	}
	if (exists) {
		if (disp == FILE_CREATE) {
			status = STATUS_OBJECT_NAME_COLLISION;
			goto out;
		}
		c->overwrite = disp == FILE_SUPERSEDE ||
			       disp == FILE_OVERWRITE ||
			       disp == FILE_OVERWRITE_IF;
		if (c->overwrite && !(c->maximal & FILE_WRITE_DATA)) {
			status = STATUS_ACCESS_DENIED;
			goto out;
		}
		if (!c->created)
			c->action = disp == FILE_SUPERSEDE ? FILE_SUPERSEDED :
				    c->overwrite ? FILE_OVERWRITTEN :
						   FILE_OPENED;
	} else {
		if (disp == FILE_OPEN || disp == FILE_OVERWRITE) {
			status = STATUS_OBJECT_NAME_NOT_FOUND;
			goto out;
		}
		if (req->tree->share_flags & SMBSRV_SHARE_FLAGS_READ_ONLY) {
			status = STATUS_ACCESS_DENIED;
			goto out;
		}
		c->action = FILE_CREATED;
	}
	if (exists) {
		c->cr.access = c->granted | (c->overwrite ? FILE_WRITE_DATA : 0);
		status = smbsrv_cache_open_check(req->tree,
						 d_inode(c->obj.dentry), xname,
						 &c->cr, c->retry, &c->wait_fn,
						 &c->wait_gen);
		if (status)
			goto out;
	}
	filp = dentry_open(&c->obj, O_PATH, current_cred());
	if (IS_ERR(filp)) {
		status = smbsrv_errno_status(PTR_ERR(filp));
		goto out;
	}
	if (options & FILE_DELETE_ON_CLOSE)
		c->flags |= SMBSRV_FILE_DELETE_ON_CLOSE;
	if (c->posix)
		c->flags |= SMBSRV_FILE_POSIX;
	if (c->overwrite)
		c->flags |= SMBSRV_FILE_OVERWRITE;
	status = smbsrv_file_open(req->tree, filp, c->path, xname, c->granted,
				  c->r.share & FILE_SHARE_ALL, options,
				  c->flags | SMBSRV_FILE_STREAM, &c->f,
				  &c->wait_fn, &c->wait_gen);
	if (status)
		goto out;
	status = smbsrv_create_cache_grant(c);
	if (status)
		goto close;
	/*
	 * Sharing allowed it: now the stream may be made or emptied.  An
	 * AfpInfo is kept only once written; overwritten, it goes.
	 */
	if (afp && c->overwrite) {
		err = smbsrv_stream_remove(&c->obj, xname);
		if (err && err != -ENOENT) {
			status = smbsrv_errno_status(err);
			goto close;
		}
	} else if (!afp && (!exists || c->overwrite)) {
		err = smbsrv_stream_set_empty(&c->obj, xname);
		if (err) {
			status = smbsrv_errno_status(err);
			goto close;
		}
		made = !exists;
	}
	if (c->created &&
	    (req->tree->share_flags & SMBSRV_SHARE_FLAGS_STORE_DOS_ATTRIBUTES)) {
		da.valid = SMB_DOSINFO_ATTRIB | SMB_DOSINFO_CREATE_TIME;
		da.attrib = FILE_ATTRIBUTE_ARCHIVE;
		da.create_time = smbsrv_new_time(&c->obj);
		err = smbsrv_vfs_set_dosattr(&c->obj, &da);
		if (err && err != -EOPNOTSUPP)
			pr_debug("smbsrv: DOS attributes of %s: error %d\n",
				 c->path, err);
	}
	status = smbsrv_create_stream_attrs(req, c);
	if (!status)
		goto out;
close:
	smbsrv_open_end(&c->f->open);
	smbsrv_file_put(c->f);
	c->f = NULL;
	if (made)
		smbsrv_stream_remove(&c->obj, xname);
out:
	kfree(xname);
undo:
	if (status && c->created)
		smbsrv_vfs_remove(&c->obj);
	return status;
}

/*
 * A durable v2 CREATE goes to wait for breaks: its CreateGuid is taken
 * until it ends, so that a replay of it (on another channel, say, the
 * client having given this one up) is told to try again later rather
 * than opening the file a second time.  SMBSRV_CACHE_WAIT, or the status
 * it ends with now.
 */
static u32 smbsrv_create_pend(struct smbsrv_req *req, struct smbsrv_create *c)
{
	struct smbsrv_durable_pending *p;

	if (c->dur.version != 2 || req->dur_pending)
		return SMBSRV_CACHE_WAIT;
	p = smbsrv_durable_pend(req->conn->client_guid, c->dur.create_guid,
				req->sess);
	if (!IS_ERR_OR_NULL(p)) {
		req->dur_pending = p;
		return SMBSRV_CACHE_WAIT;
	}
	smbsrv_fnode_put(c->wait_fn);
	c->wait_fn = NULL;
	if (!p)
		return STATUS_INSUFFICIENT_RESOURCES;
	/* Another CREATE with this GUID started waiting meanwhile. */
	return c->dur.replay ? STATUS_FILE_NOT_AVAILABLE :
			       STATUS_DUPLICATE_OBJECTID;
}

/*
 * One attempt at the CREATE; SMBSRV_CACHE_WAIT when it must wait for
 * breaks of other clients' caching (*wait, *gen: on what) and run again.
 */
static u32 smbsrv_create_once(struct smbsrv_req *req, bool retry,
			      struct smbsrv_fnode **wait, u32 *gen)
{
	struct smbsrv_tree *tree = req->tree;
	const struct cred *old;
	struct smbsrv_create *c;
	bool replayed;
	u32 status;
	int err;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return STATUS_INSUFFICIENT_RESOURCES;
	c->retry = retry;
	c->tree = tree;
	status = smb2_create_req_decode(req->pdu, req->pdu_len, &c->r);
	if (status)
		goto out;
	status = smbsrv_create_cache_ctx(req, c);
	if (status)
		goto out;
	status = smbsrv_create_durable_ctx(req, c);
	if (status)
		goto out;
	status = smbsrv_fruit_create_ctx(req, c);
	if (status)
		goto out;
	c->path = kmalloc(SMBSRV_PATH_MAX, GFP_KERNEL);
	if (!c->path) {
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto out;
	}
	/* A reconnect is no new open: none of its checks apply. */
	if (smb2_create_has(&c->r, SMB2_CTX_DURABLE_RECONNECT) ||
	    smb2_create_has(&c->r, SMB2_CTX_DURABLE_RECONNECT_V2)) {
		status = smb_name_to_path(c->r.name, c->r.name_len, c->path,
					  SMBSRV_PATH_MAX, &c->stream);
		if (!status)
			status = smbsrv_create_reconnect(req, c);
		goto done;
	}
	status = smbsrv_create_check(c);
	if (status)
		goto out;
	/* Where the client negotiated them and the share offers them. */
	if (smb2_create_has(&c->r, SMB2_CTX_POSIX) && smbsrv_posix_tree(req)) {
		err = smb2_posix_cc_decode(c->r.ctx[SMB2_CTX_POSIX].data,
					   c->r.ctx[SMB2_CTX_POSIX].data_len,
					   &c->posix_perms);
		if (err < 0) {
			status = STATUS_INVALID_PARAMETER;
			goto out;
		}
		c->posix = true;
		c->posix_mode = err;
	}
	if (smb2_create_has(&c->r, SMB2_CTX_EA_BUFFER)) {
		status = smbsrv_create_check_eas(&c->r.ctx[SMB2_CTX_EA_BUFFER]);
		if (status)
			goto out;
	}
	status = smb_name_to_path(c->r.name, c->r.name_len, c->path,
				  SMBSRV_PATH_MAX, &c->stream);
	if (status)
		goto out;
	/* A previous version: a view of the tree in that snapshot. */
	status = smbsrv_snap_create_tree(req, &c->r, c->path, &c->tree);
	if (status)
		goto out;
	/* "name::$DATA": the data stream, which a directory does not have. */
	if (c->stream && !*c->stream) {
		c->stream = NULL;
		c->data_stream = true;
	}
	/* Named streams where the share keeps them: as a file system without. */
	if (c->stream && !(tree->share_flags & SMBSRV_SHARE_FLAGS_STREAMS)) {
		status = STATUS_OBJECT_NAME_INVALID;
		goto out;
	}
	/* Vetoed names are neither visible nor accessible. */
	if (tree->share->veto_files &&
	    smb_veto_path(tree->share->veto_files, c->path)) {
		status = STATUS_OBJECT_NAME_NOT_FOUND;
		goto out;
	}
	status = smbsrv_create_replay(req, c, &replayed);
	if (status || replayed)
		goto done;

	old = smbsrv_vfs_creds_begin(tree);
	if (c->stream)
		status = smbsrv_create_stream(req, c);
	else
		status = smbsrv_create_open(req, c);
	smbsrv_vfs_creds_end(old);
	if (status)
		goto out;
	status = smbsrv_create_reply(req, c);
	if (status) {
		smbsrv_open_end(&c->f->open);
		goto out;
	}
	/*
	 * Its ChannelSequence starts at the CREATE's; a replay of a DH2Q
	 * CREATE, durable or not, answers with it until a request names it
	 * (3.3.5.9.10).
	 */
	smbsrv_open_chseq_init(&c->f->open, smbsrv_req_csn(req),
			       c->dur.version == 2);
done:
	/* Requests related to this one use the new open. */
	if (!status) {
		req->fid_persistent = c->f->open.id_persistent;
		req->fid_volatile = c->f->open.id_volatile;
	}
out:
	/*
	 * Audited: the open with the access granted, or the failure with the
	 * access asked for (a wait for breaks is neither yet).
	 */
	if (status != SMBSRV_CACHE_WAIT &&
	    smbsrv_audit_wants(tree, SMBSRV_AUDIT_OP_CREATE_FILE, status))
		smbsrv_audit_tree(tree, SMBSRV_AUDIT_OP_CREATE_FILE, status,
				  c->path && c->path[0] ? c->path : ".", NULL,
				  status ? c->r.access : c->f->access);
	if (status == SMBSRV_CACHE_WAIT)
		status = smbsrv_create_pend(req, c);
	if (status == SMBSRV_CACHE_WAIT) {
		*wait = c->wait_fn;
		*gen = c->wait_gen;
	} else if (status) {
		pr_debug("smbsrv: CREATE %s: disposition %u options %#x access %#x attributes %#x share %#x: status %#x\n",
			 c->path ? c->path : "-", c->r.disposition, c->r.options,
			 c->r.access, c->r.attributes, c->r.share, status);
	}
	if (c->f)
		smbsrv_file_put(c->f);
	if (c->obj.dentry)
		path_put(&c->obj);
	smbsrv_snap_create_end(req, c->tree);
	kfree(c->path);
	kfree(c);
	return status;
}

u32 smbsrv_smb2_create(struct smbsrv_req *req)
{
	struct smbsrv_fnode *fn;
	u32 status, gen;

	if (req->tree->share_flags & SMBSRV_SHARE_FLAGS_IPC)
		return smbsrv_pipe_create(req);
	status = smbsrv_create_once(req, req->async, &fn, &gen);
	if (status != SMBSRV_CACHE_WAIT)
		return status;
	/* Parked: this runs again when the breaks are answered. */
	return smbsrv_cache_park(req, fn, gen, smbsrv_smb2_create);
}
