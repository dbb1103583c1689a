// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: TCP listener.
 *
 * The listening socket never owns a thread: its sk_data_ready callback
 * queues accept work (the sunrpc pattern), which accepts every pending
 * connection without blocking and hands it to conn.c with the transport
 * ops of Direct TCP.
 */
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
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

struct smbsrv_listener {
	struct socket *sock;
	struct work_struct accept_work;
	void (*saved_data_ready)(struct sock *sk);
	u16 port;
};

static void smbsrv_listen_data_ready(struct sock *sk)
{
	struct smbsrv_listener *l;

	read_lock_bh(&sk->sk_callback_lock);
	l = sk->sk_user_data;
	if (l)
		queue_work(smbsrv_ctl_wq, &l->accept_work);
	read_unlock_bh(&sk->sk_callback_lock);
}

static void smbsrv_accept_work(struct work_struct *work)
{
	struct smbsrv_listener *l =
		container_of(work, struct smbsrv_listener, accept_work);
	struct socket *newsock;

	while (kernel_accept(l->sock, &newsock, O_NONBLOCK) == 0)
		smbsrv_conn_accept(newsock, &smbsrv_tcp_xprt);
}

static int smbsrv_listen_socket(u16 port, struct socket **res)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_ANY_INIT,
		.sin6_port = htons(port),
	};
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_ANY),
		.sin_port = htons(port),
	};
	struct sockaddr *addr = (struct sockaddr *)&sin6;
	int addrlen = sizeof(sin6);
	struct socket *sock;
	int err;

	/* One dual-stack socket when IPv6 is there, plain IPv4 otherwise. */
	err = sock_create_kern(&init_net, PF_INET6, SOCK_STREAM, IPPROTO_TCP,
			       &sock);
	if (err) {
		err = sock_create_kern(&init_net, PF_INET, SOCK_STREAM,
				       IPPROTO_TCP, &sock);
		if (err)
			return err;
		addr = (struct sockaddr *)&sin;
		addrlen = sizeof(sin);
	} else {
		lock_sock(sock->sk);
		sock->sk->sk_ipv6only = false;
		release_sock(sock->sk);
	}

	sock_set_reuseaddr(sock->sk);
	err = kernel_bind(sock, addr, addrlen);
	if (!err)
		err = kernel_listen(sock, SMBSRV_LISTEN_BACKLOG);
	if (err) {
		sock_release(sock);
		return err;
	}
	*res = sock;
	return 0;
}

struct smbsrv_listener *smbsrv_listener_start(u16 port)
{
	struct smbsrv_listener *l;
	struct sock *sk;
	int err;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return ERR_PTR(-ENOMEM);
	INIT_WORK(&l->accept_work, smbsrv_accept_work);
	l->port = port;

	err = smbsrv_listen_socket(port, &l->sock);
	if (err) {
		kfree(l);
		return ERR_PTR(err);
	}

	sk = l->sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	l->saved_data_ready = sk->sk_data_ready;
	sk->sk_user_data = l;
	sk->sk_data_ready = smbsrv_listen_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);

	/* Connections that completed before the callback was installed. */
	queue_work(smbsrv_ctl_wq, &l->accept_work);
	pr_info("smbsrv: listening on TCP port %u\n", port);
	return l;
}

void smbsrv_listener_stop(struct smbsrv_listener *l)
{
	struct sock *sk;

	if (!l)
		return;
	sk = l->sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_data_ready = l->saved_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);

	cancel_work_sync(&l->accept_work);
	kernel_sock_shutdown(l->sock, SHUT_RDWR);
	sock_release(l->sock);
	pr_info("smbsrv: stopped listening on TCP port %u\n", l->port);
	kfree(l);
}

u16 smbsrv_listener_port(const struct smbsrv_listener *l)
{
	return l ? l->port : 0;
}
