/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: ChangeTimes clients set (SET_INFO FileBasicInformation).
 *
 * Linux cannot set an inode's ctime, so a ChangeTime a client sets is
 * kept here, by inode (super block, number, generation), with the ctime
 * the set left: it is reported for as long as the inode's ctime is still
 * that one (nothing changed the file since), whether the file is open or
 * not, until the module is unloaded.  At most SMBSRV_TIMES_MAX inodes,
 * the least recently set forgotten first (reporting the real ctime).
 */
#ifndef _SMBSRV_TIMES_H
#define _SMBSRV_TIMES_H

#include <linux/fs.h>
#include <linux/types.h>

#define SMBSRV_TIMES_MAX	4096

/* Remember @nt (NT time) as @inode's ChangeTime, with its ctime now. */
void smbsrv_times_set_change(struct inode *inode, u64 nt);

/* The ChangeTime set for @inode whose ctime is @ctime; 0 when none. */
u64 smbsrv_times_change(struct inode *inode, struct timespec64 ctime);

void smbsrv_times_exit(void);

#endif /* _SMBSRV_TIMES_H */
