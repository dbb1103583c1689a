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
#include "file.h"
#include "fnode.h"
#include "fold.h"
#include "session.h"
#include "times.h"
#include "upcall.h"
#include "vfs.h"
#include "wtime.h"
#include "wire/fscc.h"
#include "wire/name.h"
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

/* Whether names on @tree are matched without case (fold.h). */
static bool smbsrv_vfs_folds(const struct smbsrv_tree *tree)
{
	return !(tree->share_flags & SMBSRV_SHARE_FLAGS_CASE_SENSITIVE);
}

/* @path beneath @tree's root: a directory on the way, or the object. */
static int smbsrv_vfs_walk(const struct smbsrv_tree *tree, const char *path,
			   unsigned int flags, struct path *out)
{
	int err, i;

	if (!*path) {
		*out = tree->root;
		path_get(out);
		return 0;
	}
	for (i = 0; i < SMBSRV_LOOKUP_TRIES; i++) {
		err = vfs_path_lookup(tree->root.dentry, tree->root.mnt, path,
				      smbsrv_vfs_lookup_flags(tree) | flags,
				      out);
		if (err != -EAGAIN)
			break;
	}
	return err;
}

/*
 * @path with each existing component spelt as on disk, found without
 * case where the spelling misses (the last one too when @last).  Each
 * directory is reached from the root by the same confined walk as any
 * lookup, and only names read from those directories replace the
 * client's, so the result names nothing a lookup of @path could not
 * reach but for case.  A component that cannot be matched, and all
 * after it, stay as they were (the caller's lookup then fails as it
 * would have).  Returns a kmalloc'ed path, or NULL.
 */
static char *smbsrv_vfs_fold_path(const struct smbsrv_tree *tree,
				  const char *path, bool last)
{
	const char *comp = path, *end;
	struct dentry *d;
	struct path dir;
	size_t len, olen = 0;
	char *out, *real;
	bool keep = false;
	u64 version;
	int found;

	out = kmalloc(PATH_MAX + NAME_MAX + 1, GFP_KERNEL);
	if (!out)
		return NULL;
	real = out + PATH_MAX;
	out[0] = 0;
	for (; *comp; comp = *end ? end + 1 : end) {
		end = strchrnul(comp, '/');
		len = end - comp;
		if (keep || (!*end && !last) ||
		    smbsrv_vfs_walk(tree, out, LOOKUP_FOLLOW | LOOKUP_DIRECTORY,
				    &dir)) {
			keep = true;
			goto append;
		}
		d = lookup_one_unlocked(mnt_idmap(dir.mnt), comp, dir.dentry,
					len);
		found = 0;
		if (!IS_ERR(d)) {
			found = d_really_is_positive(d);
			dput(d);
		}
		if (!found && !IS_ERR(d)) {
			found = smbsrv_fold_find(&dir, comp, len, real,
						 &version);
			if (found > 0) {
				comp = real;
				len = strlen(real);
			}
		}
		path_put(&dir);
		if (found <= 0)
			keep = true;
append:
		if (olen + !!olen + len >= PATH_MAX) {
			kfree(out);
			return NULL;
		}
		if (olen)
			out[olen++] = '/';
		memcpy(out + olen, comp, len);
		olen += len;
		out[olen] = 0;
	}
	return out;
}

/* The parent of @path, locked, and the last component's dentry. */
static int smbsrv_vfs_lookup_once(const struct smbsrv_tree *tree,
				  const char *path, bool write,
				  struct smbsrv_lookup *lk)
{
	unsigned int flags = smbsrv_vfs_lookup_flags(tree);
	struct filename *name;
	struct dentry *d;
	struct qstr last;
	int err, i;

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
	if (write) {
		lk->write_err = mnt_want_write(lk->parent.mnt);
		lk->write = !lk->write_err;
	}
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

/* Tries for a steady answer in a directory that keeps changing. */
#define SMBSRV_FOLD_LOOKUPS	3

/*
 * The last component missed as spelt (@lk: parent locked, dentry
 * negative): an entry equal to it without case becomes @lk's dentry.
 * The directory is read unlocked (fold.c), so the answer is taken only
 * if the directory did not change until it is locked again; otherwise
 * the miss stands, as a lookup racing with a create would have missed.
 */
static int smbsrv_vfs_lookup_fold(struct smbsrv_lookup *lk)
{
	struct inode *pdir = d_inode(lk->parent.dentry);
	struct mnt_idmap *idmap = mnt_idmap(lk->parent.mnt);
	u32 len = lk->dentry->d_name.len;
	struct dentry *d;
	char *want, *real;
	int found, i, err = 0;
	u64 version;

	want = kmalloc(2 * (NAME_MAX + 1), GFP_KERNEL);
	if (!want)
		return -ENOMEM;
	real = want + NAME_MAX + 1;
	memcpy(want, lk->dentry->d_name.name, len);
	want[len] = 0;
	for (i = 0; i < SMBSRV_FOLD_LOOKUPS; i++) {
		/* Write access stays: it is taken before the lock. */
		inode_unlock(pdir);
		lk->locked = false;
		found = smbsrv_fold_find(&lk->parent, want, len, real,
					 &version);
		inode_lock_nested(pdir, I_MUTEX_PARENT);
		lk->locked = true;
		/* Made meanwhile as spelt: that is the one. */
		d = lookup_one(idmap, want, lk->parent.dentry, len);
		if (IS_ERR(d)) {
			err = PTR_ERR(d);
			break;
		}
		dput(lk->dentry);
		lk->dentry = d;
		if (found < 0 || d_really_is_positive(d))
			break;
		if (!smbsrv_fold_still(pdir, version))
			continue;
		if (!found)
			break;
		d = lookup_one(idmap, real, lk->parent.dentry, strlen(real));
		if (IS_ERR(d)) {
			err = PTR_ERR(d);
			break;
		}
		if (d_really_is_positive(d)) {
			dput(lk->dentry);
			lk->dentry = d;
			break;
		}
		dput(d);
	}
	kfree(want);
	return err;
}

static int smbsrv_vfs_lookup_as(const struct smbsrv_tree *tree,
				const char *path, bool write, bool fold,
				struct smbsrv_lookup *lk)
{
	char *folded;
	int err;

	memset(lk, 0, sizeof(*lk));
	if (!*path) {
		lk->root = true;
		lk->parent = tree->root;
		path_get(&lk->parent);
		lk->dentry = dget(tree->root.dentry);
		return 0;
	}
	err = smbsrv_vfs_lookup_once(tree, path, write, lk);
	if (!fold)
		return err;
	/* A directory on the way missed as spelt: spell it as on disk. */
	if (err == -ENOENT || err == -ENOTDIR) {
		folded = smbsrv_vfs_fold_path(tree, path, false);
		if (!folded)
			return err;
		if (strcmp(folded, path))
			err = smbsrv_vfs_lookup_once(tree, folded, write, lk);
		kfree(folded);
	}
	if (!err && d_really_is_negative(lk->dentry)) {
		err = smbsrv_vfs_lookup_fold(lk);
		if (err)
			smbsrv_vfs_lookup_end(lk);
	}
	return err;
}

int smbsrv_vfs_lookup(const struct smbsrv_tree *tree, const char *path,
		      bool write, struct smbsrv_lookup *lk)
{
	return smbsrv_vfs_lookup_as(tree, path, write, smbsrv_vfs_folds(tree),
				    lk);
}

int smbsrv_vfs_lookup_exact(const struct smbsrv_tree *tree, const char *path,
			    bool write, struct smbsrv_lookup *lk)
{
	return smbsrv_vfs_lookup_as(tree, path, write, false, lk);
}

int smbsrv_vfs_parent(const struct smbsrv_tree *tree, const char *path,
		      struct path *parent, struct qstr *last,
		      struct filename **name)
{
	const char *spelt = path;
	char *folded = NULL;
	int err, i;

again:
	err = -EAGAIN;
	for (i = 0; i < SMBSRV_LOOKUP_TRIES && err == -EAGAIN; i++) {
		*name = getname_kernel(spelt);
		if (IS_ERR(*name)) {
			err = PTR_ERR(*name);
			break;
		}
		err = vfs_path_parent_lookup(*name,
					     smbsrv_vfs_lookup_flags(tree),
					     parent, last, &tree->root);
		if (err)
			putname(*name);
	}
	if ((err == -ENOENT || err == -ENOTDIR) && !folded &&
	    smbsrv_vfs_folds(tree)) {
		folded = smbsrv_vfs_fold_path(tree, path, false);
		if (folded && strcmp(folded, path)) {
			spelt = folded;
			goto again;
		}
	}
	kfree(folded);
	return err;
}

int smbsrv_vfs_fold_last(const struct smbsrv_tree *tree,
			 const struct path *parent, const struct qstr *last,
			 char *real, u64 *version)
{
	char want[NAME_MAX + 1];

	*real = 0;
	*version = 0;
	if (!smbsrv_vfs_folds(tree) || last->len > NAME_MAX)
		return 0;
	memcpy(want, last->name, last->len);
	want[last->len] = 0;
	return smbsrv_fold_find(parent, want, last->len, real, version);
}

void smbsrv_vfs_lookup_unlock(struct smbsrv_lookup *lk)
{
	if (lk->locked) {
		inode_unlock(d_inode(lk->parent.dentry));
		lk->locked = false;
	}
	if (lk->write) {
		mnt_drop_write(lk->parent.mnt);
		lk->write = false;
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
	char *folded;
	int err;

	err = smbsrv_vfs_walk(tree, path, LOOKUP_FOLLOW, out);
	if (err != -ENOENT && err != -ENOTDIR)
		return err;
	if (!smbsrv_vfs_folds(tree))
		return err;
	folded = smbsrv_vfs_fold_path(tree, path, true);
	if (folded && strcmp(folded, path))
		err = smbsrv_vfs_walk(tree, folded, LOOKUP_FOLLOW, out);
	kfree(folded);
	return err;
}

int smbsrv_vfs_create(struct smbsrv_lookup *lk, umode_t mode, bool dir)
{
	struct mnt_idmap *idmap = mnt_idmap(lk->parent.mnt);
	struct inode *pdir = d_inode(lk->parent.dentry);
	u64 version;
	int err;

	if (lk->root || !lk->locked || d_really_is_positive(lk->dentry))
		return -EEXIST;
	/* Write access must come before the parent's lock (lookup). */
	if (!lk->write)
		return lk->write_err ?: -EROFS;
	version = smbsrv_fold_version(pdir);
	if (dir)
		err = vfs_mkdir(idmap, pdir, lk->dentry, mode);
	else
		err = vfs_create(idmap, pdir, lk->dentry, mode, true);
	if (!err)
		smbsrv_fold_changed(pdir, version, lk->dentry->d_name.name,
				    lk->dentry->d_name.len, true);
	/* A filesystem may leave the dentry unhashed (and so negative). */
	if (!err && d_really_is_negative(lk->dentry))
		err = -ENOENT;
	return err;
}

struct file *smbsrv_vfs_open(const struct path *path, bool write)
{
	struct inode *inode = d_inode(path->dentry);
	int flags = O_LARGEFILE;

	/* Symlinks and special files only as themselves, never as devices. */
	if (S_ISLNK(inode->i_mode) || S_ISFIFO(inode->i_mode) ||
	    S_ISSOCK(inode->i_mode) || S_ISCHR(inode->i_mode) ||
	    S_ISBLK(inode->i_mode))
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
	u64 version;
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
		version = smbsrv_fold_version(pdir);
		if (d_is_dir(dentry))
			err = vfs_rmdir(idmap, pdir, dentry);
		else
			err = vfs_unlink(idmap, pdir, dentry, NULL);
		if (!err)
			smbsrv_fold_changed(pdir, version, dentry->d_name.name,
					    dentry->d_name.len, false);
	}
	inode_unlock(pdir);
	dput(parent);
	dput(dentry);
	mnt_drop_write(path->mnt);
	return err;
}

/* ---- access ------------------------------------------------------------- */

/*
 * Permission for @mask, for access reporting.  A snapshot may be a
 * read-only file system (a read-only btrfs snapshot): there access is what
 * the permissions give, as Samba's shadow_copy2 reports it, and the open
 * never writes (smb2/snap.h).
 */
static int smbsrv_vfs_permission(const struct smbsrv_tree *tree,
				 struct mnt_idmap *idmap, struct inode *inode,
				 int mask)
{
	if (tree->snapshot)
		return generic_permission(idmap, inode, mask);
	return inode_permission(idmap, inode, mask);
}

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
	ok = !smbsrv_vfs_permission(tree, idmap, pdir, MAY_WRITE | MAY_EXEC) &&
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

	if (!smbsrv_vfs_permission(tree, idmap, inode, MAY_READ)) {
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
	if (!smbsrv_vfs_permission(tree, idmap, inode, MAY_WRITE)) {
		a |= FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_WRITE_EA |
		     FILE_WRITE_ATTRIBUTES;
		if (dir && !smbsrv_vfs_permission(tree, idmap, inode, MAY_EXEC))
			a |= FILE_DELETE_CHILD;
	}
	/* A directory's x bit is TRAVERSE: searching it. */
	if (dir && !smbsrv_vfs_permission(tree, idmap, inode, MAY_EXEC))
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

/* Hidden by its name: `hide dot files`, `hide files` (never the root). */
static bool smbsrv_vfs_hidden(const struct smbsrv_tree *tree,
			      struct dentry *dentry)
{
	const char *hide = tree->share->hide_files;
	bool hidden;

	if (dentry == tree->root.dentry)
		return false;
	if ((tree->share_flags & SMBSRV_SHARE_FLAGS_HIDE_DOT_FILES) &&
	    dentry->d_name.name[0] == '.')
		return true;
	if (!hide)
		return false;
	/* A stable copy of the name against a rename. */
	spin_lock(&dentry->d_lock);
	hidden = smb_veto_match(hide, (const char *)dentry->d_name.name,
				dentry->d_name.len);
	spin_unlock(&dentry->d_lock);
	return hidden;
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
	fa->write_time = smbsrv_wtime_report(d_inode(path->dentry),
					     smbsrv_ts(st.mtime));
	fa->change_time = smbsrv_times_change(d_inode(path->dentry), st.ctime);
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
	fa->uid = from_kuid(&init_user_ns, st.uid);
	fa->gid = from_kgid(&init_user_ns, st.gid);
	fa->rdev = st.rdev;

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
	fa->own_attributes = attr;
	if (smbsrv_vfs_hidden(tree, path->dentry))
		attr |= FILE_ATTRIBUTE_HIDDEN;
	fa->attributes = attr ? attr : FILE_ATTRIBUTE_NORMAL;
	return 0;
}
