// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: client caching — oplocks and leases (see oplock.h and
 * Documentation/design.md, "Client caching").
 *
 * Locks, outermost first: an fnode's spinlock (its opens, their oplocks,
 * its leases' states, its waiters), then smbsrv_leases_lock (the lease
 * table), smbsrv_brk_lock (breaks in progress) and smbsrv_wait_lock
 * (parked requests), each only ever taken alone or inside the fnode's.
 * Notifications are built under the fnode's lock and sent after it by a
 * worker, never by the breaking request itself.
 */
#include <linux/file.h>
#include <linux/filelock.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/fsnotify_backend.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <uapi/linux/smbsrv.h>

#include "cmdstats.h"
#include "conn.h"
#include "durable.h"
#include "file.h"
#include "oplock.h"
#include "sched.h"
#include "send.h"
#include "session.h"
#include "sign.h"
#include "smbsrv.h"
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

/* A notification on its way to a client. */
struct smbsrv_note {
	struct work_struct work;
	struct list_head node;
	bool to_client;			/* any connection of client_guid */
	u8 client_guid[16];
	struct smbsrv_conn *conn;	/* referenced; the fallback */
	struct smbsrv_session *crypt;	/* whose keys encrypt it, or NULL */
	u32 len;
	u8 buf[SMB2_HDR_SIZE + SMB2_LEASE_BREAK_NOTIFY_SIZE];
};

#define SMBSRV_LEASE_HASH_BITS	10

static DEFINE_HASHTABLE(smbsrv_leases, SMBSRV_LEASE_HASH_BITS);
static DEFINE_SPINLOCK(smbsrv_leases_lock);

static DEFINE_SPINLOCK(smbsrv_brk_lock);
static LIST_HEAD(smbsrv_brk_list);
static struct delayed_work smbsrv_brk_work;

static DEFINE_SPINLOCK(smbsrv_wait_lock);
static DECLARE_WAIT_QUEUE_HEAD(smbsrv_cache_wq);

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

/* ---- breaks in progress ------------------------------------------------- */

enum { SMBSRV_BRK_OPLOCK, SMBSRV_BRK_LEASE };

static void smbsrv_brk_arm(struct smbsrv_brk *b)
{
	bool first;

	spin_lock(&smbsrv_brk_lock);
	if (list_empty(&b->node)) {
		first = list_empty(&smbsrv_brk_list);
		b->deadline = jiffies + SMBSRV_BREAK_TIMEOUT;
		list_add_tail(&b->node, &smbsrv_brk_list);
		/* Deadlines only grow: the head is always the next one. */
		if (first)
			mod_delayed_work(smbsrv_ctl_wq, &smbsrv_brk_work,
					 SMBSRV_BREAK_TIMEOUT);
	}
	spin_unlock(&smbsrv_brk_lock);
}

/* A break went on with another notification: a new deadline. */
static void smbsrv_brk_rearm(struct smbsrv_brk *b)
{
	spin_lock(&smbsrv_brk_lock);
	list_del_init(&b->node);
	spin_unlock(&smbsrv_brk_lock);
	smbsrv_brk_arm(b);
}

static void smbsrv_brk_disarm(struct smbsrv_brk *b)
{
	spin_lock(&smbsrv_brk_lock);
	list_del_init(&b->node);
	spin_unlock(&smbsrv_brk_lock);
}

/* ---- notifications ------------------------------------------------------ */

/*
 * A lease break goes to the client, not to an open: as Windows does, to
 * its oldest connection with a session (smbtorture's v2_complex1).
 */
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

static void smbsrv_note_work(struct work_struct *work)
{
	struct smbsrv_note *n = container_of(work, struct smbsrv_note, work);
	struct smbsrv_conn *conn;
	struct kvec iov[2];

	if (n->to_client) {
		conn = smbsrv_note_client_conn(n->client_guid);
		if (conn) {
			smbsrv_conn_put(n->conn);
			n->conn = conn;
		}
	}
	iov[1].iov_base = n->buf;
	iov[1].iov_len = n->len;
	if (!smbsrv_conn_closing(n->conn)) {
		if (n->crypt)
			smbsrv_encrypt_send(n->conn, SMBSRV_QUEUE_PERCPU,
					    n->crypt, iov, 2, n->len);
		else
			smbsrv_send_frame(n->conn, SMBSRV_QUEUE_PERCPU, iov, 2,
					  n->len);
	}
	if (n->crypt)
		smbsrv_session_put(n->crypt);
	smbsrv_conn_put(n->conn);
	kfree(n);
}

/*
 * A notification to a connection of @f's session (any of its channels
 * that is not closing; @f is an open on its tree, under its fnode's
 * lock), or NULL when it has none or memory is short: the break then
 * runs into its timeout, as it would for a client that never answers.
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
	n = kzalloc(sizeof(*n), GFP_ATOMIC);
	if (!n)
		return NULL;
	/* Referenced; put in process context only, with the note. */
	n->conn = smbsrv_session_live_conn(sess);
	if (!n->conn) {
		kfree(n);
		return NULL;
	}
	INIT_WORK(&n->work, smbsrv_note_work);
	if (encrypt && (sess->encrypt_data ||
			(tree->share_flags & SMBSRV_SHARE_FLAGS_ENCRYPT))) {
		smbsrv_session_get(sess);
		n->crypt = sess;
	}
	smb2_hdr_encode_notify(n->buf);
	return n;
}

static void smbsrv_notes_send(struct list_head *notes)
{
	struct smbsrv_note *n, *tmp;

	list_for_each_entry_safe(n, tmp, notes, node) {
		list_del(&n->node);
		smbsrv_sched_other(&n->work);
	}
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
	struct smbsrv_note *n;

	if (!f)
		return;
	/* As Samba: lease breaks go out in clear. */
	n = smbsrv_note_new(f, false);
	if (!n)
		return;
	n->to_client = true;
	memcpy(n->client_guid, l->client_guid, 16);
	n->len = SMB2_HDR_SIZE +
		 smb2_lease_break_notify_encode(n->buf + SMB2_HDR_SIZE,
						l->version == 2 ? ln->epoch : 0,
						ln->flags, l->key, ln->from,
						ln->to);
	list_add_tail(&n->node, notes);
	smbsrv_cmdstats_break(SMBSRV_BREAK_LEASE);
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
		smbsrv_durable_expire_now(container_of(oc, struct smbsrv_file,
						       cache));
}

static void smbsrv_lease_break_locked(struct smbsrv_lease *l, u32 to,
				      struct list_head *notes)
{
	struct smb_lease_note ln;

	smb_lease_sm_break(&l->sm, to, &ln);
	if (ln.send)
		smbsrv_lease_note(l, &ln, notes);
	if (l->sm.breaking) {
		smbsrv_brk_arm(&l->brk);
		if (!smbsrv_lease_conn_open(l))
			smbsrv_lease_expire_durables(l);
	}
}

static void smbsrv_oplock_break_locked(struct smbsrv_file *f, u32 to,
				       struct list_head *notes)
{
	struct smbsrv_fnode *fn = f->fnode;
	struct smbsrv_note *n;
	u8 level;

	if (!smb_oplock_sm_break(&f->cache.sm, to, &level))
		return;
	if (f->cache.sm.breaking)
		smbsrv_brk_arm(&f->cache.brk);
	else if (f->cache.sm.level == SMB2_OPLOCK_LEVEL_NONE)
		fn->cache.holders--;
	n = smbsrv_note_new(f, true);
	if (!n) {
		/* A disconnected durable handle: it cannot answer (3.3.4.6). */
		if (f->cache.sm.breaking)
			smbsrv_durable_expire_now(f);
		return;
	}
	n->len = SMB2_HDR_SIZE +
		 smb2_oplock_break_encode(n->buf + SMB2_HDR_SIZE, level,
					  f->open.id_persistent,
					  f->open.id_volatile);
	list_add_tail(&n->node, notes);
	smbsrv_cmdstats_break(SMBSRV_BREAK_OPLOCK);
}

/*
 * Something about @fn's caching or opens changed: take its parked
 * requests (to run again after the lock) and wake those waiting in place.
 */
static void smbsrv_cache_changed(struct smbsrv_fnode *fn,
				 struct list_head *woken)
{
	struct smbsrv_cache_wait *w;

	fn->cache.gen++;
	spin_lock(&smbsrv_wait_lock);
	list_for_each_entry(w, &fn->cache.waiters, node)
		w->parked = false;
	list_splice_init(&fn->cache.waiters, woken);
	spin_unlock(&smbsrv_wait_lock);
}

static void smbsrv_cache_run_woken(struct list_head *woken)
{
	struct smbsrv_cache_wait *w, *tmp;
	struct smbsrv_fnode *fn;

	list_for_each_entry_safe(w, tmp, woken, node) {
		list_del_init(&w->node);
		fn = w->fn;
		w->fn = NULL;
		/* May complete (and free) @w: nothing touches it after. */
		smbsrv_sched_other(&w->work);
		smbsrv_fnode_put(fn);
	}
	wake_up_all(&smbsrv_cache_wq);
}

/* ---- changes made on the server itself: the kernel lease ---------------- */

/*
 * Every regular file whose SMB holders cache reads or writes carries a
 * kernel lease of the same kind (Documentation/design.md, "Changes made
 * on the server itself"): a local process (or nfsd, or another server)
 * opening, truncating, renaming, linking, unlinking or changing the file
 * breaks it, the break reaches the SMB holders, and the local operation
 * waits until they answered and the lease was lowered.  Named streams
 * have none (local xattr writes do not break leases).
 */

/* What the holders of @fn need covered; under its lock. */
static int smbsrv_klease_want(struct smbsrv_fnode *fn)
{
	struct smbsrv_lease *l;
	struct smbsrv_file *o;
	u32 bits = 0;

	list_for_each_entry(l, &fn->cache.leases, fnode_node)
		bits |= l->sm.state;
	list_for_each_entry(o, &fn->opens, fnode_node)
		if (o->cache.sm.level != SMB2_OPLOCK_LEVEL_LEASE)
			bits |= smb2_oplock_to_lease(o->cache.sm.level);
	if (bits & SMB2_LEASE_WRITE)
		return F_WRLCK;
	return bits & SMB2_LEASE_READ ? F_RDLCK : F_UNLCK;
}

/* ---- directory leases: a directory's entries change -------------------- */

/*
 * A directory whose leases cache its listing carries an fsnotify inode
 * mark (as CHANGE_NOTIFY watches do, smb2/notify.c): an entry created,
 * deleted or renamed in it, by an SMB client or by anyone on the server,
 * breaks those leases to none, as Windows breaks a directory lease when
 * its listing changes.  The break is sent after the change (fsnotify
 * reports it done); nobody waits for it.  The mark holds the fnode and
 * goes with the directory's last lease (smbsrv_klease_sync()).
 */
#define SMBSRV_DIRLEASE_EVENTS	(FS_CREATE | FS_DELETE | FS_MOVED_FROM | \
				 FS_MOVED_TO)

struct smbsrv_dirmark {
	struct fsnotify_mark mark;	/* first: container_of */
	struct smbsrv_fnode *fn;	/* referenced */
};

static struct fsnotify_group *smbsrv_dirlease_group;

/* smbsrv_dir_actor's, while their change runs. */
static DEFINE_SPINLOCK(smbsrv_dir_actors_lock);
static LIST_HEAD(smbsrv_dir_actors);

void smbsrv_dir_actor_begin(struct smbsrv_dir_actor *a, const u8 *guid,
			    const struct smbsrv_cache_req *r)
{
	a->task = NULL;
	if (!r->lease || r->rqls.version != 2 ||
	    !(r->rqls.flags & SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET))
		return;
	a->task = current;
	memcpy(a->client_guid, guid, 16);
	memcpy(a->parent_key, r->rqls.parent_key, 16);
	spin_lock(&smbsrv_dir_actors_lock);
	list_add(&a->node, &smbsrv_dir_actors);
	spin_unlock(&smbsrv_dir_actors_lock);
}

void smbsrv_dir_actor_end(struct smbsrv_dir_actor *a)
{
	if (!a->task)
		return;
	spin_lock(&smbsrv_dir_actors_lock);
	list_del(&a->node);
	spin_unlock(&smbsrv_dir_actors_lock);
}

/* The lease the change running in this task spares: its key, or false. */
static bool smbsrv_dir_actor_find(u8 *guid, u8 *key)
{
	struct smbsrv_dir_actor *a;
	bool found = false;

	if (list_empty_careful(&smbsrv_dir_actors))
		return false;
	spin_lock(&smbsrv_dir_actors_lock);
	list_for_each_entry(a, &smbsrv_dir_actors, node) {
		if (a->task != current)
			continue;
		memcpy(guid, a->client_guid, 16);
		memcpy(key, a->parent_key, 16);
		found = true;
		break;
	}
	spin_unlock(&smbsrv_dir_actors_lock);
	return found;
}

static int smbsrv_dirlease_event(struct fsnotify_mark *mark, u32 mask,
				 struct inode *inode, struct inode *dir,
				 const struct qstr *name, u32 cookie)
{
	struct smbsrv_fnode *fn =
		container_of(mark, struct smbsrv_dirmark, mark)->fn;
	struct smbsrv_lease *l;
	u8 guid[16], key[16];
	LIST_HEAD(notes);
	bool spare;

	if (!(mask & SMBSRV_DIRLEASE_EVENTS))
		return 0;
	spare = smbsrv_dir_actor_find(guid, key);
	spin_lock(&fn->lock);
	list_for_each_entry(l, &fn->cache.leases, fnode_node)
		if (l->sm.state && !(spare && smbsrv_lease_is(l, guid, key)))
			smbsrv_lease_break_locked(l, SMB2_LEASE_NONE, &notes);
	spin_unlock(&fn->lock);
	smbsrv_notes_send(&notes);
	return 0;
}

/*
 * A file modified through @f was closed: its directory's listing (size,
 * times) changed, so the directory's leases break, but for the one @f's
 * own lease names as its parent.
 */
static void smbsrv_dirlease_break_parent(struct smbsrv_file *f,
					 const u8 *guid, const u8 *key)
{
	struct smbsrv_fnode *dfn;
	struct smbsrv_lease *l;
	struct dentry *parent;
	LIST_HEAD(notes);

	parent = dget_parent(f->filp->f_path.dentry);
	dfn = smbsrv_fnode_find(d_inode(parent), NULL);
	dput(parent);
	if (!dfn)
		return;
	if (READ_ONCE(dfn->cache.dmark)) {
		spin_lock(&dfn->lock);
		list_for_each_entry(l, &dfn->cache.leases, fnode_node)
			if (l->sm.state && !(key && smbsrv_lease_is(l, guid, key)))
				smbsrv_lease_break_locked(l, SMB2_LEASE_NONE,
							  &notes);
		spin_unlock(&dfn->lock);
		smbsrv_notes_send(&notes);
	}
	smbsrv_fnode_put(dfn);
}

static void smbsrv_dirlease_free_mark(struct fsnotify_mark *mark)
{
	struct smbsrv_dirmark *m = container_of(mark, struct smbsrv_dirmark,
						mark);

	smbsrv_fnode_put(m->fn);
	kfree(m);
}

static const struct fsnotify_ops smbsrv_dirlease_ops = {
	.handle_inode_event = smbsrv_dirlease_event,
	.free_mark = smbsrv_dirlease_free_mark,
};

/* Before a directory lease caching @type is granted: the mark, or F_UNLCK. */
static int smbsrv_dirmark_raise(struct smbsrv_fnode *fn, int type)
{
	struct smbsrv_dirmark *m;
	int err;

	mutex_lock(&fn->cache.kmutex);
	if (fn->cache.dmark)
		goto out;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		type = F_UNLCK;
		goto out;
	}
	fsnotify_init_mark(&m->mark, smbsrv_dirlease_group);
	m->mark.mask = SMBSRV_DIRLEASE_EVENTS;
	smbsrv_fnode_hold(fn);
	m->fn = fn;
	err = fsnotify_add_inode_mark(&m->mark, fn->inode, 0);
	if (err) {
		fsnotify_put_mark(&m->mark);	/* frees it, drops @fn */
		type = F_UNLCK;
		goto out;
	}
	WRITE_ONCE(fn->cache.dmark, m);
out:
	mutex_unlock(&fn->cache.kmutex);
	return type;
}

/* The directory's leases went down: no lease caches it, no mark. */
static void smbsrv_dirmark_sync(struct smbsrv_fnode *fn)
{
	struct smbsrv_dirmark *m = NULL;
	int want;

	mutex_lock(&fn->cache.kmutex);
	spin_lock(&fn->lock);
	want = smbsrv_klease_want(fn);
	spin_unlock(&fn->lock);
	if (want == F_UNLCK) {
		m = fn->cache.dmark;
		WRITE_ONCE(fn->cache.dmark, NULL);
	}
	mutex_unlock(&fn->cache.kmutex);
	if (m) {
		fsnotify_destroy_mark(&m->mark, smbsrv_dirlease_group);
		fsnotify_put_mark(&m->mark);
	}
}

/* A local process wants the file: break the SMB holders for it. */
static bool smbsrv_klease_break(struct file_lease *fl)
{
	struct smbsrv_fnode *fn = fl->c.flc_owner;
	u8 local = (fl->c.flc_flags & FL_UNLOCK_PENDING) ? 2 : 1;

	/* Under the lease list's spinlock: the rest in process context. */
	if (local > READ_ONCE(fn->cache.klocal))
		WRITE_ONCE(fn->cache.klocal, local);
	/* The work holds the fnode; if queued already, that one does. */
	if (refcount_inc_not_zero(&fn->ref) &&
	    !smbsrv_sched_other(&fn->cache.kwork))
		smbsrv_fnode_put(fn);
	/* Keep the lease: smbsrv lowers it once the holders answered. */
	return false;
}

/*
 * smbsrv's own workers resolve SMB caching before they touch the VFS
 * (that is what breaking on a conflicting open is): they do not break the
 * lease smbsrv holds for its clients, or they would wait for themselves.
 */
static bool smbsrv_klease_owner(struct file_lease *fl)
{
	struct work_struct *w = current_work();

	return w && within_module((unsigned long)w->func, THIS_MODULE);
}

static const struct lease_manager_operations smbsrv_klease_ops = {
	.lm_break = smbsrv_klease_break,
	.lm_change = lease_modify,
	.lm_breaker_owns_lease = smbsrv_klease_owner,
};

/* Set the lease on @fn to @type (under kmutex); 0 or -errno. */
static int smbsrv_klease_set(struct smbsrv_fnode *fn, int type)
{
	struct file_lease *fl;
	void *owner = fn;
	int err;

	if (type == F_UNLCK) {
		if (fn->cache.kfile) {
			kernel_setlease(fn->cache.kfile, F_UNLCK, NULL, &owner);
			__fput_sync(fn->cache.kfile);
			fn->cache.kfile = NULL;
		}
		fn->cache.ktype = F_UNLCK;
		return 0;
	}
	fl = locks_alloc_lease();
	if (!fl)
		return -ENOMEM;
	fl->fl_lmops = &smbsrv_klease_ops;
	fl->c.flc_flags = FL_DELEG;
	fl->c.flc_type = type;
	fl->c.flc_owner = fn;
	fl->c.flc_pid = current->tgid;
	fl->c.flc_file = fn->cache.kfile;
	err = kernel_setlease(fn->cache.kfile, type, &fl, NULL);
	if (fl)
		locks_free_lease(fl);
	if (!err)
		fn->cache.ktype = type;
	return err;
}

/*
 * Whether local processes (not smbsrv's own opens) have the file open in
 * a way caching @type would hide from them: writers for any caching,
 * readers too for write caching.
 */
static bool smbsrv_klease_local_opens(struct smbsrv_fnode *fn, int type)
{
	struct inode *inode = fn->inode;
	u32 w, r;

	smbsrv_inode_own_opens(inode, &w, &r);
	if (atomic_read(&inode->i_writecount) > (int)w)
		return true;
	return type == F_WRLCK && atomic_read(&inode->i_readcount) > (int)r;
}

/*
 * Before granting caching that needs @type: have the lease cover it.
 * Returns what is covered now (possibly less: a local break pending,
 * local opens, another lease holder such as nfsd, the inode busy).
 */
static int smbsrv_klease_raise(struct smbsrv_fnode *fn,
			       const struct path *path, int type)
{
	struct file *kfile;
	int got;

	if (!fn->stream && S_ISDIR(fn->inode->i_mode))
		return smbsrv_dirmark_raise(fn, type);
	if (fn->stream || !S_ISREG(fn->inode->i_mode))
		return type;	/* no kernel lease: SMB clients only */
	mutex_lock(&fn->cache.kmutex);
	got = fn->cache.ktype;
	if (READ_ONCE(fn->cache.klocal) ||
	    (got == F_WRLCK || got == type))
		goto out;
	if (!fn->cache.kfile) {
		kfile = dentry_open(path, O_PATH, current_cred());
		if (IS_ERR(kfile))
			goto out;
		fn->cache.kfile = kfile;
	}
	if (smbsrv_klease_set(fn, type) && type == F_WRLCK)
		smbsrv_klease_set(fn, F_RDLCK);
	/* Set first, then count: an opener racing the grant is seen. */
	while (fn->cache.ktype != F_UNLCK &&
	       smbsrv_klease_local_opens(fn, fn->cache.ktype))
		smbsrv_klease_set(fn, fn->cache.ktype == F_WRLCK &&
				  !smbsrv_klease_local_opens(fn, F_RDLCK) ?
				  F_RDLCK : F_UNLCK);
	got = fn->cache.ktype;
	if (got == F_UNLCK)
		smbsrv_klease_set(fn, F_UNLCK);
out:
	mutex_unlock(&fn->cache.kmutex);
	return got;
}

/* The holders' caching went down: lower the lease to match. */
static void smbsrv_klease_sync(struct smbsrv_fnode *fn)
{
	int want, err;

	if (READ_ONCE(fn->cache.dmark)) {
		smbsrv_dirmark_sync(fn);
		return;
	}
	if (!READ_ONCE(fn->cache.kfile))
		return;
	mutex_lock(&fn->cache.kmutex);
	spin_lock(&fn->lock);
	want = smbsrv_klease_want(fn);
	spin_unlock(&fn->lock);
	if (fn->cache.kfile && want != fn->cache.ktype &&
	    (want == F_UNLCK || fn->cache.ktype == F_WRLCK)) {
		err = smbsrv_klease_set(fn, want);
		if (err)
			smbsrv_klease_set(fn, F_UNLCK);
	}
	spin_lock(&fn->lock);
	/* Given way: what the local process waited for is done. */
	if ((fn->cache.klocal == 2 && fn->cache.ktype == F_UNLCK) ||
	    (fn->cache.klocal == 1 && fn->cache.ktype != F_WRLCK))
		fn->cache.klocal = 0;
	spin_unlock(&fn->lock);
	mutex_unlock(&fn->cache.kmutex);
}

static void smbsrv_klease_work(struct work_struct *work)
{
	struct smbsrv_fnode *fn = container_of(work, struct smbsrv_fnode,
					       cache.kwork);
	struct smbsrv_lease *l;
	struct smbsrv_file *o;
	LIST_HEAD(notes);
	u32 held, to;
	bool writer;

	spin_lock(&fn->lock);
	writer = fn->cache.klocal == 2;
	/* A reader takes away write caching, a writer everything. */
	list_for_each_entry(l, &fn->cache.leases, fnode_node) {
		to = writer ? 0 : l->sm.state & ~SMB2_LEASE_WRITE;
		if (l->sm.state & ~to)
			smbsrv_lease_break_locked(l, to, &notes);
	}
	list_for_each_entry(o, &fn->opens, fnode_node) {
		held = smb2_oplock_to_lease(o->cache.sm.level);
		if (o->cache.sm.level == SMB2_OPLOCK_LEVEL_LEASE || !held)
			continue;
		to = writer ? 0 : held & ~SMB2_LEASE_WRITE;
		if (held & ~to)
			smbsrv_oplock_break_locked(o, to, &notes);
	}
	spin_unlock(&fn->lock);
	smbsrv_notes_send(&notes);
	/* What needed no answer (level II, R) is lowered already. */
	smbsrv_klease_sync(fn);
	smbsrv_fnode_put(fn);
}

/* ---- CREATE ------------------------------------------------------------- */

static void smbsrv_klease_work(struct work_struct *work);

void smbsrv_fnode_cache_init(struct smbsrv_fnode_cache *c)
{
	INIT_LIST_HEAD(&c->leases);
	INIT_LIST_HEAD(&c->waiters);
	mutex_init(&c->kmutex);
	c->ktype = F_UNLCK;
	INIT_WORK(&c->kwork, smbsrv_klease_work);
}

void smbsrv_fnode_cache_exit(struct smbsrv_fnode_cache *c)
{
	WARN_ON_ONCE(c->kfile || c->dmark);
}

void smbsrv_open_cache_init(struct smbsrv_open_cache *c)
{
	INIT_LIST_HEAD(&c->lease_node);
	INIT_LIST_HEAD(&c->brk.node);
	c->brk.kind = SMBSRV_BRK_OPLOCK;
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
		if (smbsrv_share_conflict(r->access, r->share, o->access,
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
	smbsrv_klease_sync(fn);
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

	/* What the rules allow, then a kernel lease covering it. */
	spin_lock(&fn->lock);
	granted = smbsrv_grant_compute(f, r, lease, conn, &in);
	spin_unlock(&fn->lock);
	if (granted & (SMB2_LEASE_READ | SMB2_LEASE_WRITE)) {
		switch (smbsrv_klease_raise(fn, &f->filp->f_path,
					    granted & SMB2_LEASE_WRITE ?
					    F_WRLCK : F_RDLCK)) {
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
		INIT_LIST_HEAD(&l->brk.node);
		l->brk.kind = SMBSRV_BRK_LEASE;
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
			smbsrv_brk_disarm(&l->brk);
			fn->cache.holders--;
			drop = l;
		}
		break;
	default:
		smbsrv_brk_disarm(&f->cache.brk);
		fn->cache.holders--;
		break;
	}
	f->cache.sm.level = SMB2_OPLOCK_LEVEL_NONE;
	f->cache.sm.breaking = false;
	smbsrv_cache_changed(fn, &woken);
	spin_unlock(&fn->lock);
	smbsrv_cache_run_woken(&woken);
	if (drop)
		smbsrv_lease_put(drop);
	smbsrv_klease_sync(fn);
	if (READ_ONCE(f->cache.wrote) && !fn->stream)
		smbsrv_dirlease_break_parent(f, guid, spare ? pkey : NULL);
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
	smbsrv_klease_sync(fn);
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

/* ---- waiting ------------------------------------------------------------ */

void smbsrv_cache_wait_init(struct smbsrv_cache_wait *w, work_func_t run)
{
	INIT_LIST_HEAD(&w->node);
	INIT_WORK(&w->work, run);
}

void smbsrv_cache_wait_sync(struct smbsrv_fnode *fn, u32 gen)
{
	wait_event_timeout(smbsrv_cache_wq, READ_ONCE(fn->cache.gen) != gen,
			   SMBSRV_BREAK_TIMEOUT + HZ);
	smbsrv_fnode_put(fn);
}

u32 smbsrv_cache_wait_park(struct smbsrv_cache_wait *w,
			   struct smbsrv_fnode *fn, u32 gen)
{
	bool again = false, cancelled = false;

	spin_lock(&fn->lock);
	spin_lock(&smbsrv_wait_lock);
	if (w->cancelled) {
		cancelled = true;
	} else if (fn->cache.gen != gen) {
		/* Changed since the decision to wait: look again now. */
		again = true;
	} else {
		w->fn = fn;
		w->parked = true;
		list_add_tail(&w->node, &fn->cache.waiters);
	}
	spin_unlock(&smbsrv_wait_lock);
	spin_unlock(&fn->lock);
	if (cancelled || again)
		smbsrv_fnode_put(fn);
	if (cancelled)
		return STATUS_CANCELLED;
	if (again)
		smbsrv_sched_other(&w->work);
	return STATUS_PENDING;
}

bool smbsrv_cache_wait_cancel(struct smbsrv_cache_wait *w)
{
	struct smbsrv_fnode *fn = NULL;
	bool mine;

	spin_lock(&smbsrv_wait_lock);
	mine = w->parked;
	if (mine) {
		w->parked = false;
		list_del_init(&w->node);
		fn = w->fn;
		w->fn = NULL;
	} else {
		/* Running again right now: it must not park after this. */
		w->cancelled = true;
	}
	spin_unlock(&smbsrv_wait_lock);
	if (mine)
		smbsrv_fnode_put(fn);
	return mine;
}

void smbsrv_cache_wait_release(struct smbsrv_cache_wait *w)
{
	if (w->fn)
		smbsrv_fnode_put(w->fn);
}

/* ---- acknowledgments --------------------------------------------------- */

static u32 smbsrv_cache_oplock_ack_locked(struct smbsrv_file *f, u8 level,
					  u8 *granted)
{
	u32 status;

	if (f->cache.sm.level == SMB2_OPLOCK_LEVEL_LEASE)
		return STATUS_INVALID_OPLOCK_PROTOCOL;
	status = smb_oplock_sm_ack(&f->cache.sm, level);
	if (status)
		return status;
	smbsrv_brk_disarm(&f->cache.brk);
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
	smbsrv_cache_run_woken(&woken);
	smbsrv_klease_sync(fn);
	return status;
}

/* A lease acknowledged @state (or timed out, @state none): under lock. */
static u32 smbsrv_lease_ack_locked(struct smbsrv_lease *l, u32 state,
				   struct list_head *notes,
				   struct list_head *woken)
{
	struct smb_lease_note ln;
	u32 status;

	status = smb_lease_sm_ack(&l->sm, state, &ln);
	if (status)
		return status;
	if (!l->sm.breaking)
		smbsrv_brk_disarm(&l->brk);
	else if (ln.send)
		smbsrv_brk_rearm(&l->brk);
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
	smbsrv_cache_run_woken(&woken);
	smbsrv_klease_sync(fn);
	smbsrv_lease_put(l);
	return status;
}

/* ---- timeouts ----------------------------------------------------------- */

/* A break not acknowledged in time counts as acknowledged to none. */
static void smbsrv_brk_expire(struct smbsrv_brk *b, int kind,
			      unsigned long deadline)
{
	struct smbsrv_lease *l = NULL;
	struct smbsrv_file *f = NULL;
	struct smbsrv_fnode *fn;
	LIST_HEAD(notes);
	LIST_HEAD(woken);
	u8 level;

	if (kind == SMBSRV_BRK_LEASE) {
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
	smbsrv_cache_run_woken(&woken);
	smbsrv_klease_sync(fn);
}

static void smbsrv_brk_timeout(struct work_struct *work)
{
	struct smbsrv_lease *l;
	struct smbsrv_file *f;
	struct smbsrv_brk *b;
	unsigned long deadline;
	int kind;

	for (;;) {
		spin_lock(&smbsrv_brk_lock);
		b = list_first_entry_or_null(&smbsrv_brk_list,
					     struct smbsrv_brk, node);
		if (b && time_before(jiffies, b->deadline))
			mod_delayed_work(smbsrv_ctl_wq, &smbsrv_brk_work,
					 b->deadline - jiffies);
		if (!b || time_before(jiffies, b->deadline)) {
			spin_unlock(&smbsrv_brk_lock);
			return;
		}
		list_del_init(&b->node);
		deadline = b->deadline;
		kind = b->kind;
		/* Whatever is on the list is alive: hold it for the work. */
		if (kind == SMBSRV_BRK_LEASE) {
			l = container_of(b, struct smbsrv_lease, brk);
			refcount_inc(&l->ref);
		} else {
			f = container_of(b, struct smbsrv_file, cache.brk);
			refcount_inc(&f->open.ref);
		}
		spin_unlock(&smbsrv_brk_lock);
		smbsrv_brk_expire(b, kind, deadline);
		if (kind == SMBSRV_BRK_LEASE)
			smbsrv_lease_put(l);
		else
			smbsrv_file_put(f);
	}
}

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

int smbsrv_cache_init(void)
{
	INIT_DELAYED_WORK(&smbsrv_brk_work, smbsrv_brk_timeout);
	smbsrv_dirlease_group = fsnotify_alloc_group(&smbsrv_dirlease_ops, 0);
	return PTR_ERR_OR_ZERO(smbsrv_dirlease_group);
}

void smbsrv_cache_exit(void)
{
	/* Every open is closed by now: no break is in progress. */
	cancel_delayed_work_sync(&smbsrv_brk_work);
	WARN_ON(!list_empty(&smbsrv_brk_list));
	/* ... and no directory lease: its marks are on their way out. */
	fsnotify_wait_marks_destroyed();
	fsnotify_put_group(smbsrv_dirlease_group);
}
