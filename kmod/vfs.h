/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the VFS below a share root.
 *
 * Every path a client names is resolved beneath its tree's root
 * (LOOKUP_BENEATH: no "..", absolute symlink or magic link leads out;
 * LOOKUP_NO_SYMLINKS unless the share follows symlinks; LOOKUP_NO_XDEV
 * unless it crosses mounts), and every call here must run with the
 * tree's credentials in force (smbsrv_vfs_creds_begin()): permission
 * checks are the kernel's own, made as the session user.
 */
#ifndef _SMBSRV_VFS_H
#define _SMBSRV_VFS_H

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/path.h>
#include <linux/types.h>

#include "wire/dosattr.h"

struct smbsrv_share_info;
struct smbsrv_tree;

/*
 * The credentials file access on a tree runs with: the session's, with
 * the share's `force user` / `force group` applied (a forced user also
 * loses the session user's supplementary groups, and capabilities unless
 * it is root).  NULL when out of memory.
 */
const struct cred *smbsrv_vfs_tree_cred(const struct cred *sess,
					const struct smbsrv_share_info *share);

/* Run VFS calls as the tree's user: old = begin(tree) ... end(old). */
const struct cred *smbsrv_vfs_creds_begin(const struct smbsrv_tree *tree);
void smbsrv_vfs_creds_end(const struct cred *old);

/* Lookup flags confining a walk to a tree (see above). */
unsigned int smbsrv_vfs_lookup_flags(const struct smbsrv_tree *tree);

/*
 * A name looked up for CREATE: its parent directory, locked, and the
 * dentry (negative when nothing has that name).  For the share root
 * itself (path "") there is no parent: @root is set and @dentry is the
 * root's.  A lookup for writing holds write access to the parent's
 * mount (mnt_want_write()) while the parent is locked, taken before the
 * lock as the kernel orders them (freeze protection, then the
 * directory); @write_err is why it could not be had (-EROFS), which
 * matters only if something is then written.
 */
struct smbsrv_lookup {
	struct path parent;
	struct dentry *dentry;
	int write_err;
	bool root;
	bool locked;
	bool write;
};

/*
 * Look up @path ('/'-separated, relative, no "." or ".." components: as
 * smb_name_to_path() makes them) beneath @tree's root.  On success the
 * parent is locked (I_MUTEX_PARENT) until smbsrv_vfs_lookup_unlock() or
 * smbsrv_vfs_lookup_end(), so the name can be created without a race;
 * with @write, under write access to its mount (see above).  On a share
 * without case (`case sensitive = no`), a component that misses as spelt
 * is matched without case (fold.h), the last one under the parent's lock,
 * so that a create never adds a second name differing only in case; the
 * walk is the same confined one.  Returns 0 or -errno (-ENOENT or
 * -ENOTDIR: a directory on the way is missing; -EXDEV, -ELOOP: the walk
 * would leave the root or cross what the share forbids).
 */
int smbsrv_vfs_lookup(const struct smbsrv_tree *tree, const char *path,
		      bool write, struct smbsrv_lookup *lk);
/*
 * The same, with names matched only as spelt whatever `case sensitive`
 * says: for the opens of clients using the POSIX extensions.
 */
int smbsrv_vfs_lookup_exact(const struct smbsrv_tree *tree, const char *path,
			    bool write, struct smbsrv_lookup *lk);
/* Unlock the parent and drop write access (idempotent); then the rest. */
void smbsrv_vfs_lookup_unlock(struct smbsrv_lookup *lk);
void smbsrv_vfs_lookup_end(struct smbsrv_lookup *lk);

/*
 * For the new name of a rename or link: the parent of @path beneath the
 * root (referenced, not locked) and its last component in @last, which
 * points into *@name (putname() it).  Directories on the way are
 * matched without case as lookups match them.
 */
int smbsrv_vfs_parent(const struct smbsrv_tree *tree, const char *path,
		      struct path *parent, struct qstr *last,
		      struct filename **name);

/*
 * On a share without case: the entry of @parent equal to @last without
 * case, its real name in @real (NAME_MAX + 1 bytes; "" when none).
 * Returns 1, 0 or -errno; the answer holds under @parent's lock while
 * smbsrv_fold_still(dir, *@version) (fold.h).  On a case-sensitive share
 * always 0, version 0.
 */
int smbsrv_vfs_fold_last(const struct smbsrv_tree *tree,
			 const struct path *parent, const struct qstr *last,
			 char *real, u64 *version);

/*
 * Resolve @path to the object itself, following a final symlink beneath
 * the root when the share allows symlinks (used for an existing name
 * that is a symlink).  Returns 0 with @out referenced, or -errno.
 */
int smbsrv_vfs_resolve(const struct smbsrv_tree *tree, const char *path,
		       struct path *out);

/* Create a regular file or directory for a negative @lk->dentry. */
int smbsrv_vfs_create(struct smbsrv_lookup *lk, umode_t mode, bool dir);

/*
 * Open @path for smbsrv: read always (access is enforced by the granted
 * mask, permission was checked at CREATE), write when @write; O_PATH for
 * a symlink, FIFO, socket or device node opened as itself.
 */
struct file *smbsrv_vfs_open(const struct path *path, bool write);

/* Unlink or rmdir what @path names, if it still has that name. */
int smbsrv_vfs_remove(const struct path *path);

/*
 * Access a user has to an existing object, as an access mask (MS-DTYP
 * 2.4.3) built from the POSIX permissions: r/w/x of the inode, DELETE
 * from the parent directory (write and search, sticky bit rules), the
 * owner's WRITE_DAC/WRITE_OWNER/WRITE_ATTRIBUTES, READ_ATTRIBUTES,
 * READ_CONTROL and SYNCHRONIZE always.  Nothing that modifies on a
 * read-only tree.
 */
u32 smbsrv_vfs_maximal_access(const struct smbsrv_tree *tree,
			      const struct path *path);

/* Attributes of an object as SMB reports them. */
struct smbsrv_fattr {
	u64 creation_time;	/* NT times */
	u64 access_time;
	u64 write_time;
	u64 change_time;
	u64 allocation;		/* 0 for directories */
	u64 eof;		/* 0 for directories */
	u64 ino;
	u64 dev;
	u32 attributes;		/* FILE_ATTRIBUTE_* */
	/* ... but HIDDEN only as stored (not by hide dot files/hide files) */
	u32 own_attributes;
	u32 nlink;
	umode_t mode;
	u32 uid;		/* owner and group (the POSIX extensions) */
	u32 gid;
	dev_t rdev;		/* a device node's number */
};

/*
 * Fill @fa for @path: times, sizes and the DOS attributes (from the
 * "user.DOSATTRIB" xattr when the share stores them, else from the mode:
 * DIRECTORY, ARCHIVE for files, READONLY without owner write permission;
 * HIDDEN also for dot files under `hide dot files` and names matching
 * `hide files`; NORMAL when none).
 */
int smbsrv_vfs_getattr(const struct smbsrv_tree *tree, const struct path *path,
		       struct smbsrv_fattr *fa);

/* The stored DOS attributes and creation time; -ENODATA when none. */
int smbsrv_vfs_get_dosattr(struct dentry *dentry, struct smb_dosattr *da);
int smbsrv_vfs_set_dosattr(const struct path *path,
			   const struct smb_dosattr *da);

/* Set the permission bits of @path to @mode (if they differ). */
int smbsrv_vfs_chmod(const struct path *path, umode_t mode);

/*
 * Whether "user.@name" is an xattr smbsrv (and Samba) keep for themselves
 * (DOSATTRIB, DosStream.*) rather than a client's EA.
 */
bool smbsrv_vfs_private_ea(const char *name);

/*
 * Set (or with @len 0 remove) the extended attribute "user.@name", the
 * way EAs are kept (as Samba and ksmbd keep them).  Names smbsrv uses
 * for itself (DOSATTRIB, stream data) are refused with -EPERM.
 */
int smbsrv_vfs_set_ea(const struct path *path, const char *name,
		      const void *value, u32 len);

#endif /* _SMBSRV_VFS_H */
