/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: CHANGE_NOTIFY over fsnotify (smb2/notify.c).
 */
#ifndef _SMBSRV_SMB2_NOTIFY_H
#define _SMBSRV_SMB2_NOTIFY_H

#include <linux/types.h>

struct inode;
struct smbsrv_file;
struct smbsrv_req;

/* The module's fsnotify group (module init and exit). */
int smbsrv_notify_init(void);
void smbsrv_notify_exit(void);

u32 smbsrv_smb2_change_notify(struct smbsrv_req *req);

/*
 * The proto.h ops of an open's close and of a directory pending deletion:
 * the open's watch goes and its waiting requests end with
 * STATUS_NOTIFY_CLEANUP; requests waiting on @inode end with
 * STATUS_DELETE_PENDING (as on Windows).
 */
void smbsrv_notify_close(struct smbsrv_file *f);
void smbsrv_notify_delete_pending(struct inode *inode);

/*
 * The CREATE that made @inode has set it up (DOS attributes, EAs, mode):
 * the attribute changes that followed its creation were not reported;
 * from now on they are.
 */
void smbsrv_notify_created_done(struct inode *inode);

#endif /* _SMBSRV_SMB2_NOTIFY_H */
