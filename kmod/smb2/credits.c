// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: credits and the command sequence window (see credits.h).
 */
#include <linux/slab.h>

#include "../conn.h"
#include "../smbsrv.h"
#include "../wire/credits.h"
#include "credits.h"
#include "smb2.h"

/* A new connection may use id 0 only (3.3.1.1); NEGOTIATE resizes. */
int smbsrv_smb2_conn_init(struct smbsrv_conn *conn)
{
	conn->max_credits = 1;
	smbsrv_lane_init(conn);
	conn->seqwin_bits = kzalloc(1, GFP_KERNEL);
	if (!conn->seqwin_bits)
		return -ENOMEM;
	smb2_seqwin_init(&conn->seqwin, conn->seqwin_bits, 1);
	return 0;
}

void smbsrv_smb2_conn_free(struct smbsrv_conn *conn)
{
	kfree(conn->seqwin_bits);
}

int smbsrv_credits_setup(struct smbsrv_conn *conn)
{
	u32 max = clamp_t(u32, READ_ONCE(smbsrv_server.knobs.max_credits),
			  1, 65535);
	/*
	 * The client holds at most max credits, but ids it skips keep the
	 * window from sliding: let it span twice that before grants stop
	 * (Windows lets a client skip an id and go on for a full window).
	 */
	u32 span = 2 * max;
	u8 *bits, *old;
	u64 low;

	bits = kzalloc(BITS_TO_BYTES(span), GFP_KERNEL);
	if (!bits)
		return -ENOMEM;
	spin_lock(&conn->lock);
	if (conn->seqwin.size) {
		spin_unlock(&conn->lock);
		kfree(bits);
		return -EPROTO;
	}
	low = conn->seqwin.low;
	old = conn->seqwin_bits;
	smb2_seqwin_init(&conn->seqwin, bits, span);
	conn->seqwin.low = low;
	conn->seqwin.size = 0;
	conn->seqwin.avail = 0;
	conn->seqwin_bits = bits;
	conn->max_credits = max;
	spin_unlock(&conn->lock);
	kfree(old);
	return 0;
}

bool smbsrv_credits_charge(struct smbsrv_req *req)
{
	struct smbsrv_conn *conn = req->conn;
	u32 charge = 1;
	int err;

	if (conn->multi_credit && req->hdr.credit_charge > 1)
		charge = req->hdr.credit_charge;
	spin_lock(&conn->lock);
	conn->requests++;
	err = smb2_seqwin_consume(&conn->seqwin, req->hdr.message_id, charge);
	if (!err)
		conn->credits_inflight += charge;
	spin_unlock(&conn->lock);
	if (err)
		return false;
	req->charge = charge;
	return true;
}

/*
 * What the client asks for (at least one), as long as what it holds and
 * what is in flight stays within the connection's maximum, and never
 * leaving it with none.
 */
u16 smbsrv_credits_grant(struct smbsrv_req *req)
{
	struct smbsrv_conn *conn = req->conn;
	u32 want = max_t(u32, req->hdr.credits, 1), held, room, grant;

	spin_lock(&conn->lock);
	conn->credits_inflight -= req->charge;
	req->charge = 0;
	held = conn->seqwin.avail + conn->credits_inflight;
	room = conn->max_credits > held ? conn->max_credits - held : 0;
	grant = min(want, room);
	if (!grant && !held)
		grant = 1;
	grant = smb2_seqwin_grant(&conn->seqwin, grant);
	spin_unlock(&conn->lock);
	return grant;
}

int smbsrv_credits_smb1_charge(struct smbsrv_conn *conn)
{
	int err;

	spin_lock(&conn->lock);
	conn->requests++;
	err = smb2_seqwin_consume(&conn->seqwin, 0, 1);
	spin_unlock(&conn->lock);
	return err;
}

void smbsrv_credits_smb1_grant(struct smbsrv_conn *conn)
{
	spin_lock(&conn->lock);
	smb2_seqwin_grant(&conn->seqwin, 1);
	spin_unlock(&conn->lock);
}

u32 smbsrv_req_check_charge(struct smbsrv_req *req)
{
	u32 payload = smb2_payload_size(req->hdr.command, req->body,
					req->body_len);

	if (!req->conn->multi_credit || !req->hdr.credit_charge)
		return payload > 65536 ? STATUS_INVALID_PARAMETER :
					 STATUS_SUCCESS;
	if (smb2_credits_for(payload) > req->hdr.credit_charge)
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}
