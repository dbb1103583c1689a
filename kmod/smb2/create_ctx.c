// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the contexts of a CREATE (MS-SMB2 2.2.13.2, 2.2.14.2): those a
 * request carries for client caching and durable handles, those the
 * answer carries, and the durable reconnects and replays that answer
 * with an open that exists already (see create.h).
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "../conn.h"
#include "../file.h"
#include "../fruit.h"
#include "../session.h"
#include "../status.h"
#include "../wire/fscc.h"
#include "../wire/oplock.h"
#include "../wire/posix.h"
#include "create.h"
#include "posix.h"
#include "smb2.h"

/* ---- client caching (cache.c) -------------------------------------------- */

/*
 * What the CREATE asks of client caching: its oplock level, and with
 * SMB2_OPLOCK_LEVEL_LEASE an RqLs context where leases were offered (a v2
 * one on 2.1 is read as v1).  A malformed RqLs is STATUS_INVALID_PARAMETER.
 */
u32 smbsrv_create_cache_ctx(struct smbsrv_req *req, struct smbsrv_create *c)
{
	const struct smb2_create_ctx *x = &c->r.ctx[SMB2_CTX_REQUEST_LEASE];
	u32 status;

	bool reconnect = smb2_create_has(&c->r, SMB2_CTX_DURABLE_RECONNECT) ||
			 smb2_create_has(&c->r, SMB2_CTX_DURABLE_RECONNECT_V2);

	c->cr.oplock = c->r.oplock;
	c->cr.share = c->r.share & FILE_SHARE_ALL;
	c->cr.disposition = c->r.disposition;
	/* A reconnect names its lease whatever the OplockLevel says. */
	if ((c->r.oplock != SMB2_OPLOCK_LEVEL_LEASE && !reconnect) ||
	    !(req->conn->server_caps & SMB2_GLOBAL_CAP_LEASING) ||
	    !smb2_create_has(&c->r, SMB2_CTX_REQUEST_LEASE))
		return STATUS_SUCCESS;
	status = smb2_lease_ctx_decode(x->data, x->data_len, &c->cr.rqls);
	if (status)
		return status;
	if (req->conn->dialect < SMB2_DIALECT_300 && c->cr.rqls.version == 2) {
		c->cr.rqls.version = 1;
		c->cr.rqls.flags = 0;
		c->cr.rqls.epoch = 0;
	}
	c->cr.lease = true;
	return STATUS_SUCCESS;
}

/* Response contexts, each 8-byte aligned and linked to the one before. */
struct smbsrv_ctx_out {
	u8 *buf;
	u32 len;
	u32 last;
};

static void smbsrv_ctx_add_named(struct smbsrv_ctx_out *o, const u8 *name,
				 u32 name_len, const u8 *data, u32 len)
{
	if (o->len) {
		o->len = ALIGN(o->len, 8);
		smb2_create_ctx_link(o->buf + o->last, o->len - o->last);
	}
	o->last = o->len;
	o->len += smb2_create_ctx_encode_named(o->buf + o->len, name, name_len,
					       data, len);
}

static void smbsrv_ctx_add(struct smbsrv_ctx_out *o, const char *tag,
			   const u8 *data, u32 len)
{
	smbsrv_ctx_add_named(o, (const u8 *)tag, 4, data, len);
}

u32 smbsrv_create_reply(struct smbsrv_req *req, struct smbsrv_create *c)
{
	struct smb2_create_rsp rsp = {
		.action = c->action,
		.creation_time = c->fa.creation_time,
		.access_time = c->fa.access_time,
		.write_time = c->fa.write_time,
		.change_time = c->fa.change_time,
		.allocation = c->fa.allocation,
		.eof = c->fa.eof,
		.attributes = c->fa.attributes,
		.fid_persistent = c->f->open.id_persistent,
		.fid_volatile = c->f->open.id_volatile,
		.oplock = c->ca.oplock,
	};
	bool mxac = smb2_create_has(&c->r, SMB2_CTX_QUERY_MAXIMAL_ACCESS);
	bool qfid = smb2_create_has(&c->r, SMB2_CTX_QUERY_ON_DISK_ID);
	struct smbsrv_ctx_out o = {};
	struct smb_posix_info pi;
	u8 data[SMB2_AAPL_RSP_MAX];	/* the largest answer */
	bool zero_id = READ_ONCE(req->conn->aapl) &&
		       smbsrv_fruit_has(req->tree,
					SMBSRV_FRUIT_FLAGS_ZERO_FILE_ID);
	int aapl_len = 0;
	u32 len = 0;
	u8 *body;

	BUILD_BUG_ON(sizeof(data) < SMB_POSIX_CC_SIZE);
	BUILD_BUG_ON(sizeof(data) < SMB2_LEASE_V2_SIZE);
	if (c->aapl) {
		aapl_len = smbsrv_fruit_answer(req, c, data, sizeof(data));
		if (aapl_len < 0)
			return STATUS_INVALID_PARAMETER;
		len += smb2_create_ctx_size(aapl_len);
	}
	if (c->posix) {
		smbsrv_posix_from_fattr(&c->fa, &pi);
		rsp.attributes = pi.attributes;
		len += smb2_create_ctx_size_named(SMB2_POSIX_TAG_SIZE,
						  SMB_POSIX_CC_SIZE);
	}

	if (mxac)
		len += smb2_create_ctx_size(SMB2_MXAC_RSP_SIZE);
	if (qfid)
		len += smb2_create_ctx_size(SMB2_QFID_RSP_SIZE);
	if (c->ca.lease)
		len += smb2_create_ctx_size(SMB2_LEASE_V2_SIZE);
	if (c->dur_granted)
		len += smb2_create_ctx_size(SMB2_DH2Q_RSP_SIZE);
	body = smbsrv_rsp_body(req, SMB2_CREATE_RSP_FIXED + max(len, 1u));
	if (!body)
		return STATUS_INSUFFICIENT_RESOURCES;
	o.buf = body + SMB2_CREATE_RSP_FIXED;
	if (c->aapl) {
		/* Encoded again: data is every answer's scratch buffer. */
		smbsrv_fruit_answer(req, c, data, sizeof(data));
		smbsrv_ctx_add(&o, "AAPL", data, aapl_len);
	}
	if (mxac) {
		put_unaligned_le32(STATUS_SUCCESS, data);
		/*
		 * An existing object's answer is what it grants, whatever
		 * was asked; a new one's creator has what it asked for.
		 */
		put_unaligned_le32(c->mxac_set ? c->mxac :
				   c->maximal | (c->granted & ~MAXIMUM_ALLOWED),
				   data + 4);
		smbsrv_ctx_add(&o, "MxAc", data, SMB2_MXAC_RSP_SIZE);
	}
	if (qfid) {
		memset(data, 0, sizeof(data));
		/* fruit:zero_file_id: Macs take 0 as "no stable ID". */
		put_unaligned_le64(zero_id ? 0 : c->fa.ino, data);
		put_unaligned_le64(c->fa.dev, data + 8);
		smbsrv_ctx_add(&o, "QFid", data, SMB2_QFID_RSP_SIZE);
	}
	if (c->ca.lease)
		smbsrv_ctx_add(&o, "RqLs", data,
			       smb2_lease_ctx_encode(data, &c->ca.rqls));
	if (c->dur_granted && c->dur.version == 1) {
		memset(data, 0, SMB2_DHNQ_RSP_SIZE);
		smbsrv_ctx_add(&o, "DHnQ", data, SMB2_DHNQ_RSP_SIZE);
	} else if (c->dur_granted) {
		smb2_dh2q_rsp_encode(data, c->dur_granted, 0);
		smbsrv_ctx_add(&o, "DH2Q", data, SMB2_DH2Q_RSP_SIZE);
	}
	if (c->posix) {
		smb_posix_cc_encode(data, &pi);
		smbsrv_ctx_add_named(&o, smb2_posix_tag, SMB2_POSIX_TAG_SIZE,
				     data, SMB_POSIX_CC_SIZE);
	}
	rsp.ctx_len = o.len;
	req->rsp_len = SMB2_HDR_SIZE + smb2_create_rsp_encode(body, &rsp);
	return STATUS_SUCCESS;
}

/* ---- durable handles (durable.c) ----------------------------------------- */

/*
 * The durable handle contexts a CREATE carries (3.3.5.9.6-12, and which
 * combinations Samba and Windows refuse).
 */
u32 smbsrv_create_durable_ctx(struct smbsrv_req *req, struct smbsrv_create *c)
{
	const struct smb2_create_req *r = &c->r;
	bool dhnq = smb2_create_has(r, SMB2_CTX_DURABLE_REQ);
	bool dhnc = smb2_create_has(r, SMB2_CTX_DURABLE_RECONNECT);
	bool dh2q = smb2_create_has(r, SMB2_CTX_DURABLE_REQ_V2);
	bool dh2c = smb2_create_has(r, SMB2_CTX_DURABLE_RECONNECT_V2);
	const struct smb2_create_ctx *x;
	struct smb2_dh2q q;
	u32 status;

	if ((dhnc && dh2c) || (dhnc && dh2q) || (dh2c && dhnq) ||
	    (dh2q && dh2c) || (dhnq && dh2q))
		return STATUS_INVALID_PARAMETER;
	if (dhnc || dh2c)
		return STATUS_SUCCESS;	/* a reconnect: durable.c decodes */
	if (dhnq) {
		x = &r->ctx[SMB2_CTX_DURABLE_REQ];
		status = smb2_dhnq_decode(x->data, x->data_len);
		if (status)
			return status;
		c->dur.version = 1;
	}
	if (dh2q) {
		x = &r->ctx[SMB2_CTX_DURABLE_REQ_V2];
		status = smb2_dh2q_decode(x->data, x->data_len, &q);
		if (status)
			return status;
		c->dur.version = 2;
		c->dur.timeout_ms = q.timeout;
		c->dur.flags = q.flags;
		memcpy(c->dur.create_guid, q.create_guid, 16);
		c->dur.replay = req->hdr.flags & SMB2_FLAGS_REPLAY_OPERATION;
	}
	return STATUS_SUCCESS;
}

/* The answer of an open that exists already (reconnect, replay). */
static u32 smbsrv_create_existing_reply(struct smbsrv_req *req,
					struct smbsrv_create *c, u32 action)
{
	int err;

	c->action = action;
	c->granted = c->f->access;
	c->maximal = c->f->access;
	smbsrv_cache_current(c->f, &c->ca);
	err = smbsrv_vfs_getattr(req->tree, &c->f->filp->f_path, &c->fa);
	if (err)
		return smbsrv_errno_status(err);
	return smbsrv_create_reply(req, c);
}

u32 smbsrv_create_reconnect(struct smbsrv_req *req, struct smbsrv_create *c)
{
	const struct cred *old;
	u32 status;

	old = smbsrv_vfs_creds_begin(req->tree);
	status = smbsrv_durable_reconnect(req->sess, req->tree,
					  req->conn->client_guid, &c->r,
					  c->cr.lease ? c->cr.rqls.key : NULL,
					  c->path, &c->f);
	if (!status)
		status = smbsrv_create_existing_reply(req, c, FILE_OPENED);
	smbsrv_vfs_creds_end(old);
	/* A new channel, a new start for its sequence. */
	if (!status)
		smbsrv_open_chseq_init(&c->f->open, smbsrv_req_csn(req), false);
	if (status && c->f) {
		smbsrv_open_end(&c->f->open);
		return status;
	}
	return status;
}

/*
 * The caching a replay is answered with: a lease as it is now (its
 * state may have grown since, smbtorture's replay-dhv2-lease1); for an
 * oplock the level asked for, if the open holds it (replay-dhv2-oplock2:
 * a replay asking for no oplock gets none, and no durable handle, while
 * the open keeps its batch oplock).  False when the replay asks for other
 * caching than the original did: an oplock as a lease, a lease as an
 * oplock or under another key (3.3.5.9.10; Windows refuses those).
 */
static bool smbsrv_create_replay_caching(struct smbsrv_create *c)
{
	struct smbsrv_file *f = c->f;
	u8 oplock, key[16];
	bool breaking;
	u32 lease;
	u16 epoch;

	smbsrv_cache_describe(f, &oplock, &lease, key, &epoch, &breaking);
	smbsrv_cache_current(f, &c->ca);
	if (oplock == SMB2_OPLOCK_LEVEL_LEASE)
		return c->cr.lease && !memcmp(key, c->cr.rqls.key, 16);
	if (c->cr.lease)
		return false;
	if (c->r.oplock < c->ca.oplock) {
		c->ca.oplock = c->r.oplock;
		/* Durable only with a batch oplock (3.3.5.9.10). */
		if (c->ca.oplock != SMB2_OPLOCK_LEVEL_BATCH)
			c->dur_granted = 0;
	}
	return true;
}

u32 smbsrv_create_replay(struct smbsrv_req *req, struct smbsrv_create *c,
			 bool *answered)
{
	struct smbsrv_durable_replay r = {
		.client_guid = req->conn->client_guid,
		.guid = c->dur.create_guid,
		.replay = c->dur.replay,
		.sess = req->sess,
		.path = c->path,
		.own = req->dur_pending,
	};
	const struct cred *old;
	u32 status;
	int err;

	*answered = false;
	if (c->dur.version != 2)
		return STATUS_SUCCESS;
	status = smbsrv_durable_replay(&r);
	if (status || !r.f)
		return status;
	*answered = true;
	c->f = r.f;
	/* Durable as the original was: its DH2Q answer again. */
	c->dur_granted = r.timeout_ms;
	if (!smbsrv_create_replay_caching(c))
		return STATUS_ACCESS_DENIED;
	c->action = r.action;
	c->granted = c->f->access;
	c->maximal = c->f->access;
	old = smbsrv_vfs_creds_begin(req->tree);
	err = smbsrv_vfs_getattr(req->tree, &c->f->filp->f_path, &c->fa);
	smbsrv_vfs_creds_end(old);
	if (err)
		return smbsrv_errno_status(err);
	return smbsrv_create_reply(req, c);
}
