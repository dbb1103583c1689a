/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: TCP listener and connection transport.
 */
#ifndef _SMBSRV_TRANSPORT_H
#define _SMBSRV_TRANSPORT_H

#include <linux/types.h>

struct smbsrv_listener;

struct smbsrv_listener *smbsrv_listener_start(u16 port);
void smbsrv_listener_stop(struct smbsrv_listener *l);
u16 smbsrv_listener_port(const struct smbsrv_listener *l);

#endif /* _SMBSRV_TRANSPORT_H */
