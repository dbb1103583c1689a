/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: which workqueue runs what, and the per-queue statistics.
 *
 * Every decision about where receive work and requests run is carried out
 * here (the pure rules are in wire/route.c).  Two request queues: the
 * per-CPU bound workqueue "smbsrv" (a message runs on the CPU whose
 * softirq saw it arrive) and the unbound workqueue
 * "smbsrv-unbound" (WQ_SYSFS; the daemon sets its affinity scope to "cpu",
 * non-strict).  The route-policy knob says which received messages may go
 * to the unbound one (Documentation/design.md, "Request routing"); it is
 * read for every message, so changing it at run time is safe: a message
 * stays on the queue it was put on, and both queues live as long as the
 * module.
 */
#ifndef _SMBSRV_SCHED_H
#define _SMBSRV_SCHED_H

#include <linux/sizes.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct smbsrv_conn;
struct smb2_route_info;

enum smbsrv_queue {
	SMBSRV_QUEUE_PERCPU,
	SMBSRV_QUEUE_UNBOUND,
	SMBSRV_NR_QUEUES,
};

/* A received message's work: run and counted by the scheduler. */
struct smbsrv_sched_work {
	struct work_struct work;
	work_func_t func;
	struct smbsrv_conn *conn;	/* referenced by the work's owner */
	struct list_head node;		/* in conn->sched_backlog */
	u64 queued_ns;
	u64 mid;			/* first MessageId, for tracing */
	u32 conn_id;			/* for tracing */
	u8 queue;			/* enum smbsrv_queue */
};

/* One queue's counters, summed over the CPUs. */
struct smbsrv_queue_stats {
	const char *name;		/* the workqueue's name */
	bool unbound;			/* in /sys/devices/virtual/workqueue */
	u64 queued;			/* messages queued */
	u64 completed;			/* messages finished */
	u64 wait_ns;			/* time from queueing to start, summed */
	u32 inflight;			/* queued or running now */
	u32 inflight_max;		/* most ever seen at queueing time */
	u64 sends;			/* socket writes by its workers */
	u64 responses;			/* frames in them */
	u64 batched_sends;		/* writes carrying more than one frame */
	u32 batch_max;			/* most frames in one write */
};

int smbsrv_sched_init(void);
void smbsrv_sched_exit(void);

/*
 * Queue the connection's receive: recv_work on "smbsrv" or
 * recv_unbound_work on "smbsrv-recv", as conn->recv_unbound says (recv.c).
 */
void smbsrv_sched_recv(struct smbsrv_conn *conn);

void smbsrv_sched_work_init(struct smbsrv_sched_work *sw, work_func_t func);
/*
 * Messages of one connection on a workqueue and not started yet, at most:
 * a client that pipelines hundreds of requests puts this many in the
 * queue's FIFO, and each one that starts lets its next one in behind
 * everything queued meanwhile, so that other connections' requests (and
 * receives) wait for a few of its requests, not for all of them.  How
 * many of them run at once is not limited by this.
 */
#define SMBSRV_SCHED_PER_CONN	4
/*
 * Queue the processing of the received message @msg (@len bytes, owned by
 * the work's owner, who holds a reference to @conn until sw->func ends;
 * @ri what smb2_route_peek() saw of it) on the queue the route policy
 * picks for it, or behind the connection's others (SMBSRV_SCHED_PER_CONN).
 * sw->func then runs with &sw->work and may free it.
 */
void smbsrv_sched_msg(struct smbsrv_conn *conn, struct smbsrv_sched_work *sw,
		      const u8 *msg, u32 len,
		      const struct smb2_route_info *ri);

/*
 * Inline requests (Documentation/design.md, "Where a request runs"):
 * whether the receiver runs a received message itself.  Per run of a
 * connection's receive work, at most SMBSRV_INLINE_BUDGET requests and
 * SMBSRV_INLINE_BYTES of payload are served inline, and none longer than
 * SMBSRV_INLINE_BYTES ever is.  A READ of cached data is (with the inline
 * reads knob), and a plain WRITE when it is all its connection has in
 * flight and the receive placement allows it (smb2_recv_place()), unless
 * the route policy is "unbound".  A small plain WRITE at depth is tried
 * too, where the route policy would have queued it per-CPU: its handler
 * writes it only if that cannot wait (rw.c), else a worker does.
 *
 * smbsrv_inline_depth, a module parameter for measuring (testing.md,
 * "Same-boot comparisons"), switches the two depth paths: bit 0 small
 * WRITEs at depth, bit 1 responses held (MSG_MORE) while more requests
 * wait in the socket.  Both on by default.
 */
#define SMBSRV_INLINE_DEPTH_WRITES	BIT(0)
#define SMBSRV_INLINE_DEPTH_HOLD	BIT(1)
extern unsigned int smbsrv_inline_depth;
#define SMBSRV_INLINE_BUDGET	8
#define SMBSRV_INLINE_BYTES	SZ_1M

enum smbsrv_inline {
	SMBSRV_INLINE_NO,		/* queue it */
	SMBSRV_INLINE_READ,		/* a plain READ, charged to the budget */
	SMBSRV_INLINE_WRITE,		/* a plain WRITE alone in flight, too */
	SMBSRV_INLINE_WRITE_DEPTH,	/* a small one at depth, if it can't wait */
	SMBSRV_INLINE_SEALED,		/* decrypt it, then ask _charge() */
};

/* A receive work run starts: a fresh inline budget. */
void smbsrv_sched_inline_start(struct smbsrv_conn *conn);
/* The receive work should end its run and be queued again. */
bool smbsrv_sched_inline_spent(struct smbsrv_conn *conn);
enum smbsrv_inline smbsrv_sched_inline(struct smbsrv_conn *conn,
				       const struct smb2_route_info *ri);
/* Charge a READ of @length bytes to the budget; false: queue it. */
bool smbsrv_sched_inline_charge(struct smbsrv_conn *conn, u32 length);
/*
 * The response of an inline request may be held back (MSG_MORE): more
 * requests wait in the socket and this run of the receive will read
 * them, then push (smbsrv_send_push()) before it ends.
 */
bool smbsrv_sched_inline_hold(struct smbsrv_conn *conn);

/*
 * Queue other work (async completions, teardown steps, breaks); false
 * when it was queued already.  Any context.
 */
bool smbsrv_sched_other(struct work_struct *work);

/* A worker of queue @q wrote @frames response frames in one go. */
void smbsrv_sched_count_send(u8 q, unsigned int frames);

/* The counters of queue @q (< SMBSRV_NR_QUEUES). */
void smbsrv_sched_stats(enum smbsrv_queue q, struct smbsrv_queue_stats *st);

#endif /* _SMBSRV_SCHED_H */
