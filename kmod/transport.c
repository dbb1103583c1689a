// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: TCP listener.
 *
 * A listener is one socket per address it was told (interfaces, bind
 * interfaces only), or one dual-stack wildcard socket.  No socket owns a
 * thread: its sk_data_ready callback queues accept work (the sunrpc
 * pattern), which accepts every pending connection without blocking and
 * hands it to conn.c with the transport ops of Direct TCP.
 */
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "conn.h"
#include "recv.h"
#include "smbsrv.h"
#include "transport.h"

#define SMBSRV_LISTEN_BACKLOG	64

/* Direct TCP: recv.c receives, send.c sends. */
static const struct smbsrv_xprt_ops smbsrv_tcp_xprt = {
	.init = smbsrv_recv_init,
	.attach = smbsrv_recv_attach,
	.detach = smbsrv_recv_detach,
};

struct smbsrv_lsock {
	struct socket *sock;
	struct work_struct accept_work;
	void (*saved_data_ready)(struct sock *sk);
};

struct smbsrv_listener {
	u16 port;
	struct smbsrv_listen_set set;	/* as asked: nr 0 for the wildcard */
	unsigned int nr;		/* sockets in ls[] */
	struct smbsrv_lsock ls[SMBSRV_LISTEN_ADDRS_MAX];
};

/*
 * A connection the listener accepts is a clone of its socket, this
 * callback and sk_user_data included, until smbsrv_recv_attach() sets its
 * own: data arriving on it meanwhile calls here with the listener's @ls,
 * which may be freed by then (the listener replaced on reload).  Only
 * the listening socket itself queues the accept.
 */
static void smbsrv_listen_data_ready(struct sock *sk)
{
	struct smbsrv_lsock *ls;

	if (READ_ONCE(sk->sk_state) != TCP_LISTEN)
		return;
	read_lock_bh(&sk->sk_callback_lock);
	ls = sk->sk_user_data;
	if (ls)
		queue_work(smbsrv_ctl_wq, &ls->accept_work);
	read_unlock_bh(&sk->sk_callback_lock);
}

static void smbsrv_accept_work(struct work_struct *work)
{
	struct smbsrv_lsock *ls =
		container_of(work, struct smbsrv_lsock, accept_work);
	struct socket *newsock;

	while (kernel_accept(ls->sock, &newsock, O_NONBLOCK) == 0)
		smbsrv_conn_accept(newsock, &smbsrv_tcp_xprt);
}

int smbsrv_listen_addr_parse(const void *data, int len,
			     struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	u32 scope;

	memset(ss, 0, sizeof(*ss));
	switch (len) {
	case 4:
		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, data, 4);
		return 0;
	case 16:
	case 20:
		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, data, 16);
		if (len == 20) {
			memcpy(&scope, (const u8 *)data + 16, 4);
			sin6->sin6_scope_id = scope;
		}
		return 0;
	default:
		return -EINVAL;
	}
}

/* Bind and listen on @ss (its port set here); dual-stack for "::". */
static int smbsrv_listen_socket(struct sockaddr_storage *ss, u16 port,
				struct socket **res)
{
	bool v6 = ss->ss_family == AF_INET6;
	int addrlen = v6 ? sizeof(struct sockaddr_in6) :
			   sizeof(struct sockaddr_in);
	struct socket *sock;
	int err;

	if (v6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	err = sock_create_kern(&init_net, ss->ss_family, SOCK_STREAM,
			       IPPROTO_TCP, &sock);
	if (err)
		return err;
	if (v6) {
		lock_sock(sock->sk);
		sock->sk->sk_ipv6only =
			!ipv6_addr_any(&((struct sockaddr_in6 *)ss)->sin6_addr);
		release_sock(sock->sk);
	}
	sock_set_reuseaddr(sock->sk);
	err = kernel_bind(sock, (struct sockaddr *)ss, addrlen);
	if (!err)
		err = kernel_listen(sock, SMBSRV_LISTEN_BACKLOG);
	if (err) {
		sock_release(sock);
		return err;
	}
	*res = sock;
	return 0;
}

static void smbsrv_lsock_start(struct smbsrv_lsock *ls)
{
	struct sock *sk = ls->sock->sk;

	INIT_WORK(&ls->accept_work, smbsrv_accept_work);
	write_lock_bh(&sk->sk_callback_lock);
	ls->saved_data_ready = sk->sk_data_ready;
	sk->sk_user_data = ls;
	sk->sk_data_ready = smbsrv_listen_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	/* Connections that completed before the callback was installed. */
	queue_work(smbsrv_ctl_wq, &ls->accept_work);
}

static void smbsrv_lsock_stop(struct smbsrv_lsock *ls)
{
	struct sock *sk = ls->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_data_ready = ls->saved_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	cancel_work_sync(&ls->accept_work);
	kernel_sock_shutdown(ls->sock, SHUT_RDWR);
	sock_release(ls->sock);
}

/* The wildcard: one dual-stack socket, or IPv4 only without IPv6. */
static int smbsrv_listen_any(struct smbsrv_listener *l)
{
	struct sockaddr_storage ss = { .ss_family = AF_INET6 };
	int err;

	err = smbsrv_listen_socket(&ss, l->port, &l->ls[0].sock);
	if (err == -EAFNOSUPPORT) {
		memset(&ss, 0, sizeof(ss));
		ss.ss_family = AF_INET;
		err = smbsrv_listen_socket(&ss, l->port, &l->ls[0].sock);
	}
	if (err)
		return err;
	l->nr = 1;
	return 0;
}

struct smbsrv_listener *smbsrv_listener_start(u16 port,
					      const struct smbsrv_listen_set *set)
{
	struct sockaddr_storage ss;
	struct smbsrv_listener *l;
	unsigned int i;
	int err = 0;

	if (set->nr > SMBSRV_LISTEN_ADDRS_MAX)
		return ERR_PTR(-EINVAL);
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return ERR_PTR(-ENOMEM);
	l->port = port;
	l->set = *set;
	if (!set->nr) {
		err = smbsrv_listen_any(l);
	} else {
		for (i = 0; i < set->nr; i++) {
			ss = set->addr[i];
			err = smbsrv_listen_socket(&ss, port, &l->ls[i].sock);
			if (err)
				break;
			l->nr++;
		}
	}
	if (err) {
		for (i = 0; i < l->nr; i++)
			sock_release(l->ls[i].sock);
		kfree(l);
		return ERR_PTR(err);
	}
	for (i = 0; i < l->nr; i++)
		smbsrv_lsock_start(&l->ls[i]);
	if (set->nr)
		pr_info("smbsrv: listening on TCP port %u at %u address(es)\n",
			port, l->nr);
	else
		pr_info("smbsrv: listening on TCP port %u\n", port);
	return l;
}

void smbsrv_listener_stop(struct smbsrv_listener *l)
{
	unsigned int i;

	if (!l)
		return;
	for (i = 0; i < l->nr; i++)
		smbsrv_lsock_stop(&l->ls[i]);
	pr_info("smbsrv: stopped listening on TCP port %u\n", l->port);
	kfree(l);
}

/* Close @l's sockets, keeping what it was asked for. */
static void smbsrv_listener_close(struct smbsrv_listener *l)
{
	unsigned int i;

	for (i = 0; i < l->nr; i++)
		smbsrv_lsock_stop(&l->ls[i]);
	l->nr = 0;
}

int smbsrv_listener_replace(struct smbsrv_listener **lp, u16 port,
			    const struct smbsrv_listen_set *set)
{
	struct smbsrv_listener *old = *lp, *l, *back;

	if (old)
		smbsrv_listener_close(old);
	l = smbsrv_listener_start(port, set);
	if (!IS_ERR(l)) {
		smbsrv_listener_stop(old);
		*lp = l;
		return 0;
	}
	if (old) {
		back = smbsrv_listener_start(old->port, &old->set);
		smbsrv_listener_stop(old);
		*lp = IS_ERR(back) ? NULL : back;
	}
	return PTR_ERR(l);
}

u16 smbsrv_listener_port(const struct smbsrv_listener *l)
{
	return l ? l->port : 0;
}

static bool smbsrv_addr_equal(const struct sockaddr_storage *a,
			      const struct sockaddr_storage *b)
{
	const struct sockaddr_in6 *a6 = (const void *)a, *b6 = (const void *)b;
	const struct sockaddr_in *a4 = (const void *)a, *b4 = (const void *)b;

	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return a4->sin_addr.s_addr == b4->sin_addr.s_addr;
	return ipv6_addr_equal(&a6->sin6_addr, &b6->sin6_addr) &&
	       a6->sin6_scope_id == b6->sin6_scope_id;
}

bool smbsrv_listener_same(const struct smbsrv_listener *l, u16 port,
			  const struct smbsrv_listen_set *set)
{
	unsigned int i;

	if (!l || l->port != port || l->set.nr != set->nr)
		return false;
	for (i = 0; i < set->nr; i++)
		if (!smbsrv_addr_equal(&l->set.addr[i], &set->addr[i]))
			return false;
	return true;
}

int smbsrv_listener_put_addrs(const struct smbsrv_listener *l,
			      struct sk_buff *msg, int type)
{
	struct sockaddr_storage ss;
	const struct sockaddr_in6 *sin6 = (const void *)&ss;
	const struct sockaddr_in *sin = (const void *)&ss;
	u8 buf[20];
	unsigned int i;
	int len;

	if (!l)
		return 0;
	for (i = 0; i < l->nr; i++) {
		if (kernel_getsockname(l->ls[i].sock, (struct sockaddr *)&ss) < 0)
			continue;
		if (ss.ss_family == AF_INET) {
			memcpy(buf, &sin->sin_addr, 4);
			len = 4;
		} else {
			memcpy(buf, &sin6->sin6_addr, 16);
			len = 16;
			if (sin6->sin6_scope_id) {
				memcpy(buf + 16, &sin6->sin6_scope_id, 4);
				len = 20;
			}
		}
		if (nla_put(msg, type, len, buf))
			return -EMSGSIZE;
	}
	return 0;
}
