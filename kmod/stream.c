// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: named streams in extended attributes (see stream.h).
 */
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/slab.h>
#include <linux/xattr.h>

#include "afp.h"
#include "ea.h"
#include "file.h"
#include "fnode.h"
#include "stream.h"
#include "wire/info.h"
#include "wire/stream.h"

char *smbsrv_stream_resolve(struct dentry *dentry, const char *name, u32 len,
			    bool *exists)
{
	const char *s;
	char *list, *p, *xname;
	ssize_t n;
	u32 slen;
	int err;

	xname = kmalloc(SMB_STREAM_XATTR_NAME_MAX + 1, GFP_KERNEL);
	if (!xname)
		return ERR_PTR(-ENOMEM);
	err = smb_stream_xattr_name(name, len, xname,
				    SMB_STREAM_XATTR_NAME_MAX + 1);
	if (err < 0) {
		kfree(xname);
		return ERR_PTR(err);
	}
	*exists = false;
	n = smbsrv_ea_names(dentry, &list);
	if (n < 0) {
		kfree(xname);
		return ERR_PTR(n);
	}
	for (p = list; p && p < list + n; p += strlen(p) + 1) {
		s = smb_stream_of_xattr(p, strnlen(p, list + n - p), &slen);
		if (s && smb_stream_name_eq(s, slen, name, len)) {
			/* The name as it was created. */
			strscpy(xname, p, SMB_STREAM_XATTR_NAME_MAX + 1);
			*exists = true;
			break;
		}
	}
	kvfree(list);
	return xname;
}

static int smbsrv_stream_setx(const struct path *path, const char *xname,
			      const void *value, size_t size)
{
	int err;

	err = mnt_want_write(path->mnt);
	if (err)
		return err;
	err = vfs_setxattr(mnt_idmap(path->mnt), path->dentry, xname, value,
			   size, 0);
	mnt_drop_write(path->mnt);
	/* Too big for the file system's xattrs: the disk is full for it. */
	return err == -E2BIG || err == -ERANGE ? -ENOSPC : err;
}

int smbsrv_stream_set_empty(const struct path *path, const char *xname)
{
	return smbsrv_stream_setx(path, xname, "", 0);
}

int smbsrv_stream_remove(const struct path *path, const char *xname)
{
	int err;

	err = mnt_want_write(path->mnt);
	if (err)
		return err;
	err = vfs_removexattr(mnt_idmap(path->mnt), path->dentry, xname);
	mnt_drop_write(path->mnt);
	return err == -ENODATA ? -ENOENT : err;
}

int smbsrv_stream_remove_rsrc(const struct path *path, const char *xname)
{
	/* macOS ignores deleting a resource fork that has data. */
	if (__vfs_getxattr(path->dentry, d_inode(path->dentry), xname, NULL,
			   0) > 0)
		return 0;
	return smbsrv_stream_remove(path, xname);
}

int smbsrv_stream_remove_all(const struct path *path)
{
	char *list, *p;
	int err = 0, e;
	ssize_t n;
	u32 slen;

	n = smbsrv_ea_names(path->dentry, &list);
	if (n <= 0)
		return n;
	for (p = list; p < list + n; p += strlen(p) + 1) {
		if (!smb_stream_of_xattr(p, strnlen(p, list + n - p), &slen))
			continue;
		e = smbsrv_stream_remove(path, p);
		if (e && e != -ENOENT && !err)
			err = e;
	}
	kvfree(list);
	return err;
}

static const char *smbsrv_stream_xname(struct smbsrv_file *f)
{
	return f->fnode->stream;
}

/* The whole value into a kvmalloc()ed buffer of at least @want bytes. */
static ssize_t smbsrv_stream_get(struct smbsrv_file *f, u8 **val, size_t want)
{
	struct dentry *dentry = f->filp->f_path.dentry;
	const char *xname = smbsrv_stream_xname(f);
	ssize_t n, m;
	u8 *buf;

	*val = NULL;
	n = vfs_getxattr(&nop_mnt_idmap, dentry, xname, NULL, 0);
	if (n < 0)
		return n == -ENODATA ? -ENOENT : n;
	buf = kvzalloc(max_t(size_t, max_t(size_t, n, want), 1), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	m = n ? vfs_getxattr(&nop_mnt_idmap, dentry, xname, buf, n) : 0;
	if (m < 0) {
		kvfree(buf);
		/* It grew between the two calls: only under another writer. */
		return m == -ERANGE ? -EAGAIN : m;
	}
	*val = buf;
	return m;
}

/*
 * The size, under fnode->stream_mutex (a rename changes the name).  A
 * stream's size is an attribute, as a file's is to stat(): asking needs
 * no read permission (an open for READ_ATTRIBUTES reports it), so the
 * xattr's length comes without the permission check of a read.
 */
static ssize_t smbsrv_stream_size_locked(struct smbsrv_file *f)
{
	struct dentry *dentry = f->filp->f_path.dentry;
	ssize_t n;

	lockdep_assert_held(&f->fnode->stream_mutex);
	n = __vfs_getxattr(dentry, d_inode(dentry), smbsrv_stream_xname(f),
			   NULL, 0);
	return n == -ENODATA ? -ENOENT : n;
}

/*
 * AFP_AfpInfo (afp.h): always 60 bytes; read from its start; written by
 * macOS's rules (wire/aapl.h), all-zero Finder info removing it.
 */
static bool smbsrv_stream_afp(const struct smbsrv_file *f)
{
	return f->flags & SMBSRV_FILE_AFPINFO;
}

static bool smbsrv_stream_netatalk(const struct smbsrv_file *f)
{
	return f->flags & SMBSRV_FILE_AFP_NETATALK;
}

static ssize_t smbsrv_stream_afp_read(struct smbsrv_file *f, u64 pos,
				      struct iov_iter *to)
{
	u32 n = smb_afpinfo_read_len(pos, min_t(size_t, iov_iter_count(to),
						 SMB_AFPINFO_SIZE));
	u8 val[SMB_AFPINFO_SIZE];
	int err;

	mutex_lock(&f->fnode->stream_mutex);
	err = smbsrv_afp_get(f->filp->f_path.dentry, smbsrv_stream_xname(f),
			     smbsrv_stream_netatalk(f), val);
	mutex_unlock(&f->fnode->stream_mutex);
	if (err == -ENOENT)
		smb_afpinfo_init(val, NULL);	/* created, not written yet */
	else if (err)
		return err;
	return copy_to_iter(val, n, to);
}

static ssize_t smbsrv_stream_afp_write(struct smbsrv_file *f, loff_t *pos,
				       const void *buf, u32 len)
{
	u8 val[SMB_AFPINFO_SIZE];
	bool empty;
	int r, err = 0;

	r = smb_afpinfo_write(buf, len, *pos, val, &empty);
	if (r < 0)
		return r;
	if (r) {
		mutex_lock(&f->fnode->stream_mutex);
		if (empty)
			err = smbsrv_stream_remove(&f->filp->f_path,
						   smbsrv_stream_xname(f));
		else
			err = smbsrv_afp_put(&f->filp->f_path,
					     smbsrv_stream_xname(f),
					     smbsrv_stream_netatalk(f), val);
		mutex_unlock(&f->fnode->stream_mutex);
		if (err == -ENOENT)
			err = 0;
	}
	if (err)
		return err;
	*pos += len;
	return len;
}

ssize_t smbsrv_stream_size(struct smbsrv_file *f)
{
	ssize_t n;

	if (smbsrv_stream_afp(f))
		return SMB_AFPINFO_SIZE;

	mutex_lock(&f->fnode->stream_mutex);
	n = smbsrv_stream_size_locked(f);
	mutex_unlock(&f->fnode->stream_mutex);
	return n;
}

int smbsrv_stream_delete(struct smbsrv_file *f)
{
	int err;

	mutex_lock(&f->fnode->stream_mutex);
	err = smbsrv_stream_remove(&f->filp->f_path, smbsrv_stream_xname(f));
	mutex_unlock(&f->fnode->stream_mutex);
	return err;
}

ssize_t smbsrv_stream_read(struct smbsrv_file *f, u64 pos,
			   struct iov_iter *to)
{
	ssize_t n;
	u8 *val;

	if (smbsrv_stream_afp(f))
		return smbsrv_stream_afp_read(f, pos, to);
	mutex_lock(&f->fnode->stream_mutex);
	n = smbsrv_stream_get(f, &val, 0);
	mutex_unlock(&f->fnode->stream_mutex);
	if (n < 0)
		return n;
	if (pos >= n) {
		n = 0;
	} else {
		n = copy_to_iter(val + pos, min_t(u64, iov_iter_count(to),
						  n - pos), to);
	}
	kvfree(val);
	return n;
}

ssize_t smbsrv_stream_write(struct smbsrv_file *f, loff_t *pos, bool append,
			    const void *buf, u32 len)
{
	size_t start, end;
	ssize_t n;
	u8 *val;
	int err;

	if (!len)
		return 0;
	if (smbsrv_stream_afp(f))
		return smbsrv_stream_afp_write(f, pos, buf, len);
	mutex_lock(&f->fnode->stream_mutex);
	n = append ? smbsrv_stream_size_locked(f) : *pos;
	if (n < 0)
		goto out;
	start = n;
	if (start > XATTR_SIZE_MAX || len > XATTR_SIZE_MAX - start) {
		n = -ENOSPC;
		goto out;
	}
	end = start + len;
	n = smbsrv_stream_get(f, &val, end);
	if (n < 0)
		goto out;
	memcpy(val + start, buf, len);
	err = smbsrv_stream_setx(&f->filp->f_path, smbsrv_stream_xname(f), val,
				 max_t(size_t, n, end));
	kvfree(val);
	n = err ? err : len;
	if (!err)
		*pos = end;
out:
	mutex_unlock(&f->fnode->stream_mutex);
	return n;
}

int smbsrv_stream_truncate(struct smbsrv_file *f, u64 size)
{
	ssize_t n;
	u8 *val;
	int err;

	/* AfpInfo: up to 60 bytes succeeds and changes nothing (macOS). */
	if (smbsrv_stream_afp(f))
		return smb_afpinfo_eof_ok(size) ? 0 : -EOVERFLOW;
	if (size > XATTR_SIZE_MAX)
		return -ENOSPC;
	mutex_lock(&f->fnode->stream_mutex);
	n = smbsrv_stream_get(f, &val, size);
	if (n >= 0) {
		/* A grown value reads as zeros (kvzalloc). */
		if (size < n)
			memset(val + size, 0, n - size);
		err = smbsrv_stream_setx(&f->filp->f_path,
					 smbsrv_stream_xname(f), val, size);
		n = err;
		kvfree(val);
	}
	mutex_unlock(&f->fnode->stream_mutex);
	return n;
}

int smbsrv_stream_rename(struct smbsrv_file *f, const char *name, u32 len,
			 bool replace)
{
	const struct path *path = &f->filp->f_path;
	struct smbsrv_fnode *fn = f->fnode;
	char *xname, *old;
	bool exists;
	ssize_t n;
	u8 *val;
	int err;

	xname = smbsrv_stream_resolve(path->dentry, name, len, &exists);
	if (IS_ERR(xname))
		return PTR_ERR(xname);
	mutex_lock(&fn->stream_mutex);
	if (!strcmp(xname, fn->stream)) {
		err = 0;	/* its own name */
		goto out;
	}
	err = -EEXIST;
	if (exists && !replace)
		goto out;
	n = smbsrv_stream_get(f, &val, 0);
	err = n;
	if (n < 0)
		goto out;
	/* Opens of the old name follow it; the new name must have none. */
	old = kstrdup(fn->stream, GFP_KERNEL);
	err = -ENOMEM;
	if (!old) {
		kvfree(val);
		goto out;
	}
	err = smbsrv_fnode_rekey(fn, &xname);
	if (!err) {
		/* xname is the old name now, fn->stream the new one. */
		err = smbsrv_stream_setx(path, fn->stream, val, n);
		if (!err)
			err = smbsrv_stream_remove(path, old);
		if (err)
			smbsrv_fnode_rekey(fn, &xname);
	}
	kfree(old);
	kvfree(val);
out:
	mutex_unlock(&fn->stream_mutex);
	kfree(xname);
	return err;
}

int smbsrv_stream_list(struct dentry *dentry, struct smb_stream_ent *ents,
		       u32 max, char **list)
{
	const char *s;
	ssize_t n, v;
	u32 slen, i = 0;
	char *p;

	n = smbsrv_ea_names(dentry, list);
	if (n <= 0)
		return n;
	for (p = *list; p < *list + n && i < max; p += strlen(p) + 1) {
		s = smb_stream_of_xattr(p, strnlen(p, *list + n - p), &slen);
		if (!s)
			continue;
		v = vfs_getxattr(&nop_mnt_idmap, dentry, p, NULL, 0);
		if (v < 0)
			continue;
		ents[i].name = s;
		ents[i].name_len = slen;
		ents[i].size = v;
		ents[i].allocation = smbsrv_stream_allocation(v);
		i++;
	}
	return i;
}
