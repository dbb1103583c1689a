// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: processing one received message.
 *
 * A worker takes a message (one frame), decrypts it if it came in a
 * TRANSFORM header, walks its compound chain and, for each PDU, checks
 * the sequence window (MS-SMB2 3.3.5.2.3), the session (3.3.5.2.9), the
 * signature (3.3.5.2.4), the tree (3.3.5.2.11) and the body's
 * StructureSize before it calls the command's handler.  The responses of
 * the chain go back as one frame (3.3.4.1.3): each padded to 8 bytes and
 * signed on its own, the whole encrypted when needed.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uio.h>

#include "../cmdstats.h"
#include "../conn.h"
#include "../durable.h"
#include "../readstats.h"
#include "../recv.h"
#include "../rxpages.h"
#include "../sched.h"
#include "../send.h"
#include "../session.h"
#include "../sign.h"
#include "../smbsrv.h"
#include "../splice.h"
#include "../trace.h"
#include "../wire/route.h"
#include "../writestats.h"
#include "credits.h"
#include "smb2.h"

struct smbsrv_msg {
	struct smbsrv_sched_work sw;	/* sw.queue: where it runs */
	struct smbsrv_conn *conn;
	u8 *buf;
	u32 len;
	struct smbsrv_rxpages *rx;	/* a WRITE's data, in pages */
	struct smb2_route_info route;	/* what the receiver saw of buf */
	u8 *plain;			/* the SMB2 message, once decrypted */
	u32 plain_len;
	bool decrypted;			/* plain is set (in buf or plain_buf) */
	u8 *plain_buf;			/* plain, decrypted out of @rx */
	bool inline_run;		/* run by the receiver (inline reads) */
	bool inline_depth;		/* ... a WRITE at depth (sched.h) */
	/* Handed to a worker after an inline READ would have blocked. */
	struct smbsrv_req *resume;
	bool encrypted;
	struct smbsrv_session *enc_sess;	/* whose keys decrypted it */
	struct list_head reqs;			/* in chain order */
	u32 create_err;		/* of the chain's last CREATE, if it failed */
	/*
	 * A request in the middle of the chain went async (a CREATE waiting
	 * for breaks): the rest of the chain, from @next_off, runs once its
	 * final response is out, related to it (referenced).
	 */
	struct smbsrv_req *waiting;
	u32 next_off;
	bool recv_done;		/* smbsrv_recv_msg_done() was called */
	/* The interim response of the request that went async. */
	u8 interim[SMB2_HDR_SIZE + SMB2_ERR_RSP_BODY];
};

/* An NTSTATUS of severity error (and not an internal marker). */
/*
 * The queue a message's response is sent for (send.h), and whether it
 * may be held back: an inline request's while the receive that runs it
 * reads on (smbsrv_sched_inline_hold()).
 */
static u8 smbsrv_msg_send_queue(struct smbsrv_msg *msg)
{
	if (msg->inline_run && smbsrv_sched_inline_hold(msg->conn))
		return msg->sw.queue | SMBSRV_SEND_MORE;
	return msg->sw.queue;
}

static bool smbsrv_status_error(u32 status)
{
	return (status >> 30) == 3 && status != SMBSRV_DISCONNECT &&
	       status != SMBSRV_WOULD_BLOCK;
}

static void smbsrv_req_put(struct smbsrv_req *req)
{
	if (!refcount_dec_and_test(&req->ref))
		return;
	if (req->priv_free)
		req->priv_free(req);
	smbsrv_req_fid_end(req);
	if (req->dur_pending)
		smbsrv_durable_unpend(req->dur_pending, req->sess);
	if (req->tree)
		smbsrv_tree_put(req->tree);
	if (req->chan)
		smbsrv_channel_put(req->chan);
	if (req->sess)
		smbsrv_session_put(req->sess);
	smbsrv_rsp_free(req);
	smbsrv_conn_put(req->conn);
	kfree(req);
}

/* ---- checks before the handler (also check.c) --------------------------- */

/*
 * A related request takes the session, tree and FileId of the one before
 * it (3.3.5.2.7.2).  As Windows does, only a failed CREATE fails the rest
 * of the chain with its status (a WRITE refused on a handle leaves the
 * READ after it alone); a request related to nothing, or to one that
 * failed before it had a session, is invalid.
 */
static u32 smbsrv_req_related(struct smbsrv_req *req, struct smbsrv_req *prev)
{
	if (!prev)
		return STATUS_INVALID_PARAMETER;
	if (req->msg && req->msg->create_err)
		return req->msg->create_err;
	if (smbsrv_status_error(prev->status) && !prev->sess)
		return STATUS_INVALID_PARAMETER;
	if (prev->sess) {
		/* No channel here (a bind): the session is not passed on. */
		if (prev->chan)
			refcount_inc(&prev->chan->ref);
		req->chan = prev->chan ? prev->chan :
			smbsrv_session_channel(prev->sess, req->conn);
		if (!req->chan)
			return STATUS_INVALID_PARAMETER;
		smbsrv_session_get(prev->sess);
		req->sess = prev->sess;
		req->hdr.session_id = prev->sess->id;
	}
	if (prev->tree) {
		refcount_inc(&prev->tree->ref);
		req->tree = prev->tree;
		req->hdr.tree_id = prev->tree->id;
	}
	req->fid_persistent = prev->fid_persistent;
	req->fid_volatile = prev->fid_volatile;
	return STATUS_SUCCESS;
}

static u32 smbsrv_req_run(struct smbsrv_req *req, struct smbsrv_req *prev)
{
	struct smbsrv_conn *conn = req->conn;
	const struct smbsrv_cmd *c;
	u16 cmd = req->hdr.command;
	u32 status;

	if (req->hdr.flags & SMB2_FLAGS_SERVER_TO_REDIR)
		return SMBSRV_DISCONNECT;
	/* Nothing but NEGOTIATE until a dialect is chosen (3.3.5.2). */
	if (!smbsrv_conn_negotiated(conn) && cmd != SMB2_NEGOTIATE)
		return SMBSRV_DISCONNECT;
	if (cmd != SMB2_CANCEL && !smbsrv_credits_charge(req)) {
		pr_info_ratelimited("smbsrv: %s: MessageId %llu outside the sequence window, disconnecting\n",
				    conn->addr, req->hdr.message_id);
		return SMBSRV_DISCONNECT;
	}
	if (cmd >= SMB2_NR_COMMANDS)
		return STATUS_INVALID_PARAMETER;
	c = &smbsrv_cmds[cmd];

	/* A failed CREATE fails what follows it, implemented or not. */
	if (req->related) {
		status = smbsrv_req_related(req, prev);
		if (status)
			return status;
	}
	if (!c->handler)
		return STATUS_INVALID_PARAMETER;
	if (c->needs & (SMBSRV_NEED_SESSION | SMBSRV_NEED_SESSION_IF_ID)) {
		status = smbsrv_req_session(req, c);
		if (status)
			return status;
	}
	status = smbsrv_req_signature(req);
	if (status)
		return status;
	if ((c->needs & SMBSRV_NEED_TREE) && !req->tree) {
		req->tree = smbsrv_tree_lookup(req->sess, req->hdr.tree_id);
		if (!req->tree)
			return STATUS_NETWORK_NAME_DELETED;
	}
	status = smbsrv_req_encryption(req);
	if (status)
		return status;
	/* StructureSize 0 in the table: the handler checks the body. */
	if (c->struct_size &&
	    smb2_body_check(req->body, req->body_len, c->struct_size))
		return STATUS_INVALID_PARAMETER;
	return c->handler(req);
}

/* ---- responses ---------------------------------------------------------- */

/* Whose keys encrypt the response to @req; NULL: it goes out in clear. */
static struct smbsrv_session *smbsrv_rsp_crypt_sess(struct smbsrv_req *req,
						    struct smbsrv_session *dec)
{
	struct smbsrv_session *sess = req->sess;

	if (req->encrypted)
		return dec ? dec : sess;
	if (!sess || !smbsrv_session_has_keys(sess) || req->hdr.command == SMB2_NEGOTIATE ||
	    req->hdr.command == SMB2_SESSION_SETUP)
		return NULL;
	if (sess->encrypt_data)
		return sess;
	/* The client learns from the TREE_CONNECT response to encrypt. */
	if (req->tree && (req->tree->share_flags & SMBSRV_SHARE_FLAGS_ENCRYPT) &&
	    req->hdr.command != SMB2_TREE_CONNECT)
		return sess;
	return NULL;
}

/* Build the error body when the handler left none; false if no memory. */
static bool smbsrv_rsp_ensure(struct smbsrv_req *req)
{
	u8 *body;

	if (req->status == STATUS_PENDING && !req->async) {
		WARN_ONCE(1, "smbsrv: %s returned STATUS_PENDING without going async\n",
			  smbsrv_cmds[req->hdr.command].name);
		req->status = STATUS_INTERNAL_ERROR;
		smbsrv_rsp_free(req);
	}
	if (req->rsp)
		return true;
	body = smbsrv_rsp_body(req, SMB2_ERR_RSP_BODY);
	if (!body)
		return false;
	smb2_error_encode(body);
	return true;
}

static bool smbsrv_rsp_should_sign(struct smbsrv_req *req, bool encrypt)
{
	struct smbsrv_session *sess = req->sess;

	if (encrypt || !sess || !smbsrv_session_has_keys(sess))
		return false;
	return req->sign_rsp || req->signed_in || sess->signing_required;
}

/*
 * Fill in a response header at @rsp for @req: @status, credits (granted
 * by every response but the final one of an async request), flags.
 */
static void smbsrv_rsp_encode_hdr(struct smbsrv_req *req, u8 *rsp, u32 status,
				  bool grant)
{
	u32 flags = req->related ? SMB2_FLAGS_RELATED_OPERATIONS : 0;
	u16 credits = grant ? smbsrv_credits_grant(req) : 0;

	if (req->async)
		flags |= SMB2_FLAGS_ASYNC_COMMAND;
	smb2_hdr_encode_rsp(rsp, &req->hdr, status, credits, flags,
			    req->async_id);
	req->credits_granted = credits;
}

/*
 * Send a spliced READ response (alone in its message): the header and
 * fixed part are moved into the pages' head fragment, signed there over
 * the very pages that follow them, and the frame goes out spliced; or
 * it is encrypted from those pages into fresh ones.  0 or -errno.
 */
static int smbsrv_reply_pages(struct smbsrv_msg *msg, struct smbsrv_req *req)
{
	struct smbsrv_pages *p = req->pages;
	struct smbsrv_session *crypt;
	struct iov_iter data;
	u8 *rsp;
	int err;

	if (WARN_ON_ONCE(req->rsp_len > SMBSRV_HEAD_RSP_MAX))
		return -EINVAL;
	smbsrv_rsp_encode_hdr(req, req->rsp, req->status, true);
	rsp = p->head + SMBSRV_HEAD_RSP;
	memcpy(rsp, req->rsp, req->rsp_len);
	crypt = smbsrv_rsp_crypt_sess(req, msg->enc_sess);
	if (crypt)
		return smbsrv_encrypt_send_pages(msg->conn,
						 smbsrv_msg_send_queue(msg),
						 crypt, p, req->rsp_len);
	if (smbsrv_rsp_should_sign(req, false)) {
		iov_iter_bvec(&data, ITER_SOURCE, p->bv + 1, p->nr - 1,
			      p->len);
		err = smbsrv_sign_pdu_data(req->sess, req->chan, rsp,
					   req->rsp_len, &data);
		if (err)
			return err;
	}
	bvec_set_virt(&p->bv[0], p->head + SMBSRV_HEAD_PLAIN,
		      SMB2_FRAME_HDR_SIZE + req->rsp_len);
	return smbsrv_send_pages(msg->conn, smbsrv_msg_send_queue(msg), p->bv,
				 p->nr, req->rsp_len + p->len);
}

/* Send the responses of a chain as one frame; false: drop the connection. */
static bool smbsrv_msg_reply(struct smbsrv_msg *msg)
{
	struct smbsrv_session *crypt = NULL;
	/* Most messages are one request: no allocation for their vector. */
	struct kvec iov_short[4];
	struct smbsrv_req *req;
	struct kvec *iov = iov_short;
	unsigned int n = 1;
	u32 len = 0, pad, rlen;
	bool ok = false;
	u8 *rsp;
	int err;

	list_for_each_entry(req, &msg->reqs, node)
		n++;
	if (n == 1)
		return true;
	req = list_first_entry(&msg->reqs, struct smbsrv_req, node);
	if (n == 2 && req->pages && !req->async) {
		err = smbsrv_reply_pages(msg, req);
		return !err || err == -ENOTCONN;
	}
	if (n > ARRAY_SIZE(iov_short)) {
		iov = kmalloc_array(n, sizeof(*iov), GFP_KERNEL);
		if (!iov)
			return false;
	}

	n = 1;
	list_for_each_entry(req, &msg->reqs, node) {
		if (req->async) {
			/* The interim response (3.3.4.2); always the last. */
			rsp = msg->interim;
			rlen = SMB2_HDR_SIZE + SMB2_ERR_RSP_BODY;
			smb2_error_encode(rsp + SMB2_HDR_SIZE);
			smbsrv_rsp_encode_hdr(req, rsp, STATUS_PENDING, true);
		} else {
			if (!smbsrv_rsp_ensure(req))
				goto out;
			rsp = req->rsp;
			smbsrv_rsp_encode_hdr(req, rsp, req->status, true);
			if (!list_is_last(&req->node, &msg->reqs)) {
				pad = ALIGN(req->rsp_len, 8) - req->rsp_len;
				memset(rsp + req->rsp_len, 0, pad);
				req->rsp_len += pad;
				smb2_hdr_set_next(rsp, req->rsp_len);
			}
			rlen = req->rsp_len;
		}
		if (n == 1)
			crypt = smbsrv_rsp_crypt_sess(req, msg->enc_sess);
		if (!req->async && smbsrv_rsp_should_sign(req, crypt) &&
		    smbsrv_sign_pdu(req->sess, req->chan, rsp, rlen))
			goto out;
		/*
		 * The preauth hash covers the response as it goes out, signed:
		 * a binding's intermediate ones are (3.3.5.5.3).
		 */
		if (!req->async && req->preauth_rsp)
			smbsrv_preauth_buf(req->preauth_rsp, rsp, rlen);
		iov[n].iov_base = rsp;
		iov[n].iov_len = rlen;
		len += rlen;
		n++;
	}
	if (crypt)
		err = smbsrv_encrypt_send(msg->conn, smbsrv_msg_send_queue(msg),
					  crypt, iov, n, len);
	else
		err = smbsrv_send_frame(msg->conn, smbsrv_msg_send_queue(msg),
					iov, n, len);
	ok = !err || err == -ENOTCONN;
out:
	if (iov != iov_short)
		kfree(iov);
	return ok;
}

/* ---- async requests ----------------------------------------------------- */

bool smbsrv_req_can_async(const struct smbsrv_req *req)
{
	return req->msg && req->last && !req->async;
}

/*
 * A CANCEL by MessageId may be handled by one worker while another is
 * still running the request it names, before that request went async
 * (MS-SMB2 3.3.5.16 wants it cancelled all the same): remember the
 * MessageId, and smbsrv_req_go_async() refuses it then.  Under conn->lock.
 */
static void smbsrv_early_cancel_add(struct smbsrv_conn *conn, u64 mid)
{
	unsigned int i = conn->early_cancel_next;

	conn->early_cancel[i] = mid;
	conn->early_cancel_used |= 1U << i;
	conn->early_cancel_next = (i + 1) % SMBSRV_EARLY_CANCELS;
}

static bool smbsrv_early_cancel_take(struct smbsrv_conn *conn, u64 mid)
{
	unsigned int i;

	for (i = 0; i < SMBSRV_EARLY_CANCELS; i++) {
		if ((conn->early_cancel_used & (1U << i)) &&
		    conn->early_cancel[i] == mid) {
			conn->early_cancel_used &= ~(1U << i);
			return true;
		}
	}
	return false;
}

int smbsrv_req_go_async(struct smbsrv_req *req, smbsrv_cancel_fn cancel,
			void *priv, void (*priv_free)(struct smbsrv_req *req))
{
	struct smbsrv_conn *conn = req->conn;

	/* Anywhere in a chain: what follows waits for it (msg->waiting). */
	if (!req->msg || req->async || req->nowait)
		return -EINVAL;
	spin_lock(&conn->lock);
	if (smbsrv_conn_closing(conn)) {
		spin_unlock(&conn->lock);
		return -ENOTCONN;
	}
	if (smbsrv_early_cancel_take(conn, req->hdr.message_id)) {
		spin_unlock(&conn->lock);
		return -ECANCELED;
	}
	/*
	 * The interim response gives the request's credit back, so credits
	 * do not bound what waits: the connection's credit maximum does.
	 */
	if (conn->n_async >= conn->max_credits) {
		spin_unlock(&conn->lock);
		return -EBUSY;
	}
	conn->n_async++;
	req->async = true;
	req->async_id = conn->next_async_id++;
	req->cancel = cancel;
	/* Before a CANCEL can find it on the list. */
	req->priv = priv;
	req->priv_free = priv_free;
	list_add_tail(&req->pending, &conn->pending);
	spin_unlock(&conn->lock);
	/* The message's reference; the completion has the first one. */
	refcount_inc(&req->ref);
	return 0;
}

u32 smbsrv_req_async_status(int err)
{
	return err == -EBUSY ? STATUS_INSUFFICIENT_RESOURCES : STATUS_CANCELLED;
}

static void smbsrv_msg_continue(struct smbsrv_msg *msg);

/*
 * Send the final response of an async request and drop it; the rest of
 * its chain, if it went async in the middle of one, runs after it.
 */
static void smbsrv_req_send_final(struct smbsrv_req *req)
{
	struct smbsrv_conn *conn = req->conn;
	struct smbsrv_session *crypt;
	struct kvec iov[2];

	if (smbsrv_conn_closing(conn) || !smbsrv_rsp_ensure(req))
		goto out;
	smbsrv_rsp_encode_hdr(req, req->rsp, req->status, false);
	crypt = smbsrv_rsp_crypt_sess(req, NULL);
	if (smbsrv_rsp_should_sign(req, crypt) &&
	    smbsrv_sign_pdu(req->sess, req->chan, req->rsp, req->rsp_len))
		goto out;
	iov[1].iov_base = req->rsp;
	iov[1].iov_len = req->rsp_len;
	if (crypt)
		smbsrv_encrypt_send(conn, req->queue, crypt, iov, 2,
				    req->rsp_len);
	else
		smbsrv_send_frame(conn, req->queue, iov, 2, req->rsp_len);
out:
	if (req->chain)
		smbsrv_msg_continue(req->chain);
	smbsrv_req_put(req);
}

void smbsrv_req_complete(struct smbsrv_req *req, u32 status)
{
	struct smbsrv_conn *conn = req->conn;
	bool interim_out;

	trace_smbsrv_handler_done(conn->id, req->hdr.message_id,
				  req->hdr.command, status);
	smbsrv_cmdstats_done(req->hdr.command, status, req->start_ns);
	spin_lock(&conn->lock);
	if (!list_empty(&req->pending)) {
		list_del_init(&req->pending);
		conn->n_async--;
	}
	req->status = status;
	interim_out = req->interim_out;
	req->final_ready = true;
	spin_unlock(&conn->lock);
	/* Never before the interim response: its sender sends it then. */
	if (interim_out)
		smbsrv_req_send_final(req);
}

/* The interim response of @req went out (or never will). */
static void smbsrv_req_interim_done(struct smbsrv_req *req)
{
	struct smbsrv_conn *conn = req->conn;
	bool final_ready;

	spin_lock(&conn->lock);
	req->interim_out = true;
	final_ready = req->final_ready;
	spin_unlock(&conn->lock);
	if (final_ready)
		smbsrv_req_send_final(req);
}

/* Cancel the pending request CANCEL names; false when there is none. */
bool smbsrv_cancel_one(struct smbsrv_conn *conn, const struct smb2_hdr *hdr)
{
	struct smbsrv_req *req, *found = NULL;

	spin_lock(&conn->lock);
	list_for_each_entry(req, &conn->pending, pending) {
		if ((hdr->flags & SMB2_FLAGS_ASYNC_COMMAND) ?
		    req->async_id == hdr->async_id :
		    req->hdr.message_id == hdr->message_id) {
			list_move_tail(&req->pending, &conn->cancelled);
			refcount_inc(&req->ref);
			found = req;
			break;
		}
	}
	if (!found && !(hdr->flags & SMB2_FLAGS_ASYNC_COMMAND))
		smbsrv_early_cancel_add(conn, hdr->message_id);
	spin_unlock(&conn->lock);
	if (!found)
		return false;
	found->cancel(found);
	smbsrv_req_put(found);
	return true;
}

/*
 * Cancel every pending async request of @conn (teardown; none goes async
 * any more).  A cancelled request moves to conn->cancelled until it
 * completes, so each one is found once: linear in what is pending.
 */
static void smbsrv_cancel_all(struct smbsrv_conn *conn)
{
	struct smbsrv_req *req;

	for (;;) {
		spin_lock(&conn->lock);
		req = list_first_entry_or_null(&conn->pending,
					       struct smbsrv_req, pending);
		if (req) {
			list_move_tail(&req->pending, &conn->cancelled);
			refcount_inc(&req->ref);
		}
		spin_unlock(&conn->lock);
		if (!req)
			return;
		req->cancel(req);
		smbsrv_req_put(req);
	}
}

void smbsrv_smb2_conn_teardown(struct smbsrv_conn *conn)
{
	smbsrv_cancel_all(conn);
	smbsrv_sessions_close(conn);
}

/* ---- the message -------------------------------------------------------- */

static void smbsrv_msg_defer(struct smbsrv_msg *msg, struct smbsrv_req *req);

/* The requests answered in @msg go (an async one stays, on its own). */
static void smbsrv_msg_put_reqs(struct smbsrv_msg *msg)
{
	struct smbsrv_req *req, *tmp;

	list_for_each_entry_safe(req, tmp, &msg->reqs, node) {
		list_del(&req->node);
		if (req->async) {
			/* It lives on until its final response. */
			req->msg = NULL;
			req->rx = NULL;
			smbsrv_req_interim_done(req);
		}
		smbsrv_req_put(req);
	}
}

/*
 * Run the PDUs of a message (from where it stopped, if a request in its
 * middle went async) and send their responses.  Returns true when the
 * message was handed on (to a worker, after an inline READ that would
 * block; or to the async request the rest of its chain waits for): the
 * caller must not touch it any more.
 */
static bool smbsrv_msg_run(struct smbsrv_msg *msg, const u8 *m, u32 len)
{
	struct smbsrv_conn *conn = msg->conn;
	struct smbsrv_req *req, *waited = msg->waiting, *prev = waited;
	u32 off = msg->next_off, status;
	int n;

	msg->waiting = NULL;
	/* The chain goes on after an async CREATE: as if it ran here. */
	if (waited && waited->hdr.command == SMB2_CREATE)
		msg->create_err = smbsrv_status_error(waited->status) ?
				  waited->status : 0;
	while (off < len) {
		req = kzalloc(sizeof(*req), GFP_KERNEL);
		if (!req)
			goto drop;
		n = smb2_hdr_decode(m + off, len - off, &req->hdr);
		if (n < 0) {
			kfree(req);
			pr_info_ratelimited("smbsrv: %s sent a malformed SMB2 header, disconnecting\n",
					    conn->addr);
			goto drop;
		}
		req->start_ns = ktime_get_ns();
		refcount_set(&req->ref, 1);
		smbsrv_conn_get(conn);
		req->conn = conn;
		req->msg = msg;
		req->queue = msg->sw.queue;
		INIT_LIST_HEAD(&req->pending);
		req->pdu = m + off;
		req->pdu_len = n;
		req->body = req->pdu + SMB2_HDR_SIZE;
		req->body_len = n - SMB2_HDR_SIZE;
		req->last = off + n == len;
		req->compound = off || !req->last;
		req->related = req->hdr.flags & SMB2_FLAGS_RELATED_OPERATIONS;
		/* The receiver sends only a lone WRITE's data in pages. */
		if (msg->rx && !req->compound)
			req->rx = msg->rx;
		req->encrypted = msg->encrypted;
		req->nowait = msg->inline_run && !req->compound &&
			      (req->hdr.command == SMB2_READ ||
			       req->hdr.command == SMB2_WRITE);
		req->nowait_depth = req->nowait && msg->inline_depth;
		list_add_tail(&req->node, &msg->reqs);

		status = smbsrv_req_run(req, prev);
		if (status == SMBSRV_WOULD_BLOCK) {
			if (WARN_ON_ONCE(!req->nowait))
				goto drop;
			smbsrv_msg_defer(msg, req);
			return true;
		}
		trace_smbsrv_handler_done(conn->id, req->hdr.message_id,
					  req->hdr.command, status);
		/* An async request counts when it completes. */
		if (!req->async)
			smbsrv_cmdstats_done(req->hdr.command, status,
					     req->start_ns);
		if (status == SMBSRV_DISCONNECT)
			goto drop;
		/*
		 * Once async, the final status is smbsrv_req_complete()'s: a
		 * CANCEL or the awaited event may have set it on another
		 * worker already, and the handler's STATUS_PENDING must not
		 * overwrite it (the final response would go out as a second
		 * interim one).  A handler that ended after going async (a
		 * CANCEL before it parked) completes the request here.
		 */
		if (!req->async)
			req->status = status;
		else if (status != STATUS_PENDING)
			smbsrv_req_complete(req, status);
		if (req->nowait && req->hdr.command == SMB2_READ)
			smbsrv_readstats_inline(SMBSRV_INLINE_HIT);
		/*
		 * A symlink the client must resolve ends the chain too (a
		 * warning, but no open): the cifs client reads the status of
		 * the chain's last response.
		 */
		if (req->hdr.command == SMB2_CREATE)
			msg->create_err = smbsrv_status_error(status) ||
					  status == STATUS_STOPPED_ON_SYMLINK ?
					  status : 0;
		if (req->hdr.command == SMB2_CANCEL) {
			/* CANCEL has no response. */
			list_del(&req->node);
			smbsrv_req_put(req);
		} else {
			prev = req;
		}
		off += n;
		/* Async in the middle: the rest waits for its final response. */
		if (req->async && off < len) {
			refcount_inc(&req->ref);
			req->chain = msg;
			msg->waiting = req;
			msg->next_off = off;
			break;
		}
	}
	if (waited)
		smbsrv_req_put(waited);
	if (!smbsrv_msg_reply(msg))
		goto drop_waiting;
	if (!msg->waiting)
		return false;
	/*
	 * Parked until msg->waiting's final response: not in flight any more
	 * for the receiver (the async limit bounds such messages), and what
	 * was answered goes now.  Its final response may go out in there
	 * and queue the rest of the chain: @msg is not ours after it.
	 */
	if (!msg->recv_done) {
		msg->recv_done = true;
		smbsrv_recv_msg_done(conn);
	}
	smbsrv_msg_put_reqs(msg);
	return true;
drop:
	if (waited)
		smbsrv_req_put(waited);
drop_waiting:
	smbsrv_conn_close(conn);
	return false;
}

static void smbsrv_msg_free(struct smbsrv_msg *msg)
{
	struct smbsrv_conn *conn = msg->conn;
	bool recv_done = msg->recv_done;

	/* The chain ends here: a final response must not continue it. */
	if (msg->waiting)
		msg->waiting->chain = NULL;
	smbsrv_msg_put_reqs(msg);
	if (msg->waiting)
		smbsrv_req_put(msg->waiting);
	if (msg->enc_sess)
		smbsrv_session_put(msg->enc_sess);
	kvfree(msg->buf);
	kvfree(msg->plain_buf);
	smbsrv_rxpages_free(msg->rx);
	kfree(msg);
	if (!recv_done)
		smbsrv_recv_msg_done(conn);
	smbsrv_conn_put(conn);
}

/*
 * A TRANSFORM message received into pages (recv.c: its head in buf, the
 * rest in msg->rx), decrypted in one pass into pages of our own.  A lone
 * WRITE whose data is the rest of the message keeps its data there (the
 * handler writes from them, the data's one copy); anything else is put
 * together in a buffer as if it had been received whole.  0 or -errno.
 */
static int smbsrv_msg_decrypt_pages(struct smbsrv_msg *msg)
{
	struct smbsrv_rxpages *plain;
	struct smb2_route_info ri;
	struct iov_iter it;
	u32 len;
	u8 *buf;
	int err;

	msg->plain_buf = kmalloc(SMB2_WRITE_HEAD_SIZE, GFP_KERNEL);
	if (!msg->plain_buf)
		return -ENOMEM;
	err = smbsrv_decrypt_msg_pages(msg->conn, msg->buf, msg->rx,
				       &msg->enc_sess, msg->plain_buf, &plain);
	if (err)
		return err;
	/* The ciphertext's pages go back to the socket's owner. */
	smbsrv_rxpages_free(msg->rx);
	msg->rx = plain;
	len = SMB2_WRITE_HEAD_SIZE + plain->len;
	if (smb2_route_write_head(msg->plain_buf, len, &ri)) {
		msg->plain = msg->plain_buf;
		msg->plain_len = SMB2_WRITE_HEAD_SIZE;
		return 0;
	}
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, msg->plain_buf, SMB2_WRITE_HEAD_SIZE);
	smbsrv_rxpages_iter(plain, &it);
	if (copy_from_iter(buf + SMB2_WRITE_HEAD_SIZE, plain->len, &it) !=
	    plain->len) {
		kvfree(buf);
		return -EFAULT;
	}
	kfree(msg->plain_buf);
	msg->plain_buf = buf;
	msg->plain = buf;
	msg->plain_len = len;
	smbsrv_rxpages_free(plain);
	msg->rx = NULL;
	return 0;
}

/*
 * Decrypt a TRANSFORM message (in place, or out of the pages it was
 * received in): msg->plain is then the SMB2 message.  False when it does
 * not decrypt (the connection must go).
 */
static bool smbsrv_msg_decrypt(struct smbsrv_msg *msg)
{
	struct smbsrv_conn *conn = msg->conn;

	if (!smbsrv_conn_negotiated(conn) ||
	    conn->dialect < SMB2_DIALECT_300 ||
	    (msg->rx ? smbsrv_msg_decrypt_pages(msg) :
	     smbsrv_decrypt_msg(conn, msg->buf, msg->len, &msg->enc_sess,
				&msg->plain, &msg->plain_len))) {
		pr_info_ratelimited("smbsrv: %s sent a message that does not decrypt, disconnecting\n",
				    conn->addr);
		return false;
	}
	msg->decrypted = true;
	msg->encrypted = true;
	WRITE_ONCE(msg->enc_sess->client_encrypts, true);
	return true;
}

/* A worker finishes a READ (or WRITE) that would have blocked inline. */
static void smbsrv_msg_resume(struct smbsrv_msg *msg)
{
	struct smbsrv_req *req = msg->resume;
	struct smbsrv_conn *conn = msg->conn;

	msg->resume = NULL;
	req->nowait = false;
	req->nowait_depth = false;
	if (smbsrv_conn_closing(conn))
		goto drop;
	req->status = smbsrv_cmds[req->hdr.command].handler(req);
	trace_smbsrv_handler_done(conn->id, req->hdr.message_id,
				  req->hdr.command, req->status);
	smbsrv_cmdstats_done(req->hdr.command, req->status, req->start_ns);
	if (req->status != SMBSRV_DISCONNECT && smbsrv_msg_reply(msg))
		return;
drop:
	smbsrv_conn_close(conn);
}

static void smbsrv_msg_work(struct work_struct *work)
{
	struct smbsrv_msg *msg = container_of(work, struct smbsrv_msg,
					      sw.work);
	struct smbsrv_conn *conn = msg->conn;
	u8 *m = msg->buf;
	u32 len = msg->len, proto;

	if (msg->resume) {
		smbsrv_msg_resume(msg);
		goto out;
	}
	if (smbsrv_conn_closing(conn) || len < 4)
		goto drop;
	proto = get_unaligned_le32(m);
	if (proto == SMB1_PROTO_NUMBER && !msg->decrypted) {
		smbsrv_smb1_negotiate(conn, m, len);
		goto out;
	}
	if (proto == SMB2_TRANSFORM_PROTO_NUMBER) {
		if (!msg->decrypted && !smbsrv_msg_decrypt(msg))
			goto drop;
		m = msg->plain;
		len = msg->plain_len;
	} else if (proto != SMB2_PROTO_NUMBER) {
		pr_info_ratelimited("smbsrv: %s sent a message of unknown protocol %08x, disconnecting\n",
				    conn->addr, proto);
		goto drop;
	}
	if (smbsrv_msg_run(msg, m, len))
		return;		/* a worker has it now */
	goto out;
drop:
	smbsrv_conn_close(conn);
out:
	smbsrv_msg_free(msg);
}

/* The request the rest of @msg's chain waited for was answered: go on. */
static void smbsrv_msg_continue(struct smbsrv_msg *msg)
{
	smbsrv_sched_msg(msg->conn, &msg->sw, msg->buf, msg->len, &msg->route);
}

/*
 * An inline READ (or WRITE) would have blocked: its request, charged and
 * checked, goes to a worker, which calls the handler again
 * (smbsrv_msg_resume()).
 */
static void smbsrv_msg_defer(struct smbsrv_msg *msg, struct smbsrv_req *req)
{
	if (req->hdr.command == SMB2_READ)
		smbsrv_readstats_inline(SMBSRV_INLINE_MISS);
	else
		smbsrv_writestats_inline(SMBSRV_WINLINE_DEFERRED);
	/* A worker sends its response: nothing to hold back there. */
	msg->inline_run = false;
	msg->resume = req;
	smbsrv_sched_msg(msg->conn, &msg->sw, msg->buf, msg->len, &msg->route);
}

/*
 * Inline reads: the receiver runs a plain single READ itself, or first
 * decrypts a small sealed message to see whether it is one.  Returns
 * false, having done nothing but (maybe) the decryption, when @msg must
 * be queued as usual.
 */
static bool smbsrv_msg_inline(struct smbsrv_msg *msg, enum smbsrv_inline kind)
{
	struct smbsrv_conn *conn = msg->conn;
	struct smb2_route_info ri;
	u8 *m = msg->buf;
	u32 len = msg->len;

	if (smbsrv_conn_closing(conn))
		return false;
	if (kind == SMBSRV_INLINE_SEALED) {
		if (!smbsrv_msg_decrypt(msg)) {
			smbsrv_conn_close(conn);
			smbsrv_msg_free(msg);
			return true;
		}
		m = msg->plain;
		len = msg->plain_len;
		smb2_route_peek(m, len, &ri);
		if (!ri.read || !smbsrv_sched_inline_charge(conn, ri.read_length))
			return false;
	}
	msg->inline_run = true;
	msg->inline_depth = kind == SMBSRV_INLINE_WRITE_DEPTH;
	if (trace_smbsrv_worker_start_enabled()) {
		u64 mid;
		u16 cmd;

		smbsrv_trace_peek(m, len, &mid, &cmd);
		trace_smbsrv_worker_start(conn->id, mid, SMBSRV_TRACE_INLINE, 0);
	}
	if (!smbsrv_msg_run(msg, m, len))
		smbsrv_msg_free(msg);
	return true;
}

int smbsrv_msg_queue(struct smbsrv_conn *conn, u8 *buf, u32 len,
		     struct smbsrv_rxpages *rx,
		     const struct smb2_route_info *ri)
{
	enum smbsrv_inline kind;
	struct smbsrv_msg *msg;

	msg = kzalloc(sizeof(*msg), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	smbsrv_sched_work_init(&msg->sw, smbsrv_msg_work);
	INIT_LIST_HEAD(&msg->reqs);
	smbsrv_conn_get(conn);
	msg->conn = conn;
	msg->buf = buf;
	msg->len = len;
	msg->rx = rx;
	msg->route = *ri;
	kind = smbsrv_sched_inline(conn, ri);
	if (kind != SMBSRV_INLINE_NO && smbsrv_msg_inline(msg, kind))
		return 0;
	smbsrv_sched_msg(conn, &msg->sw, buf, len, ri);
	return 0;
}
