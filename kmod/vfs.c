// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the VFS below a share root (see vfs.h).
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/xattr.h>
#include <uapi/linux/smbsrv.h>

#include "acl.h"
#include "fnode.h"
#include "session.h"
#include "upcall.h"
#include "vfs.h"
#include "wire/fscc.h"
#include "wire/ntstatus.h"

/* ---- credentials -------------------------------------------------------- */

const struct cred *smbsrv_vfs_tree_cred(const struct cred *sess,
					const struct smbsrv_share_info *share)
{
	bool fuid = uid_valid(share->force_uid);
	bool fgid = gid_valid(share->force_gid);
	const struct cred *old;
	struct group_info *gi;
	struct cred *c;

	if (!fuid && !fgid)
		return share->flags & SMBSRV_SHARE_FLAGS_ACL_XATTR ?
		       smbsrv_acl_cred(sess) : get_cred(sess);
	if (fuid) {
		/* Someone else entirely: no groups of the session user. */
		c = prepare_kernel_cred(&init_task);
		if (!c)
			return NULL;
		gi = groups_alloc(0);
		if (!gi) {
			abort_creds(c);
			return NULL;
		}
		set_groups(c, gi);
		put_group_info(gi);
		c->uid = share->force_uid;
		c->euid = c->uid;
		c->suid = c->uid;
		c->fsuid = c->uid;
		c->gid = fgid ? share->force_gid : sess->gid;
		if (!uid_eq(c->uid, GLOBAL_ROOT_UID)) {
			cap_clear(c->cap_inheritable);
			cap_clear(c->cap_permitted);
			cap_clear(c->cap_effective);
			cap_clear(c->cap_ambient);
		}
	} else {
		/* The session user, with another primary group. */
		old = override_creds(sess);
		c = prepare_creds();
		revert_creds(old);
		if (!c)
			return NULL;
		c->gid = share->force_gid;
	}
	c->egid = c->gid;
	c->sgid = c->gid;
	c->fsgid = c->gid;
	if (share->flags & SMBSRV_SHARE_FLAGS_ACL_XATTR)
		smbsrv_acl_cred_caps(c);
	return c;
}

const struct cred *smbsrv_vfs_creds_begin(const struct smbsrv_tree *tree)
{
	return override_creds(tree->cred ? tree->cred : tree->sess->cred);
}

void smbsrv_vfs_creds_end(const struct cred *old)
{
	revert_creds(old);
}

unsigned int smbsrv_vfs_lookup_flags(const struct smbsrv_tree *tree)
{
	unsigned int flags = LOOKUP_BENEATH | LOOKUP_NO_MAGICLINKS;

	if (!(tree->share_flags & SMBSRV_SHARE_FLAGS_FOLLOW_SYMLINKS))
		flags |= LOOKUP_NO_SYMLINKS;
	if (!(tree->share_flags & SMBSRV_SHARE_FLAGS_CROSSMNT))
		flags |= LOOKUP_NO_XDEV;
	return flags;
}

/* ---- lookups ------------------------------------------------------------ */

/* A scoped walk gives up with -EAGAIN when a rename races with it. */
#define SMBSRV_LOOKUP_TRIES	3

int smbsrv_vfs_lookup(const struct smbsrv_tree *tree, const char *path,
		      struct smbsrv_lookup *lk)
{
	unsigned int flags = smbsrv_vfs_lookup_flags(tree);
	struct filename *name;
	struct dentry *d;
	struct qstr last;
	int err, i;

	memset(lk, 0, sizeof(*lk));
	if (!*path) {
		lk->root = true;
		lk->parent = tree->root;
		path_get(&lk->parent);
		lk->dentry = dget(tree->root.dentry);
		return 0;
	}
	for (i = 0; i < SMBSRV_LOOKUP_TRIES; i++) {
		name = getname_kernel(path);
		if (IS_ERR(name))
			return PTR_ERR(name);
		/* The last component is ours to look up, under the lock. */
		err = vfs_path_parent_lookup(name, flags, &lk->parent, &last,
					     &tree->root);
		if (!err)
			break;
		putname(name);
		if (err != -EAGAIN)
			return err;
	}
	if (err)
		return err;
	inode_lock_nested(d_inode(lk->parent.dentry), I_MUTEX_PARENT);
	lk->locked = true;
	/* lookup_one() checks search permission on the parent. */
	d = lookup_one(mnt_idmap(lk->parent.mnt), last.name, lk->parent.dentry,
		       last.len);
	putname(name);
	if (IS_ERR(d)) {
		smbsrv_vfs_lookup_end(lk);
		return PTR_ERR(d);
	}
	lk->dentry = d;
	return 0;
}

void smbsrv_vfs_lookup_unlock(struct smbsrv_lookup *lk)
{
	if (lk->locked) {
		inode_unlock(d_inode(lk->parent.dentry));
		lk->locked = false;
	}
}

void smbsrv_vfs_lookup_end(struct smbsrv_lookup *lk)
{
	smbsrv_vfs_lookup_unlock(lk);
	dput(lk->dentry);
	lk->dentry = NULL;
	if (lk->parent.dentry)
		path_put(&lk->parent);
	memset(&lk->parent, 0, sizeof(lk->parent));
}

int smbsrv_vfs_resolve(const struct smbsrv_tree *tree, const char *path,
		       struct path *out)
{
	unsigned int flags = smbsrv_vfs_lookup_flags(tree) | LOOKUP_FOLLOW;
	int err, i;

	for (i = 0; i < SMBSRV_LOOKUP_TRIES; i++) {
		err = vfs_path_lookup(tree->root.dentry, tree->root.mnt, path,
				      flags, out);
		if (err != -EAGAIN)
			break;
	}
	return err;
}

int smbsrv_vfs_create(struct smbsrv_lookup *lk, umode_t mode, bool dir)
{
	struct mnt_idmap *idmap = mnt_idmap(lk->parent.mnt);
	struct inode *pdir = d_inode(lk->parent.dentry);
	int err;

	if (lk->root || !lk->locked || d_really_is_positive(lk->dentry))
		return -EEXIST;
	err = mnt_want_write(lk->parent.mnt);
	if (err)
		return err;
	if (dir)
		err = vfs_mkdir(idmap, pdir, lk->dentry, mode);
	else
		err = vfs_create(idmap, pdir, lk->dentry, mode, true);
	mnt_drop_write(lk->parent.mnt);
	/* A filesystem may leave the dentry unhashed (and so negative). */
	if (!err && d_really_is_negative(lk->dentry))
		err = -ENOENT;
	return err;
}

struct file *smbsrv_vfs_open(const struct path *path, bool write)
{
	struct inode *inode = d_inode(path->dentry);
	int flags = O_LARGEFILE;

	if (S_ISLNK(inode->i_mode))
		flags = O_PATH | O_NOFOLLOW;
	else if (S_ISDIR(inode->i_mode))
		flags |= O_RDONLY | O_DIRECTORY;
	else
		flags |= write ? O_RDWR : O_RDONLY;
	return dentry_open(path, flags, current_cred());
}

int smbsrv_vfs_remove(const struct path *path)
{
	struct dentry *dentry = path->dentry;
	struct mnt_idmap *idmap = mnt_idmap(path->mnt);
	struct dentry *parent;
	struct inode *pdir;
	int err;

	err = mnt_want_write(path->mnt);
	if (err)
		return err;
	/*
	 * Our own reference: with only the open file's, unlinking would turn
	 * the dentry negative under that file.
	 */
	dget(dentry);
	parent = dget_parent(dentry);
	pdir = d_inode(parent);
	inode_lock_nested(pdir, I_MUTEX_PARENT);
	/* Renamed away or already gone: nothing with this name to remove. */
	err = -ENOENT;
	if (dentry->d_parent == parent && !d_unhashed(dentry) &&
	    d_really_is_positive(dentry)) {
		if (d_is_dir(dentry))
			err = vfs_rmdir(idmap, pdir, dentry);
		else
			err = vfs_unlink(idmap, pdir, dentry, NULL);
	}
	inode_unlock(pdir);
	dput(parent);
	dput(dentry);
	mnt_drop_write(path->mnt);
	return err;
}

/* ---- access ------------------------------------------------------------- */

/* May the current user delete (unlink) what @path names? */
static bool smbsrv_vfs_may_delete(const struct smbsrv_tree *tree,
				  const struct path *path)
{
	struct mnt_idmap *idmap = mnt_idmap(path->mnt);
	struct dentry *parent;
	struct inode *pdir;
	bool ok;

	/* Never the share root, nor across a mount point. */
	if (path->dentry == tree->root.dentry || IS_ROOT(path->dentry))
		return false;
	parent = dget_parent(path->dentry);
	pdir = d_inode(parent);
	ok = !inode_permission(idmap, pdir, MAY_WRITE | MAY_EXEC) &&
	     !check_sticky(idmap, pdir, d_inode(path->dentry)) &&
	     !IS_APPEND(d_inode(path->dentry)) &&
	     !IS_IMMUTABLE(d_inode(path->dentry));
	dput(parent);
	return ok;
}

/*
 * Access from the POSIX permissions alone (a share without NT ACLs), the
 * mapping design.md describes under "Access".
 */
static u32 smbsrv_vfs_mode_access(const struct smbsrv_tree *tree,
				  const struct path *path)
{
	struct mnt_idmap *idmap = mnt_idmap(path->mnt);
	struct inode *inode = d_inode(path->dentry);
	bool dir = S_ISDIR(inode->i_mode);
	u32 a = FILE_READ_ATTRIBUTES | READ_CONTROL | SYNCHRONIZE;

	if (!inode_permission(idmap, inode, MAY_READ)) {
		a |= FILE_READ_DATA | FILE_READ_EA;
		/*
		 * A file's x bit says whether the kernel may execute it
		 * locally; over SMB, EXECUTE only reads the data to run it,
		 * which read permission allows anyway.  So EXECUTE goes with
		 * read, whatever the x bit (Samba's "acl allow execute
		 * always", what ksmbd does by ignoring it): a file made
		 * under "create mask = 0666" opens for GENERIC_ALL.
		 */
		if (!dir)
			a |= FILE_EXECUTE;
	}
	if (!inode_permission(idmap, inode, MAY_WRITE)) {
		a |= FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_WRITE_EA |
		     FILE_WRITE_ATTRIBUTES;
		if (dir && !inode_permission(idmap, inode, MAY_EXEC))
			a |= FILE_DELETE_CHILD;
	}
	/* A directory's x bit is TRAVERSE: searching it. */
	if (dir && !inode_permission(idmap, inode, MAY_EXEC))
		a |= FILE_EXECUTE;
	if (inode_owner_or_capable(idmap, inode))
		a |= WRITE_DAC | WRITE_OWNER | FILE_WRITE_ATTRIBUTES;
	if (smbsrv_vfs_may_delete(tree, path))
		a |= DELETE;
	/* A file with everything but DELETE_CHILD gets that too (Windows). */
	if (!dir && (a & FILE_WRITE_DATA) && (a & FILE_EXECUTE))
		a |= FILE_DELETE_CHILD;
	return a;
}

u32 smbsrv_vfs_maximal_access(const struct smbsrv_tree *tree,
			      const struct path *path)
{
	u32 a;

	if (tree->share_flags & SMBSRV_SHARE_FLAGS_ACL_XATTR)
		return smbsrv_acl_maximal_access(tree, path);
	a = smbsrv_vfs_mode_access(tree, path);
	if (tree->share_flags & SMBSRV_SHARE_FLAGS_READ_ONLY)
		a &= ~FILE_MODIFY_ACCESS;
	return a;
}

/* ---- attributes --------------------------------------------------------- */

int smbsrv_vfs_get_dosattr(struct dentry *dentry, struct smb_dosattr *da)
{
	u8 buf[SMB_DOSATTR_MAX];
	ssize_t n;

	n = vfs_getxattr(&nop_mnt_idmap, dentry, SMB_DOSATTR_XATTR, buf,
			 sizeof(buf));
	if (n == -ERANGE)
		return -EINVAL;	/* longer than any version we know */
	if (n < 0)
		return (int)n;
	return smb_dosattr_decode(buf, (u32)n, da);
}

int smbsrv_vfs_set_dosattr(const struct path *path,
			   const struct smb_dosattr *da)
{
	u8 buf[SMB_DOSATTR_V4_SIZE];
	u32 n = smb_dosattr_encode(buf, da);
	int err;

	err = mnt_want_write(path->mnt);
	if (err)
		return err;
	err = vfs_setxattr(mnt_idmap(path->mnt), path->dentry,
			   SMB_DOSATTR_XATTR, buf, n, 0);
	mnt_drop_write(path->mnt);
	return err;
}

int smbsrv_vfs_chmod(const struct path *path, umode_t mode)
{
	struct inode *inode = d_inode(path->dentry);
	struct iattr ia = {
		.ia_valid = ATTR_MODE | ATTR_CTIME,
	};
	int err;

	if ((inode->i_mode & 07777) == (mode & 07777))
		return 0;
	err = mnt_want_write(path->mnt);
	if (err)
		return err;
	inode_lock(inode);
	ia.ia_mode = (mode & 07777) | (inode->i_mode & S_IFMT);
	err = notify_change(mnt_idmap(path->mnt), path->dentry, &ia, NULL);
	inode_unlock(inode);
	mnt_drop_write(path->mnt);
	return err;
}

bool smbsrv_vfs_private_ea(const char *name)
{
	return !strcasecmp(name, "DOSATTRIB") ||
	       !strncasecmp(name, "DosStream.", 10);
}

int smbsrv_vfs_set_ea(const struct path *path, const char *name,
		      const void *value, u32 len)
{
	char *xname;
	int err;

	if (smbsrv_vfs_private_ea(name))
		return -EPERM;
	xname = kasprintf(GFP_KERNEL, XATTR_USER_PREFIX "%s", name);
	if (!xname)
		return -ENOMEM;
	err = mnt_want_write(path->mnt);
	if (!err) {
		if (len)
			err = vfs_setxattr(mnt_idmap(path->mnt), path->dentry,
					   xname, value, len, 0);
		else
			err = vfs_removexattr(mnt_idmap(path->mnt),
					      path->dentry, xname);
		if (err == -ENODATA)
			err = 0;
		mnt_drop_write(path->mnt);
	}
	kfree(xname);
	return err;
}

static u64 smbsrv_ts(struct timespec64 ts)
{
	return smb_nttime(ts.tv_sec, (u32)ts.tv_nsec);
}

int smbsrv_vfs_getattr(const struct smbsrv_tree *tree, const struct path *path,
		       struct smbsrv_fattr *fa)
{
	struct smb_dosattr da = {};
	struct kstat st;
	bool dir;
	u32 attr;
	int err;

	err = vfs_getattr(path, &st, STATX_BASIC_STATS | STATX_BTIME,
			  AT_STATX_SYNC_AS_STAT);
	if (err)
		return err;
	dir = S_ISDIR(st.mode);
	fa->access_time = smbsrv_ts(st.atime);
	fa->write_time = smbsrv_ts(st.mtime);
	fa->change_time = smbsrv_inode_change_time(d_inode(path->dentry),
						   st.ctime);
	if (!fa->change_time)
		fa->change_time = smbsrv_ts(st.ctime);
	if (st.result_mask & STATX_BTIME)
		fa->creation_time = smbsrv_ts(st.btime);
	else
		fa->creation_time = min(fa->write_time, fa->change_time);
	fa->eof = dir ? 0 : st.size;
	fa->allocation = dir ? 0 : st.blocks << 9;
	fa->ino = st.ino;
	fa->dev = st.dev;
	fa->nlink = st.nlink;
	fa->mode = st.mode;

	if ((tree->share_flags & SMBSRV_SHARE_FLAGS_STORE_DOS_ATTRIBUTES) &&
	    !S_ISLNK(st.mode) && !smbsrv_vfs_get_dosattr(path->dentry, &da)) {
		if (da.valid & SMB_DOSINFO_CREATE_TIME && da.create_time)
			fa->creation_time = da.create_time;
	}
	if (da.valid & SMB_DOSINFO_ATTRIB) {
		/* SPARSE_FILE comes from FSCTL_SET_SPARSE only. */
		attr = da.attrib & (FILE_ATTRIBUTE_KEPT |
				    FILE_ATTRIBUTE_SPARSE_FILE);
	} else {
		attr = dir ? 0 : FILE_ATTRIBUTE_ARCHIVE;
		if (!(st.mode & 0200))
			attr |= FILE_ATTRIBUTE_READONLY;
	}
	if (dir)
		attr |= FILE_ATTRIBUTE_DIRECTORY;
	if (S_ISLNK(st.mode))
		attr |= FILE_ATTRIBUTE_REPARSE_POINT;
	if ((tree->share_flags & SMBSRV_SHARE_FLAGS_HIDE_DOT_FILES) &&
	    path->dentry->d_name.name[0] == '.' &&
	    path->dentry != tree->root.dentry)
		attr |= FILE_ATTRIBUTE_HIDDEN;
	fa->attributes = attr ? attr : FILE_ATTRIBUTE_NORMAL;
	return 0;
}
