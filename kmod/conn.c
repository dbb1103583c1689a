// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: client connections: admission, table, teardown.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/wait_bit.h>
#include <linux/xarray.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "conn.h"
#include "hosts.h"
#include "recv.h"
#include "sched.h"
#include "session.h"
#include "smb2/smb2.h"
#include "smbsrv.h"
#include "trace.h"

static DEFINE_XARRAY_ALLOC1(smbsrv_conns);
static u32 smbsrv_conn_next_id;
/* Connections in the table, and connections not yet freed. */
static atomic_t smbsrv_nr_conns = ATOMIC_INIT(0);
static atomic_t smbsrv_nr_alive = ATOMIC_INIT(0);

static void smbsrv_conn_free(struct smbsrv_conn *conn)
{
	sock_release(conn->sock);
	kfree(conn->seqwin_bits);
	kfree_rcu(conn, rcu);
	if (atomic_dec_and_test(&smbsrv_nr_alive))
		wake_up_var(&smbsrv_nr_alive);
}

/* Drop a reference; the last one frees.  Process context only. */
void smbsrv_conn_put(struct smbsrv_conn *conn)
{
	if (refcount_dec_and_test(&conn->ref))
		smbsrv_conn_free(conn);
}

static void smbsrv_conn_close_work(struct work_struct *work)
{
	struct smbsrv_conn *conn =
		container_of(work, struct smbsrv_conn, close_work);

	smbsrv_recv_detach(conn);
	smbsrv_cancel_all(conn);
	smbsrv_sessions_close(conn);
	xa_erase(&smbsrv_conns, conn->id);
	atomic_dec(&smbsrv_nr_conns);
	smbsrv_conn_put(conn);
}

void smbsrv_conn_close(struct smbsrv_conn *conn)
{
	if (test_and_set_bit(SMBSRV_CONN_CLOSING, &conn->flags))
		return;
	trace_smbsrv_conn_closed(conn->id);
	/* The table's reference keeps conn alive until the work ran. */
	queue_work(smbsrv_ctl_wq, &conn->close_work);
}

/* Same client address (port ignored)? */
static bool smbsrv_same_addr(const struct sockaddr_storage *a,
			     const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return ipv6_addr_equal(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr);
}

static u32 smbsrv_conns_from(const struct sockaddr_storage *peer)
{
	struct smbsrv_conn *c;
	unsigned long id;
	u32 n = 0;

	rcu_read_lock();
	xa_for_each(&smbsrv_conns, id, c)
		if (smbsrv_same_addr(&c->peer, peer))
			n++;
	rcu_read_unlock();
	return n;
}

/* The peer's address, IPv4-mapped IPv6 addresses turned into IPv4. */
static int smbsrv_conn_peer(struct smbsrv_conn *conn)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&conn->peer;
	int err;

	err = kernel_getpeername(conn->sock, (struct sockaddr *)&conn->peer);
	if (err < 0)
		return err;
	if (conn->peer.ss_family == AF_INET6 &&
	    ipv6_addr_v4mapped(&sin6->sin6_addr)) {
		struct sockaddr_in sin = {
			.sin_family = AF_INET,
			.sin_port = sin6->sin6_port,
			.sin_addr.s_addr = sin6->sin6_addr.s6_addr32[3],
		};

		memset(&conn->peer, 0, sizeof(conn->peer));
		memcpy(&conn->peer, &sin, sizeof(sin));
	}
	snprintf(conn->addr, sizeof(conn->addr), "%pISc", &conn->peer);
	return 0;
}

static bool smbsrv_conn_admit(struct smbsrv_conn *conn)
{
	u32 max = READ_ONCE(smbsrv_server.knobs.max_connections);
	u32 max_ip = READ_ONCE(smbsrv_server.knobs.max_ip_connections);

	if (max && atomic_read(&smbsrv_nr_conns) >= max) {
		pr_info_ratelimited("smbsrv: %s refused: %u connections (max connections)\n",
				    conn->addr, max);
		return false;
	}
	if (!smbsrv_hosts_admit(&conn->peer)) {
		pr_info_ratelimited("smbsrv: %s refused: hosts allow/deny\n",
				    conn->addr);
		return false;
	}
	if (max_ip && smbsrv_conns_from(&conn->peer) >= max_ip) {
		pr_info_ratelimited("smbsrv: %s refused: %u connections from it (max ip connections)\n",
				    conn->addr, max_ip);
		return false;
	}
	return true;
}

void smbsrv_conn_accept(struct socket *sock)
{
	struct smbsrv_conn *conn;
	int err;

	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn)
		goto refuse;
	refcount_set(&conn->ref, 1);
	conn->sock = sock;
	conn->start = ktime_get_boottime_seconds();
	INIT_LIST_HEAD(&conn->node);
	INIT_LIST_HEAD(&conn->pending);
	INIT_LIST_HEAD(&conn->sessions);
	INIT_WORK(&conn->close_work, smbsrv_conn_close_work);
	spin_lock_init(&conn->send_queue_lock);
	INIT_LIST_HEAD(&conn->send_queue);
	spin_lock_init(&conn->lock);
	atomic_set(&conn->inflight, 0);
	conn->next_async_id = 1;
	smbsrv_recv_init(conn);

	if (smbsrv_conn_peer(conn) || !smbsrv_conn_admit(conn))
		goto free;
	/* One id for the initial NEGOTIATE (3.3.1.1); NEGOTIATE resizes. */
	conn->max_credits = 1;
	conn->seqwin_bits = kzalloc(1, GFP_KERNEL);
	if (!conn->seqwin_bits)
		goto free;
	smb2_seqwin_init(&conn->seqwin, conn->seqwin_bits, 1);

	atomic_inc(&smbsrv_nr_alive);
	atomic_inc(&smbsrv_nr_conns);
	err = xa_alloc_cyclic(&smbsrv_conns, &conn->id, conn,
			      XA_LIMIT(1, INT_MAX), &smbsrv_conn_next_id,
			      GFP_KERNEL);
	if (err < 0) {
		atomic_dec(&smbsrv_nr_conns);
		atomic_dec(&smbsrv_nr_alive);
		goto free;
	}
	trace_smbsrv_conn_accepted(conn->id, conn->addr);
	smbsrv_recv_attach(conn);
	return;

free:
	kfree(conn->seqwin_bits);
	kfree(conn);
refuse:
	kernel_sock_shutdown(sock, SHUT_RDWR);
	sock_release(sock);
}

struct smbsrv_conn *smbsrv_conn_find(u32 id)
{
	struct smbsrv_conn *conn;

	rcu_read_lock();
	conn = xa_load(&smbsrv_conns, id);
	if (conn && !refcount_inc_not_zero(&conn->ref))
		conn = NULL;
	rcu_read_unlock();
	return conn;
}

struct smbsrv_conn *smbsrv_conn_next(u32 after)
{
	struct smbsrv_conn *conn;
	unsigned long id = (unsigned long)after + 1;

	rcu_read_lock();
	for (;;) {
		conn = xa_find(&smbsrv_conns, &id, ULONG_MAX, XA_PRESENT);
		if (!conn || refcount_inc_not_zero(&conn->ref))
			break;
		id++;
	}
	rcu_read_unlock();
	return conn;
}

u32 smbsrv_conn_count(void)
{
	return atomic_read(&smbsrv_nr_conns);
}

int smbsrv_conns_init(void)
{
	return 0;
}

void smbsrv_conns_exit(void)
{
	struct smbsrv_conn *conn;
	unsigned long id;

	rcu_read_lock();
	xa_for_each(&smbsrv_conns, id, conn)
		smbsrv_conn_close(conn);
	rcu_read_unlock();
	flush_workqueue(smbsrv_ctl_wq);
	wait_var_event(&smbsrv_nr_alive, !atomic_read(&smbsrv_nr_alive));
	xa_destroy(&smbsrv_conns);
}
