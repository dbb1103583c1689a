// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: sending whole frames.
 *
 * A worker with a response puts its frame on the connection's send queue.
 * If nobody is sending, it becomes the sender: it takes up to
 * response-batch frames from the head of the queue (its own first) and
 * writes them to the socket back to back, all but the last with MSG_MORE
 * so that TCP pushes once.  Then it hands the sender's role to the owner
 * of the next queued frame, if any, and returns.  Everybody else sleeps
 * until a sender has written their frame.  A frame's memory therefore
 * stays its owner's, and no worker sends more than one batch.
 *
 * Frames go out in the order they were queued.  The socket is blocking
 * with a send timeout (the frame-timeout knob), so a frame is either sent
 * completely, or the send failed (timeout, reset, shutdown) and the
 * connection is closed, failing every frame still queued: a client never
 * sees half a frame followed by another one.
 *
 * A receive run that answers requests inline while more wait in the
 * socket may send its frames with SMBSRV_SEND_MORE: the last frame of its
 * batch goes out with MSG_MORE too, and TCP keeps a partial segment back
 * until a later send without it, or smbsrv_send_push() at the end of the
 * run, pushes the lot: several responses, one segment.
 *
 * A frame is kvecs (copied into the socket) or, for a spliced READ, a
 * bio_vec array of page-allocator memory written with MSG_SPLICE_PAGES:
 * TCP then takes its own references on the pages instead of copying
 * them, in the same one sendmsg() and with the same MSG_MORE batching.
 */
#include <linux/bvec.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/tcp.h>

#include "conn.h"
#include "sched.h"
#include "send.h"
#include "smbsrv.h"
#include "trace.h"
#include "wire/pdu.h"

struct smbsrv_send {
	struct list_head node;		/* conn->send_queue */
	struct kvec *iov;		/* a copied frame, or */
	struct bio_vec *bv;		/* a spliced one */
	unsigned int n;
	size_t len;			/* with the transport header */
	u8 queue;
	bool more;			/* SMBSRV_SEND_MORE */
	int err;
	bool done;			/* sent, or failed: err says */
	struct completion wake;		/* done, or now the sender */
};

/* Write one frame; false when the connection must go. */
static bool smbsrv_send_one(struct smbsrv_conn *conn, struct smbsrv_send *s,
			    bool more)
{
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL | (more ? MSG_MORE : 0) };
	int sent;

	if (s->bv) {
		msg.msg_flags |= MSG_SPLICE_PAGES;
		iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, s->bv, s->n, s->len);
		sent = sock_sendmsg(conn->sock, &msg);
	} else {
		sent = kernel_sendmsg(conn->sock, &msg, s->iov, s->n, s->len);
	}
	if (sent == s->len)
		return true;
	pr_info_ratelimited("smbsrv: %s: send failed (%d of %zu bytes), disconnecting\n",
			    conn->addr, sent, s->len);
	s->err = sent < 0 ? sent : -EIO;
	return false;
}

/* The first header of a queued frame, for the tracepoints. */
static void smbsrv_send_peek(const struct smbsrv_send *s, u64 *mid, u16 *cmd)
{
	if (!s->bv) {
		smbsrv_trace_peek_iov(s->iov, s->n, mid, cmd);
		return;
	}
	/* bv[0]: the transport header, then the SMB2 (or transform) one. */
	smbsrv_trace_peek((const u8 *)bvec_virt(&s->bv[0]) +
			  SMB2_FRAME_HDR_SIZE,
			  s->bv[0].bv_len - SMB2_FRAME_HDR_SIZE, mid, cmd);
}

static void smbsrv_trace_frame_written(struct smbsrv_conn *conn,
				       struct smbsrv_send *s, unsigned int batch)
{
	u64 mid;
	u16 cmd;

	smbsrv_send_peek(s, &mid, &cmd);
	trace_smbsrv_frame_written(conn->id, mid, s->len, batch, !!s->bv);
}

/*
 * The sender's turn, @me first in the queue: write one batch, finish its
 * frames, pass the role on.
 */
static void smbsrv_send_batch(struct smbsrv_conn *conn, struct smbsrv_send *me)
{
	u32 max = max(READ_ONCE(smbsrv_server.knobs.response_batch), 1U);
	struct smbsrv_send *s, *tmp, *next = NULL;
	unsigned int frames = 0;
	LIST_HEAD(batch);
	bool more;
	int err = 0;

	spin_lock(&conn->send_queue_lock);
	list_for_each_entry_safe(s, tmp, &conn->send_queue, node) {
		if (frames == max)
			break;
		list_move_tail(&s->node, &batch);
		frames++;
	}
	spin_unlock(&conn->send_queue_lock);

	if (smbsrv_conn_closing(conn))
		err = -ENOTCONN;
	list_for_each_entry(s, &batch, node) {
		if (err) {
			s->err = err;
			continue;
		}
		s->err = 0;
		more = !list_is_last(&s->node, &batch) || (s == me && me->more);
		if (!smbsrv_send_one(conn, s, more))
			err = s->err;
		else if (s == me && me->more)
			WRITE_ONCE(conn->send_held, true);
		else if (trace_smbsrv_frame_written_enabled())
			smbsrv_trace_frame_written(conn, s, frames);
	}
	if (err && err != -ENOTCONN)
		smbsrv_conn_close(conn);
	else if (!err)
		smbsrv_sched_count_send(me->queue, frames);

	list_for_each_entry_safe(s, tmp, &batch, node) {
		list_del(&s->node);
		s->done = true;
		if (s != me)
			complete(&s->wake);	/* s may be gone after this */
	}

	spin_lock(&conn->send_queue_lock);
	if (list_empty(&conn->send_queue))
		conn->sending = false;
	else
		next = list_first_entry(&conn->send_queue, struct smbsrv_send,
					node);
	spin_unlock(&conn->send_queue_lock);
	if (next)
		complete(&next->wake);		/* not done: its turn to send */
}

/* Queue @me and wait until it was written: 0 or a negative errno. */
static int smbsrv_send_queue(struct smbsrv_conn *conn, struct smbsrv_send *me)
{
	bool wait;

	init_completion(&me->wake);
	spin_lock(&conn->send_queue_lock);
	list_add_tail(&me->node, &conn->send_queue);
	wait = conn->sending;
	conn->sending = true;
	spin_unlock(&conn->send_queue_lock);

	if (wait) {
		/* A sender writes this frame, or makes us the sender. */
		wait_for_completion(&me->wake);
		if (me->done)
			return me->err;
	}
	smbsrv_send_batch(conn, me);
	return me->err;
}

int smbsrv_send_frame(struct smbsrv_conn *conn, u8 queue, struct kvec *iov,
		      unsigned int n, u32 len)
{
	struct smbsrv_send me = {
		.iov = iov,
		.n = n,
		.len = len + SMB2_FRAME_HDR_SIZE,
		.queue = queue & ~SMBSRV_SEND_MORE,
		.more = queue & SMBSRV_SEND_MORE,
	};
	u8 hdr[SMB2_FRAME_HDR_SIZE];

	if (len > SMB2_FRAME_MAX)
		return -EMSGSIZE;
	smb2_frame_encode(hdr, len);
	iov[0].iov_base = hdr;
	iov[0].iov_len = sizeof(hdr);
	trace_smbsrv_rsp_queued(conn->id, iov, n, len);
	return smbsrv_send_queue(conn, &me);
}

int smbsrv_send_pages(struct smbsrv_conn *conn, u8 queue, struct bio_vec *bv,
		      unsigned int n, u32 len)
{
	struct smbsrv_send me = {
		.bv = bv,
		.n = n,
		.len = len + SMB2_FRAME_HDR_SIZE,
		.queue = queue & ~SMBSRV_SEND_MORE,
		.more = queue & SMBSRV_SEND_MORE,
	};

	if (len > SMB2_FRAME_MAX || !n ||
	    bv[0].bv_len < SMB2_FRAME_HDR_SIZE)
		return -EMSGSIZE;
	smb2_frame_encode(bvec_virt(&bv[0]), len);
	if (trace_smbsrv_rsp_queued_enabled()) {
		/* The event reads the headers from kvecs: lend it two. */
		struct kvec iov[2] = {
			{ bvec_virt(&bv[0]), SMB2_FRAME_HDR_SIZE },
			{ bvec_virt(&bv[0]) + SMB2_FRAME_HDR_SIZE,
			  bv[0].bv_len - SMB2_FRAME_HDR_SIZE },
		};

		trace_smbsrv_rsp_queued(conn->id, iov, 2, len);
	}
	return smbsrv_send_queue(conn, &me);
}

void smbsrv_send_push(struct smbsrv_conn *conn)
{
	if (!READ_ONCE(conn->send_held))
		return;
	WRITE_ONCE(conn->send_held, false);
	/* Uncorking pushes the pending segments (no cork is left set). */
	tcp_sock_set_cork(conn->sock->sk, false);
}
