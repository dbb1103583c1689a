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
 * Where the receive runs is decided as each frame completes
 * (smb2_recv_place() in wire/route.c): per-CPU (recv_work on "smbsrv",
 * reading without blocking, as above), or unbound (recv_unbound_work on
 * "smbsrv-recv") for a client that sends large plain WRITEs one at a
 * time: that run waits in the socket for the rest of a large frame with
 * one blocking receive, as a receiving thread would, instead of being
 * queued again for every data-ready (17 times for a 1 MiB WRITE over
 * loopback), and runs such a WRITE itself.  The wait is bounded by the
 * frame deadline (the socket's receive timeout; teardown shuts the socket
 * down, which wakes it), and at most SMBSRV_RECV_WAITERS receive works
 * wait at once; beyond that a frame is read as it comes.  The two works
 * never receive at once: smbsrv_recv_owned().
 */
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "conn.h"
#include "proto.h"
#include "recv.h"
#include "rxpages.h"
#include "sched.h"
#include "send.h"
#include "smbsrv.h"
#include "trace.h"
#include "wire/pdu.h"
#include "wire/route.h"

/*
 * Frame buffers of up to SMBSRV_FRAME_SMALL bytes (a 4 KiB WRITE with its
 * headers, sealed or not) above kmalloc's 2 KiB bucket come from a cache
 * of their own.  kmalloc() would take them from its 8 KiB bucket and, with
 * init_on_alloc (Debian's default), zero all 8 KiB of it for every such
 * frame, bytes the receive overwrites at once: the cache has a
 * constructor, which exempts it from init_on_alloc.  Nothing reads a frame
 * buffer past what was received into it (frame_len); a frame's buffer,
 * from either allocator, is freed with kvfree().
 */
#define SMBSRV_FRAME_SMALL	(4096 + 512)

/*
 * For measuring, not for administrators (testing.md, "Same-boot
 * comparisons"): bit 0 ends a run when the socket is empty after a frame
 * (no receive that finds nothing), bit 1 reads a frame header with the
 * carry, bit 2 arms the frame timer only when a run ends or waits
 * mid-frame.  All on by default; 0 is the receive as it was before them.
 */
#define SMBSRV_RECV_LEAN_DRAINED	BIT(0)
#define SMBSRV_RECV_LEAN_CARRY		BIT(1)
#define SMBSRV_RECV_LEAN_TIMER		BIT(2)
static unsigned int smbsrv_recv_lean = SMBSRV_RECV_LEAN_DRAINED |
				       SMBSRV_RECV_LEAN_CARRY |
				       SMBSRV_RECV_LEAN_TIMER;
module_param_named(recv_lean, smbsrv_recv_lean, uint, 0644);
MODULE_PARM_DESC(recv_lean,
		 "for measurements: bit 0 no empty receive, bit 1 header read with what follows, bit 2 lazy frame timer (default 7)");
static struct kmem_cache *smbsrv_frame_cache;

static void smbsrv_frame_ctor(void *buf)
{
}

int smbsrv_recv_cache_init(void)
{
	smbsrv_frame_cache = kmem_cache_create("smbsrv_frame",
					       SMBSRV_FRAME_SMALL, 0,
					       SLAB_HWCACHE_ALIGN,
					       smbsrv_frame_ctor);
	return smbsrv_frame_cache ? 0 : -ENOMEM;
}

void smbsrv_recv_cache_exit(void)
{
	kmem_cache_destroy(smbsrv_frame_cache);
}

static void *smbsrv_frame_alloc(u32 len)
{
	if (len > 2048 && len <= SMBSRV_FRAME_SMALL)
		return kmem_cache_alloc(smbsrv_frame_cache, GFP_KERNEL);
	return kvmalloc(len, GFP_KERNEL);
}

/* Receive works sleeping in a socket for the rest of a large frame. */
#define SMBSRV_RECV_WAITERS	32
static atomic_t smbsrv_recv_waiters = ATOMIC_INIT(0);

/*
 * Wake a receive work waiting in the socket (smbsrv_recv_frame_rest()).
 * Not through the saved callbacks: an accepted socket inherits the
 * listener's data-ready callback (transport.c), not the socket default.
 */
static void smbsrv_recv_wake(struct sock *sk)
{
	struct socket_wq *wq;

	rcu_read_lock();
	wq = rcu_dereference(sk->sk_wq);
	if (skwq_has_sleeper(wq))
		wake_up_interruptible_all(&wq->wait);
	rcu_read_unlock();
}

static void smbsrv_data_ready(struct sock *sk)
{
	struct smbsrv_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn) {
		trace_smbsrv_data_ready(conn->id);
		smbsrv_recv_wake(sk);
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
		smbsrv_recv_wake(sk);
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

/*
 * A frame starts: it must complete within the frame-timeout knob.  Only
 * the deadline is taken here; most frames complete within the run that
 * started them, and arming and deleting a timer for each of them costs
 * more than the rest of their framing.
 */
static void smbsrv_frame_start_timer(struct smbsrv_conn *conn)
{
	u32 secs = READ_ONCE(smbsrv_server.knobs.frame_timeout);

	conn->frame_deadline = jiffies + secs * HZ;
	if (!(READ_ONCE(smbsrv_recv_lean) & SMBSRV_RECV_LEAN_TIMER))
		mod_timer(&conn->frame_timer, conn->frame_deadline);
}

/*
 * A receive run ends, or waits in the socket, with a frame started and
 * not complete: the timer enforces the frame's deadline from now on (at
 * once if it passed).  Only the receive arms it, so a pending timer has
 * this frame's deadline already.
 */
static void smbsrv_frame_arm_timer(struct smbsrv_conn *conn)
{
	if ((conn->frame || conn->frame_hdr_got) &&
	    !timer_pending(&conn->frame_timer) && !smbsrv_conn_closing(conn))
		mod_timer(&conn->frame_timer, conn->frame_deadline);
}

/* The frame completed (or was a keepalive): no deadline any more. */
static void smbsrv_frame_stop_timer(struct smbsrv_conn *conn)
{
	if (timer_pending(&conn->frame_timer))
		del_timer(&conn->frame_timer);
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

/* Bytes in the carry not yet taken. */
static u32 smbsrv_carry_left(const struct smbsrv_conn *conn)
{
	return conn->carry_len - conn->carry_off;
}

/*
 * The next bytes of the frame header.  A header is read together with up
 * to SMBSRV_RECV_CARRY bytes after it, kept in the carry: a small request
 * then takes one receive, not two; what the carry holds is taken before
 * the socket is read again (the rest of the frame, the next frames).
 * >0 header bytes, 0 EOF, -EAGAIN, -err.
 */
static int smbsrv_recv_hdr(struct smbsrv_conn *conn)
{
	u32 want = SMB2_FRAME_HDR_SIZE - conn->frame_hdr_got, n;
	struct kvec iov[2] = {
		{ .iov_base = conn->frame_hdr + conn->frame_hdr_got,
		  .iov_len = want },
		{ .iov_base = conn->carry, .iov_len = SMBSRV_RECV_CARRY },
	};
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };
	int got;

	if (smbsrv_carry_left(conn)) {
		n = min(want, smbsrv_carry_left(conn));
		memcpy(iov[0].iov_base, conn->carry + conn->carry_off, n);
		conn->carry_off += n;
		return n;
	}
	if (!(READ_ONCE(smbsrv_recv_lean) & SMBSRV_RECV_LEAN_CARRY))
		return kernel_recvmsg(conn->sock, &msg, iov, 1, want,
				      msg.msg_flags);
	got = kernel_recvmsg(conn->sock, &msg, iov, 2,
			     want + SMBSRV_RECV_CARRY, msg.msg_flags);
	if (got <= (int)want)
		return got;
	conn->carry_off = 0;
	conn->carry_len = got - want;
	return want;
}

/* The next bytes of the frame from the carry: >0 taken, -err. */
static int smbsrv_recv_carried(struct smbsrv_conn *conn)
{
	struct smbsrv_rxpages *rx = conn->frame_rx;
	const u8 *src = conn->carry + conn->carry_off;
	u32 n;
	int err;

	if (rx) {
		n = min(smbsrv_carry_left(conn), rx->len - rx->got);
		err = smbsrv_rxpages_put(rx, src, n);
		if (err)
			return err;
	} else {
		n = min(smbsrv_carry_left(conn),
			conn->frame_cap - conn->frame_got);
		memcpy(conn->frame + conn->frame_got, src, n);
	}
	/* Never 0 (that would read as the end of the stream). */
	if (WARN_ON_ONCE(!n))
		return -EPROTO;
	conn->carry_off += n;
	return n;
}

/* A receive may wait for the rest of this frame: large, logged on. */
static bool smbsrv_recv_may_wait(struct smbsrv_conn *conn)
{
	return conn->frame_len >= SMB2_RECV_WAIT_MIN &&
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
	u32 left = conn->frame_cap - conn->frame_got;
	struct kvec iov = { .iov_base = conn->frame + conn->frame_got,
			    .iov_len = left };
	struct msghdr msg = { .msg_flags = MSG_WAITALL | MSG_NOSIGNAL };

	return kernel_recvmsg(conn->sock, &msg, &iov, 1, left, msg.msg_flags);
}

/*
 * The rest of the current frame: in a run of the unbound receive work,
 * waiting for all of it when smbsrv_recv_may_wait() (see the top of this
 * file).  >0 read, 0 EOF, -EAGAIN (nothing yet, or the receive timeout),
 * -err.
 */
static int smbsrv_recv_frame_rest(struct smbsrv_conn *conn)
{
	bool wait;
	int n;

	if (smbsrv_carry_left(conn))
		return smbsrv_recv_carried(conn);
	wait = conn->recv_run_unbound && smbsrv_recv_may_wait(conn) &&
	       smbsrv_recv_waiter_get();

	if (wait)
		smbsrv_frame_arm_timer(conn);
	if (conn->frame_rx)
		n = smbsrv_rxpages_recv(conn->sock, conn->frame_rx, wait);
	else if (wait)
		n = smbsrv_recv_frame_wait(conn);
	else
		n = smbsrv_recv_some(conn, conn->frame + conn->frame_got,
				     conn->frame_cap - conn->frame_got);
	if (wait)
		smbsrv_recv_waiter_put();
	return n;
}

/*
 * Whether a frame of @len bytes may have its data received into pages
 * (rxpages.h): large enough for `min receivefile size`, from a client
 * that logged on, over a socket that can be read that way.  Only its
 * head is read into the frame buffer then (smbsrv_recv_write_head()).
 */
static bool smbsrv_recv_paged(struct smbsrv_conn *conn, u32 len)
{
	u32 min = READ_ONCE(smbsrv_server.knobs.min_receivefile_size);

	return min && len > SMB2_WRITE_HEAD_SIZE &&
	       len - SMB2_WRITE_HEAD_SIZE >= min &&
	       test_bit(SMBSRV_CONN_AUTHENTICATED, &conn->flags) &&
	       smbsrv_rxpages_can(conn->sock);
}

/*
 * The head of a frame smbsrv_recv_paged() allowed is in: its data goes
 * into pages if it is a plain WRITE whose data is the rest of the frame
 * (smb2_route_write_head()), and so does the rest of an encrypted message
 * (smb2_route_sealed_head()), once its head is in too (the buffer has
 * room for it: smbsrv_frame_header()); the dispatcher decrypts it out of
 * those pages.  Anything else is read whole as usual.  False: no memory,
 * drop the connection.
 */
static bool smbsrv_recv_write_head(struct smbsrv_conn *conn)
{
	struct smb2_route_info ri;
	u8 *buf;

	if (conn->frame_cap == SMB2_WRITE_HEAD_SIZE &&
	    smb2_route_write_head(conn->frame, conn->frame_len, &ri)) {
		conn->frame_rx = smbsrv_rxpages_new(ri.length);
		return conn->frame_rx;
	}
	if (conn->frame_cap == SMB2_WRITE_HEAD_SIZE &&
	    smb2_route_sealed_head(conn->frame, conn->frame_len) &&
	    conn->frame_len - SMB2_SEALED_HEAD_SIZE >=
	    READ_ONCE(smbsrv_server.knobs.min_receivefile_size)) {
		conn->frame_cap = SMB2_SEALED_HEAD_SIZE;
		return true;
	}
	if (conn->frame_cap == SMB2_SEALED_HEAD_SIZE) {
		conn->frame_rx = smbsrv_rxpages_new(conn->frame_len -
						    SMB2_SEALED_HEAD_SIZE);
		return conn->frame_rx;
	}
	buf = smbsrv_frame_alloc(conn->frame_len);
	if (!buf)
		return false;
	memcpy(buf, conn->frame, conn->frame_cap);
	kvfree(conn->frame);
	conn->frame = buf;
	conn->frame_cap = conn->frame_len;
	return true;
}

/* A frame header is complete: returns false if the stream is unusable. */
static bool smbsrv_frame_header(struct smbsrv_conn *conn)
{
	u32 len, limit;

	switch (smb2_frame_decode(conn->frame_hdr, &len)) {
	case SMB2_FRAME_KEEPALIVE:
		conn->frame_hdr_got = 0;
		smbsrv_frame_stop_timer(conn);
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
		smbsrv_frame_stop_timer(conn);
		return true;
	}
	/* Paged: room for the head of an encrypted message as well. */
	conn->frame_cap = smbsrv_recv_paged(conn, len) ? SMB2_WRITE_HEAD_SIZE :
			  len;
	conn->frame = smbsrv_frame_alloc(conn->frame_cap == len ? len :
					 SMB2_SEALED_HEAD_SIZE);
	if (!conn->frame)
		return false;
	conn->frame_len = len;
	conn->frame_got = 0;
	return true;
}

/*
 * Where the receive runs from the next run on, and whether the frame just
 * completed may run inline if it is a WRITE: smb2_recv_place(), from the
 * messages of the connection still in flight (this one not counted yet)
 * and the bytes already waiting behind it in the socket.
 */
static void smbsrv_recv_place(struct smbsrv_conn *conn,
			      const struct smb2_route_info *ri)
{
	struct smb2_recv_facts f = {
		.inflight = atomic_read(&conn->inflight),
		.behind = smbsrv_carry_left(conn) ||
			  !skb_queue_empty_lockless(&conn->sock->sk->sk_receive_queue),
		.write = ri->write,
		.frame_len = conn->frame_len,
		.unbound = conn->recv_unbound,
		.run_unbound = conn->recv_run_unbound,
	};
	struct smb2_recv_placement p;

	smb2_recv_place(&f, &p);
	conn->recv_inline_write = p.inline_write;
	conn->recv_inline_depth = p.inline_depth;
	WRITE_ONCE(conn->recv_unbound, p.unbound);
}

/* The current frame is complete: hand it up.  False: drop the connection. */
static bool smbsrv_recv_frame_done(struct smbsrv_conn *conn)
{
	struct smbsrv_rxpages *rx = conn->frame_rx;
	struct smb2_route_info ri;
	u8 *frame;

	/*
	 * A frame with its data in pages: only its head is in the buffer.
	 * An encrypted one tells nothing before it is decrypted.
	 */
	if (rx && conn->frame_cap == SMB2_SEALED_HEAD_SIZE)
		memset(&ri, 0, sizeof(ri));
	else if (rx)
		smb2_route_write_head(conn->frame, conn->frame_len, &ri);
	else
		smb2_route_peek(conn->frame, conn->frame_len, &ri);
	smbsrv_recv_place(conn, &ri);
	smbsrv_frame_stop_timer(conn);
	conn->frame_hdr_got = 0;
	WRITE_ONCE(conn->last_active, jiffies);
	trace_smbsrv_pdu_complete(conn->id, conn->frame, conn->frame_len,
				  conn->frame_start_ns);
	/* In flight until smbsrv_recv_msg_done(). */
	atomic_inc(&conn->inflight);
	/* The message owns it now (it may even be done with it). */
	frame = conn->frame;
	conn->frame = NULL;
	conn->frame_rx = NULL;
	if (smbsrv_server.proto->msg_queue(conn, frame, conn->frame_cap, rx,
					   &ri)) {
		atomic_dec(&conn->inflight);
		kvfree(frame);
		smbsrv_rxpages_free(rx);
		return false;
	}
	return true;
}

/* Nothing waits in the socket, and nothing but data would end the stream. */
static bool smbsrv_recv_drained(struct smbsrv_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	return !smbsrv_carry_left(conn) &&
	       skb_queue_empty_lockless(&sk->sk_receive_queue) &&
	       !READ_ONCE(sk->sk_err) &&
	       !(READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN);
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
			n = smbsrv_recv_hdr(conn);
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
		n = smbsrv_recv_frame_rest(conn);
		if (n <= 0)
			break;
		conn->frame_got += n;
		if (conn->frame_got < conn->frame_len) {
			if (conn->frame_got == conn->frame_cap &&
			    !conn->frame_rx && !smbsrv_recv_write_head(conn))
				goto drop;
			continue;
		}
		if (!smbsrv_recv_frame_done(conn))
			goto drop;
		/*
		 * Inline requests spent this run's budget: let the other
		 * work of this CPU run before reading on.  The next frame is
		 * received where smbsrv_recv_place() now says.
		 */
		if (smbsrv_sched_inline_spent(conn) ||
		    conn->recv_unbound != conn->recv_run_unbound)
			return true;
		/*
		 * Nothing more in the socket: the run ends here rather than
		 * in a receive that finds nothing (one per request at queue
		 * depth 1).  What arrives from now on calls data-ready, which
		 * queues the next run (this one is no longer pending); an
		 * error or the peer's close is left to a receive to report.
		 */
		if ((READ_ONCE(smbsrv_recv_lean) & SMBSRV_RECV_LEAN_DRAINED) &&
		    smbsrv_recv_drained(conn))
			return false;
	}
	if (n == -EAGAIN || smbsrv_conn_closing(conn))
		return false;
	/* EOF or a socket error. */
drop:
	smbsrv_conn_close(conn);
	return false;
}

/*
 * A run of either receive work, recv_work (queued on smbsrv only) or
 * recv_unbound_work (on smbsrv-recv only), as conn->recv_unbound said
 * when it was queued.  The workqueue keeps each of the two from being
 * queued twice or running twice at once, but only within its own
 * workqueue: nothing there stops one running while the other does (a
 * data-ready after the placement changed queues the other while this one
 * still reads).  So a run takes SMBSRV_CONN_RECV_OWNED first (acquire;
 * clear_bit_unlock() releases it, and with it everything the run wrote of
 * the frame), and a run that finds it taken leaves SMBSRV_CONN_RECV_AGAIN
 * and ends: the owner, having let go, looks for the mark after a full
 * barrier, and the loser, having left it, looks at the bit again after
 * one, so one of them sees the other's and the receive is queued again
 * (where the placement says then).  No run is lost and two never receive
 * at once; at worst one more finds nothing.  The placement changes only
 * between frames (smbsrv_recv_place()), and a run that sees it change
 * ends and queues the other work.
 */
static void smbsrv_recv_owned(struct smbsrv_conn *conn, bool unbound)
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
	smbsrv_frame_arm_timer(conn);
	/* Responses held back while it read on (send.c) go now. */
	smbsrv_send_push(conn);
	clear_bit_unlock(SMBSRV_CONN_RECV_OWNED, &conn->flags);
	/* Pairs with the barrier above. */
	smp_mb__after_atomic();
	if (test_and_clear_bit(SMBSRV_CONN_RECV_AGAIN, &conn->flags) || again)
		smbsrv_sched_recv(conn);
}

static void smbsrv_recv_work(struct work_struct *work)
{
	smbsrv_recv_owned(container_of(work, struct smbsrv_conn, recv_work),
			  false);
}

static void smbsrv_recv_unbound_work(struct work_struct *work)
{
	smbsrv_recv_owned(container_of(work, struct smbsrv_conn,
				       recv_unbound_work), true);
}

void smbsrv_recv_init(struct smbsrv_conn *conn)
{
	INIT_WORK(&conn->recv_work, smbsrv_recv_work);
	INIT_WORK(&conn->recv_unbound_work, smbsrv_recv_unbound_work);
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
	 * sees the connection closing (a run that found the other owning the
	 * receive left it the mark to queue one more).
	 */
	cancel_work_sync(&conn->recv_work);
	cancel_work_sync(&conn->recv_unbound_work);
	cancel_work_sync(&conn->recv_work);
	timer_shutdown_sync(&conn->frame_timer);
	kvfree(conn->frame);
	conn->frame = NULL;
	smbsrv_rxpages_free(conn->frame_rx);
	conn->frame_rx = NULL;
}

void smbsrv_recv_msg_done(struct smbsrv_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	atomic_dec(&conn->inflight);
	/* Pairs with the barrier in smbsrv_recv_run(). */
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
