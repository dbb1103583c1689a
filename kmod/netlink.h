/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the generic netlink family shared with smbsrvd and smbsrvctl.
 */
#ifndef _SMBSRV_NETLINK_H
#define _SMBSRV_NETLINK_H

int smbsrv_netlink_init(void);
void smbsrv_netlink_exit(void);

#endif /* _SMBSRV_NETLINK_H */
