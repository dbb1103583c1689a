// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: OPLOCK_BREAK requests, the acknowledgments of oplock and lease
 * breaks (MS-SMB2 3.3.5.22), and CREATEs parked until breaks are
 * answered.  The state they change and wait on is cache.c's.
 */
#include <linux/slab.h>

#include "../cache.h"
#include "../conn.h"
#include "../durable.h"
#include "../file.h"
#include "../session.h"
#include "../fnode.h"
#include "../wire/oplock.h"
#include "smb2.h"

/* A CREATE parked until the caching of an fnode changes. */
struct smbsrv_cache_park {
	struct smbsrv_cache_wait w;	/* cache_wait.c's part */
	struct smbsrv_lane_item it;	/* then on its connection's lane */
	struct smbsrv_req *req;
	u8 *pdu;			/* the request's copy */
	u32 (*run)(struct smbsrv_req *req);
};

static void smbsrv_cache_rerun_now(struct smbsrv_lane_item *it)
{
	struct smbsrv_cache_park *p = container_of(it, struct smbsrv_cache_park,
						   it);
	struct smbsrv_req *req = p->req;
	u32 status;

	status = p->run(req);
	if (status != STATUS_PENDING)
		smbsrv_req_complete(req, status);
}

/*
 * The caching changed: run the CREATE again, on its connection's lane,
 * so that a storm of breaks timing out at once for one client runs its
 * CREATEs one after another, interleaved with other clients' requests.
 */
static void smbsrv_cache_rerun(struct work_struct *work)
{
	struct smbsrv_cache_park *p = container_of(work,
						   struct smbsrv_cache_park,
						   w.work);

	p->it.run = smbsrv_cache_rerun_now;
	smbsrv_lane_add(p->req->conn, &p->it);
}

/*
 * A durable v2 CREATE whose connection goes while it waits, its session
 * living on through other channels: it goes on waiting and opens for the
 * session, answering nobody; its client, having lost the channel, sends
 * it again on another one, where the replay gets FILE_NOT_AVAILABLE
 * until it ends and then the open it made (3.3.5.9.10).
 */
static bool smbsrv_cache_park_outlives(struct smbsrv_req *req)
{
	return req->dur_pending && smbsrv_conn_closing(req->conn) &&
	       req->sess && READ_ONCE(req->sess->nr_channels) > 1 &&
	       smbsrv_durable_pend_orphan(req->dur_pending, req->sess);
}

static void smbsrv_cache_cancel(struct smbsrv_req *req)
{
	struct smbsrv_cache_park *p = req->priv;

	if (smbsrv_cache_park_outlives(req))
		return;
	if (smbsrv_cache_wait_cancel(&p->w))
		smbsrv_req_complete(req, STATUS_CANCELLED);
}

static void smbsrv_cache_park_free(struct smbsrv_req *req)
{
	struct smbsrv_cache_park *p = req->priv;

	smbsrv_cache_wait_release(&p->w);
	kfree(p->pdu);
	kfree(p);
}

/* Go async with a copy of the request to run again; 0 or a status. */
static u32 smbsrv_cache_go_async(struct smbsrv_req *req,
				 u32 (*run)(struct smbsrv_req *req))
{
	struct smbsrv_cache_park *p;
	int err;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (p)
		p->pdu = kmemdup(req->pdu, req->pdu_len, GFP_KERNEL);
	if (!p || !p->pdu) {
		kfree(p);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	smbsrv_cache_wait_init(&p->w, smbsrv_cache_rerun);
	p->req = req;
	p->run = run;
	err = smbsrv_req_go_async(req, smbsrv_cache_cancel, p,
				  smbsrv_cache_park_free);
	if (err) {
		/* Too many waiting, the connection is going, or CANCEL came. */
		kfree(p->pdu);
		kfree(p);
		return smbsrv_req_async_status(err);
	}
	/* The message goes once the handler returns: run on the copy. */
	req->pdu = p->pdu;
	req->body = p->pdu + SMB2_HDR_SIZE;
	return STATUS_SUCCESS;
}

u32 smbsrv_cache_park(struct smbsrv_req *req, struct smbsrv_fnode *fn,
		      u32 gen, u32 (*run)(struct smbsrv_req *req))
{
	struct smbsrv_cache_park *p;
	u32 status;

	/*
	 * Never in place: a worker that waits out a break timeout is one
	 * that every other client's requests queue behind.  Anywhere in a
	 * compound the CREATE goes async, the rest of its chain after it.
	 */
	if (!req->async) {
		status = smbsrv_cache_go_async(req, run);
		if (status) {
			smbsrv_fnode_put(fn);
			return status;
		}
	}
	p = req->priv;
	return smbsrv_cache_wait_park(&p->w, fn, gen);
}

u32 smbsrv_smb2_oplock_break(struct smbsrv_req *req)
{
	struct smb2_break_ack a;
	struct smbsrv_file *f;
	u8 *body, level = 0;
	u32 status;

	status = smb2_break_ack_decode(req->body, req->body_len, &a);
	if (status)
		return status;
	if (a.lease) {
		if (!(req->conn->server_caps & SMB2_GLOBAL_CAP_LEASING))
			return STATUS_INVALID_PARAMETER;
		status = smbsrv_cache_lease_ack(req->conn, a.lease_key,
						a.lease_state);
		if (status)
			return status;
		body = smbsrv_rsp_body(req, SMB2_LEASE_BREAK_ACK_SIZE);
		if (!body)
			return STATUS_INSUFFICIENT_RESOURCES;
		smb2_lease_break_rsp_encode(body, a.lease_key, a.lease_state);
		return STATUS_SUCCESS;
	}
	f = smbsrv_req_file(req, req->body + 8);
	if (!f)
		return STATUS_FILE_CLOSED;
	status = smbsrv_cache_oplock_ack(f, a.oplock_level, &level);
	if (!status) {
		body = smbsrv_rsp_body(req, SMB2_OPLOCK_BREAK_SIZE);
		if (body)
			smb2_oplock_break_encode(body, level,
						 f->open.id_persistent,
						 f->open.id_volatile);
		else
			status = STATUS_INSUFFICIENT_RESOURCES;
	}
	smbsrv_file_put(f);
	return status;
}
