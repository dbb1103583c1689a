// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: changes made on the server itself break SMB caching (see
 * klease.h and Documentation/design.md, "Client caching").
 *
 * Locks, outermost first: an fnode's cache.kmutex (its kernel lease and
 * directory mark), then the fnode's spinlock (taken by the want op), and
 * smbsrv_dir_actors_lock, only ever taken alone.  The kernel's lease code
 * calls lm_break under its own spinlock: that runs nothing here but
 * queueing the fnode's kwork.
 */
#include <linux/file.h>
#include <linux/filelock.h>
#include <linux/fs.h>
#include <linux/fsnotify_backend.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "cache.h"
#include "fnode.h"
#include "klease.h"
#include "sched.h"

static const struct smbsrv_klease_ops *smbsrv_klease_ops_up;

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
	u8 guid[16], key[16];
	bool spare;

	if (!(mask & SMBSRV_DIRLEASE_EVENTS))
		return 0;
	spare = smbsrv_dir_actor_find(guid, key);
	smbsrv_klease_ops_up->dir_changed(fn, guid, spare ? key : NULL);
	return 0;
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
	want = smbsrv_klease_ops_up->want(fn);
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

/* Also the inode busy (klease.h). */
int smbsrv_klease_raise(struct smbsrv_fnode *fn, const struct path *path,
			int type)
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

void smbsrv_klease_sync(struct smbsrv_fnode *fn)
{
	int want, err;

	if (READ_ONCE(fn->cache.dmark)) {
		smbsrv_dirmark_sync(fn);
		return;
	}
	if (!READ_ONCE(fn->cache.kfile))
		return;
	mutex_lock(&fn->cache.kmutex);
	want = smbsrv_klease_ops_up->want(fn);
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

	smbsrv_klease_ops_up->local_break(fn, READ_ONCE(fn->cache.klocal) == 2);
	/* What needed no answer (level II, R) is lowered already. */
	smbsrv_klease_sync(fn);
	smbsrv_fnode_put(fn);
}

void smbsrv_klease_fnode_init(struct smbsrv_fnode_cache *c)
{
	mutex_init(&c->kmutex);
	c->ktype = F_UNLCK;
	INIT_WORK(&c->kwork, smbsrv_klease_work);
}

void smbsrv_klease_fnode_exit(struct smbsrv_fnode_cache *c)
{
	WARN_ON_ONCE(c->kfile || c->dmark);
}

int smbsrv_klease_init(const struct smbsrv_klease_ops *ops)
{
	smbsrv_klease_ops_up = ops;
	smbsrv_dirlease_group = fsnotify_alloc_group(&smbsrv_dirlease_ops, 0);
	return PTR_ERR_OR_ZERO(smbsrv_dirlease_group);
}

void smbsrv_klease_exit(void)
{
	/* No directory lease is left: its marks are on their way out. */
	fsnotify_wait_marks_destroyed();
	fsnotify_put_group(smbsrv_dirlease_group);
}
