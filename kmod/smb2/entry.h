/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the protocol layer's module init and exit (main.c).
 *
 * smbsrv_smb2_init() registers what smb2/ does for the layers below it
 * (proto.h: connections, received messages, closing opens) and for
 * client caching (cache.h: break notifications); smbsrv_smb2_exit()
 * clears them, once no connection is left.
 */
#ifndef _SMBSRV_SMB2_ENTRY_H
#define _SMBSRV_SMB2_ENTRY_H

int smbsrv_smb2_init(void);
void smbsrv_smb2_exit(void);

#endif /* _SMBSRV_SMB2_ENTRY_H */
