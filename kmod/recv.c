// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the per-connection receiver.
 *
 * No thread per connection: the socket's data-ready callback queues the
 * receive work, which reads without blocking whatever is there, frames it
 * (4-byte Direct TCP header, then the message) and hands every complete
 * message to a worker.  An idle connection costs no stack.  A frame that
 * is started must complete within the frame-timeout knob; a frame larger
 * than the connection's limit or a header that is not Direct TCP drops
 * the connection.  When too many messages of one connection are in flight
 * the receiver stops reading (TCP pushes back on the client) until a
 * worker finishes one.  With inline reads, the receive work runs cached
 * READs itself, a bounded number per run (sched.c), after which it
 * queues itself again.
 *
 * In the receive mode SMBSRV_RECV_UNBOUND_WAIT (module parameter
 * recv_mode: Documentation/design.md "Receive modes") the rest of a
 * large frame (a big WRITE) of a logged-on client is read with one
 * blocking receive instead: the work sleeps in the socket as a thread
 * would and is woken where the scheduler sees fit as segments arrive,
 * rather than being queued again for every data-ready (17 times for a
 * 1 MiB WRITE over loopback).  The wait is bounded by the frame deadline
 * (the socket's receive timeout; teardown shuts the socket down, which
 * wakes it), and at most SMBSRV_RECV_WAITERS receive works wait at once;
 * beyond that a frame is read as it comes.
 *
 * In the mode SMBSRV_RECV_PERCPU_BIG the receive work stays per-CPU and
 * hands only that wait to a second work, recv_big_work, on the unbound
 * smbsrv-recv: while SMBSRV_CONN_RECV_BIG is set that work owns the
 * socket and the frame (the receive work, and data-ready, leave both
 * alone); it completes the frame, clears the bit and queues the receive
 * work again.
 *
 * The mode SMBSRV_RECV_PERCPU_WRITE hands over the WRITEs instead, of any
 * size: when the reads without waiting of mode 0 have brought a frame's
 * SMB2 header (in one read or several; the receive never waits for it), a
 * plain single WRITE of a logged-on client (smb2_route_write_hdr()) goes
 * to recv_big_work as above, whether the rest of it has arrived or not,
 * unless SMBSRV_RECV_WAITERS works wait already; recv_big_work then also
 * hands the WRITE up there, so that with inline_writes it runs on
 * smbsrv-recv, off the CPU the client sent from.  Every other frame (a
 * READ, an encrypted or compound message) is received as in mode 0.
 *
 * The mode SMBSRV_RECV_BY_DEPTH (the default) places the receive by the
 * connection's depth: while it sends plain WRITEs of SMBSRV_RECV_WAIT_MIN
 * or more one at a time, its receive runs as in mode 2 with inline WRITEs
 * (recv_big_work on smbsrv-recv, which waits for the rest of a large
 * frame and runs a WRITE itself when nothing else is in flight or waits
 * in the socket); otherwise as in mode 0 (recv_work, per-CPU), where a
 * smaller WRITE alone in flight is run inline.  smbsrv_recv_place() says
 * which, smbsrv_recv_by_depth() keeps the two works from running at once.
 */
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/net.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "conn.h"
#include "recv.h"
#include "sched.h"
#include "smb2/entry.h"
#include "smbsrv.h"
#include "trace.h"
#include "wire/pdu.h"
#include "wire/route.h"

/* Receive works sleeping in a socket for the rest of a large frame. */
#define SMBSRV_RECV_WAIT_MIN	SZ_64K
#define SMBSRV_RECV_WAITERS	32
static atomic_t smbsrv_recv_waiters = ATOMIC_INIT(0);

/*
 * Wake a receive work waiting in the socket (smbsrv_recv_frame_rest()).
 * Not through the saved callbacks: an accepted socket inherits the
 * listener's data-ready callback (transport.c), not the socket default.
 */
static void smbsrv_recv_wake(struct smbsrv_conn *conn, struct sock *sk)
{
	struct socket_wq *wq;

	if (conn->recv_mode == SMBSRV_RECV_PERCPU ||
	    conn->recv_mode == SMBSRV_RECV_UNBOUND)
		return;
	rcu_read_lock();
	wq = rcu_dereference(sk->sk_wq);
	if (skwq_has_sleeper(wq))
		wake_up_interruptible_all(&wq->wait);
	rcu_read_unlock();
}

/*
 * Whether recv_big_work owns the socket, asked by whoever would queue or
 * run the receive work for something new on it (data-ready, the receive
 * work itself).  If it does, it is told (SMBSRV_CONN_RECV_AGAIN) and
 * queues the receive work when it lets go; if it let go meanwhile, the
 * caller goes on.  The barrier pairs with the one in
 * smbsrv_recv_big_work(): this sees the bit clear or it sees the mark.
 */
static bool smbsrv_recv_big_owns(struct smbsrv_conn *conn)
{
	if (!test_bit_acquire(SMBSRV_CONN_RECV_BIG, &conn->flags))
		return false;
	set_bit(SMBSRV_CONN_RECV_AGAIN, &conn->flags);
	/* The mark before the second look; see above. */
	smp_mb__after_atomic();
	return test_bit_acquire(SMBSRV_CONN_RECV_BIG, &conn->flags);
}

static void smbsrv_data_ready(struct sock *sk)
{
	struct smbsrv_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn) {
		trace_smbsrv_data_ready(conn->id);
		smbsrv_recv_wake(conn, sk);
		/* recv_big_work queues the receive work when it is done. */
		if (!smbsrv_recv_big_owns(conn))
			smbsrv_sched_recv(conn);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/* The peer closed or reset: the receiver reads what is left, then EOF. */
static void smbsrv_state_change(struct sock *sk)
{
	struct smbsrv_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn && sk->sk_state != TCP_ESTABLISHED) {
		/* A receive work waiting in the socket sees the end. */
		smbsrv_recv_wake(conn, sk);
		smbsrv_sched_recv(conn);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

static void smbsrv_frame_timeout(struct timer_list *t)
{
	struct smbsrv_conn *conn = from_timer(conn, t, frame_timer);

	pr_info_ratelimited("smbsrv: %s stalled mid-frame, disconnecting\n",
			    conn->addr);
	smbsrv_conn_close(conn);
}

/* Largest message this connection may send now. */
static u32 smbsrv_frame_limit(struct smbsrv_conn *conn)
{
	u32 payload;

	if (!smbsrv_conn_negotiated(conn) ||
	    !test_bit(SMBSRV_CONN_AUTHENTICATED, &conn->flags))
		return SMBSRV_FRAME_UNAUTH_MAX;
	payload = max3(conn->max_write, conn->max_trans,
		       (u32)SMBSRV_FRAME_UNAUTH_MAX);
	return min_t(u32, payload + SMBSRV_FRAME_SLACK, SMB2_FRAME_MAX);
}

/* Read up to @len bytes without blocking: >0 read, 0 EOF, -EAGAIN, -err. */
static int smbsrv_recv_some(struct smbsrv_conn *conn, void *buf, u32 len)
{
	struct kvec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };

	return kernel_recvmsg(conn->sock, &msg, &iov, 1, len, msg.msg_flags);
}

/* A receive may wait for the rest of this frame: large, logged on. */
static bool smbsrv_recv_may_wait(struct smbsrv_conn *conn)
{
	return conn->frame_len >= SMBSRV_RECV_WAIT_MIN &&
	       test_bit(SMBSRV_CONN_AUTHENTICATED, &conn->flags);
}

/* One more receive work waiting in a socket, if the limit allows. */
static bool smbsrv_recv_waiter_get(void)
{
	if (atomic_inc_return(&smbsrv_recv_waiters) <= SMBSRV_RECV_WAITERS)
		return true;
	atomic_dec(&smbsrv_recv_waiters);
	return false;
}

static void smbsrv_recv_waiter_put(void)
{
	atomic_dec(&smbsrv_recv_waiters);
}

/*
 * Wait for the rest of the current frame: >0 read (all of it unless the
 * receive timeout or a close came first), 0 EOF, -EAGAIN, -err.
 */
static int smbsrv_recv_frame_wait(struct smbsrv_conn *conn)
{
	u32 left = conn->frame_len - conn->frame_got;
	struct kvec iov = { .iov_base = conn->frame + conn->frame_got,
			    .iov_len = left };
	struct msghdr msg = { .msg_flags = MSG_WAITALL | MSG_NOSIGNAL };

	return kernel_recvmsg(conn->sock, &msg, &iov, 1, left, msg.msg_flags);
}

/*
 * The rest of the current frame: waiting for all of it in the receive
 * mode SMBSRV_RECV_UNBOUND_WAIT, and in a run of the unbound receive work
 * of SMBSRV_RECV_BY_DEPTH, when smbsrv_recv_may_wait() (see the top of
 * this file).  >0 read, 0 EOF, -EAGAIN (nothing yet, or the receive
 * timeout), -err.
 */
static int smbsrv_recv_frame_rest(struct smbsrv_conn *conn)
{
	bool wait = conn->recv_mode == SMBSRV_RECV_UNBOUND_WAIT ||
		    (conn->recv_mode == SMBSRV_RECV_BY_DEPTH &&
		     conn->recv_run_unbound);
	int n;

	if (!wait || !smbsrv_recv_may_wait(conn) || !smbsrv_recv_waiter_get())
		return smbsrv_recv_some(conn, conn->frame + conn->frame_got,
					conn->frame_len - conn->frame_got);
	n = smbsrv_recv_frame_wait(conn);
	smbsrv_recv_waiter_put();
	return n;
}

static void smbsrv_frame_start_timer(struct smbsrv_conn *conn)
{
	u32 secs = READ_ONCE(smbsrv_server.knobs.frame_timeout);

	mod_timer(&conn->frame_timer, jiffies + secs * HZ);
}

/* A frame header is complete: returns false if the stream is unusable. */
static bool smbsrv_frame_header(struct smbsrv_conn *conn)
{
	u32 len, limit;

	switch (smb2_frame_decode(conn->frame_hdr, &len)) {
	case SMB2_FRAME_KEEPALIVE:
		conn->frame_hdr_got = 0;
		del_timer(&conn->frame_timer);
		return true;
	case SMB2_FRAME_MESSAGE:
		break;
	default:
		pr_info_ratelimited("smbsrv: %s sent a frame that is not Direct TCP, disconnecting\n",
				    conn->addr);
		return false;
	}
	limit = smbsrv_frame_limit(conn);
	if (len > limit) {
		pr_info_ratelimited("smbsrv: %s sent a %u-byte frame (limit %u), disconnecting\n",
				    conn->addr, len, limit);
		return false;
	}
	if (!len) {
		conn->frame_hdr_got = 0;
		del_timer(&conn->frame_timer);
		return true;
	}
	conn->frame = kvmalloc(len, GFP_KERNEL);
	if (!conn->frame)
		return false;
	conn->frame_len = len;
	conn->frame_got = 0;
	return true;
}

/*
 * Mode SMBSRV_RECV_BY_DEPTH: where the receive runs from the next run on,
 * decided as each frame is complete from the messages of the connection
 * still in flight (this one not counted yet) and the bytes already
 * waiting behind it in the socket.  Nothing in either, and the frame is
 * a plain WRITE (smb2_route_write_hdr()): the client sends WRITEs one at
 * a time.  Of SMBSRV_RECV_WAIT_MIN or more, the receive goes unbound, as
 * mode 2 with inline WRITEs (benchmarks.md: what brought QD1 1 MiB WRITEs
 * to ksmbd: the next one is received beside the client still sending it,
 * with one wait rather than a run per data-ready), and this WRITE may run
 * inline; smaller, it stays per-CPU and this WRITE runs inline in the run
 * that received it (a small frame has nothing to overlap, and waking a
 * worker on the other CPU only costs: benchmarks.md, "Mode 5 as the
 * default").  Nothing in either and anything else (a READ at queue depth
 * 1 gained nothing unbound and lost up to a third), two or more in
 * flight, or bytes behind: per-CPU, as mode 0.  The bytes behind matter
 * because a WRITE run inline is freed before the next frame is read:
 * without them, a deep queue of WRITEs would find nothing in flight every
 * time and be run one by one.  One in flight and nothing behind decides
 * nothing: at queue depth 1 it may be the previous request, answered but
 * not freed yet.
 */
static void smbsrv_recv_place(struct smbsrv_conn *conn)
{
	bool behind, alone;
	int n;

	if (conn->recv_mode != SMBSRV_RECV_BY_DEPTH)
		return;
	conn->recv_write_small = false;
	n = atomic_read(&conn->inflight);
	behind = !skb_queue_empty_lockless(&conn->sock->sk->sk_receive_queue);
	if (n == 1 && !behind)
		return;
	alone = !n && !behind &&
		smb2_route_write_hdr(conn->frame, conn->frame_len);
	conn->recv_write_small = alone &&
				 conn->frame_len < SMBSRV_RECV_WAIT_MIN;
	WRITE_ONCE(conn->recv_unbound,
		   alone && conn->frame_len >= SMBSRV_RECV_WAIT_MIN);
}

/* The current frame is complete: hand it up.  False: drop the connection. */
static bool smbsrv_recv_frame_done(struct smbsrv_conn *conn)
{
	u8 *frame;

	smbsrv_recv_place(conn);
	del_timer(&conn->frame_timer);
	conn->frame_hdr_got = 0;
	WRITE_ONCE(conn->last_active, jiffies);
	trace_smbsrv_pdu_complete(conn->id, conn->frame, conn->frame_len,
				  conn->frame_start_ns);
	/* In flight until smbsrv_recv_msg_done(). */
	atomic_inc(&conn->inflight);
	/* The message owns it now (it may even be done with it). */
	frame = conn->frame;
	conn->frame = NULL;
	if (smbsrv_msg_queue(conn, frame, conn->frame_len)) {
		atomic_dec(&conn->inflight);
		kvfree(frame);
		return false;
	}
	return true;
}

/*
 * Mode SMBSRV_RECV_PERCPU_WRITE, a frame handed up by recv_big_work:
 * whether the socket holds what the receive work must see although no
 * one told recv_big_work (smbsrv_recv_big_owns()): bytes or an end that
 * came before the hand-over, whose data-ready or state change found the
 * receive work queued already, in the very run that handed the frame
 * over without reading them.
 */
static bool smbsrv_recv_sock_ready(struct sock *sk)
{
	return !skb_queue_empty_lockless(&sk->sk_receive_queue) ||
	       (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN) ||
	       READ_ONCE(sk->sk_err) ||
	       READ_ONCE(sk->sk_state) != TCP_ESTABLISHED;
}

static void smbsrv_recv_by_depth(struct smbsrv_conn *conn, bool unbound);

/*
 * Modes SMBSRV_RECV_PERCPU_BIG and SMBSRV_RECV_PERCPU_WRITE: the rest of
 * the current frame (if any is missing) and handing it up, on smbsrv-recv.
 * Mode 3 then always queues the receive work again; mode 4, when it handed
 * the frame up, only if there is something for it: at queue depth 1 the
 * next frame comes after the answer, and its data-ready queues the
 * receive work on the client's CPU, sparing a run that would find nothing.
 */
static void smbsrv_recv_big_work(struct work_struct *work)
{
	struct smbsrv_conn *conn =
		container_of(work, struct smbsrv_conn, recv_big_work);
	bool drop = false, done = false, again;
	int n;

	if (conn->recv_mode == SMBSRV_RECV_BY_DEPTH) {
		smbsrv_recv_by_depth(conn, true);
		return;
	}
	if (!smbsrv_conn_closing(conn) && conn->frame_got < conn->frame_len) {
		n = smbsrv_recv_frame_wait(conn);
		if (n > 0)
			conn->frame_got += n;
		else if (n != -EAGAIN)
			drop = true;		/* EOF or a socket error */
	}
	if (!drop && !smbsrv_conn_closing(conn) &&
	    conn->frame_got == conn->frame_len) {
		/* A run of its own: a budget of its own for an inline WRITE. */
		smbsrv_sched_inline_start(conn);
		drop = !smbsrv_recv_frame_done(conn);
		done = !drop;
	}
	smbsrv_recv_waiter_put();
	/* The frame is the receive work's again. */
	clear_bit_unlock(SMBSRV_CONN_RECV_BIG, &conn->flags);
	/* Pairs with the barrier in smbsrv_recv_big_owns(). */
	smp_mb__after_atomic();
	again = test_and_clear_bit(SMBSRV_CONN_RECV_AGAIN, &conn->flags);
	if (drop)
		smbsrv_conn_close(conn);
	else if (again || !done ||
		 conn->recv_mode != SMBSRV_RECV_PERCPU_WRITE ||
		 smbsrv_recv_sock_ready(conn->sock->sk))
		smbsrv_sched_recv(conn);
}

/* recv_big_work takes the socket and the current frame. */
static void smbsrv_recv_big_start(struct smbsrv_conn *conn)
{
	set_bit(SMBSRV_CONN_RECV_BIG, &conn->flags);
	smbsrv_sched_recv_big(conn);
}

/*
 * SMBSRV_RECV_PERCPU_WRITE: the read of @n bytes just completed the SMB2
 * header of the current frame, a WRITE of a logged-on client, and a
 * receive work may wait for it (it takes that wait).
 */
static bool smbsrv_recv_write_hand_over(struct smbsrv_conn *conn, u32 n)
{
	return conn->recv_mode == SMBSRV_RECV_PERCPU_WRITE &&
	       conn->frame_got >= SMB2_HDR_SIZE &&
	       conn->frame_got - n < SMB2_HDR_SIZE &&
	       test_bit(SMBSRV_CONN_AUTHENTICATED, &conn->flags) &&
	       smb2_route_write_hdr(conn->frame, conn->frame_got) &&
	       smbsrv_recv_waiter_get();
}

/*
 * A run of the receive: frames in, handed up, until the socket is empty
 * (or full of messages in flight, or the connection goes).  True: the
 * run ends early and the receive work must be queued again.
 */
static bool smbsrv_recv_run(struct smbsrv_conn *conn)
{
	int n = -EAGAIN;

	smbsrv_sched_inline_start(conn);
	while (!smbsrv_conn_closing(conn)) {
		if (atomic_read(&conn->inflight) >= SMBSRV_INFLIGHT_MAX) {
			set_bit(SMBSRV_CONN_RECV_STOPPED, &conn->flags);
			/* Pairs with the barrier in smbsrv_recv_msg_done(). */
			smp_mb__after_atomic();
			if (atomic_read(&conn->inflight) >= SMBSRV_INFLIGHT_MAX)
				return false;
			clear_bit(SMBSRV_CONN_RECV_STOPPED, &conn->flags);
		}
		if (!conn->frame) {
			n = smbsrv_recv_some(conn,
					     conn->frame_hdr + conn->frame_hdr_got,
					     SMB2_FRAME_HDR_SIZE -
					     conn->frame_hdr_got);
			if (n <= 0)
				break;
			if (!conn->frame_hdr_got) {
				smbsrv_frame_start_timer(conn);
				conn->frame_start_ns =
					trace_smbsrv_pdu_complete_enabled() ?
					ktime_get_ns() : 0;
			}
			conn->frame_hdr_got += n;
			if (conn->frame_hdr_got < SMB2_FRAME_HDR_SIZE)
				continue;
			if (!smbsrv_frame_header(conn))
				goto drop;
			continue;
		}
		if (conn->recv_mode == SMBSRV_RECV_PERCPU_BIG &&
		    smbsrv_recv_may_wait(conn) && smbsrv_recv_waiter_get()) {
			smbsrv_recv_big_start(conn);
			return false;
		}
		n = smbsrv_recv_frame_rest(conn);
		if (n <= 0)
			break;
		conn->frame_got += n;
		if (smbsrv_recv_write_hand_over(conn, n)) {
			smbsrv_recv_big_start(conn);
			return false;
		}
		if (conn->frame_got < conn->frame_len)
			continue;
		if (!smbsrv_recv_frame_done(conn))
			goto drop;
		/*
		 * Inline reads spent this run's budget: let the other work
		 * of this CPU run before reading on.  In mode 5, the next
		 * frame is received where smbsrv_recv_place() now says.
		 */
		if (smbsrv_sched_inline_spent(conn) ||
		    (conn->recv_mode == SMBSRV_RECV_BY_DEPTH &&
		     READ_ONCE(conn->recv_unbound) != conn->recv_run_unbound))
			return true;
	}
	if (n == -EAGAIN || smbsrv_conn_closing(conn))
		return false;
	/* EOF or a socket error. */
drop:
	smbsrv_conn_close(conn);
	return false;
}

/*
 * Mode SMBSRV_RECV_BY_DEPTH: a run of either receive work, recv_work
 * (queued on smbsrv only) or recv_big_work (on smbsrv-recv only), as
 * conn->recv_unbound said when it was queued.  The workqueue keeps each
 * of the two from being queued twice or running twice at once, but only
 * within its own workqueue: nothing there stops one running while the
 * other does (a data-ready after the placement changed queues the other
 * while this one still reads).  So a run takes SMBSRV_CONN_RECV_OWNED
 * first (acquire; clear_bit_unlock() releases it, and with it everything
 * the run wrote of the frame), and a run that finds it taken leaves
 * SMBSRV_CONN_RECV_AGAIN and ends: the owner, having let go, looks for
 * the mark after a full barrier, and the loser, having left it, looks at
 * the bit again after one, so one of them sees the other's and the
 * receive is queued again (where the placement says then).  No run is
 * lost and two never receive at once; at worst one more finds nothing.
 * The placement changes only between frames (smbsrv_recv_place()), and
 * a run that sees it change ends and queues the other work.
 */
static void smbsrv_recv_by_depth(struct smbsrv_conn *conn, bool unbound)
{
	bool again;

	while (test_and_set_bit_lock(SMBSRV_CONN_RECV_OWNED, &conn->flags)) {
		set_bit(SMBSRV_CONN_RECV_AGAIN, &conn->flags);
		/* The mark before the second look; see above. */
		smp_mb__after_atomic();
		if (test_bit(SMBSRV_CONN_RECV_OWNED, &conn->flags))
			return;
	}
	conn->recv_run_unbound = unbound;
	again = smbsrv_recv_run(conn);
	clear_bit_unlock(SMBSRV_CONN_RECV_OWNED, &conn->flags);
	/* Pairs with the barrier above. */
	smp_mb__after_atomic();
	if (test_and_clear_bit(SMBSRV_CONN_RECV_AGAIN, &conn->flags) || again)
		smbsrv_sched_recv(conn);
}

static void smbsrv_recv_work(struct work_struct *work)
{
	struct smbsrv_conn *conn =
		container_of(work, struct smbsrv_conn, recv_work);

	if (conn->recv_mode == SMBSRV_RECV_BY_DEPTH) {
		smbsrv_recv_by_depth(conn, false);
		return;
	}
	/* recv_big_work has the socket; it queues this work when done. */
	if (smbsrv_recv_big_owns(conn))
		return;
	if (smbsrv_recv_run(conn))
		smbsrv_sched_recv(conn);
}

void smbsrv_recv_init(struct smbsrv_conn *conn)
{
	INIT_WORK(&conn->recv_work, smbsrv_recv_work);
	INIT_WORK(&conn->recv_big_work, smbsrv_recv_big_work);
	timer_setup(&conn->frame_timer, smbsrv_frame_timeout, 0);
}

void smbsrv_recv_attach(struct smbsrv_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	tcp_sock_set_nodelay(sk);
	sock_set_keepalive(sk);
	/* A client that stops reading its responses is dropped as well. */
	lock_sock(sk);
	sk->sk_sndtimeo = READ_ONCE(smbsrv_server.knobs.frame_timeout) * HZ;
	/* And one that stops mid-frame (smbsrv_recv_frame_rest()). */
	sk->sk_rcvtimeo = sk->sk_sndtimeo;
	release_sock(sk);
	conn->recv_mode = smbsrv_sched_recv_mode();

	write_lock_bh(&sk->sk_callback_lock);
	conn->saved_data_ready = sk->sk_data_ready;
	conn->saved_state_change = sk->sk_state_change;
	sk->sk_user_data = conn;
	sk->sk_data_ready = smbsrv_data_ready;
	sk->sk_state_change = smbsrv_state_change;
	write_unlock_bh(&sk->sk_callback_lock);

	/* Bytes that arrived before the callbacks were installed. */
	smbsrv_sched_recv(conn);
}

void smbsrv_recv_detach(struct smbsrv_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	if (sk->sk_user_data == conn) {
		sk->sk_user_data = NULL;
		sk->sk_data_ready = conn->saved_data_ready;
		sk->sk_state_change = conn->saved_state_change;
	}
	write_unlock_bh(&sk->sk_callback_lock);

	/* Wakes up a worker blocked sending to this client. */
	kernel_sock_shutdown(conn->sock, SHUT_RDWR);
	/*
	 * Each of the two receive works may queue the other once before it
	 * sees the connection closing (in mode 5 too: a run that found the
	 * other owning the receive left it the mark to queue one more).  A
	 * recv_big_work of mode 3 or 4 cancelled before it ran gives back
	 * the wait its receive work took for it.
	 */
	cancel_work_sync(&conn->recv_work);
	if (cancel_work_sync(&conn->recv_big_work) &&
	    conn->recv_mode != SMBSRV_RECV_BY_DEPTH) {
		smbsrv_recv_waiter_put();
		clear_bit(SMBSRV_CONN_RECV_BIG, &conn->flags);
	}
	cancel_work_sync(&conn->recv_work);
	timer_shutdown_sync(&conn->frame_timer);
	kvfree(conn->frame);
	conn->frame = NULL;
}

void smbsrv_recv_msg_done(struct smbsrv_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	atomic_dec(&conn->inflight);
	/* Pairs with the barrier in smbsrv_recv_work(). */
	smp_mb__after_atomic();
	if (!test_and_clear_bit(SMBSRV_CONN_RECV_STOPPED, &conn->flags))
		return;
	/*
	 * Not once teardown has detached the receiver: its cancels may have
	 * run already, and a run queued after them would outlive the
	 * connection.  Under the callback lock, as data-ready: detach takes
	 * it (for writing) before it cancels.
	 */
	read_lock_bh(&sk->sk_callback_lock);
	if (sk->sk_user_data == conn)
		smbsrv_sched_recv(conn);
	read_unlock_bh(&sk->sk_callback_lock);
}
