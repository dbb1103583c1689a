/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: reading a whole directory inside the kernel.
 */
#ifndef _SMBSRV_READDIR_H
#define _SMBSRV_READDIR_H

#include <linux/fs.h>
#include <linux/path.h>

/*
 * Read directory @dir through @ctx with the caller's credentials, as
 * getdents(2) does: iterate_dir() again after each pass that handed out
 * entries (FUSE hands out a page of them a call; most file systems all
 * in one), until a pass hands out none or @ctx's actor returns false,
 * which ends the read.
 */
int smbsrv_readdir_all(const struct path *dir, struct dir_context *ctx);

#endif
