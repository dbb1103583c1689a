/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: TCP listener and connection transport.
 */
#ifndef _SMBSRV_TRANSPORT_H
#define _SMBSRV_TRANSPORT_H

#include <linux/socket.h>
#include <linux/types.h>

struct smbsrv_listener;
struct sk_buff;

/* The most addresses one listener binds (interfaces, bind interfaces only). */
#define SMBSRV_LISTEN_ADDRS_MAX	16

/*
 * Where to listen: @nr addresses (IPv4 or IPv6 with its scope id, port
 * unset), or none (@nr 0) for every address.
 */
struct smbsrv_listen_set {
	unsigned int nr;
	struct sockaddr_storage addr[SMBSRV_LISTEN_ADDRS_MAX];
};

/*
 * A listen-addr attribute's payload into @ss: 4 bytes IPv4, 16 IPv6, 20
 * IPv6 and its scope id (host order).  -EINVAL for another length.
 */
int smbsrv_listen_addr_parse(const void *data, int len,
			     struct sockaddr_storage *ss);

struct smbsrv_listener *smbsrv_listener_start(u16 port,
					      const struct smbsrv_listen_set *set);
void smbsrv_listener_stop(struct smbsrv_listener *l);
/*
 * Listen on @port at @set instead of where *@lp listens (*@lp may be
 * NULL).  The old sockets close first: the new set may share an address
 * and port with them.  On failure *@lp listens where it did again (or is
 * NULL if even that fails) and the error is returned.
 */
int smbsrv_listener_replace(struct smbsrv_listener **lp, u16 port,
			    const struct smbsrv_listen_set *set);
u16 smbsrv_listener_port(const struct smbsrv_listener *l);
/* Does @l listen on @port at exactly @set? */
bool smbsrv_listener_same(const struct smbsrv_listener *l, u16 port,
			  const struct smbsrv_listen_set *set);
/* One attribute of type @type per address bound (the wildcard one too). */
int smbsrv_listener_put_addrs(const struct smbsrv_listener *l,
			      struct sk_buff *msg, int type);

#endif /* _SMBSRV_TRANSPORT_H */
