// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: durable handles (see durable.h).
 *
 * Every durable open is in smbsrv_durables by the id of its persistent
 * FileId (bit 32 set, so it never equals a plain open's, which is its
 * volatile id); v2 ones also in a hash by CreateGuid, for replays.  The
 * disconnected ones are on a list ordered by deadline, which one delayed
 * work (the scavenger) walks.  A DH2Q open that did not become durable
 * is in the CreateGuid hash only, for the replays of its CREATE; a DH2Q
 * CREATE waiting for breaks holds its CreateGuid in a hash of its own
 * (struct smbsrv_durable_pending).  One spinlock covers all of it; it
 * nests inside an fnode's lock (a break reaching a disconnected open).
 */
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "cache.h"
#include "conn.h"
#include "durable.h"
#include "file.h"
#include "session.h"
#include "smbsrv.h"
#include "upcall.h"
#include "wire/create.h"
#include "wire/ntstatus.h"
#include "wire/oplock.h"

#define SMBSRV_DURABLE_ID_BIT	BIT_ULL(32)

struct smbsrv_durable {
	struct smbsrv_file *f;
	u32 id;				/* in smbsrv_durables, when @durable */
	/*
	 * False: a DH2Q open that did not become durable (no batch oplock,
	 * no lease caching handles): kept only so that a replay of its
	 * CREATE finds it by CreateGuid (3.3.5.9.10).
	 */
	bool durable;
	u8 version;			/* 1 or 2 */
	u8 create_guid[16];		/* v2 */
	u8 client_guid[16];
	u32 timeout_ms;
	u32 action;			/* the CREATE's, for its replays */
	kuid_t owner;
	struct smbsrv_share_info *share;	/* referenced */
	u64 session_id;			/* while connected */
	bool disconnected;
	bool doomed;			/* broken while disconnecting */
	unsigned long deadline;
	struct list_head node;		/* smbsrv_durable_disc */
	struct hlist_node guid_node;	/* smbsrv_durable_guids (v2) */
};

static DEFINE_SPINLOCK(smbsrv_durable_lock);
static DEFINE_XARRAY_ALLOC1(smbsrv_durables);
static u32 smbsrv_durable_next_id;
static DEFINE_HASHTABLE(smbsrv_durable_guids, 8);
/* Durable v2 CREATEs waiting for breaks, by CreateGuid. */
static DEFINE_HASHTABLE(smbsrv_durable_pends, 6);
static LIST_HEAD(smbsrv_durable_disc);
static u32 smbsrv_durable_nr_disc;
static struct delayed_work smbsrv_durable_work;

static u32 smbsrv_guid_hash(const u8 *guid)
{
	u32 k[4];

	memcpy(k, guid, 16);
	return jhash2(k, 4, 0);
}

/* Under the lock: (re)schedule the scavenger for the list's head. */
static void smbsrv_durable_schedule(void)
{
	struct smbsrv_durable *d;
	unsigned long now = jiffies;

	d = list_first_entry_or_null(&smbsrv_durable_disc,
				     struct smbsrv_durable, node);
	if (d)
		mod_delayed_work(smbsrv_ctl_wq, &smbsrv_durable_work,
				 time_after(d->deadline, now) ?
				 d->deadline - now : 0);
}

/* Under the lock: on the list, in deadline order. */
static void smbsrv_durable_queue(struct smbsrv_durable *d)
{
	struct smbsrv_durable *o;

	list_for_each_entry_reverse(o, &smbsrv_durable_disc, node) {
		if (!time_after(o->deadline, d->deadline)) {
			list_add(&d->node, &o->node);
			return;
		}
	}
	list_add(&d->node, &smbsrv_durable_disc);
}

u32 smbsrv_durable_grant(struct smbsrv_file *f,
			 const struct smbsrv_durable_req *r)
{
	struct smbsrv_tree *tree = f->open.tree;
	struct smbsrv_conn *conn = tree->sess->conn;
	struct smbsrv_durable *d;
	u8 oplock, key[16];
	u32 lease, id;
	u16 epoch;
	bool breaking;
	int err;

	bool durable;

	if (!r->version || !READ_ONCE(smbsrv_server.knobs.durable_handles))
		return 0;
	/* Only what caches handles survives a disconnection (3.3.5.9.6). */
	smbsrv_cache_describe(f, &oplock, &lease, key, &epoch, &breaking);
	durable = !(f->flags & (SMBSRV_FILE_DIR | SMBSRV_FILE_REPARSE)) &&
		  (oplock == SMB2_OPLOCK_LEVEL_BATCH ||
		   (oplock == SMB2_OPLOCK_LEVEL_LEASE &&
		    (lease & SMB2_LEASE_HANDLE)));
	/* A DH2Q open is found by its CreateGuid all the same. */
	if (!durable && r->version != 2)
		return 0;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return 0;
	d->f = f;
	d->durable = durable;
	d->version = r->version;
	d->action = r->action;
	if (r->version == 2)
		memcpy(d->create_guid, r->create_guid, 16);
	memcpy(d->client_guid, conn->client_guid, 16);
	if (r->version == 1)
		d->timeout_ms = READ_ONCE(smbsrv_server.knobs.durable_timeout) *
				1000;
	else
		d->timeout_ms = r->timeout_ms ?
				min_t(u32, r->timeout_ms,
				      SMBSRV_DURABLE_V2_MAX_MS) :
				READ_ONCE(smbsrv_server.knobs.durable_timeout) *
				1000;
	d->owner = tree->sess->cred->fsuid;
	d->share = smbsrv_share_info_get(tree->share);
	d->session_id = tree->sess->id;
	INIT_LIST_HEAD(&d->node);
	INIT_HLIST_NODE(&d->guid_node);
	if (durable) {
		err = xa_alloc_cyclic(&smbsrv_durables, &id, d,
				      XA_LIMIT(1, U32_MAX),
				      &smbsrv_durable_next_id, GFP_KERNEL);
		if (err < 0) {
			smbsrv_share_info_put(d->share);
			kfree(d);
			return 0;
		}
		d->id = id;
	}
	spin_lock(&smbsrv_durable_lock);
	if (d->version == 2)
		hash_add(smbsrv_durable_guids, &d->guid_node,
			 smbsrv_guid_hash(d->create_guid));
	f->durable = d;
	/* The client learns it from this CREATE's response only. */
	if (durable)
		WRITE_ONCE(f->open.id_persistent, SMBSRV_DURABLE_ID_BIT | id);
	spin_unlock(&smbsrv_durable_lock);
	return durable ? d->timeout_ms : 0;
}

bool smbsrv_durable_is(struct smbsrv_file *f)
{
	bool durable;

	spin_lock(&smbsrv_durable_lock);
	durable = f->durable && f->durable->durable;
	spin_unlock(&smbsrv_durable_lock);
	return durable;
}

/* Under the lock: the CREATE waiting with @r's CreateGuid, not @r's own. */
static bool smbsrv_durable_pending_find(const struct smbsrv_durable_replay *r)
{
	struct smbsrv_durable_pending *p;

	hash_for_each_possible(smbsrv_durable_pends, p, node,
			       smbsrv_guid_hash(r->guid)) {
		if (p != r->own && !memcmp(p->create_guid, r->guid, 16) &&
		    !memcmp(p->client_guid, r->client_guid, 16))
			return true;
	}
	return false;
}

u32 smbsrv_durable_replay(struct smbsrv_durable_replay *r)
{
	struct smbsrv_durable *d;
	u32 status = STATUS_SUCCESS;
	bool found = false;

	r->f = NULL;
	spin_lock(&smbsrv_durable_lock);
	/* Its CREATE still waits for breaks: the client asks again later. */
	if (smbsrv_durable_pending_find(r)) {
		status = r->replay ? STATUS_FILE_NOT_AVAILABLE :
				     STATUS_DUPLICATE_OBJECTID;
		goto out;
	}
	hash_for_each_possible(smbsrv_durable_guids, d, guid_node,
			       smbsrv_guid_hash(r->guid)) {
		if (memcmp(d->create_guid, r->guid, 16) ||
		    memcmp(d->client_guid, r->client_guid, 16))
			continue;
		found = true;
		if (!r->replay)
			continue;
		/* Another user's: refused, as a reconnect would be. */
		if (!uid_eq(d->owner, r->sess->cred->fsuid)) {
			status = STATUS_ACCESS_DENIED;
			goto out;
		}
		/*
		 * Only an open no request named yet answers a replay
		 * (Open.IsReplayEligible), and only in its session; others
		 * keep the GUID taken, and the replay opens anew.
		 */
		if (d->disconnected || d->session_id != r->sess->id ||
		    !READ_ONCE(d->f->open.replayable))
			continue;
		/* It repeats the CREATE of another file: no replay of it. */
		if (strcmp(d->f->name, r->path)) {
			status = STATUS_ACCESS_DENIED;
			goto out;
		}
		if (!refcount_inc_not_zero(&d->f->open.ref))
			continue;
		r->f = d->f;
		r->action = d->action;
		r->timeout_ms = d->durable ? d->timeout_ms : 0;
		goto out;
	}
	if (found && !r->replay)
		status = STATUS_DUPLICATE_OBJECTID;
out:
	spin_unlock(&smbsrv_durable_lock);
	return status;
}

struct smbsrv_durable_pending *
smbsrv_durable_pend(const u8 *client_guid, const u8 *guid,
		    struct smbsrv_session *sess)
{
	struct smbsrv_durable_replay r = {
		.client_guid = client_guid,
		.guid = guid,
	};
	struct smbsrv_durable_pending *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	memcpy(p->client_guid, client_guid, 16);
	memcpy(p->create_guid, guid, 16);
	p->session_id = sess->id;
	spin_lock(&smbsrv_durable_lock);
	/* Two CREATEs with one GUID raced: the later one is no replay. */
	if (smbsrv_durable_pending_find(&r)) {
		spin_unlock(&smbsrv_durable_lock);
		kfree(p);
		return ERR_PTR(-EEXIST);
	}
	hash_add(smbsrv_durable_pends, &p->node, smbsrv_guid_hash(guid));
	spin_unlock(&smbsrv_durable_lock);
	return p;
}

bool smbsrv_durable_pend_orphan(struct smbsrv_durable_pending *p,
				struct smbsrv_session *sess)
{
	bool kept = false;

	spin_lock(&smbsrv_durable_lock);
	if (!p->orphan && sess->nr_replay_orphans < SMBSRV_DURABLE_ORPHANS) {
		p->orphan = true;
		sess->nr_replay_orphans++;
		kept = true;
	}
	spin_unlock(&smbsrv_durable_lock);
	return kept;
}

void smbsrv_durable_unpend(struct smbsrv_durable_pending *p,
			   struct smbsrv_session *sess)
{
	spin_lock(&smbsrv_durable_lock);
	hash_del(&p->node);
	if (p->orphan)
		sess->nr_replay_orphans--;
	spin_unlock(&smbsrv_durable_lock);
	kfree(p);
}

/* Under the lock: off the tables. */
static void smbsrv_durable_unlink(struct smbsrv_durable *d)
{
	if (d->disconnected) {
		list_del_init(&d->node);
		smbsrv_durable_nr_disc--;
		d->disconnected = false;
	}
	hash_del(&d->guid_node);
	if (d->durable)
		xa_erase(&smbsrv_durables, d->id);
}

void smbsrv_durable_forget(struct smbsrv_file *f)
{
	struct smbsrv_durable *d;

	spin_lock(&smbsrv_durable_lock);
	d = f->durable;
	f->durable = NULL;
	if (d)
		smbsrv_durable_unlink(d);
	spin_unlock(&smbsrv_durable_lock);
	if (!d)
		return;
	smbsrv_share_info_put(d->share);
	kfree(d);
}

bool smbsrv_durable_detach(struct smbsrv_file *f)
{
	struct smbsrv_durable *d;
	bool kept = false, breaking;
	u8 oplock, key[16];
	u32 lease;
	u16 epoch;

	/* A break it could not answer any more: others wait, it goes. */
	smbsrv_cache_describe(f, &oplock, &lease, key, &epoch, &breaking);
	if (breaking)
		return false;
	spin_lock(&smbsrv_durable_lock);
	d = f->durable;
	/* One whose caching was broken as it went has nobody to answer. */
	if (d && d->durable && !d->disconnected && !d->doomed &&
	    smbsrv_durable_nr_disc < SMBSRV_DURABLE_MAX) {
		d->disconnected = true;
		d->session_id = 0;
		d->deadline = jiffies + msecs_to_jiffies(d->timeout_ms);
		smbsrv_durable_nr_disc++;
		smbsrv_durable_queue(d);
		smbsrv_durable_schedule();
		kept = true;
	}
	spin_unlock(&smbsrv_durable_lock);
	return kept;
}

void smbsrv_durable_expire_now(struct smbsrv_file *f)
{
	struct smbsrv_durable *d;

	spin_lock(&smbsrv_durable_lock);
	d = f->durable;
	if (d && d->disconnected) {
		list_del(&d->node);
		d->deadline = jiffies;
		list_add(&d->node, &smbsrv_durable_disc);
		smbsrv_durable_schedule();
	} else if (d) {
		/* Its connection is going: it is not kept then. */
		d->doomed = true;
	}
	spin_unlock(&smbsrv_durable_lock);
}

/* Close a disconnected open whose time is up (or at module exit). */
static void smbsrv_durable_close(struct smbsrv_file *f)
{
	/* Its close forgets the durable state too (file.c). */
	f->open.ops->close(&f->open);
	smbsrv_open_put(&f->open);
}

static void smbsrv_durable_scavenge(struct work_struct *work)
{
	struct smbsrv_durable *d;
	struct smbsrv_file *f;

	for (;;) {
		spin_lock(&smbsrv_durable_lock);
		d = list_first_entry_or_null(&smbsrv_durable_disc,
					     struct smbsrv_durable, node);
		if (!d || time_before(jiffies, d->deadline)) {
			smbsrv_durable_schedule();
			spin_unlock(&smbsrv_durable_lock);
			return;
		}
		/* Whoever takes it off the list owns the table reference. */
		list_del_init(&d->node);
		smbsrv_durable_nr_disc--;
		d->disconnected = false;
		f = d->f;
		spin_unlock(&smbsrv_durable_lock);
		pr_debug("smbsrv: durable handle of %s expired\n", f->name);
		smbsrv_durable_close(f);
	}
}

u32 smbsrv_durable_reconnect(struct smbsrv_session *sess,
			     struct smbsrv_tree *tree, const u8 *client_guid,
			     const struct smb2_create_req *r,
			     const u8 *lease_key, const char *path,
			     struct smbsrv_file **out)
{
	bool v2 = smb2_create_has(r, SMB2_CTX_DURABLE_RECONNECT_V2);
	const struct smb2_create_ctx *x =
		&r->ctx[v2 ? SMB2_CTX_DURABLE_RECONNECT_V2 :
			     SMB2_CTX_DURABLE_RECONNECT];
	struct smbsrv_durable *d;
	struct smb2_dh_reconnect rc;
	struct smbsrv_file *f;
	u8 oplock, key[16];
	u32 lease, status;
	u16 epoch;
	bool breaking, leased;
	int err;

	status = v2 ? smb2_dh2c_decode(x->data, x->data_len, &rc) :
		      smb2_dhnc_decode(x->data, x->data_len, &rc);
	if (status)
		return status;
	/*
	 * Other contexts are ignored (Samba refuses them): the Linux client
	 * sends QFid, and may send ExtA, with every reconnect.
	 */
	if (!(rc.persistent & SMBSRV_DURABLE_ID_BIT) ||
	    rc.persistent > (SMBSRV_DURABLE_ID_BIT | U32_MAX))
		return STATUS_OBJECT_NAME_NOT_FOUND;

	spin_lock(&smbsrv_durable_lock);
	d = xa_load(&smbsrv_durables, (u32)rc.persistent);
	status = STATUS_OBJECT_NAME_NOT_FOUND;
	/*
	 * DHnC reclaims either version; DH2C names the CreateGuid, all
	 * zeroes for a v1 handle (smbtorture's reopen2b, reopen2c).
	 */
	if (!d || !d->disconnected ||
	    strcmp(d->share->name, tree->share->name))
		goto unlock;
	if (v2 && memcmp(d->create_guid, rc.create_guid, 16))
		goto unlock;
	if (!uid_eq(d->owner, sess->cred->fsuid)) {
		status = STATUS_ACCESS_DENIED;
		goto unlock;
	}
	/* A leased one is the same client's only. */
	if (lease_key && memcmp(d->client_guid, client_guid, 16))
		goto unlock;
	f = d->f;
	if (!refcount_inc_not_zero(&f->open.ref))
		goto unlock;
	spin_unlock(&smbsrv_durable_lock);

	/*
	 * Its caching state is read with our lock dropped: an oplock or
	 * lease break expires durable opens (smbsrv_durable_expire_now())
	 * under the file's cache lock, so that lock comes before ours. The
	 * lease's key and kind never change; its state is not looked at.
	 */
	smbsrv_cache_describe(f, &oplock, &lease, key, &epoch, &breaking);
	leased = oplock == SMB2_OPLOCK_LEVEL_LEASE;
	/* The lease it holds must be the one asked for, and no other. */
	status = STATUS_OBJECT_NAME_NOT_FOUND;
	if (leased != !!lease_key ||
	    (lease_key && memcmp(key, lease_key, 16)))
		goto put;
	if (lease_key && strcmp(f->name, path)) {
		status = STATUS_INVALID_PARAMETER;
		goto put;
	}

	spin_lock(&smbsrv_durable_lock);
	/*
	 * Still disconnected and still this open's? Meanwhile it may have
	 * expired, been closed (which clears f->durable for good) or been
	 * reclaimed by another reconnect.
	 */
	if (f->durable != d || !d->disconnected) {
		spin_unlock(&smbsrv_durable_lock);
		goto put;
	}
	/* Ours now: off the list, its table reference moves to the open. */
	list_del_init(&d->node);
	smbsrv_durable_nr_disc--;
	d->disconnected = false;
	d->session_id = sess->id;
	spin_unlock(&smbsrv_durable_lock);

	err = smbsrv_open_attach(tree, &f->open);
	if (err) {
		/* Back where it was, with its deadline. */
		spin_lock(&smbsrv_durable_lock);
		d->disconnected = true;
		smbsrv_durable_nr_disc++;
		smbsrv_durable_queue(d);
		smbsrv_durable_schedule();
		spin_unlock(&smbsrv_durable_lock);
		smbsrv_open_put(&f->open);
		return err == -EMFILE ? STATUS_TOO_MANY_OPENED_FILES :
					STATUS_INSUFFICIENT_RESOURCES;
	}
	smbsrv_brl_account(f, tree->sess);
	/* The reference taken above is the caller's. */
	*out = f;
	return STATUS_SUCCESS;

put:
	pr_debug("smbsrv: durable reconnect of %llx: lease %s: status %#x\n",
		 rc.persistent, lease_key ? "asked" : "not asked", status);
	smbsrv_open_put(&f->open);
	return status;

unlock:
	pr_debug("smbsrv: durable reconnect of %llx: %s, v%u, %s: status %#x\n",
		 rc.persistent, d ? "found" : "none", d ? d->version : 0,
		 d && d->disconnected ? "disconnected" : "connected", status);
	spin_unlock(&smbsrv_durable_lock);
	return status;
}

struct smbsrv_file *smbsrv_durable_next(unsigned long *id)
{
	struct smbsrv_durable *d;
	struct smbsrv_file *f = NULL;

	spin_lock(&smbsrv_durable_lock);
	for (;;) {
		(*id)++;
		d = xa_find(&smbsrv_durables, id, U32_MAX, XA_PRESENT);
		if (!d)
			break;
		if (d->disconnected && refcount_inc_not_zero(&d->f->open.ref)) {
			f = d->f;
			break;
		}
	}
	spin_unlock(&smbsrv_durable_lock);
	return f;
}

u8 smbsrv_durable_state(struct smbsrv_file *f, bool *disconnected,
			u32 *left)
{
	struct smbsrv_durable *d;
	u8 version = 0;

	*disconnected = false;
	*left = 0;
	spin_lock(&smbsrv_durable_lock);
	d = f->durable;
	if (d && d->durable) {
		version = d->version;
		*disconnected = d->disconnected;
		if (d->disconnected && time_after(d->deadline, jiffies))
			*left = jiffies_to_msecs(d->deadline - jiffies) / 1000;
	}
	spin_unlock(&smbsrv_durable_lock);
	return version;
}

void smbsrv_durable_init(void)
{
	INIT_DELAYED_WORK(&smbsrv_durable_work, smbsrv_durable_scavenge);
}

void smbsrv_durable_expire_all(void)
{
	struct smbsrv_durable *d;

	spin_lock(&smbsrv_durable_lock);
	list_for_each_entry(d, &smbsrv_durable_disc, node)
		d->deadline = jiffies;
	smbsrv_durable_schedule();
	spin_unlock(&smbsrv_durable_lock);
}

void smbsrv_durable_exit(void)
{
	struct smbsrv_durable *d;

	/* Every connection is closed: expire everyone now. */
	spin_lock(&smbsrv_durable_lock);
	list_for_each_entry(d, &smbsrv_durable_disc, node)
		d->deadline = jiffies;
	spin_unlock(&smbsrv_durable_lock);
	cancel_delayed_work_sync(&smbsrv_durable_work);
	smbsrv_durable_scavenge(&smbsrv_durable_work.work);
	cancel_delayed_work_sync(&smbsrv_durable_work);
	WARN_ON(!xa_empty(&smbsrv_durables));
}
