/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: "hosts allow" / "hosts deny" of [global] at accept time.
 *
 * The daemon sends the rules at startup (server attribute host-rules,
 * format in wire/hosts.h); they are kept behind RCU and every accepted
 * connection is checked against them before anything is read from it.
 * Per-share rules are the daemon's tree-connect decision.
 */
#ifndef _SMBSRV_HOSTS_H
#define _SMBSRV_HOSTS_H

#include <linux/socket.h>
#include <linux/types.h>

/*
 * Replace the rules (@len 0: none, everybody allowed).  -EINVAL when the
 * array is malformed (nothing changed), -ENOMEM.
 */
int smbsrv_hosts_set(const void *rules, u32 len);
/* Whether a peer (IPv4-mapped addresses already IPv4) may connect. */
bool smbsrv_hosts_admit(const struct sockaddr_storage *peer);
/* Module exit: no reader is left. */
void smbsrv_hosts_exit(void);

#endif /* _SMBSRV_HOSTS_H */
