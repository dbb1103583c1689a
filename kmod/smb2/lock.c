// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: LOCK (MS-SMB2 3.3.5.14).
 *
 * The locks themselves, their conflicts with READ and WRITE and the
 * POSIX mirror are the lock table's (brl.c); here is the request: which
 * open, lock or unlock, waiting for a range (async, cancellable) and the
 * response.  LockSequence is verified (3.3.5.14; durable.c keeps the
 * array) for durable handles, and for every open on a 3.x connection
 * that offered multichannel: a request repeating one that succeeded is
 * answered STATUS_SUCCESS and not done again, so a client replaying it
 * after a reconnect, or on another channel, does not lock twice or
 * unlock what it locked since.  smbsrv offers no resilient or persistent
 * handles, the other cases where 3.3.5.14 checks it.
 */
#include <linux/slab.h>

#include "../brl.h"
#include "../conn.h"
#include "../durable.h"
#include "../file.h"
#include "../wire/fscc.h"
#include "../wire/lock.h"
#include "smb2.h"

/* A LOCK request waiting in the lock table. */
struct smbsrv_lock_wait {
	struct smbsrv_brl_waiter bw;
	struct smbsrv_req *req;
	u32 sequence;			/* LockSequence, recorded when granted */
};

static struct smbsrv_lock_wait *smbsrv_lock_wait_of(struct smbsrv_brl_waiter *bw)
{
	return container_of(bw, struct smbsrv_lock_wait, bw);
}

/* Granted, under the table's mutex: the response, or not now. */
static bool smbsrv_lock_granted(struct smbsrv_brl_waiter *bw)
{
	struct smbsrv_lock_wait *w = smbsrv_lock_wait_of(bw);
	u8 *body = smbsrv_rsp_body(w->req, SMB2_LOCK_RSP_SIZE);

	if (!body)
		return false;
	smb2_lock_rsp_encode(body);
	smbsrv_file_lock_done(bw->f, w->sequence);
	return true;
}

static void smbsrv_lock_done(struct smbsrv_brl_waiter *bw, u32 status)
{
	smbsrv_req_complete(smbsrv_lock_wait_of(bw)->req, status);
}

static const struct smbsrv_brl_waiter_ops smbsrv_lock_wait_ops = {
	.grant = smbsrv_lock_granted,
	.done = smbsrv_lock_done,
};

static void smbsrv_lock_cancel(struct smbsrv_req *req)
{
	struct smbsrv_lock_wait *w = req->priv;

	if (smbsrv_brl_wait_cancel(&w->bw))
		smbsrv_req_complete(req, STATUS_CANCELLED);
}

/* The request goes: after its final response, never under the mutex. */
static void smbsrv_lock_wait_free(struct smbsrv_req *req)
{
	struct smbsrv_lock_wait *w = req->priv;

	smbsrv_brl_waiter_release(&w->bw);
	smbsrv_file_put(w->bw.f);
	kfree(w);
}

/* What smbsrv_lock_wait() is given: the request and its LockSequence. */
struct smbsrv_lock_req_ctx {
	struct smbsrv_req *req;
	u32 sequence;
};

/* A lock that conflicts may wait (smbsrv_brl_wait_fn); under the mutex. */
static u32 smbsrv_lock_wait(void *arg, struct smbsrv_file *f,
			    const struct smb2_lock_elem *e, bool exclusive,
			    struct smbsrv_brl_waiter **bw)
{
	const struct smbsrv_lock_req_ctx *lr = arg;
	struct smbsrv_req *req = lr->req;
	struct smbsrv_lock_wait *w;
	int err;

	/* Only the last request of a compound may go async. */
	if (!smbsrv_req_can_async(req))
		return STATUS_LOCK_NOT_GRANTED;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return STATUS_INSUFFICIENT_RESOURCES;
	refcount_inc(&f->open.ref);
	w->req = req;
	w->sequence = lr->sequence;
	smbsrv_brl_waiter_init(&w->bw, f, e, exclusive, &smbsrv_lock_wait_ops);
	err = smbsrv_req_go_async(req, smbsrv_lock_cancel, w,
				  smbsrv_lock_wait_free);
	if (err) {
		/* Too many waiting, or the connection is going away. */
		smbsrv_file_put(f);
		kfree(w);
		return smbsrv_req_async_status(err);
	}
	*bw = &w->bw;
	return STATUS_PENDING;
}

u32 smbsrv_smb2_lock(struct smbsrv_req *req)
{
	struct smbsrv_lock_req_ctx lr = { .req = req };
	struct smb2_lock_req r;
	struct smb2_lock_elem e;
	struct smbsrv_file *f;
	bool replay;
	u32 status;
	u8 *body;

	status = smb2_lock_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	f = smbsrv_req_file(req, r.file_id);
	if (!f)
		return smbsrv_req_fid_status(req);
	lr.sequence = r.sequence;
	/* Every open is verified where multichannel is offered (3.x). */
	replay = smbsrv_file_lock_replay(f, r.sequence,
					 req->conn->dialect >= SMB2_DIALECT_300 &&
					 (req->conn->server_caps &
					  SMB2_GLOBAL_CAP_MULTI_CHANNEL));
	smb2_lock_req_elem(&r, 0, &e);
	if (replay)		/* done already: not again */
		status = STATUS_SUCCESS;
	/* MS-FSA 2.1.5.8: no byte-range locks on directories. */
	else if (smbsrv_file_is_dir(f) || (f->flags & SMBSRV_FILE_REPARSE))
		status = STATUS_INVALID_PARAMETER;
	else if (!(f->access & (FILE_READ_DATA | FILE_WRITE_DATA)))
		status = STATUS_ACCESS_DENIED;
	else if (e.flags & SMB2_LOCKFLAG_UNLOCK)
		status = smbsrv_brl_unlock(f, &r);
	else
		status = smbsrv_brl_lock(f, &r, smbsrv_lock_wait, &lr);
	/* Read caching cannot cover locked ranges (cache.c). */
	if (!replay && (status == STATUS_SUCCESS || status == STATUS_PENDING))
		smbsrv_cache_break_write(f);
	if (status == STATUS_SUCCESS) {
		body = smbsrv_rsp_body(req, SMB2_LOCK_RSP_SIZE);
		if (body) {
			smb2_lock_rsp_encode(body);
			smbsrv_file_lock_done(f, r.sequence);
		} else {
			status = STATUS_INSUFFICIENT_RESOURCES;
		}
	}
	smbsrv_file_put(f);
	return status;
}
