// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: EAs as user.* xattrs (see ea.h).
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/xattr.h>

#include "ea.h"
#include "vfs.h"
#include "wire/info.h"

ssize_t smbsrv_ea_names(struct dentry *dentry, char **list)
{
	ssize_t len, n;
	char *buf;

	*list = NULL;
	len = vfs_listxattr(dentry, NULL, 0);
	if (len <= 0)
		return len == -EOPNOTSUPP ? 0 : len;
	if (len > XATTR_LIST_MAX)
		len = XATTR_LIST_MAX;
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	n = vfs_listxattr(dentry, buf, len);
	if (n <= 0) {
		kvfree(buf);
		return n == -EOPNOTSUPP ? 0 : n;
	}
	*list = buf;
	return n;
}

bool smbsrv_ea_is_ea(const char *xattr, const char **name)
{
	if (strncmp(xattr, XATTR_USER_PREFIX, XATTR_USER_PREFIX_LEN))
		return false;
	*name = xattr + XATTR_USER_PREFIX_LEN;
	/* EaNameLength is one byte; an empty name is no EA. */
	return **name && strlen(*name) <= 255 && !smbsrv_vfs_private_ea(*name);
}

u32 smbsrv_ea_size(struct dentry *dentry)
{
	const char *name;
	char *list;
	ssize_t len, v;
	u32 size = 0;
	char *p;

	len = smbsrv_ea_names(dentry, &list);
	if (len <= 0)
		return 0;
	for (p = list; p < list + len; p += strlen(p) + 1) {
		if (!smbsrv_ea_is_ea(p, &name))
			continue;
		v = vfs_getxattr(&nop_mnt_idmap, dentry, p, NULL, 0);
		if (v < 0 || v > 0xffff)
			continue;
		size += smb_ea_entry_padded(strlen(name), v);
	}
	kvfree(list);
	return size;
}
