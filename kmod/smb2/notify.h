/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: CHANGE_NOTIFY over fsnotify (smb2/notify.c).  The hooks that
 * end waiting requests when an open closes are in entry.h.
 */
#ifndef _SMBSRV_SMB2_NOTIFY_H
#define _SMBSRV_SMB2_NOTIFY_H

#include <linux/types.h>

struct inode;
struct smbsrv_req;

/* The module's fsnotify group (module init and exit). */
int smbsrv_notify_init(void);
void smbsrv_notify_exit(void);

u32 smbsrv_smb2_change_notify(struct smbsrv_req *req);

/*
 * The CREATE that made @inode has set it up (DOS attributes, EAs, mode):
 * the attribute changes that followed its creation were not reported;
 * from now on they are.
 */
void smbsrv_notify_created_done(struct inode *inode);

#endif /* _SMBSRV_SMB2_NOTIFY_H */
