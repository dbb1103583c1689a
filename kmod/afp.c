// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: AFP_AfpInfo in xattrs (see afp.h).
 */
#include <linux/mount.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <linux/xattr.h>

#include "afp.h"

/* The value of @xname, at most @max bytes, into a kmalloc()ed buffer. */
static ssize_t smbsrv_afp_getx(struct dentry *dentry, const char *xname,
			       size_t max, u8 **val)
{
	ssize_t n;

	*val = NULL;
	n = vfs_getxattr(&nop_mnt_idmap, dentry, xname, NULL, 0);
	if (n < 0)
		return n == -ENODATA ? -ENOENT : n;
	if (n > max)
		return -ENOENT;		/* no AfpInfo of ours */
	*val = kzalloc(max_t(size_t, n, 1), GFP_KERNEL);
	if (!*val)
		return -ENOMEM;
	n = n ? vfs_getxattr(&nop_mnt_idmap, dentry, xname, *val, n) : 0;
	if (n < 0) {
		kfree(*val);
		*val = NULL;
		return n == -ENODATA ? -ENOENT : n == -ERANGE ? -EAGAIN : n;
	}
	return n;
}

int smbsrv_afp_get(struct dentry *dentry, const char *xname, bool netatalk,
		   u8 out[SMB_AFPINFO_SIZE])
{
	struct smb_adouble ad;
	ssize_t n;
	u8 *val;
	int err = 0;

	n = smbsrv_afp_getx(dentry, xname, netatalk ? SMBSRV_AFP_NETATALK_MAX :
				    SMB_AFPINFO_SIZE + 1, &val);
	if (n < 0)
		return n;
	if (!netatalk) {
		if (smb_afpinfo_stored_valid(val, n))
			memcpy(out, val, SMB_AFPINFO_SIZE);
		else
			err = -ENOENT;
	} else if (!smb_adouble_parse(val, n, n, false, &ad) &&
		   ad.finder_len) {
		smb_afpinfo_init(out, val + ad.finder_off);
	} else {
		err = -ENOENT;
	}
	kfree(val);
	return err;
}

static int smbsrv_afp_setx(const struct path *path, const char *xname,
			   const void *val, size_t size)
{
	int err;

	err = mnt_want_write(path->mnt);
	if (err)
		return err;
	err = vfs_setxattr(mnt_idmap(path->mnt), path->dentry, xname, val,
			   size, 0);
	mnt_drop_write(path->mnt);
	return err;
}

int smbsrv_afp_put(const struct path *path, const char *xname, bool netatalk,
		   const u8 val[SMB_AFPINFO_SIZE])
{
	const u8 *fi = val + SMB_AFPINFO_FINDER_OFF;
	struct smb_adouble ad;
	u8 buf[SMB_AFPINFO_SIZE + 1];
	ssize_t n;
	u8 *old;
	int err;

	if (!netatalk) {
		/* Samba's streams_xattr layout: the data and a NUL. */
		memcpy(buf, val, SMB_AFPINFO_SIZE);
		buf[SMB_AFPINFO_SIZE] = 0;
		return smbsrv_afp_setx(path, xname, buf, sizeof(buf));
	}
	/* netatalk's blob: its Finder info replaced, the rest kept. */
	n = smbsrv_afp_getx(path->dentry, xname, SMBSRV_AFP_NETATALK_MAX,
			    &old);
	if (n < 0 && n != -ENOENT)
		return n;
	if (n >= 0 && !smb_adouble_parse(old, n, n, false, &ad) &&
	    ad.finder_len) {
		memcpy(old + ad.finder_off, fi, SMB_AFP_FINDER_SIZE);
		err = smbsrv_afp_setx(path, xname, old, n);
		kfree(old);
		return err;
	}
	kfree(old);
	old = kmalloc(SMB_AD_META_SIZE, GFP_KERNEL);
	if (!old)
		return -ENOMEM;
	smb_adouble_meta_init(old, fi, ktime_get_real_seconds());
	err = smbsrv_afp_setx(path, xname, old, SMB_AD_META_SIZE);
	kfree(old);
	return err;
}
