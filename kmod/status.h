/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: errnos (from the VFS, xattrs, allocations) as the NTSTATUS a
 * client gets for them.  Below the objects: vfs.c and acl.c both map
 * their errors with it.
 */
#ifndef _SMBSRV_STATUS_H
#define _SMBSRV_STATUS_H

#include <linux/types.h>

/* The NTSTATUS for @err (0 or a negative errno). */
u32 smbsrv_errno_status(int err);

#endif
