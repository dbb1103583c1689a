// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: client connections: admission, table, teardown.
 *
 * Admission, for each accepted socket: hosts allow/deny, then the
 * per-address limit (max ip connections), then the table's (max
 * connections).  A full table does not turn the newcomer away while some
 * connection has not established a session yet: the oldest such one is
 * closed to make room (evicted), so idle connections that never log on
 * cannot lock real users out.  A connection must establish its first
 * session within the logon-timeout knob or it is closed.  Counters of
 * refused, evicted and timed-out connections go to smbsrvctl stats.
 */
#include <linux/hashtable.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/jhash.h>
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
#include "proto.h"
#include "sched.h"
#include "smbsrv.h"
#include "trace.h"

static DEFINE_XARRAY_ALLOC1(smbsrv_conns);
static u32 smbsrv_conn_next_id;
/*
 * Connections in the table, those of them whose teardown is queued, and
 * connections not yet freed.
 */
static atomic_t smbsrv_nr_conns = ATOMIC_INIT(0);
static atomic_t smbsrv_nr_closing = ATOMIC_INIT(0);
static atomic_t smbsrv_nr_alive = ATOMIC_INIT(0);

/*
 * Under smbsrv_admit_lock: the connections without a session yet, oldest
 * first (eviction candidates), and the number of connections per client
 * address.
 */
static DEFINE_SPINLOCK(smbsrv_admit_lock);
static LIST_HEAD(smbsrv_unauth);
#define SMBSRV_PEER_HASH_BITS	10
static DEFINE_HASHTABLE(smbsrv_peers, SMBSRV_PEER_HASH_BITS);

struct smbsrv_peer {
	struct hlist_node node;
	struct sockaddr_storage addr;	/* port zeroed */
	u32 conns;
};

/*
 * Connections closed but not torn down yet, beyond which admission
 * refuses instead of evicting: a flood faster than teardown must not grow
 * the table without bound.
 */
#define SMBSRV_CLOSING_MAX(max)	((max) / 8 + 64)

static atomic64_t smbsrv_nr_refused = ATOMIC64_INIT(0);
static atomic64_t smbsrv_nr_evicted = ATOMIC64_INIT(0);
static atomic64_t smbsrv_nr_logon_expired = ATOMIC64_INIT(0);
static atomic64_t smbsrv_nr_idle_closed = ATOMIC64_INIT(0);

static void smbsrv_peer_put(struct smbsrv_peer *peer);

static void smbsrv_conn_free(struct smbsrv_conn *conn)
{
	sock_release(conn->sock);
	smbsrv_server.proto->conn_free(conn);
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

	conn->xprt->detach(conn);
	timer_shutdown_sync(&conn->logon_timer);
	smbsrv_server.proto->conn_teardown(conn);
	xa_erase(&smbsrv_conns, conn->id);
	spin_lock(&smbsrv_admit_lock);
	list_del_init(&conn->unauth_node);
	smbsrv_peer_put(conn->peer_count);
	conn->peer_count = NULL;
	spin_unlock(&smbsrv_admit_lock);
	atomic_dec(&smbsrv_nr_conns);
	atomic_dec(&smbsrv_nr_closing);
	smbsrv_conn_put(conn);
}

void smbsrv_conn_close(struct smbsrv_conn *conn)
{
	if (test_and_set_bit(SMBSRV_CONN_CLOSING, &conn->flags))
		return;
	atomic_inc(&smbsrv_nr_closing);
	trace_smbsrv_conn_closed(conn->id);
	/* The table's reference keeps conn alive until the work ran. */
	queue_work(smbsrv_ctl_wq, &conn->close_work);
}

/* The client address alone (no port), for the per-address table. */
static void smbsrv_peer_key(const struct sockaddr_storage *from,
			    struct sockaddr_storage *key)
{
	memset(key, 0, sizeof(*key));
	key->ss_family = from->ss_family;
	if (from->ss_family == AF_INET)
		((struct sockaddr_in *)key)->sin_addr =
			((const struct sockaddr_in *)from)->sin_addr;
	else if (from->ss_family == AF_INET6)
		((struct sockaddr_in6 *)key)->sin6_addr =
			((const struct sockaddr_in6 *)from)->sin6_addr;
}

static u32 smbsrv_peer_hash(const struct sockaddr_storage *key)
{
	return jhash(key, sizeof(*key), 0);
}

static struct smbsrv_peer *smbsrv_peer_find(const struct sockaddr_storage *key)
{
	struct smbsrv_peer *peer;

	lockdep_assert_held(&smbsrv_admit_lock);
	hash_for_each_possible(smbsrv_peers, peer, node, smbsrv_peer_hash(key))
		if (!memcmp(&peer->addr, key, sizeof(*key)))
			return peer;
	return NULL;
}

static void smbsrv_peer_put(struct smbsrv_peer *peer)
{
	lockdep_assert_held(&smbsrv_admit_lock);
	if (peer && !--peer->conns) {
		hash_del(&peer->node);
		kfree(peer);
	}
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

/* A connection without a session in time is closed (logon timeout). */
static void smbsrv_logon_timeout(struct timer_list *t)
{
	struct smbsrv_conn *conn = from_timer(conn, t, logon_timer);

	if (test_bit(SMBSRV_CONN_AUTHENTICATED, &conn->flags) ||
	    smbsrv_conn_closing(conn))
		return;
	atomic64_inc(&smbsrv_nr_logon_expired);
	pr_info_ratelimited("smbsrv: %s has no session after %u s, disconnecting (logon timeout)\n",
			    conn->addr,
			    READ_ONCE(smbsrv_server.knobs.logon_timeout));
	smbsrv_conn_close(conn);
}

/*
 * Close the oldest connection that has no session yet, to make room for
 * a new one.  False if there is none.
 */
static bool smbsrv_conn_evict_one(const char *for_addr)
{
	struct smbsrv_conn *victim = NULL, *c;

	spin_lock(&smbsrv_admit_lock);
	list_for_each_entry(c, &smbsrv_unauth, unauth_node) {
		if (!smbsrv_conn_closing(c) && refcount_inc_not_zero(&c->ref)) {
			victim = c;
			list_del_init(&c->unauth_node);
			break;
		}
	}
	spin_unlock(&smbsrv_admit_lock);
	if (!victim)
		return false;
	atomic64_inc(&smbsrv_nr_evicted);
	pr_info_ratelimited("smbsrv: %s evicted after %llu s without a session, to admit %s (max connections)\n",
			    victim->addr,
			    ktime_get_boottime_seconds() - victim->start,
			    for_addr);
	smbsrv_conn_close(victim);
	smbsrv_conn_put(victim);
	return true;
}

/*
 * Admit a connection: hosts allow/deny, the per-address limit, then the
 * table's limit, evicting a connection without a session if it is full.
 * On success the connection is counted for its address and queued as
 * not yet authenticated; the caller counts refusals.
 */
static bool smbsrv_conn_admit(struct smbsrv_conn *conn)
{
	u32 max = READ_ONCE(smbsrv_server.knobs.max_connections);
	u32 max_ip = READ_ONCE(smbsrv_server.knobs.max_ip_connections);
	struct smbsrv_peer *peer, *fresh;
	struct sockaddr_storage key;
	int closing, live;

	if (!smbsrv_hosts_admit(&conn->peer)) {
		pr_info_ratelimited("smbsrv: %s refused: hosts allow/deny\n",
				    conn->addr);
		return false;
	}
	smbsrv_peer_key(&conn->peer, &key);
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return false;
	spin_lock(&smbsrv_admit_lock);
	peer = smbsrv_peer_find(&key);
	if (max_ip && peer && peer->conns >= max_ip) {
		spin_unlock(&smbsrv_admit_lock);
		kfree(fresh);
		pr_info_ratelimited("smbsrv: %s refused: %u connections from it (max ip connections)\n",
				    conn->addr, max_ip);
		return false;
	}
	spin_unlock(&smbsrv_admit_lock);

	/* Connections being torn down do not count, up to a bound. */
	closing = atomic_read(&smbsrv_nr_closing);
	live = atomic_read(&smbsrv_nr_conns) - closing;
	if (max && live >= (int)max &&
	    (closing >= SMBSRV_CLOSING_MAX(max) ||
	     !smbsrv_conn_evict_one(conn->addr))) {
		kfree(fresh);
		pr_info_ratelimited("smbsrv: %s refused: %u connections, none to evict (max connections)\n",
				    conn->addr, max);
		return false;
	}

	spin_lock(&smbsrv_admit_lock);
	/* Again: a teardown may have dropped the entry meanwhile. */
	peer = smbsrv_peer_find(&key);
	if (!peer) {
		peer = fresh;
		fresh = NULL;
		peer->addr = key;
		hash_add(smbsrv_peers, &peer->node, smbsrv_peer_hash(&key));
	}
	peer->conns++;
	conn->peer_count = peer;
	list_add_tail(&conn->unauth_node, &smbsrv_unauth);
	spin_unlock(&smbsrv_admit_lock);
	kfree(fresh);
	return true;
}

void smbsrv_conn_authenticated(struct smbsrv_conn *conn)
{
	if (test_and_set_bit(SMBSRV_CONN_AUTHENTICATED, &conn->flags))
		return;
	del_timer(&conn->logon_timer);
	spin_lock(&smbsrv_admit_lock);
	list_del_init(&conn->unauth_node);
	spin_unlock(&smbsrv_admit_lock);
}

void smbsrv_conn_close_idle(struct smbsrv_conn *conn)
{
	if (smbsrv_conn_closing(conn))
		return;
	atomic64_inc(&smbsrv_nr_idle_closed);
	pr_info_ratelimited("smbsrv: %s idle for %u minutes without open files, disconnecting (deadtime)\n",
			    conn->addr, READ_ONCE(smbsrv_server.knobs.deadtime));
	smbsrv_conn_close(conn);
}

void smbsrv_conn_stats(struct smbsrv_conn_stats *st)
{
	st->refused = atomic64_read(&smbsrv_nr_refused);
	st->evicted = atomic64_read(&smbsrv_nr_evicted);
	st->logon_expired = atomic64_read(&smbsrv_nr_logon_expired);
	st->idle_closed = atomic64_read(&smbsrv_nr_idle_closed);
}

void smbsrv_conn_accept(struct socket *sock, const struct smbsrv_xprt_ops *xprt)
{
	struct smbsrv_conn *conn;
	u32 logon_timeout;
	int err;

	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn)
		goto refuse;
	refcount_set(&conn->ref, 1);
	conn->sock = sock;
	conn->xprt = xprt;
	conn->start = ktime_get_boottime_seconds();
	INIT_LIST_HEAD(&conn->node);
	INIT_LIST_HEAD(&conn->pending);
	INIT_LIST_HEAD(&conn->cancelled);
	spin_lock_init(&conn->sched_lock);
	INIT_LIST_HEAD(&conn->sched_backlog);
	INIT_LIST_HEAD(&conn->channels);
	INIT_LIST_HEAD(&conn->unauth_node);
	timer_setup(&conn->logon_timer, smbsrv_logon_timeout, 0);
	conn->last_active = jiffies;
	INIT_WORK(&conn->close_work, smbsrv_conn_close_work);
	spin_lock_init(&conn->send_queue_lock);
	INIT_LIST_HEAD(&conn->send_queue);
	spin_lock_init(&conn->lock);
	atomic_set(&conn->inflight, 0);
	conn->next_async_id = 1;
	xprt->init(conn);

	if (smbsrv_conn_peer(conn))
		goto free;
	if (smbsrv_server.proto->conn_init(conn))
		goto free;
	if (!smbsrv_conn_admit(conn))
		goto free;

	atomic_inc(&smbsrv_nr_alive);
	atomic_inc(&smbsrv_nr_conns);
	err = xa_alloc_cyclic(&smbsrv_conns, &conn->id, conn,
			      XA_LIMIT(1, INT_MAX), &smbsrv_conn_next_id,
			      GFP_KERNEL);
	if (err < 0) {
		atomic_dec(&smbsrv_nr_conns);
		atomic_dec(&smbsrv_nr_alive);
		spin_lock(&smbsrv_admit_lock);
		list_del(&conn->unauth_node);
		smbsrv_peer_put(conn->peer_count);
		spin_unlock(&smbsrv_admit_lock);
		goto free;
	}
	logon_timeout = READ_ONCE(smbsrv_server.knobs.logon_timeout);
	if (logon_timeout)
		mod_timer(&conn->logon_timer, jiffies + logon_timeout * HZ);
	trace_smbsrv_conn_accepted(conn->id, conn->addr);
	xprt->attach(conn);
	return;

free:
	smbsrv_server.proto->conn_free(conn);
	kfree(conn);
refuse:
	atomic64_inc(&smbsrv_nr_refused);
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

void smbsrv_conns_close_all(void)
{
	struct smbsrv_conn *conn;
	unsigned long id;

	rcu_read_lock();
	xa_for_each(&smbsrv_conns, id, conn)
		smbsrv_conn_close(conn);
	rcu_read_unlock();
}

void smbsrv_conns_exit(void)
{
	smbsrv_conns_close_all();
	flush_workqueue(smbsrv_ctl_wq);
	wait_var_event(&smbsrv_nr_alive, !atomic_read(&smbsrv_nr_alive));
	xa_destroy(&smbsrv_conns);
}
