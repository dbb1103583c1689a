// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: oplock and lease break notifications (MS-SMB2 2.2.23, 3.3.4.6,
 * 3.3.4.7), built for cache.c, which decides who is broken to what, and
 * sent from a worker: struct smbsrv_break_ops, registered at init.
 *
 * A notification is built under the fnode's lock (GFP_ATOMIC) and holds
 * the session whose keys encrypt it, if any, and the one it goes to; the
 * connection it is written to is chosen once, after the lock: for a lease
 * break the client's oldest connection with a session (as Windows does:
 * smbtorture's v2_complex1), else a live channel of the session.  It is
 * then written from that connection's lane (lane.c): a client that does
 * not read its socket holds up one worker (for the frame timeout), not one
 * per notification, and thousands of breaks to one client are interleaved
 * with everybody else's requests.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <uapi/linux/smbsrv.h>

#include "../cache.h"
#include "../cmdstats.h"
#include "../conn.h"
#include "../durable.h"
#include "../file.h"
#include "../sched.h"
#include "../send.h"
#include "../session.h"
#include "../sign.h"
#include "../wire/oplock.h"
#include "smb2.h"

struct smbsrv_note {
	struct list_head node;		/* the notes of one change */
	struct smbsrv_lane_item it;	/* then on the connection's lane */
	struct smbsrv_conn *conn;	/* whose lane (which holds it) */
	bool to_client;			/* any connection of client_guid */
	u8 client_guid[16];
	struct smbsrv_session *sess;	/* referenced; the fallback */
	bool encrypt;			/* with sess's keys */
	u32 len;
	u8 buf[SMB2_HDR_SIZE + SMB2_LEASE_BREAK_NOTIFY_SIZE];
};

/* The client's oldest connection with a session, referenced, or NULL. */
static struct smbsrv_conn *smbsrv_note_client_conn(const u8 *guid)
{
	struct smbsrv_conn *conn;
	u32 after = 0;

	while ((conn = smbsrv_conn_next(after))) {
		if (smbsrv_conn_negotiated(conn) && !smbsrv_conn_closing(conn) &&
		    READ_ONCE(conn->nr_sessions) &&
		    !memcmp(conn->client_guid, guid, 16))
			return conn;
		after = conn->id;
		smbsrv_conn_put(conn);
	}
	return NULL;
}

static void smbsrv_note_free(struct smbsrv_note *n)
{
	smbsrv_session_put(n->sess);
	kfree(n);
}

/* On the connection's lane (lane.c): write it. */
static void smbsrv_note_run(struct smbsrv_lane_item *it)
{
	struct smbsrv_note *n = container_of(it, struct smbsrv_note, it);
	struct smbsrv_conn *conn = n->conn;
	struct kvec iov[2];

	iov[1].iov_base = n->buf;
	iov[1].iov_len = n->len;
	if (smbsrv_conn_closing(conn))
		goto out;
	if (n->encrypt)
		smbsrv_encrypt_send(conn, SMBSRV_QUEUE_PERCPU, n->sess, iov, 2,
				    n->len);
	else
		smbsrv_send_frame(conn, SMBSRV_QUEUE_PERCPU, iov, 2, n->len);
out:
	smbsrv_note_free(n);
}

/*
 * A notification for open @f's session (@f an open on its tree, under its
 * fnode's lock), or NULL when the session has no channel left or memory
 * is short: the break then runs into its timeout, as it would for a
 * client that never answers.
 */
static struct smbsrv_note *smbsrv_note_new(struct smbsrv_file *f,
					   bool encrypt)
{
	struct smbsrv_tree *tree = f->open.tree;
	struct smbsrv_session *sess;
	struct smbsrv_note *n;

	if (!tree || READ_ONCE(f->open.gone))
		return NULL;
	sess = tree->sess;
	if (!smbsrv_session_connected(sess))
		return NULL;
	n = kzalloc(sizeof(*n), GFP_ATOMIC);
	if (!n)
		return NULL;
	/* Referenced; put in process context only, with the note. */
	smbsrv_session_get(sess);
	n->sess = sess;
	n->encrypt = encrypt && (sess->encrypt_data ||
				 (tree->share_flags & SMBSRV_SHARE_FLAGS_ENCRYPT));
	smb2_hdr_encode_notify(n->buf);
	return n;
}

static bool smbsrv_break_oplock(struct smbsrv_file *f, u8 level,
				struct list_head *notes)
{
	struct smbsrv_note *n = smbsrv_note_new(f, true);

	if (!n)
		return false;
	n->len = SMB2_HDR_SIZE +
		 smb2_oplock_break_encode(n->buf + SMB2_HDR_SIZE, level,
					  f->open.id_persistent,
					  f->open.id_volatile);
	list_add_tail(&n->node, notes);
	smbsrv_cmdstats_break(SMBSRV_BREAK_OPLOCK);
	return true;
}

static void smbsrv_break_lease(struct smbsrv_file *f,
			       const struct smbsrv_lease_break *b,
			       struct list_head *notes)
{
	/* As Samba: lease breaks go out in clear. */
	struct smbsrv_note *n = smbsrv_note_new(f, false);

	if (!n)
		return;
	n->to_client = true;
	memcpy(n->client_guid, b->client_guid, 16);
	n->len = SMB2_HDR_SIZE +
		 smb2_lease_break_notify_encode(n->buf + SMB2_HDR_SIZE,
						b->epoch, b->flags, b->key,
						b->from, b->to);
	list_add_tail(&n->node, notes);
	smbsrv_cmdstats_break(SMBSRV_BREAK_LEASE);
}

/*
 * After the fnode's lock: each notification to the connection it goes to.
 * Lease breaks of one storm mostly go to one client: its connection is
 * looked up once for a run of notes with the same ClientGuid.
 */
static void smbsrv_break_send(struct list_head *notes)
{
	struct smbsrv_conn *conn, *last = NULL;
	struct smbsrv_note *n, *tmp;
	u8 last_guid[16];

	list_for_each_entry_safe(n, tmp, notes, node) {
		list_del(&n->node);
		conn = NULL;
		if (n->to_client) {
			if (!last || memcmp(last_guid, n->client_guid, 16)) {
				if (last)
					smbsrv_conn_put(last);
				last = smbsrv_note_client_conn(n->client_guid);
				memcpy(last_guid, n->client_guid, 16);
			}
			conn = last;
			if (conn)
				smbsrv_conn_get(conn);
		}
		if (!conn)
			conn = smbsrv_session_live_conn(n->sess);
		if (conn) {
			n->conn = conn;
			n->it.run = smbsrv_note_run;
			smbsrv_lane_add(conn, &n->it);
			smbsrv_conn_put(conn);
		} else {
			smbsrv_note_free(n);
		}
	}
	if (last)
		smbsrv_conn_put(last);
}

static const struct smbsrv_break_ops smbsrv_break_ops = {
	.oplock = smbsrv_break_oplock,
	.lease = smbsrv_break_lease,
	.send = smbsrv_break_send,
	.unanswerable = smbsrv_durable_expire_now,
};

void smbsrv_break_init(void)
{
	smbsrv_cache_set_break_ops(&smbsrv_break_ops);
}

void smbsrv_break_exit(void)
{
	smbsrv_cache_set_break_ops(NULL);
}
