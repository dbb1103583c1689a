// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: client caching — oplocks and leases (see cache.h and
 * Documentation/design.md, "Client caching").
 *
 * Locks, outermost first: an fnode's cache.kmutex (klease.c, which takes
 * the fnode's spinlock inside it), then the fnode's spinlock (its opens,
 * their oplocks, its leases' states, its waiters), then smbsrv_leases_lock
 * (the lease table), smbsrv_brk_lock (breaks in progress, brk.c) and
 * smbsrv_wait_lock (parked requests, cache_wait.c), each only ever taken
 * alone or inside the fnode's.  Notifications are built under the fnode's
 * lock (struct smbsrv_break_ops) and sent after it by a worker, never by
 * the breaking request itself.
 */
#include <linux/filelock.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <uapi/linux/smbsrv.h>

#include "cache.h"
#include "cluster.h"
#include "conn.h"
#include "file.h"
#include "fnode.h"
#include "klease.h"
#include "session.h"
#include "wire/cluster.h"
#include "wire/fscc.h"
#include "wire/ntstatus.h"

struct smbsrv_lease {
	refcount_t ref;
	struct hlist_node hash;		/* smbsrv_leases */
	u8 client_guid[16];
	u8 key[16];
	u8 parent_key[16];
	u32 parent_flag;		/* PARENT_LEASE_KEY_SET or 0 */
	u8 version;
	struct smb_lease_sm sm;		/* under fn->lock */
	struct smbsrv_fnode *fn;	/* referenced */
	struct list_head fnode_node;	/* fn->cache.leases */
	struct list_head opens;		/* smbsrv_open_cache.lease_node */
	struct smbsrv_brk brk;
};

#define SMBSRV_LEASE_HASH_BITS	10

static DEFINE_HASHTABLE(smbsrv_leases, SMBSRV_LEASE_HASH_BITS);
static DEFINE_SPINLOCK(smbsrv_leases_lock);

static const struct smbsrv_break_ops *smbsrv_break_ops;

/* ---- leases ------------------------------------------------------------- */

static u32 smbsrv_lease_hash(const u8 *guid, const u8 *key)
{
	u32 k[8];

	memcpy(k, guid, 16);
	memcpy(k + 4, key, 16);
	return jhash2(k, 8, 0);
}

static bool smbsrv_lease_is(const struct smbsrv_lease *l, const u8 *guid,
			    const u8 *key)
{
	return !memcmp(l->client_guid, guid, 16) && !memcmp(l->key, key, 16);
}

/* Under smbsrv_leases_lock. */
static struct smbsrv_lease *smbsrv_lease_find(const u8 *guid, const u8 *key)
{
	struct smbsrv_lease *l;

	hash_for_each_possible(smbsrv_leases, l, hash,
			       smbsrv_lease_hash(guid, key))
		if (smbsrv_lease_is(l, guid, key))
			return l;
	return NULL;
}

static void smbsrv_lease_put(struct smbsrv_lease *l)
{
	if (!refcount_dec_and_test(&l->ref))
		return;
	smbsrv_fnode_put(l->fn);
	kfree(l);
}

/* Leases were offered to this connection at NEGOTIATE. */
static bool smbsrv_leases_on(struct smbsrv_conn *conn)
{
	return conn->server_caps & SMB2_GLOBAL_CAP_LEASING;
}

/* Any connected open of @l, to send its notifications through. */
static struct smbsrv_file *smbsrv_lease_conn_open(struct smbsrv_lease *l)
{
	struct smbsrv_open_cache *oc;
	struct smbsrv_file *f;

	list_for_each_entry(oc, &l->opens, lease_node) {
		f = container_of(oc, struct smbsrv_file, cache);
		if (f->open.tree && !READ_ONCE(f->open.gone) &&
		    smbsrv_session_connected(f->open.tree->sess))
			return f;
	}
	return NULL;
}

static void smbsrv_lease_note(struct smbsrv_lease *l,
			      const struct smb_lease_note *ln,
			      struct list_head *notes)
{
	struct smbsrv_file *f = smbsrv_lease_conn_open(l);
	struct smbsrv_lease_break b = {
		.version = l->version,
		.epoch = l->version == 2 ? ln->epoch : 0,
		.flags = ln->flags,
		.from = ln->from,
		.to = ln->to,
	};

	lockdep_assert_held(&l->fn->lock);
	if (!f)
		return;
	memcpy(b.client_guid, l->client_guid, 16);
	memcpy(b.key, l->key, 16);
	smbsrv_break_ops->lease(f, &b, notes);
}

static void smbsrv_notes_send(struct list_head *notes)
{
	if (!list_empty(notes))
		smbsrv_break_ops->send(notes);
}

/* ---- state changes, under the fnode's lock ------------------------------ */

/* The caching @f holds, as lease bits. */
static u32 smbsrv_open_held(const struct smbsrv_file *f)
{
	if (f->cache.sm.level == SMB2_OPLOCK_LEVEL_LEASE)
		return f->cache.lease->sm.state;
	return smb2_oplock_to_lease(f->cache.sm.level);
}

/*
 * A break that needs an answer reached a lease whose opens are all
 * disconnected durable handles: nobody can answer, so they close now
 * (3.3.4.7) and whoever waits for them goes on when they have.
 */
static void smbsrv_lease_expire_durables(struct smbsrv_lease *l)
{
	struct smbsrv_open_cache *oc;

	list_for_each_entry(oc, &l->opens, lease_node)
		smbsrv_break_ops->unanswerable(container_of(oc,
							    struct smbsrv_file,
							    cache));
}

static void smbsrv_lease_break_locked(struct smbsrv_lease *l, u32 to,
				      struct list_head *notes)
{
	struct smb_lease_note ln;

	lockdep_assert_held(&l->fn->lock);
	smb_lease_sm_break(&l->sm, to, &ln);
	if (ln.send)
		smbsrv_lease_note(l, &ln, notes);
	if (l->sm.breaking) {
		smbsrv_brk_start(&l->brk);
		if (!smbsrv_lease_conn_open(l))
			smbsrv_lease_expire_durables(l);
	}
}

static void smbsrv_oplock_break_locked(struct smbsrv_file *f, u32 to,
				       struct list_head *notes)
{
	struct smbsrv_fnode *fn = f->fnode;
	u8 level;

	lockdep_assert_held(&fn->lock);
	if (!smb_oplock_sm_break(&f->cache.sm, to, &level))
		return;
	if (f->cache.sm.breaking)
		smbsrv_brk_start(&f->cache.brk);
	else if (f->cache.sm.level == SMB2_OPLOCK_LEVEL_NONE)
		fn->cache.holders--;
	/* A disconnected durable handle: it cannot answer (3.3.4.6). */
	if (!smbsrv_break_ops->oplock(f, level, notes) && f->cache.sm.breaking)
		smbsrv_break_ops->unanswerable(f);
}

/*
 * Something about @fn's caching or opens changed: a new generation, and
 * its parked requests taken (to run again after the lock, cache_wait.c).
 */
static void smbsrv_cache_changed(struct smbsrv_fnode *fn,
				 struct list_head *woken)
{
	lockdep_assert_held(&fn->lock);
	fn->cache.gen++;
	smbsrv_cache_wait_take(fn, woken);
}

/* ---- changes made on the server itself (klease.c) ---------------------- */

/* The strongest caching the holders of @fn have, as lease bits. */
static u32 smbsrv_cache_bits(struct smbsrv_fnode *fn)
{
	struct smbsrv_lease *l;
	struct smbsrv_file *o;
	u32 bits = 0;

	spin_lock(&fn->lock);
	list_for_each_entry(l, &fn->cache.leases, fnode_node)
		bits |= l->sm.state;
	list_for_each_entry(o, &fn->opens, fnode_node)
		if (o->cache.sm.level != SMB2_OPLOCK_LEVEL_LEASE)
			bits |= smb2_oplock_to_lease(o->cache.sm.level);
	spin_unlock(&fn->lock);
	return bits;
}

/* What the holders of @fn need covered, as a kernel lease type. */
static int smbsrv_cache_want(struct smbsrv_fnode *fn)
{
	u32 bits = smbsrv_cache_bits(fn);

	if (bits & SMB2_LEASE_WRITE)
		return F_WRLCK;
	return bits & SMB2_LEASE_READ ? F_RDLCK : F_UNLCK;
}

/*
 * Someone outside this node's SMB opens wants @fn: its holders give up
 * @drop (lease bits; R takes everything with it).  Breaks are sent, not
 * waited for.
 */
static void smbsrv_cache_give_up(struct smbsrv_fnode *fn, u32 drop)
{
	struct smbsrv_lease *l;
	struct smbsrv_file *o;
	LIST_HEAD(notes);
	u32 held, to;

	if (drop & SMB2_LEASE_READ)
		drop = SMB2_LEASE_RWH;
	spin_lock(&fn->lock);
	list_for_each_entry(l, &fn->cache.leases, fnode_node) {
		to = l->sm.state & ~drop;
		if (l->sm.state & ~to)
			smbsrv_lease_break_locked(l, to, &notes);
	}
	list_for_each_entry(o, &fn->opens, fnode_node) {
		held = smb2_oplock_to_lease(o->cache.sm.level);
		if (o->cache.sm.level == SMB2_OPLOCK_LEVEL_LEASE || !held)
			continue;
		to = held & ~drop;
		if (held & ~to)
			smbsrv_oplock_break_locked(o, to, &notes);
	}
	spin_unlock(&fn->lock);
	smbsrv_notes_send(&notes);
}

/* A local process wants @fn: a reader takes away write caching, a writer everything. */
static void smbsrv_cache_local_break(struct smbsrv_fnode *fn, bool writer)
{
	smbsrv_cache_give_up(fn, writer ? SMB2_LEASE_RWH : SMB2_LEASE_WRITE);
}

/*
 * Cluster mode: the file's record stands in for the kernel lease, which
 * CephFS does not give (cluster.h).  After any change, both follow.
 */
static void smbsrv_cache_sync(struct smbsrv_fnode *fn)
{
	smbsrv_klease_sync(fn);
	if (smbsrv_cluster_on())
		smbsrv_cluster_sync(fn);
}

/* Another node opens @fn: as a local process would (above). */
static void smbsrv_cache_remote_drop(struct smbsrv_fnode *fn, u32 bits)
{
	smbsrv_cache_give_up(fn, bits);
	/* What needed no answer (level II, R) is lowered already. */
	smbsrv_cache_sync(fn);
}

/* Another node's caching of @fn went down: the CREATEs parked run again. */
static void smbsrv_cache_remote_wake(struct smbsrv_fnode *fn)
{
	LIST_HEAD(woken);

	spin_lock(&fn->lock);
	smbsrv_cache_changed(fn, &woken);
	spin_unlock(&fn->lock);
	smbsrv_cache_wait_run(&woken);
}

/*
 * Directory @fn's listing changed: its leases break to none, but the one
 * of @guid and @key (NULL: none), whose client made the change.
 */
static void smbsrv_cache_dir_changed(struct smbsrv_fnode *fn, const u8 *guid,
				     const u8 *key)
{
	struct smbsrv_lease *l;
	LIST_HEAD(notes);

	spin_lock(&fn->lock);
	list_for_each_entry(l, &fn->cache.leases, fnode_node)
		if (l->sm.state && !(key && smbsrv_lease_is(l, guid, key)))
			smbsrv_lease_break_locked(l, SMB2_LEASE_NONE, &notes);
	spin_unlock(&fn->lock);
	smbsrv_notes_send(&notes);
}

/* Directory @fn changed through another node: as for a local change. */
static void smbsrv_cache_remote_dir_changed(struct smbsrv_fnode *fn)
{
	smbsrv_cache_dir_changed(fn, NULL, NULL);
	/* What needed no answer (R) is lowered already. */
	smbsrv_cache_sync(fn);
}

static const struct smbsrv_cluster_cache_ops smbsrv_cache_cluster_ops = {
	.held = smbsrv_cache_bits,
	.drop = smbsrv_cache_remote_drop,
	.wake = smbsrv_cache_remote_wake,
	.dir_changed = smbsrv_cache_remote_dir_changed,
};

/*
 * A file modified through @f was closed: its directory's listing (size,
 * times) changed, so the directory's leases break, but for the one @f's
 * own lease names as its parent.
 */
static void smbsrv_cache_break_parent(struct smbsrv_file *f, const u8 *guid,
				      const u8 *key)
{
	struct smbsrv_fnode *dfn;
	struct dentry *parent;

	parent = dget_parent(f->filp->f_path.dentry);
	dfn = smbsrv_fnode_find(d_inode(parent), NULL);
	/* Other nodes' leases of it too (cluster_dir.c). */
	if (smbsrv_cluster_on())
		smbsrv_cluster_dir_changed(d_inode(parent)->i_ino);
	dput(parent);
	if (!dfn)
		return;
	if (READ_ONCE(dfn->cache.dmark))
		smbsrv_cache_dir_changed(dfn, guid, key);
	smbsrv_fnode_put(dfn);
}

static const struct smbsrv_klease_ops smbsrv_cache_klease_ops = {
	.want = smbsrv_cache_want,
	.local_break = smbsrv_cache_local_break,
	.dir_changed = smbsrv_cache_dir_changed,
};

/* ---- CREATE ------------------------------------------------------------- */

/* An fnode's caching state, at its start and end (fnode.c's ops). */
static void smbsrv_fnode_cache_init(struct smbsrv_fnode *fn)
{
	INIT_LIST_HEAD(&fn->cache.leases);
	INIT_LIST_HEAD(&fn->cache.waiters);
	smbsrv_klease_fnode_init(&fn->cache);
}

static void smbsrv_fnode_cache_exit(struct smbsrv_fnode *fn)
{
	smbsrv_klease_fnode_exit(&fn->cache);
}

static const struct smbsrv_fnode_ops smbsrv_cache_fnode_ops = {
	.init = smbsrv_fnode_cache_init,
	.exit = smbsrv_fnode_cache_exit,
};

void smbsrv_open_cache_init(struct smbsrv_open_cache *c)
{
	INIT_LIST_HEAD(&c->lease_node);
	smbsrv_brk_prep(&c->brk, SMBSRV_BRK_OPLOCK);
}

static bool smbsrv_overwrites(u32 disposition)
{
	return disposition == FILE_SUPERSEDE ||
	       disposition == FILE_OVERWRITE ||
	       disposition == FILE_OVERWRITE_IF;
}

u32 smbsrv_cache_open_check(struct smbsrv_tree *tree, struct inode *inode,
			    const char *stream, const struct smbsrv_cache_req *r,
			    bool retry, struct smbsrv_fnode **wait, u32 *gen)
{
	struct smbsrv_conn *conn = tree->sess->conn;
	bool lease = r->lease && smbsrv_leases_on(conn);
	bool violation = false, delay = false, lease_stat, overwrite, w;
	struct smbsrv_fnode *fn;
	struct smbsrv_lease *l;
	struct smbsrv_file *o;
	LIST_HEAD(notes);
	u32 held, to;

	*wait = NULL;
	fn = smbsrv_fnode_find(inode, stream);
	if (!fn)
		return STATUS_SUCCESS;
	overwrite = smbsrv_overwrites(r->disposition);
	lease_stat = smb2_is_lease_stat_open(r->access);
	spin_lock(&fn->lock);
	/* A file pending deletion breaks nothing: the open fails anyway. */
	if (fn->delete_pending) {
		spin_unlock(&fn->lock);
		smbsrv_fnode_put(fn);
		return STATUS_DELETE_PENDING;
	}
	list_for_each_entry(o, &fn->opens, fnode_node)
		if (smb_share_conflict(r->access, r->share, o->access,
				       o->share_access))
			violation = true;
	/* Stat opens break nothing. */
	if (smb2_is_oplock_stat_open(r->access) || !fn->cache.holders)
		goto out;
	list_for_each_entry(l, &fn->cache.leases, fnode_node) {
		bool was = l->sm.breaking;

		if (lease && smbsrv_lease_is(l, conn->client_guid, r->rqls.key))
			continue;
		if (lease_stat)
			continue;
		to = smb_cache_open_break(l->sm.state, true, violation,
					  overwrite, &w);
		if (to == l->sm.state) {
			if (was)
				delay = true;
			continue;
		}
		smbsrv_lease_break_locked(l, to, &notes);
		if (w || (was && retry))
			delay = true;
	}
	list_for_each_entry(o, &fn->opens, fnode_node) {
		if (o->cache.sm.level == SMB2_OPLOCK_LEVEL_LEASE)
			continue;
		held = smb2_oplock_to_lease(o->cache.sm.level);
		if (!held)
			continue;
		to = smb_cache_open_break(held, false, violation, overwrite,
					  &w);
		if (to == held)
			continue;
		smbsrv_oplock_break_locked(o, to, &notes);
		if (w)
			delay = true;
	}
out:
	pr_debug("smbsrv: open check: access %#x violation %d holders %u: %s\n",
		 r->access, violation, fn->cache.holders,
		 delay ? "wait" : "go on");
	*gen = fn->cache.gen;
	spin_unlock(&fn->lock);
	smbsrv_notes_send(&notes);
	smbsrv_cache_sync(fn);
	if (delay) {
		*wait = fn;
		return SMBSRV_CACHE_WAIT;
	}
	smbsrv_fnode_put(fn);
	return violation ? STATUS_SHARING_VIOLATION : STATUS_SUCCESS;
}

/* The rules, applied to the other opens of @f's file; under its lock. */
static u32 smbsrv_grant_compute(struct smbsrv_file *f,
				const struct smbsrv_cache_req *r, bool lease,
				struct smbsrv_conn *conn, struct smb_grant_in *in)
{
	struct smbsrv_file *o;
	u32 held;

	in->other_open = false;
	in->other_nonlease = false;
	in->other_handle = false;
	list_for_each_entry(o, &f->fnode->opens, fnode_node) {
		held = smbsrv_open_held(o);
		/* A stat open caching nothing is no competitor. */
		if (o == f || (!held && smb2_is_oplock_stat_open(o->access)))
			continue;
		if (!lease || o->cache.sm.level != SMB2_OPLOCK_LEVEL_LEASE ||
		    !smbsrv_lease_is(o->cache.lease, conn->client_guid,
				     r->rqls.key))
			in->other_open = true;
		if (o->cache.sm.level != SMB2_OPLOCK_LEVEL_LEASE)
			in->other_nonlease = true;
		if (held & SMB2_LEASE_HANDLE)
			in->other_handle = true;
	}
	/* A stat open gets an oplock only when it is alone (smbtorture). */
	if (!lease && in->stat_open && in->other_open)
		return 0;
	return smb_cache_grant(in);
}

u32 smbsrv_cache_grant(struct smbsrv_file *f, const struct smbsrv_cache_req *r,
		       struct smbsrv_cache_answer *a)
{
	struct smbsrv_tree *tree = f->open.tree;
	struct smbsrv_conn *conn = tree->sess->conn;
	struct smbsrv_fnode *fn = f->fnode;
	struct smbsrv_lease *nl = NULL, *l;
	struct smbsrv_cluster_view *cv = NULL;
	struct smb_grant_in in = {};
	bool lease = r->lease && smbsrv_leases_on(conn);
	u32 granted, held, cover = SMB2_LEASE_RWH;

	memset(a, 0, sizeof(*a));
	if (!(tree->share_flags & SMBSRV_SHARE_FLAGS_OPLOCKS))
		return STATUS_SUCCESS;
	/* One lease key, one file (3.3.5.9.8), whatever is granted. */
	if (lease) {
		spin_lock(&smbsrv_leases_lock);
		l = smbsrv_lease_find(conn->client_guid, r->rqls.key);
		held = l && l->fn != fn;
		spin_unlock(&smbsrv_leases_lock);
		if (held)
			return STATUS_INVALID_PARAMETER;
	}
	/* Directories: leases only, where directory leasing was offered. */
	if (r->dir && (!lease ||
		       !(conn->server_caps & SMB2_GLOBAL_CAP_DIRECTORY_LEASING)))
		return STATUS_SUCCESS;
	if (!lease && (r->oplock == SMB2_OPLOCK_LEVEL_LEASE ||
		       r->oplock == SMB2_OPLOCK_LEVEL_NONE))
		return STATUS_SUCCESS;
	/*
	 * No oplock on 3.x where leases are not offered: the Linux client
	 * (6.12) ignores a plain oplock break on 3.x (smb3_downgrade_oplock
	 * acts only on a newer lease epoch) and would keep caching writes
	 * and byte-range locks after it.  With leasing offered it asks for
	 * leases; others asking for an oplock then get one.
	 */
	if (!lease && conn->dialect >= SMB2_DIALECT_300 &&
	    !smbsrv_leases_on(conn))
		return STATUS_SUCCESS;
	if (lease) {
		nl = kzalloc(sizeof(*nl), GFP_KERNEL);
		if (!nl)
			return STATUS_INSUFFICIENT_RESOURCES;
	}
	in.requested = lease ? r->rqls.state : smb2_oplock_to_lease(r->oplock);
	in.lease = lease;
	in.dir = r->dir;
	in.stat_open = smb2_is_oplock_stat_open(r->access);
	in.level2 = true;
	in.brlocks = READ_ONCE(fn->brl.nr_locks) > 0;

	/*
	 * What the rules allow, then a kernel lease covering it: in cluster
	 * mode, for files and streams, the file's record (cluster.h), held
	 * until the grant is made.
	 */
	spin_lock(&fn->lock);
	granted = smbsrv_grant_compute(f, r, lease, conn, &in);
	spin_unlock(&fn->lock);
	if (granted & (SMB2_LEASE_READ | SMB2_LEASE_WRITE)) {
		int type = granted & SMB2_LEASE_WRITE ? F_WRLCK : F_RDLCK;

		if (smbsrv_cluster_on() && !r->dir)
			cv = smbsrv_cluster_raise(fn, &type);
		else
			type = smbsrv_klease_raise(fn, &f->filp->f_path, type);
		/* A directory: the other nodes' changes too (cluster.h). */
		if (smbsrv_cluster_on() && r->dir && type != F_UNLCK)
			cv = smbsrv_cluster_raise(fn, &type);
		switch (type) {
		case F_RDLCK:
			cover &= ~SMB2_LEASE_WRITE;
			break;
		case F_UNLCK:
			cover &= ~(SMB2_LEASE_READ | SMB2_LEASE_WRITE);
			break;
		}
	}
	spin_lock(&fn->lock);
	granted = smbsrv_grant_compute(f, r, lease, conn, &in) & cover;
	/* Without R what is left is neither a lease state nor an oplock. */
	if (!(granted & SMB2_LEASE_READ))
		granted = 0;
	if (!lease) {
		f->cache.sm.level = smb2_lease_to_oplock(granted);
		if (f->cache.sm.level != SMB2_OPLOCK_LEVEL_NONE)
			fn->cache.holders++;
		a->oplock = f->cache.sm.level;
		goto out;
	}

	spin_lock(&smbsrv_leases_lock);
	l = smbsrv_lease_find(conn->client_guid, r->rqls.key);
	if (l && l->fn != fn) {
		/* One lease key, one file (3.3.5.9.8). */
		spin_unlock(&smbsrv_leases_lock);
		spin_unlock(&fn->lock);
		smbsrv_cluster_raised(fn, cv);
		kfree(nl);
		return STATUS_INVALID_PARAMETER;
	}
	if (l) {
		/* A directory's lease never caches writes: RHW asks for RH. */
		smb_lease_sm_upgrade(&l->sm, in.dir ?
				     in.requested & ~SMB2_LEASE_WRITE :
				     in.requested, granted);
	} else {
		l = nl;
		nl = NULL;
		refcount_set(&l->ref, 1);
		memcpy(l->client_guid, conn->client_guid, 16);
		memcpy(l->key, r->rqls.key, 16);
		l->version = r->rqls.version;
		l->sm.state = granted;
		/* A v2 lease starts one past the client's epoch. */
		l->sm.epoch = r->rqls.epoch + 1;
		if (l->version == 2 && (r->rqls.flags &
					SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET)) {
			memcpy(l->parent_key, r->rqls.parent_key, 16);
			l->parent_flag = SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET;
		}
		l->fn = fn;
		smbsrv_fnode_hold(fn);
		INIT_LIST_HEAD(&l->opens);
		smbsrv_brk_prep(&l->brk, SMBSRV_BRK_LEASE);
		list_add_tail(&l->fnode_node, &fn->cache.leases);
		hash_add(smbsrv_leases, &l->hash,
			 smbsrv_lease_hash(l->client_guid, l->key));
		fn->cache.holders++;
	}
	spin_unlock(&smbsrv_leases_lock);
	f->cache.sm.level = SMB2_OPLOCK_LEVEL_LEASE;
	f->cache.lease = l;
	list_add_tail(&f->cache.lease_node, &l->opens);
	a->oplock = SMB2_OPLOCK_LEVEL_LEASE;
	a->lease = true;
	a->rqls = r->rqls;
	/* Answered in the lease's own version, whatever this one asked. */
	a->rqls.version = l->version;
	a->rqls.state = l->sm.state;
	a->rqls.flags = r->rqls.flags & SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET;
	if (l->sm.breaking)
		a->rqls.flags |= SMB2_LEASE_FLAG_BREAK_IN_PROGRESS;
	a->rqls.epoch = l->sm.epoch;
out:
	spin_unlock(&fn->lock);
	smbsrv_cluster_raised(fn, cv);
	kfree(nl);
	return STATUS_SUCCESS;
}

void smbsrv_cache_close(struct smbsrv_file *f)
{
	struct smbsrv_fnode *fn = f->fnode;
	struct smbsrv_lease *drop = NULL, *l;
	u8 guid[16], pkey[16];
	bool spare = false;
	LIST_HEAD(woken);

	spin_lock(&fn->lock);
	switch (f->cache.sm.level) {
	case SMB2_OPLOCK_LEVEL_NONE:
		break;
	case SMB2_OPLOCK_LEVEL_LEASE:
		l = f->cache.lease;
		if (l->parent_flag) {
			memcpy(guid, l->client_guid, 16);
			memcpy(pkey, l->parent_key, 16);
			spare = true;
		}
		list_del_init(&f->cache.lease_node);
		f->cache.lease = NULL;
		if (list_empty(&l->opens)) {
			list_del(&l->fnode_node);
			spin_lock(&smbsrv_leases_lock);
			hash_del(&l->hash);
			spin_unlock(&smbsrv_leases_lock);
			smbsrv_brk_stop(&l->brk);
			fn->cache.holders--;
			drop = l;
		}
		break;
	default:
		smbsrv_brk_stop(&f->cache.brk);
		fn->cache.holders--;
		break;
	}
	f->cache.sm.level = SMB2_OPLOCK_LEVEL_NONE;
	f->cache.sm.breaking = false;
	smbsrv_cache_changed(fn, &woken);
	spin_unlock(&fn->lock);
	smbsrv_cache_wait_run(&woken);
	if (drop)
		smbsrv_lease_put(drop);
	smbsrv_cache_sync(fn);
	if (READ_ONCE(f->cache.wrote) && !fn->stream)
		smbsrv_cache_break_parent(f, guid, spare ? pkey : NULL);
}

void smbsrv_cache_break_write(struct smbsrv_file *f)
{
	struct smbsrv_fnode *fn = f->fnode;
	struct smbsrv_lease *l, *own;
	struct smbsrv_file *o;
	LIST_HEAD(notes);

	if (!READ_ONCE(f->cache.wrote))
		WRITE_ONCE(f->cache.wrote, true);
	if (!READ_ONCE(fn->cache.holders))
		return;
	spin_lock(&fn->lock);
	/* A writer caching writes is alone: nobody caches reads. */
	if (smbsrv_open_held(f) & SMB2_LEASE_WRITE)
		goto out;
	own = f->cache.sm.level == SMB2_OPLOCK_LEVEL_LEASE ? f->cache.lease :
							     NULL;
	list_for_each_entry(l, &fn->cache.leases, fnode_node)
		if (l != own && (l->sm.state & SMB2_LEASE_READ))
			smbsrv_lease_break_locked(l, SMB2_LEASE_NONE, &notes);
	list_for_each_entry(o, &fn->opens, fnode_node)
		if (o->cache.sm.level == SMB2_OPLOCK_LEVEL_II)
			smbsrv_oplock_break_locked(o, SMB2_LEASE_NONE, &notes);
out:
	spin_unlock(&fn->lock);
	smbsrv_notes_send(&notes);
	smbsrv_cache_sync(fn);
}

void smbsrv_cache_current(struct smbsrv_file *f, struct smbsrv_cache_answer *a)
{
	struct smbsrv_fnode *fn = f->fnode;
	struct smbsrv_lease *l;

	memset(a, 0, sizeof(*a));
	spin_lock(&fn->lock);
	a->oplock = f->cache.sm.level;
	if (a->oplock == SMB2_OPLOCK_LEVEL_LEASE) {
		l = f->cache.lease;
		a->lease = true;
		memcpy(a->rqls.key, l->key, 16);
		a->rqls.version = l->version;
		a->rqls.state = l->sm.state;
		a->rqls.epoch = l->sm.epoch;
		if (l->sm.breaking)
			a->rqls.flags |= SMB2_LEASE_FLAG_BREAK_IN_PROGRESS;
	}
	spin_unlock(&fn->lock);
}

void smbsrv_cache_break_handles(struct smbsrv_file *f)
{
	struct smbsrv_fnode *fn = f->fnode;
	struct smbsrv_lease *l, *own;
	LIST_HEAD(notes);

	if (!READ_ONCE(fn->cache.holders))
		return;
	spin_lock(&fn->lock);
	own = f->cache.sm.level == SMB2_OPLOCK_LEVEL_LEASE ? f->cache.lease :
							     NULL;
	list_for_each_entry(l, &fn->cache.leases, fnode_node)
		if (l != own && (l->sm.state & SMB2_LEASE_HANDLE))
			smbsrv_lease_break_locked(l, l->sm.state &
						  ~SMB2_LEASE_HANDLE, &notes);
	spin_unlock(&fn->lock);
	smbsrv_notes_send(&notes);
}

/* ---- acknowledgments --------------------------------------------------- */

static u32 smbsrv_cache_oplock_ack_locked(struct smbsrv_file *f, u8 level,
					  u8 *granted)
{
	u32 status;

	lockdep_assert_held(&f->fnode->lock);
	if (f->cache.sm.level == SMB2_OPLOCK_LEVEL_LEASE)
		return STATUS_INVALID_OPLOCK_PROTOCOL;
	status = smb_oplock_sm_ack(&f->cache.sm, level);
	if (status)
		return status;
	smbsrv_brk_stop(&f->cache.brk);
	if (f->cache.sm.level == SMB2_OPLOCK_LEVEL_NONE)
		f->fnode->cache.holders--;
	*granted = f->cache.sm.level;
	return STATUS_SUCCESS;
}

u32 smbsrv_cache_oplock_ack(struct smbsrv_file *f, u8 level, u8 *granted)
{
	struct smbsrv_fnode *fn = f->fnode;
	LIST_HEAD(woken);
	u32 status;

	spin_lock(&fn->lock);
	status = smbsrv_cache_oplock_ack_locked(f, level, granted);
	if (!status)
		smbsrv_cache_changed(fn, &woken);
	spin_unlock(&fn->lock);
	smbsrv_cache_wait_run(&woken);
	smbsrv_cache_sync(fn);
	return status;
}

/* A lease acknowledged @state (or timed out, @state none): under lock. */
static u32 smbsrv_lease_ack_locked(struct smbsrv_lease *l, u32 state,
				   struct list_head *notes,
				   struct list_head *woken)
{
	struct smb_lease_note ln;
	u32 status;

	lockdep_assert_held(&l->fn->lock);
	status = smb_lease_sm_ack(&l->sm, state, &ln);
	if (status)
		return status;
	if (!l->sm.breaking)
		smbsrv_brk_stop(&l->brk);
	else if (ln.send)
		smbsrv_brk_restart(&l->brk);
	if (ln.send)
		smbsrv_lease_note(l, &ln, notes);
	smbsrv_cache_changed(l->fn, woken);
	return STATUS_SUCCESS;
}

u32 smbsrv_cache_lease_ack(struct smbsrv_conn *conn, const u8 key[16],
			   u32 state)
{
	struct smbsrv_lease *l;
	struct smbsrv_fnode *fn;
	LIST_HEAD(notes);
	LIST_HEAD(woken);
	u32 status;

	spin_lock(&smbsrv_leases_lock);
	l = smbsrv_lease_find(conn->client_guid, key);
	if (l)
		refcount_inc(&l->ref);
	spin_unlock(&smbsrv_leases_lock);
	if (!l)
		return STATUS_OBJECT_NAME_NOT_FOUND;
	fn = l->fn;
	spin_lock(&fn->lock);
	status = smbsrv_lease_ack_locked(l, state, &notes, &woken);
	spin_unlock(&fn->lock);
	smbsrv_notes_send(&notes);
	smbsrv_cache_wait_run(&woken);
	smbsrv_cache_sync(fn);
	smbsrv_lease_put(l);
	return status;
}

/* ---- timeouts ----------------------------------------------------------- */

/* brk.c's ops: a break's holder, kept alive while it expires. */
static void smbsrv_cache_brk_hold(struct smbsrv_brk *b)
{
	if (b->kind == SMBSRV_BRK_LEASE)
		refcount_inc(&container_of(b, struct smbsrv_lease, brk)->ref);
	else
		refcount_inc(&container_of(b, struct smbsrv_file,
					   cache.brk)->open.ref);
}

static void smbsrv_cache_brk_put(struct smbsrv_brk *b)
{
	if (b->kind == SMBSRV_BRK_LEASE)
		smbsrv_lease_put(container_of(b, struct smbsrv_lease, brk));
	else
		smbsrv_file_put(container_of(b, struct smbsrv_file, cache.brk));
}

/* A break not acknowledged in time counts as acknowledged to none. */
static void smbsrv_cache_brk_expire(struct smbsrv_brk *b,
				    unsigned long deadline)
{
	struct smbsrv_lease *l = NULL;
	struct smbsrv_file *f = NULL;
	struct smbsrv_fnode *fn;
	LIST_HEAD(notes);
	LIST_HEAD(woken);
	u8 level;

	if (b->kind == SMBSRV_BRK_LEASE) {
		l = container_of(b, struct smbsrv_lease, brk);
		fn = l->fn;
	} else {
		f = container_of(b, struct smbsrv_file, cache.brk);
		fn = f->fnode;
	}
	spin_lock(&fn->lock);
	/* Acknowledged meanwhile, or a newer break: not this one. */
	if (!list_empty(&b->node) || b->deadline != deadline)
		goto out;
	if (l && l->sm.breaking) {
		pr_info_ratelimited("smbsrv: lease break not acknowledged in time, taken as none\n");
		smbsrv_lease_ack_locked(l, SMB2_LEASE_NONE, &notes, &woken);
	} else if (f && f->cache.sm.breaking) {
		pr_info_ratelimited("smbsrv: oplock break of %s not acknowledged in time, taken as none\n",
				    f->name);
		if (!smbsrv_cache_oplock_ack_locked(f, SMB2_OPLOCK_LEVEL_NONE,
						    &level))
			smbsrv_cache_changed(fn, &woken);
	}
out:
	spin_unlock(&fn->lock);
	smbsrv_notes_send(&notes);
	smbsrv_cache_wait_run(&woken);
	smbsrv_cache_sync(fn);
}

static const struct smbsrv_brk_ops smbsrv_cache_brk_ops = {
	.hold = smbsrv_cache_brk_hold,
	.expire = smbsrv_cache_brk_expire,
	.put = smbsrv_cache_brk_put,
};

/* ---- smbsrvctl ---------------------------------------------------------- */

void smbsrv_cache_describe(struct smbsrv_file *f, u8 *oplock, u32 *lease,
			   u8 key[16], u16 *epoch, bool *breaking)
{
	struct smbsrv_fnode *fn = f->fnode;

	spin_lock(&fn->lock);
	*oplock = f->cache.sm.level;
	*breaking = f->cache.sm.breaking;
	*lease = 0;
	*epoch = 0;
	if (f->cache.sm.level == SMB2_OPLOCK_LEVEL_LEASE) {
		*lease = f->cache.lease->sm.state;
		*breaking = f->cache.lease->sm.breaking;
		*epoch = f->cache.lease->sm.epoch;
		memcpy(key, f->cache.lease->key, 16);
	}
	spin_unlock(&fn->lock);
}

void smbsrv_cache_set_break_ops(const struct smbsrv_break_ops *ops)
{
	smbsrv_break_ops = ops;
}

int smbsrv_cache_init(void)
{
	int err;

	smbsrv_brk_init(&smbsrv_cache_brk_ops);
	err = smbsrv_klease_init(&smbsrv_cache_klease_ops);
	if (err)
		return err;
	smbsrv_fnode_set_ops(&smbsrv_cache_fnode_ops);
	smbsrv_cluster_set_cache_ops(&smbsrv_cache_cluster_ops);
	return 0;
}

void smbsrv_cache_exit(void)
{
	smbsrv_cluster_set_cache_ops(NULL);
	smbsrv_brk_exit();
	smbsrv_fnode_set_ops(NULL);
	smbsrv_klease_exit();
}
