/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: client connections.
 *
 * A connection owns no thread.  Its socket's data-ready callback queues
 * the receive work (recv.c), which frames whatever bytes are there and
 * hands each complete message to a worker (sched.c) or runs it itself.
 * Whole frames go out through the connection's send queue, one sender
 * at a time (send.c).
 *
 * Lifetime: the connection table holds one reference until the
 * connection is closed; every queued message and every pending request
 * holds one more.  smbsrv_conn_close() may be called from any context
 * and any number of times: the first call queues the teardown, which
 * detaches the socket callbacks, shuts the socket down, cancels pending
 * requests and drops its channels (a session ends with its last one);
 * the last reference frees it.
 */
#ifndef _SMBSRV_CONN_H
#define _SMBSRV_CONN_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "wire/credits.h"
#include "wire/smb2.h"

struct socket;

/*
 * What a receive reads beyond a frame header at most (recv.c): a READ
 * request and its header (4 + 113 bytes) in one receive.
 */
#define SMBSRV_RECV_CARRY	124
struct sock;
struct smbsrv_peer;
struct smbsrv_rxpages;

/* Longest client address as text: an IPv6 address with scope. */
#define SMBSRV_ADDR_LEN		64
/* Most dialects remembered from NEGOTIATE for VALIDATE_NEGOTIATE_INFO. */
#define SMBSRV_MAX_DIALECTS	16
/* CANCELs remembered for requests not yet async (conn->early_cancel). */
#define SMBSRV_EARLY_CANCELS	8

enum smbsrv_conn_flag {
	SMBSRV_CONN_CLOSING,		/* teardown queued; send nothing more */
	SMBSRV_CONN_NEGOTIATED,		/* a dialect was chosen */
	SMBSRV_CONN_RECV_STOPPED,	/* too much in flight: resume later */
	SMBSRV_CONN_AUTHENTICATED,	/* a session was established */
	SMBSRV_CONN_RECV_OWNED,		/* one of its two receive works runs */
	SMBSRV_CONN_RECV_AGAIN,		/* ... and must queue the receive again */
};

struct smbsrv_conn {
	refcount_t ref;
	u32 id;
	unsigned long flags;		/* enum smbsrv_conn_flag bits */
	struct list_head node;		/* smbsrv_conns, under its lock */
	struct socket *sock;
	struct sockaddr_storage peer;
	char addr[SMBSRV_ADDR_LEN];	/* peer address as text */
	u64 start;			/* ktime_get_boottime_seconds() */
	/* Admission (conn.c): count for this address, eviction list. */
	struct smbsrv_peer *peer_count;
	struct list_head unauth_node;	/* until a session is established */
	struct timer_list logon_timer;	/* the logon-timeout knob */
	unsigned long last_active;	/* jiffies of the last message in */

	/* Receive side: only the receive work touches these. */
	void (*saved_data_ready)(struct sock *sk);
	void (*saved_state_change)(struct sock *sk);
	/* The receive, per-CPU and unbound (recv.c). */
	struct work_struct recv_work;
	struct work_struct recv_unbound_work;
	/*
	 * Where the next run goes and where this one runs; whether the frame
	 * just completed, if a plain WRITE, may run inline (smb2_recv_place()).
	 */
	bool recv_unbound;
	bool recv_run_unbound;
	bool recv_inline_write;
	bool recv_inline_depth;		/* ... or if it cannot wait */
	/* A response went out with MSG_MORE: smbsrv_send_push() owes a push. */
	bool send_held;
	/*
	 * A started frame must complete by frame_deadline (jiffies); the
	 * timer is armed only when a receive run ends, or waits, before it
	 * did (recv.c), not for every frame.
	 */
	struct timer_list frame_timer;
	unsigned long frame_deadline;
	u8 frame_hdr[SMB2_FRAME_HDR_SIZE];
	u32 frame_hdr_got;
	/*
	 * Bytes read with a frame header, past it (recv.c): the start of
	 * its frame (a small request whole), maybe of the next ones.
	 */
	u8 carry[SMBSRV_RECV_CARRY];
	u8 carry_off;
	u8 carry_len;
	u8 *frame;			/* message being received, or NULL */
	u32 frame_len;
	u32 frame_got;
	u32 frame_cap;			/* bytes at frame: frame_len, or a head */
	struct smbsrv_rxpages *frame_rx;	/* its data, into pages */
	u64 frame_start_ns;		/* first byte read; 0 unless traced */
	/* Inline requests left in this run of the receive work (sched.c). */
	u32 inline_left;
	u32 inline_bytes_left;
	atomic_t inflight;		/* messages handed up, not yet done */

	/* How its socket is served (transport.c: TCP); set at accept. */
	const struct smbsrv_xprt_ops *xprt;
	struct work_struct close_work;
	/* Frames waiting for the sender (send.c); one sender at a time. */
	spinlock_t send_queue_lock;
	struct list_head send_queue;
	bool sending;

	/*
	 * Protects the sequence window, the pending list and, once written
	 * by NEGOTIATE, nothing else: negotiated fields below are written
	 * once before SMBSRV_CONN_NEGOTIATED is set and read-only after.
	 */
	spinlock_t lock;
	struct smb2_seqwin seqwin;
	u8 *seqwin_bits;
	u32 max_credits;
	u32 credits_inflight;		/* charged to requests not answered */
	struct list_head pending;	/* async and cancellable requests */
	u32 n_async;			/* of them async, at most max_credits */
	struct list_head cancelled;	/* pending ones cancel() was called for */
	u64 next_async_id;
	/*
	 * MessageIds a CANCEL named before their request went async (the
	 * two run on different workers): going async then fails at once.
	 * A few slots, oldest overwritten; MessageIds never repeat.
	 */
	u64 early_cancel[SMBSRV_EARLY_CANCELS];
	u8 early_cancel_used;		/* bitmap of valid slots */
	u8 early_cancel_next;
	u64 requests;			/* PDUs received */
	/*
	 * Its lane (smb2/lane.c): break notifications to write to it and
	 * CREATEs to run again, under lock, and the one work that runs them.
	 */
	struct list_head lane;
	bool lane_busy;			/* the work is queued or running */
	struct work_struct lane_work;
	/*
	 * Its received messages waiting for a worker (sched.c): at most
	 * SMBSRV_SCHED_PER_CONN are on a workqueue and not started at a
	 * time; the others wait here, in order, for one of those to start.
	 */
	spinlock_t sched_lock;
	struct list_head sched_backlog;
	u32 sched_queued;

	/* Negotiated state (MS-SMB2 3.3.1.7). */
	u16 dialect;			/* 0 before NEGOTIATE, or 0x02FF */
	u16 server_security_mode;
	u16 client_security_mode;
	u32 client_caps;
	u32 server_caps;
	u8 client_guid[16];
	u16 client_dialects[SMBSRV_MAX_DIALECTS];
	u16 client_dialect_count;
	bool multi_credit;		/* Connection.SupportsMultiCredit */
	bool signing_required;		/* the server requires signing */
	bool client_requires_signing;	/* Connection.ShouldSign */
	u16 cipher;			/* SMB2_CIPHER_*, NONE when none */
	u16 signing_alg;		/* SMB2_SIGNING_* */
	/* The SMB3.1.1 POSIX extensions were negotiated (smb2/posix.c). */
	bool posix;
	/*
	 * A Mac's AAPL create context was answered (smb2/fruit.c), and
	 * whether it asked for Mac fields in listings: set once, by the
	 * first CREATE with AAPL on a fruit share, never cleared.
	 */
	bool aapl;
	bool aapl_readdir;
	u32 max_read;
	u32 max_write;
	u32 max_trans;
	/* 3.1.1: SHA-512 over NEGOTIATE request and response (3.3.5.4). */
	u8 preauth_hash[64];

	/*
	 * Channels of sessions on this connection (session.h): the sessions
	 * set up here and those bound to it, established or being set up.
	 */
	struct list_head channels;	/* under lock */
	u32 nr_sessions;		/* how many */
	struct rcu_head rcu;
};

/* Close every connection and wait until all of them are freed. */
void smbsrv_conns_exit(void);
/* Close every connection there is now (their close works are queued). */
void smbsrv_conns_close_all(void);

/* Take over an accepted socket; closes it when limits forbid it. */
/*
 * The transport under a connection: who receives from its socket.  The
 * listener passes its ops to smbsrv_conn_accept(), so that the connection
 * code never calls into a transport's receive (recv.c) directly: the
 * receive calls down into it (smbsrv_conn_close() when the stream ends).
 */
struct smbsrv_xprt_ops {
	/* Before anything else: the receiver's works and timer. */
	void (*init)(struct smbsrv_conn *conn);
	/* Admitted: install the socket callbacks and start receiving. */
	void (*attach)(struct smbsrv_conn *conn);
	/* Teardown: restore the callbacks, shut the socket, stop receiving. */
	void (*detach)(struct smbsrv_conn *conn);
};

void smbsrv_conn_accept(struct socket *sock, const struct smbsrv_xprt_ops *xprt);

void smbsrv_conn_close(struct smbsrv_conn *conn);
void smbsrv_conn_put(struct smbsrv_conn *conn);

static inline void smbsrv_conn_get(struct smbsrv_conn *conn)
{
	refcount_inc(&conn->ref);
}

static inline bool smbsrv_conn_closing(const struct smbsrv_conn *conn)
{
	return test_bit(SMBSRV_CONN_CLOSING, &conn->flags);
}

static inline bool smbsrv_conn_negotiated(const struct smbsrv_conn *conn)
{
	return test_bit(SMBSRV_CONN_NEGOTIATED, &conn->flags);
}

/*
 * A session was established on @conn: it is no longer subject to the
 * logon timeout nor a candidate for eviction.
 */
void smbsrv_conn_authenticated(struct smbsrv_conn *conn);

/* Close @conn for idleness (the deadtime knob), counting it. */
void smbsrv_conn_close_idle(struct smbsrv_conn *conn);

/* Connections turned away or closed by admission and idleness rules. */
struct smbsrv_conn_stats {
	u64 refused;		/* hosts allow/deny, limits, no memory */
	u64 evicted;		/* closed without a session to admit another */
	u64 logon_expired;	/* no session within the logon timeout */
	u64 idle_closed;	/* idle without open files for deadtime */
};

void smbsrv_conn_stats(struct smbsrv_conn_stats *st);

/* A referenced connection by id, or NULL. */
struct smbsrv_conn *smbsrv_conn_find(u32 id);

/* Number of open connections. */
u32 smbsrv_conn_count(void);

/*
 * Walk the connections for a netlink dump, starting after id @after:
 * returns the next one (referenced) or NULL.
 */
struct smbsrv_conn *smbsrv_conn_next(u32 after);

#endif /* _SMBSRV_CONN_H */
