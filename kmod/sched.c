// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: request routing and its statistics.
 *
 * Counters are kept per CPU (no shared cache line is written per message
 * but the queue's in-flight count) and summed when someone asks.
 */
#include <linux/atomic.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/workqueue.h>
#include <net/sock.h>

#include "conn.h"
#include "readstats.h"
#include "sched.h"
#include "smbsrv.h"
#include "trace.h"
#include "wire/route.h"

struct smbsrv_qstat {
	u64 queued;
	u64 completed;
	u64 wait_ns;
	u64 sends;
	u64 responses;
	u64 batched_sends;
	u32 inflight_max;
	u32 batch_max;
};

struct smbsrv_qstats {
	struct smbsrv_qstat q[SMBSRV_NR_QUEUES];
};

/* See sched.h; 0644 so that a benchmark switches it between runs. */
unsigned int smbsrv_inline_depth = SMBSRV_INLINE_DEPTH_WRITES |
				   SMBSRV_INLINE_DEPTH_HOLD;
module_param_named(inline_depth, smbsrv_inline_depth, uint, 0644);
MODULE_PARM_DESC(inline_depth,
		 "for measurements: bit 0 small WRITEs inline at depth, bit 1 hold inline responses (default 3)");

static DEFINE_PER_CPU(struct smbsrv_qstats, smbsrv_qstats);
static atomic_t smbsrv_q_inflight[SMBSRV_NR_QUEUES];
static struct workqueue_struct *smbsrv_wq[SMBSRV_NR_QUEUES];
/* The unbound receive works (recv.c). */
static struct workqueue_struct *smbsrv_recv_wq;

static const char * const smbsrv_wq_name[SMBSRV_NR_QUEUES] = {
	[SMBSRV_QUEUE_PERCPU] = "smbsrv",
	[SMBSRV_QUEUE_UNBOUND] = "smbsrv-unbound",
};

int smbsrv_sched_init(void)
{
	/*
	 * Per-CPU and concurrency managed: a worker that sleeps (an upcall,
	 * a disk read) lets another run on its CPU.  WQ_MEM_RECLAIM: the
	 * server must make progress to free memory under writeback.
	 */
	smbsrv_wq[SMBSRV_QUEUE_PERCPU] =
		alloc_workqueue(smbsrv_wq_name[SMBSRV_QUEUE_PERCPU],
				WQ_MEM_RECLAIM, 0);
	if (!smbsrv_wq[SMBSRV_QUEUE_PERCPU])
		return -ENOMEM;
	/*
	 * Unbound, tunable in sysfs: apply_workqueue_attrs() is not exported,
	 * so smbsrvd writes affinity_scope ("cpu") and affinity_strict (0)
	 * there at start-up.  A message then starts on the CPU that queued it
	 * when that CPU is free, and on another one when it is busy.
	 */
	smbsrv_wq[SMBSRV_QUEUE_UNBOUND] =
		alloc_workqueue(smbsrv_wq_name[SMBSRV_QUEUE_UNBOUND],
				WQ_UNBOUND | WQ_SYSFS | WQ_MEM_RECLAIM, 0);
	if (!smbsrv_wq[SMBSRV_QUEUE_UNBOUND])
		goto err_unbound;
	/*
	 * The queue of the unbound receive works.  Nothing writes its
	 * attributes: it keeps the kernel's default affinity scope ("cache",
	 * unless workqueue.default_affinity_scope says otherwise), whose pod
	 * is every CPU sharing the last-level cache.  An idle worker is then
	 * not sent back to the CPU that queued the work (the "cpu" scope of
	 * smbsrv-unbound does that): the scheduler wakes it where it last
	 * ran, or on an idle CPU beside it, as it would a receiving thread.
	 */
	smbsrv_recv_wq = alloc_workqueue("smbsrv-recv",
					 WQ_UNBOUND | WQ_SYSFS |
					 WQ_MEM_RECLAIM, 0);
	if (!smbsrv_recv_wq)
		goto err_recv;
	return 0;

err_recv:
	destroy_workqueue(smbsrv_wq[SMBSRV_QUEUE_UNBOUND]);
err_unbound:
	destroy_workqueue(smbsrv_wq[SMBSRV_QUEUE_PERCPU]);
	return -ENOMEM;
}

void smbsrv_sched_exit(void)
{
	destroy_workqueue(smbsrv_recv_wq);
	destroy_workqueue(smbsrv_wq[SMBSRV_QUEUE_UNBOUND]);
	destroy_workqueue(smbsrv_wq[SMBSRV_QUEUE_PERCPU]);
}

void smbsrv_sched_recv(struct smbsrv_conn *conn)
{
	if (READ_ONCE(conn->recv_unbound))
		queue_work(smbsrv_recv_wq, &conn->recv_unbound_work);
	else
		queue_work(smbsrv_wq[SMBSRV_QUEUE_PERCPU], &conn->recv_work);
}

bool smbsrv_sched_other(struct work_struct *work)
{
	return queue_work(smbsrv_wq[SMBSRV_QUEUE_PERCPU], work);
}

static void smbsrv_sched_run(struct work_struct *work)
{
	struct smbsrv_sched_work *sw =
		container_of(work, struct smbsrv_sched_work, work);
	u8 q = sw->queue;
	u64 wait = ktime_get_ns() - sw->queued_ns;
	struct smbsrv_conn *conn = sw->conn;
	struct smbsrv_sched_work *next;

	/* Let the connection's next message in (before sw may be freed). */
	spin_lock(&conn->sched_lock);
	next = list_first_entry_or_null(&conn->sched_backlog,
					struct smbsrv_sched_work, node);
	if (next)
		list_del(&next->node);
	else
		conn->sched_queued--;
	spin_unlock(&conn->sched_lock);
	if (next)
		queue_work(smbsrv_wq[next->queue], &next->work);

	this_cpu_add(smbsrv_qstats.q[q].wait_ns, wait);
	trace_smbsrv_worker_start(sw->conn_id, sw->mid, q, wait);
	sw->func(work);		/* may free sw */
	atomic_dec(&smbsrv_q_inflight[q]);
	this_cpu_inc(smbsrv_qstats.q[q].completed);
}

void smbsrv_sched_work_init(struct smbsrv_sched_work *sw, work_func_t func)
{
	INIT_WORK(&sw->work, smbsrv_sched_run);
	sw->func = func;
}

/* Which queue runs this message. */
static enum smbsrv_queue smbsrv_route(struct smbsrv_conn *conn,
				      const struct smb2_route_info *ri)
{
	u32 policy = READ_ONCE(smbsrv_server.knobs.route_policy);

	if (policy == SMBSRV_ROUTE_POLICY_PERCPU)
		return SMBSRV_QUEUE_PERCPU;
	/*
	 * Only a plain single WRITE is eligible.  Everything else stays
	 * local: compounds, whose requests depend on each other; encrypted
	 * messages, whose command is known only after decryption in the
	 * worker; session setup with its preauth hash.  A multichannel
	 * session's WRITEs are placed by each channel's receiver.
	 */
	if (!ri->write)
		return SMBSRV_QUEUE_PERCPU;
	if (policy == SMBSRV_ROUTE_POLICY_UNBOUND)
		return SMBSRV_QUEUE_UNBOUND;
	if (policy == SMBSRV_ROUTE_POLICY_ADAPTIVE &&
	    smb2_route_adaptive(ri, atomic_read(&conn->inflight)))
		return SMBSRV_QUEUE_UNBOUND;
	return SMBSRV_QUEUE_PERCPU;
}

void smbsrv_sched_msg(struct smbsrv_conn *conn, struct smbsrv_sched_work *sw,
		      const u8 *msg, u32 len, const struct smb2_route_info *ri)
{
	enum smbsrv_queue q = smbsrv_route(conn, ri);
	struct smbsrv_qstat *st;
	u16 cmd;
	u32 n;

	sw->queue = q;
	sw->conn_id = conn->id;
	smbsrv_trace_peek(msg, len, &sw->mid, &cmd);
	trace_smbsrv_queued(conn->id, sw->mid, q);
	sw->queued_ns = ktime_get_ns();
	n = atomic_inc_return(&smbsrv_q_inflight[q]);
	st = &get_cpu_ptr(&smbsrv_qstats)->q[q];
	st->queued++;
	if (n > st->inflight_max)
		st->inflight_max = n;
	put_cpu_ptr(&smbsrv_qstats);
	sw->conn = conn;
	spin_lock(&conn->sched_lock);
	if (conn->sched_queued >= SMBSRV_SCHED_PER_CONN) {
		list_add_tail(&sw->node, &conn->sched_backlog);
		sw = NULL;
	} else {
		conn->sched_queued++;
	}
	spin_unlock(&conn->sched_lock);
	if (sw)
		queue_work(smbsrv_wq[q], &sw->work);
}

void smbsrv_sched_inline_start(struct smbsrv_conn *conn)
{
	conn->inline_left = SMBSRV_INLINE_BUDGET;
	conn->inline_bytes_left = SMBSRV_INLINE_BYTES;
}

bool smbsrv_sched_inline_spent(struct smbsrv_conn *conn)
{
	return !conn->inline_left;
}

bool smbsrv_sched_inline_charge(struct smbsrv_conn *conn, u32 length)
{
	if (length > SMBSRV_INLINE_BYTES)
		return false;		/* never inline: not the budget's doing */
	if (!conn->inline_left || length > conn->inline_bytes_left) {
		/* Spent: this run of the receive work ends soon. */
		conn->inline_left = 0;
		smbsrv_readstats_inline(SMBSRV_INLINE_DEFERRED);
		return false;
	}
	conn->inline_left--;
	conn->inline_bytes_left -= length;
	return true;
}

/*
 * A WRITE the receive placement lets run where it was received
 * (smb2_recv_place()), when nothing else of its connection is in flight
 * (the receiver counted it already): that saves the hop to a worker.
 * Not when the route policy sends WRITEs to the unbound queue (that is
 * where they were asked to run).
 */
static bool smbsrv_sched_inline_write(struct smbsrv_conn *conn,
				      const struct smb2_route_info *ri)
{
	if (!conn->recv_inline_write ||
	    READ_ONCE(smbsrv_server.knobs.route_policy) ==
	    SMBSRV_ROUTE_POLICY_UNBOUND ||
	    atomic_read(&conn->inflight) != 1 ||
	    ri->length > SMBSRV_INLINE_BYTES || !conn->inline_left ||
	    ri->length > conn->inline_bytes_left)
		return false;
	conn->inline_left--;
	conn->inline_bytes_left -= ri->length;
	return true;
}

/*
 * A small WRITE at depth the receive placement lets try inline
 * (smb2_recv_place()): only where the route policy would queue it on the
 * per-CPU queue, so that it takes the place of that hop and no other.
 */
static bool smbsrv_sched_inline_write_depth(struct smbsrv_conn *conn,
					    const struct smb2_route_info *ri)
{
	u32 policy = READ_ONCE(smbsrv_server.knobs.route_policy);

	if (!conn->recv_inline_depth ||
	    !(READ_ONCE(smbsrv_inline_depth) & SMBSRV_INLINE_DEPTH_WRITES) ||
	    policy == SMBSRV_ROUTE_POLICY_UNBOUND ||
	    (policy == SMBSRV_ROUTE_POLICY_ADAPTIVE &&
	     smb2_route_adaptive(ri, atomic_read(&conn->inflight))))
		return false;
	if (!conn->inline_left || ri->length > conn->inline_bytes_left)
		return false;
	conn->inline_left--;
	conn->inline_bytes_left -= ri->length;
	return true;
}

bool smbsrv_sched_inline_hold(struct smbsrv_conn *conn)
{
	return (READ_ONCE(smbsrv_inline_depth) & SMBSRV_INLINE_DEPTH_HOLD) &&
	       conn->inline_left &&
	       (conn->carry_off < conn->carry_len ||
		!skb_queue_empty_lockless(&conn->sock->sk->sk_receive_queue));
}

enum smbsrv_inline smbsrv_sched_inline(struct smbsrv_conn *conn,
				       const struct smb2_route_info *ri)
{
	if (ri->write && smbsrv_sched_inline_write(conn, ri))
		return SMBSRV_INLINE_WRITE;
	if (ri->write)
		return smbsrv_sched_inline_write_depth(conn, ri) ?
		       SMBSRV_INLINE_WRITE_DEPTH : SMBSRV_INLINE_NO;
	if (!READ_ONCE(smbsrv_server.knobs.inline_reads))
		return SMBSRV_INLINE_NO;
	if (ri->read)
		return smbsrv_sched_inline_charge(conn, ri->read_length) ?
		       SMBSRV_INLINE_READ : SMBSRV_INLINE_NO;
	/* Is it a READ?  Only decrypting it tells, if the budget allows one. */
	if (ri->sealed && conn->inline_left)
		return SMBSRV_INLINE_SEALED;
	return SMBSRV_INLINE_NO;
}

void smbsrv_sched_count_send(u8 q, unsigned int frames)
{
	struct smbsrv_qstat *st;

	if (q >= SMBSRV_NR_QUEUES || !frames)
		return;
	st = &get_cpu_ptr(&smbsrv_qstats)->q[q];
	st->sends++;
	st->responses += frames;
	if (frames > 1)
		st->batched_sends++;
	if (frames > st->batch_max)
		st->batch_max = frames;
	put_cpu_ptr(&smbsrv_qstats);
}

void smbsrv_sched_stats(enum smbsrv_queue q, struct smbsrv_queue_stats *st)
{
	const struct smbsrv_qstat *c;
	int cpu;

	memset(st, 0, sizeof(*st));
	st->name = smbsrv_wq_name[q];
	st->unbound = q == SMBSRV_QUEUE_UNBOUND;
	st->inflight = max(atomic_read(&smbsrv_q_inflight[q]), 0);
	for_each_possible_cpu(cpu) {
		c = &per_cpu_ptr(&smbsrv_qstats, cpu)->q[q];
		st->queued += READ_ONCE(c->queued);
		st->completed += READ_ONCE(c->completed);
		st->wait_ns += READ_ONCE(c->wait_ns);
		st->sends += READ_ONCE(c->sends);
		st->responses += READ_ONCE(c->responses);
		st->batched_sends += READ_ONCE(c->batched_sends);
		st->inflight_max = max(st->inflight_max,
				       READ_ONCE(c->inflight_max));
		st->batch_max = max(st->batch_max, READ_ONCE(c->batch_max));
	}
}
