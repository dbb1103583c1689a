// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the byte-range lock table (see brl.h).
 *
 * Everything happens under the fnode's brl mutex: the conflict checks of
 * MS-FSA 2.1.4.10 (wire/lock.c), the lock list, the waiters, and the POSIX
 * locks each open holds on its own struct file, so that what local
 * processes see always matches the SMB locks.  Waiters are told they are
 * done after the mutex is dropped.
 *
 * Cluster mode (design-cluster.md): the other nodes' locks of the file
 * are kept here too, as they pushed them (smbsrv_brl_remote()), so that
 * READ and WRITE check them without a round trip; a lock or unlock that
 * changed this node's locks records the node's list in the store (one
 * upcall, under the mutex) before it answers, and the daemon pushes it
 * to the other nodes with the file open before its answer.
 */
#include <linux/filelock.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <uapi/linux/smbsrv.h>

#include "brl.h"
#include "cluster.h"
#include "file.h"
#include "fnode.h"
#include "upcall.h"
#include "wire/lock.h"
#include "wire/ntstatus.h"

/* How often a request blocked by a local process's lock looks again. */
#define SMBSRV_BRL_RETRY	(HZ / 10)
/*
 * How often one the store refused looks again (the other node's push,
 * which wakes it, normally comes first).
 */
#define SMBSRV_BRL_CLUSTER_RETRY	HZ

/* Another node's locks of the file, as it last pushed them. */
struct smbsrv_brl_rnode {
	struct list_head node;		/* smbsrv_brl_cluster.nodes */
	u64 version;
	size_t n;
	char name[SMB_CLUSTER_NODE_MAX + 1];
	u8 locks[];			/* n entries, wire/cluster.h */
};

struct smbsrv_brl_cluster {
	spinlock_t lock;		/* nodes, nr_locks */
	struct list_head nodes;		/* struct smbsrv_brl_rnode */
	unsigned int nr_locks;		/* over all nodes */
	struct work_struct wake;	/* waiters look again */
	struct smbsrv_brl_state *s;
};

struct smbsrv_brl {
	struct list_head node;		/* state->locks */
	struct smbsrv_file *owner;	/* its close removes the lock */
	u64 offset;
	u64 length;
	bool exclusive;
};

void smbsrv_brl_init(struct smbsrv_brl_state *s)
{
	mutex_init(&s->mutex);
	INIT_LIST_HEAD(&s->locks);
	INIT_LIST_HEAD(&s->waiters);
	s->nr_locks = 0;
}

static struct smbsrv_brl_state *brl_of(struct smbsrv_file *f)
{
	return &f->fnode->brl;
}

/* Whether other nodes hold locks of the file (cluster mode). */
static bool brl_remote_any(struct smbsrv_brl_state *s)
{
	struct smbsrv_brl_cluster *c = READ_ONCE(s->cluster);

	return c && READ_ONCE(c->nr_locks);
}

static bool brl_remote_conflict(struct smbsrv_brl_state *s, u64 offset,
				u64 length, bool exclusive, bool lock_intent)
{
	struct smbsrv_brl_cluster *c = READ_ONCE(s->cluster);
	struct smbsrv_brl_rnode *r;
	bool conflict = false;

	if (!c || !READ_ONCE(c->nr_locks))
		return false;
	spin_lock(&c->lock);
	list_for_each_entry(r, &c->nodes, node)
		if (smb_cluster_locks_conflict(r->locks, r->n, offset, length,
					       exclusive, lock_intent)) {
			conflict = true;
			break;
		}
	spin_unlock(&c->lock);
	return conflict;
}

static bool brl_conflict(struct smbsrv_brl_state *s, struct smbsrv_file *f,
			 u64 offset, u64 length, bool exclusive,
			 bool lock_intent)
{
	struct smbsrv_brl *l;

	list_for_each_entry(l, &s->locks, node)
		if (smb2_lock_conflicts(l->offset, l->length, l->exclusive,
					l->owner == f, offset, length,
					exclusive, lock_intent))
			return true;
	return smbsrv_cluster_on() &&
	       brl_remote_conflict(s, offset, length, exclusive, lock_intent);
}

/* ---- POSIX mirror ------------------------------------------------------- */

enum { BRL_NONE, BRL_READ, BRL_WRITE };

/* Last byte of a lock as a loff_t, clipped to what POSIX can express. */
static loff_t brl_posix_last(u64 offset, u64 length)
{
	u64 last = offset + length - 1;

	return last > OFFSET_MAX ? OFFSET_MAX : (loff_t)last;
}

/*
 * What @f's locks make byte @pos (read lock, write lock or none), and the
 * last byte up to @hi where that stays so.
 */
static int brl_posix_type(struct smbsrv_brl_state *s, struct smbsrv_file *f,
			  loff_t pos, loff_t hi, loff_t *end)
{
	struct smbsrv_brl *l;
	int type = BRL_NONE;
	loff_t first, last;

	*end = hi;
	list_for_each_entry(l, &s->locks, node) {
		if (l->owner != f || !l->length || l->offset > OFFSET_MAX)
			continue;
		first = (loff_t)l->offset;
		last = brl_posix_last(l->offset, l->length);
		if (first <= pos && pos <= last) {
			type = max(type, l->exclusive ? BRL_WRITE : BRL_READ);
			*end = min(*end, last);
		} else if (first > pos) {
			*end = min(*end, first - 1);
		}
	}
	return type;
}

static int brl_posix_set(struct file *filp, int type, loff_t start,
			 loff_t end)
{
	struct file_lock fl;
	int err;

	locks_init_lock(&fl);
	fl.c.flc_type = type == BRL_WRITE ? F_WRLCK :
			type == BRL_READ ? F_RDLCK : F_UNLCK;
	fl.c.flc_flags = FL_POSIX;
	fl.c.flc_owner = filp;
	fl.c.flc_pid = current->tgid;
	fl.c.flc_file = filp;
	fl.fl_start = start;
	fl.fl_end = end;
	err = vfs_lock_file(filp, F_SETLK, &fl, NULL);
	locks_release_private(&fl);
	return err;
}

/*
 * Make @f's POSIX locks over [@offset, @offset + @length) what its SMB
 * locks say, one range at a time (each F_SETLK replaces atomically).
 * Returns -EAGAIN when a local process holds a conflicting lock (the
 * ranges before it were already set); other errors mean the file system
 * has no POSIX locks of its own to offer and are not conflicts.
 */
static int brl_posix_sync(struct smbsrv_brl_state *s, struct smbsrv_file *f,
			  u64 offset, u64 length)
{
	loff_t pos, hi, end;
	int type, err;

	/* A symlink or a stream has no file data to lock. */
	if (!length || offset > OFFSET_MAX ||
	    (f->flags & (SMBSRV_FILE_REPARSE | SMBSRV_FILE_STREAM)))
		return 0;
	pos = (loff_t)offset;
	hi = brl_posix_last(offset, length);
	for (;;) {
		type = brl_posix_type(s, f, pos, hi, &end);
		err = brl_posix_set(f->filp, type, pos, end);
		if (err == -EAGAIN)
			return err;
		if (end >= hi)
			return 0;
		pos = end + 1;
	}
}

/* ---- what a session holds ---------------------------------------------- */

/* One more lock for @f; false (nothing counted) past the session's limit. */
static bool brl_charge(struct smbsrv_file *f, bool limited)
{
	struct smbsrv_session *sess = f->brl_sess;

	if (sess && atomic_inc_return(&sess->nr_locks) >
		    SMBSRV_BRL_MAX_PER_SESSION && limited) {
		atomic_dec(&sess->nr_locks);
		return false;
	}
	f->nr_brl++;
	return true;
}

static void brl_uncharge(struct smbsrv_file *f)
{
	f->nr_brl--;
	if (f->brl_sess)
		atomic_dec(&f->brl_sess->nr_locks);
}

void smbsrv_brl_account(struct smbsrv_file *f, struct smbsrv_session *sess)
{
	struct smbsrv_brl_state *s = brl_of(f);

	mutex_lock(&s->mutex);
	if (f->brl_sess)
		atomic_sub(f->nr_brl, &f->brl_sess->nr_locks);
	f->brl_sess = sess;
	if (sess)
		atomic_add(f->nr_brl, &sess->nr_locks);
	mutex_unlock(&s->mutex);
}

/* ---- the lock list ------------------------------------------------------ */

/*
 * Take a lock for @f if nothing conflicts.  Returns 0, -EBUSY (an SMB
 * lock conflicts), -EAGAIN (a local POSIX lock does), -ENOSPC (@limited,
 * and the session holds all it may) or -ENOMEM.
 */
static int brl_add(struct smbsrv_brl_state *s, struct smbsrv_file *f,
		   const struct smb2_lock_elem *e, bool exclusive,
		   bool limited)
{
	struct smbsrv_brl *l;

	if (brl_conflict(s, f, e->offset, e->length, exclusive, true))
		return -EBUSY;
	if (!brl_charge(f, limited))
		return -ENOSPC;
	l = kmalloc(sizeof(*l), GFP_KERNEL);
	if (!l) {
		brl_uncharge(f);
		return -ENOMEM;
	}
	l->owner = f;
	l->offset = e->offset;
	l->length = e->length;
	l->exclusive = exclusive;
	list_add_tail(&l->node, &s->locks);
	s->nr_locks++;
	if (brl_posix_sync(s, f, e->offset, e->length) == -EAGAIN) {
		list_del(&l->node);
		s->nr_locks--;
		brl_uncharge(f);
		brl_posix_sync(s, f, e->offset, e->length);
		kfree(l);
		return -EAGAIN;
	}
	return 0;
}

static void brl_remove(struct smbsrv_brl_state *s, struct smbsrv_brl *l)
{
	list_del(&l->node);
	s->nr_locks--;
	brl_uncharge(l->owner);
	/* Giving up or downgrading POSIX locks never conflicts. */
	brl_posix_sync(s, l->owner, l->offset, l->length);
	kfree(l);
}

/*
 * MS-FSA 2.1.5.9: the lock of @f with exactly this range, an exclusive
 * one before any shared one.
 */
static struct smbsrv_brl *brl_find(struct smbsrv_brl_state *s,
				   struct smbsrv_file *f, u64 offset,
				   u64 length)
{
	struct smbsrv_brl *l, *found = NULL;

	list_for_each_entry(l, &s->locks, node) {
		if (l->owner != f || l->offset != offset || l->length != length)
			continue;
		found = l;
		if (l->exclusive)
			break;
	}
	return found;
}

/* ---- cluster mode ------------------------------------------------------- */

static struct smbsrv_fnode *brl_fnode(struct smbsrv_brl_state *s)
{
	return container_of(s, struct smbsrv_fnode, brl);
}

/* Whether this file's locks are the cluster's business. */
static bool brl_clustered(struct smbsrv_brl_state *s)
{
	return smbsrv_cluster_on() && READ_ONCE(brl_fnode(s)->cview);
}

/*
 * Record this node's locks of the file in the store (@op lock: checked
 * against the other nodes' first), under the mutex.  STATUS_SUCCESS,
 * STATUS_LOCK_NOT_GRANTED (another node's lock conflicts: nothing
 * recorded), or STATUS_INSUFFICIENT_RESOURCES.
 */
static u32 brl_cluster_put(struct smbsrv_brl_state *s, u32 op)
{
	struct smbsrv_fnode *fn = brl_fnode(s);
	struct smbsrv_cluster_q q = {
		.op = op,
		.ino = fn->inode->i_ino,
		.stream = fn->stream,
	};
	struct smb_cluster_lock cl;
	struct smbsrv_brl *l;
	u32 status = STATUS_SUCCESS;
	size_t i = 0;
	u8 *buf;
	int err;

	if (s->nr_locks > SMB_CLUSTER_LOCKS_MAX)
		return STATUS_INSUFFICIENT_RESOURCES;
	buf = kmalloc_array(max(s->nr_locks, 1U), SMB_CLUSTER_LOCK_LEN,
			    GFP_KERNEL);
	if (!buf)
		return STATUS_INSUFFICIENT_RESOURCES;
	list_for_each_entry(l, &s->locks, node) {
		cl.offset = l->offset;
		cl.length = l->length;
		cl.exclusive = l->exclusive;
		smb_cluster_lock_encode(&cl, buf + i++ * SMB_CLUSTER_LOCK_LEN);
	}
	q.locks = buf;
	q.locks_len = i * SMB_CLUSTER_LOCK_LEN;
	err = smbsrv_upcall_cluster(&q, &status);
	kfree(buf);
	if (err) {
		pr_warn_ratelimited("smbsrv: cluster state store unreachable (%d)\n",
				    err);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	return status;
}

static void brl_wake(struct smbsrv_brl_state *s);

static void brl_cluster_wake_work(struct work_struct *work)
{
	brl_wake(container_of(work, struct smbsrv_brl_cluster, wake)->s);
}

static struct smbsrv_brl_cluster *brl_cluster_of(struct smbsrv_brl_state *s)
{
	struct smbsrv_brl_cluster *c = READ_ONCE(s->cluster), *old;

	if (c)
		return c;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	spin_lock_init(&c->lock);
	INIT_LIST_HEAD(&c->nodes);
	INIT_WORK(&c->wake, brl_cluster_wake_work);
	c->s = s;
	old = cmpxchg(&s->cluster, NULL, c);
	if (old) {
		kfree(c);
		return old;
	}
	return c;
}

int smbsrv_brl_remote(struct smbsrv_brl_state *s, const char *node,
		      u64 version, const void *locks, size_t n)
{
	struct smbsrv_brl_cluster *c = brl_cluster_of(s);
	struct smbsrv_brl_rnode *r, *o, *old = NULL;

	if (!c)
		return -ENOMEM;
	r = kmalloc(struct_size(r, locks, n * SMB_CLUSTER_LOCK_LEN),
		    GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	strscpy(r->name, node, sizeof(r->name));
	r->version = version;
	r->n = n;
	memcpy(r->locks, locks, n * SMB_CLUSTER_LOCK_LEN);
	spin_lock(&c->lock);
	list_for_each_entry(o, &c->nodes, node)
		if (!strcmp(o->name, r->name)) {
			old = o;
			break;
		}
	if (old && old->version > version) {
		/* Stale: a later push arrived first. */
		spin_unlock(&c->lock);
		kfree(r);
		return 0;
	}
	if (old) {
		list_replace(&old->node, &r->node);
		c->nr_locks -= old->n;
	} else {
		list_add_tail(&r->node, &c->nodes);
	}
	c->nr_locks += n;
	spin_unlock(&c->lock);
	kfree(old);
	schedule_work(&c->wake);
	return 0;
}

void smbsrv_brl_exit(struct smbsrv_brl_state *s)
{
	struct smbsrv_brl_cluster *c = s->cluster;
	struct smbsrv_brl_rnode *r, *tmp;

	if (!c)
		return;
	/* The last reference may go in the wake itself. */
	if (current_work() != &c->wake)
		cancel_work_sync(&c->wake);
	list_for_each_entry_safe(r, tmp, &c->nodes, node)
		kfree(r);
	kfree(c);
}

/* ---- waiting requests --------------------------------------------------- */

/*
 * Grant what the waiters can have now, in order; the granted ones move to
 * @granted, ready to answer.  Under the mutex.
 */
static void brl_grant(struct smbsrv_brl_state *s, struct list_head *granted)
{
	struct smbsrv_brl_waiter *w, *tmp;
	int err;

	list_for_each_entry_safe(w, tmp, &s->waiters, node) {
		err = brl_add(s, w->f, &w->e, w->exclusive, false);
		if (err == -EAGAIN)
			schedule_delayed_work(&w->retry, SMBSRV_BRL_RETRY);
		if (err)
			continue;
		/* Cluster mode: the store has the last word. */
		if (brl_clustered(s) &&
		    brl_cluster_put(s, SMBSRV_CLUSTER_OP_LOCK) !=
		    STATUS_SUCCESS) {
			brl_remove(s, list_last_entry(&s->locks,
						      struct smbsrv_brl, node));
			schedule_delayed_work(&w->retry,
					      SMBSRV_BRL_CLUSTER_RETRY);
			continue;
		}
		if (!w->ops->grant(w)) {
			/* Not now: the lock goes back, the request waits. */
			brl_remove(s, list_last_entry(&s->locks,
						      struct smbsrv_brl, node));
			if (brl_clustered(s))
				brl_cluster_put(s, SMBSRV_CLUSTER_OP_UNLOCK);
			continue;
		}
		w->waiting = false;
		list_move_tail(&w->node, granted);
	}
}

static void brl_complete(struct list_head *done, u32 status)
{
	struct smbsrv_brl_waiter *w, *tmp;

	/* The request (and @w with it) may be gone once completed. */
	list_for_each_entry_safe(w, tmp, done, node) {
		list_del_init(&w->node);
		w->ops->done(w, status);
	}
}

/* Grant what can be granted on @s now. */
static void brl_wake(struct smbsrv_brl_state *s)
{
	LIST_HEAD(granted);

	mutex_lock(&s->mutex);
	brl_grant(s, &granted);
	mutex_unlock(&s->mutex);
	brl_complete(&granted, STATUS_SUCCESS);
}

static void brl_retry_work(struct work_struct *work)
{
	struct smbsrv_brl_waiter *w =
		container_of(to_delayed_work(work), struct smbsrv_brl_waiter,
			     retry);

	/* May complete (and free) @w itself: nothing touches it after. */
	brl_wake(brl_of(w->f));
}

void smbsrv_brl_waiter_init(struct smbsrv_brl_waiter *w,
			    struct smbsrv_file *f,
			    const struct smb2_lock_elem *e, bool exclusive,
			    const struct smbsrv_brl_waiter_ops *ops)
{
	INIT_LIST_HEAD(&w->node);
	w->f = f;
	w->e = *e;
	w->exclusive = exclusive;
	w->waiting = false;
	w->ops = ops;
	INIT_DELAYED_WORK(&w->retry, brl_retry_work);
}

bool smbsrv_brl_wait_cancel(struct smbsrv_brl_waiter *w)
{
	struct smbsrv_brl_state *s = brl_of(w->f);
	bool mine;

	mutex_lock(&s->mutex);
	mine = w->waiting;
	if (mine) {
		w->waiting = false;
		list_del_init(&w->node);
	}
	mutex_unlock(&s->mutex);
	return mine;
}

void smbsrv_brl_waiter_release(struct smbsrv_brl_waiter *w)
{
	/* A retry that completed its own request is still running here. */
	if (current_work() != &w->retry.work)
		cancel_delayed_work_sync(&w->retry);
}

/* ---- requests ----------------------------------------------------------- */

/*
 * 3.3.5.14.1: unlocks in order; the first failure ends the request and
 * what was unlocked before stays unlocked.
 */
u32 smbsrv_brl_unlock(struct smbsrv_file *f, const struct smb2_lock_req *r)
{
	struct smbsrv_brl_state *s = brl_of(f);
	u32 status = STATUS_SUCCESS;
	struct smb2_lock_elem e;
	struct smbsrv_brl *l;
	LIST_HEAD(granted);
	bool changed = false;
	u16 i;

	mutex_lock(&s->mutex);
	for (i = 0; i < r->count; i++) {
		smb2_lock_req_elem(r, i, &e);
		if (smb2_lock_kind(e.flags) != SMB2_LOCK_KIND_UNLOCK) {
			status = STATUS_INVALID_PARAMETER;
			break;
		}
		if (!smb2_lock_range_valid(e.offset, e.length)) {
			status = STATUS_INVALID_LOCK_RANGE;
			break;
		}
		l = brl_find(s, f, e.offset, e.length);
		if (!l) {
			status = STATUS_RANGE_NOT_LOCKED;
			break;
		}
		brl_remove(s, l);
		changed = true;
	}
	/* The store and the other nodes learn it before the answer. */
	if (changed && brl_clustered(s))
		brl_cluster_put(s, SMBSRV_CLUSTER_OP_UNLOCK);
	if (changed)
		brl_grant(s, &granted);
	mutex_unlock(&s->mutex);
	brl_complete(&granted, STATUS_SUCCESS);
	return status;
}

/*
 * Cluster mode, under the mutex: record the locks of @r @f just took
 * (the last of the list) in the store.  When another node's lock that
 * this node did not know yet conflicts, they go again, and a single lock
 * that may wait waits (its holder's push, or the retry, wakes it).
 */
static u32 brl_cluster_lock(struct smbsrv_brl_state *s, struct smbsrv_file *f,
			    const struct smb2_lock_req *r,
			    const struct smb2_lock_elem *e,
			    smbsrv_brl_wait_fn wait, void *arg)
{
	struct smbsrv_brl_waiter *w = NULL;
	u16 added = r->count;
	u32 status;

	status = brl_cluster_put(s, SMBSRV_CLUSTER_OP_LOCK);
	if (status == STATUS_SUCCESS)
		return status;
	while (added--)
		brl_remove(s, list_last_entry(&s->locks, struct smbsrv_brl,
					      node));
	if (status != STATUS_LOCK_NOT_GRANTED || r->count != 1 ||
	    (e->flags & SMB2_LOCKFLAG_FAIL_IMMEDIATELY))
		return status;
	status = wait(arg, f, e,
		      smb2_lock_kind(e->flags) == SMB2_LOCK_KIND_EXCLUSIVE, &w);
	if (status == STATUS_PENDING) {
		w->waiting = true;
		list_add_tail(&w->node, &s->waiters);
		schedule_delayed_work(&w->retry, SMBSRV_BRL_CLUSTER_RETRY);
	}
	return status;
}

/*
 * 3.3.5.14.2: all the locks or none.  Several locks must all fail
 * immediately; a single one that may wait goes async when it conflicts.
 */
u32 smbsrv_brl_lock(struct smbsrv_file *f, const struct smb2_lock_req *r,
		    smbsrv_brl_wait_fn wait, void *arg)
{
	struct smbsrv_brl_state *s = brl_of(f);
	struct smbsrv_brl_waiter *w = NULL;
	u32 status = STATUS_SUCCESS;
	struct smb2_lock_elem e;
	enum smb2_lock_kind kind;
	u16 i, added = 0;
	int err;

	if (r->count > 1) {
		for (i = 0; i < r->count; i++) {
			smb2_lock_req_elem(r, i, &e);
			if (!(e.flags & SMB2_LOCKFLAG_FAIL_IMMEDIATELY))
				return STATUS_INVALID_PARAMETER;
		}
	}
	mutex_lock(&s->mutex);
	/*
	 * A CLOSE marks the open gone before its brl_close() takes the
	 * mutex: seen here, or that close removes what this request adds.
	 */
	if (READ_ONCE(f->open.gone))
		status = STATUS_FILE_CLOSED;
	for (i = 0; !status && i < r->count; i++) {
		smb2_lock_req_elem(r, i, &e);
		kind = smb2_lock_kind(e.flags);
		if (kind != SMB2_LOCK_KIND_SHARED &&
		    kind != SMB2_LOCK_KIND_EXCLUSIVE) {
			status = STATUS_INVALID_PARAMETER;
			break;
		}
		if (!smb2_lock_range_valid(e.offset, e.length)) {
			status = STATUS_INVALID_LOCK_RANGE;
			break;
		}
		err = brl_add(s, f, &e, kind == SMB2_LOCK_KIND_EXCLUSIVE,
			      true);
		if (!err) {
			added++;
			continue;
		}
		if (err == -ENOMEM || err == -ENOSPC)
			status = STATUS_INSUFFICIENT_RESOURCES;
		else if (e.flags & SMB2_LOCKFLAG_FAIL_IMMEDIATELY)
			status = STATUS_LOCK_NOT_GRANTED;
		else
			status = wait(arg, f, &e,
				      kind == SMB2_LOCK_KIND_EXCLUSIVE, &w);
		if (status == STATUS_PENDING) {
			w->waiting = true;
			list_add_tail(&w->node, &s->waiters);
			if (err == -EAGAIN)
				schedule_delayed_work(&w->retry,
						      SMBSRV_BRL_RETRY);
		}
		break;
	}
	/* A failed request leaves none of its locks (they are the last). */
	if (status != STATUS_SUCCESS && status != STATUS_PENDING)
		while (added--)
			brl_remove(s, list_last_entry(&s->locks,
						      struct smbsrv_brl, node));
	/* Cluster mode: what this node's view allowed, the store decides. */
	if (status == STATUS_SUCCESS && added && brl_clustered(s))
		status = brl_cluster_lock(s, f, r, &e, wait, arg);
	mutex_unlock(&s->mutex);
	return status;
}

u32 smbsrv_brl_check_io(struct smbsrv_file *f, u64 offset, u64 len,
			bool write)
{
	struct smbsrv_brl_state *s = brl_of(f);
	bool conflict;

	if (!len || (!READ_ONCE(s->nr_locks) &&
		     !(smbsrv_cluster_on() && brl_remote_any(s))))
		return STATUS_SUCCESS;
	mutex_lock(&s->mutex);
	conflict = brl_conflict(s, f, offset, len, write, false);
	mutex_unlock(&s->mutex);
	return conflict ? STATUS_FILE_LOCK_CONFLICT : STATUS_SUCCESS;
}

void smbsrv_brl_close(struct smbsrv_file *f)
{
	struct smbsrv_brl_state *s = brl_of(f);
	struct smbsrv_brl_waiter *w, *wtmp;
	struct smbsrv_brl *l, *ltmp;
	LIST_HEAD(granted);
	LIST_HEAD(mine);
	bool changed = false;

	mutex_lock(&s->mutex);
	list_for_each_entry_safe(l, ltmp, &s->locks, node) {
		if (l->owner != f)
			continue;
		list_del(&l->node);
		s->nr_locks--;
		brl_uncharge(f);
		kfree(l);
		changed = true;
	}
	/* Its POSIX locks go before anyone else may take the ranges. */
	if (changed && !(f->flags & (SMBSRV_FILE_REPARSE | SMBSRV_FILE_STREAM)))
		locks_remove_posix(f->filp, f->filp);
	if (changed && brl_clustered(s))
		brl_cluster_put(s, SMBSRV_CLUSTER_OP_UNLOCK);
	list_for_each_entry_safe(w, wtmp, &s->waiters, node) {
		if (w->f != f)
			continue;
		w->waiting = false;
		list_move_tail(&w->node, &mine);
	}
	if (changed)
		brl_grant(s, &granted);
	mutex_unlock(&s->mutex);
	/* Windows answers a lock whose handle closed under it so. */
	brl_complete(&mine, STATUS_RANGE_NOT_LOCKED);
	brl_complete(&granted, STATUS_SUCCESS);
}
