/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: extended attributes.
 *
 * An EA is a user.* xattr (as Samba and ksmbd keep them), minus those
 * smbsrv keeps for itself (DOSATTRIB, named streams: vfs.h's
 * smbsrv_vfs_private_ea()).  QUERY_INFO, QUERY_DIRECTORY and the named
 * streams (stream.c) list them through these.
 */
#ifndef _SMBSRV_EA_H
#define _SMBSRV_EA_H

#include <linux/types.h>

struct dentry;

/*
 * The names of @dentry's xattrs into a kvmalloc()ed list (NUL-separated;
 * kvfree() it); returns its length, 0 with *@list NULL when there are
 * none, or -errno.
 */
ssize_t smbsrv_ea_names(struct dentry *dentry, char **list);
/* Whether @xattr (a name from that list) is an EA; *@name is its EA name. */
bool smbsrv_ea_is_ea(const char *xattr, const char **name);
/* FileEaInformation's EaSize: the length of the FILE_FULL_EA list. */
u32 smbsrv_ea_size(struct dentry *dentry);

#endif /* _SMBSRV_EA_H */
