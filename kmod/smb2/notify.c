// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: CHANGE_NOTIFY (MS-SMB2 3.3.5.19) over fsnotify.
 *
 * The first CHANGE_NOTIFY on a directory open makes a watch; from then on
 * every change under the directory (its subtree with SMB2_WATCH_TREE)
 * that the completion filter asks for is buffered in the watch, so that
 * nothing is lost between requests.  A request finds the buffer filled
 * and completes at once, or goes async (STATUS_PENDING) until something
 * arrives, a CANCEL (STATUS_CANCELLED) or the close of its handle
 * (STATUS_NOTIFY_CLEANUP).  When the buffered records do not fit the
 * request's OutputBufferLength, or outgrow what the watch buffers (the
 * first request's OutputBufferLength), the answer is
 * STATUS_NOTIFY_ENUM_DIR: enumerate again.
 *
 * One fsnotify group serves the module.  Watches hang off one superblock
 * mark per file system (FS_EVENT_ON_CHILD, so changes to files come with
 * their parent and name), which can report a whole subtree without a
 * mark on every directory in it; a watch keeps the changes whose parent
 * is its directory, or lies beneath it for a tree watch, naming them by
 * their path relative to the watched directory.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fsnotify_backend.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "../conn.h"
#include "../file.h"
#include "../wire/fscc.h"
#include "../wire/notify.h"
#include "notify.h"
#include "smb2.h"

#define SMBSRV_NOTIFY_EVENTS	(FS_CREATE | FS_DELETE | FS_MOVED_FROM | \
				 FS_MOVED_TO | FS_MODIFY | FS_ATTRIB)

/* One per file system with watches: its superblock mark. */
struct smbsrv_notify_sb {
	struct fsnotify_mark mark;	/* first: container_of */
	struct super_block *sb;
	struct list_head watches;	/* RCU; written under smbsrv_notify_mutex */
	struct list_head node;		/* smbsrv_notify_sbs */
	/*
	 * The inode the last event on this file system created (compared,
	 * never dereferenced): the attribute changes that make it what it
	 * is (DOS attributes, times) follow at once and are not reported,
	 * as Windows reports a new file only as added; until another
	 * event comes or the CREATE is done (smbsrv_notify_created_done()).
	 */
	struct inode *created;
};

struct smbsrv_watch {
	refcount_t ref;			/* the open's, and one per waiter */
	struct smbsrv_notify_sb *nsb;
	struct list_head sb_node;	/* nsb->watches */
	struct dentry *dentry;		/* the watched directory */
	struct inode *inode;

	spinlock_t lock;		/* the fields below */
	u32 filter;
	bool tree;
	bool closed;
	bool overflow;			/* STATUS_NOTIFY_ENUM_DIR next */
	u32 cap;			/* most bytes buffered: the first request's */
	u32 bytes;			/* buffered, as records */
	struct list_head events;	/* struct smbsrv_notify_ev */

	struct mutex wmutex;		/* waiters */
	struct list_head waiters;	/* struct smbsrv_notify_wait, FIFO */
	struct work_struct work;	/* hands buffered changes to waiters */
	struct rcu_head rcu;
};

struct smbsrv_notify_ev {
	struct list_head node;
	u32 action;
	u32 len;
	char name[];			/* relative path, '/'-separated */
};

struct smbsrv_notify_wait {
	struct list_head node;		/* w->waiters */
	struct smbsrv_req *req;
	struct smbsrv_watch *w;		/* referenced */
	u32 out_len;			/* OutputBufferLength */
	bool waiting;			/* on w->waiters: under w->wmutex */
};

static struct fsnotify_group *smbsrv_notify_group;
static DEFINE_MUTEX(smbsrv_notify_mutex);	/* sbs, watches lists */
static LIST_HEAD(smbsrv_notify_sbs);

static void smbsrv_watch_free_rcu(struct rcu_head *rcu)
{
	kfree(container_of(rcu, struct smbsrv_watch, rcu));
}

static void smbsrv_watch_put(struct smbsrv_watch *w)
{
	if (refcount_dec_and_test(&w->ref))
		call_rcu(&w->rcu, smbsrv_watch_free_rcu);
}

static void smbsrv_notify_free_events(struct list_head *events)
{
	struct smbsrv_notify_ev *ev, *tmp;

	list_for_each_entry_safe(ev, tmp, events, node)
		kfree(ev);
	INIT_LIST_HEAD(events);
}

/* ---- events ------------------------------------------------------------- */

/*
 * The path of @name in @dir relative to @w's directory into @buf (@cap
 * bytes); -ENOENT when the change is not @w's.
 */
static int smbsrv_notify_relpath(struct smbsrv_watch *w, struct dentry *dir,
				 const struct qstr *name, char *buf, u32 cap)
{
	char *root, *p;
	u32 rlen, plen;

	if (name->len + 1 > cap / 2)
		return -ENOENT;
	if (d_inode(dir) == w->inode) {
		memcpy(buf, name->name, name->len);
		return name->len;
	}
	if (!w->tree)
		return -ENOENT;
	/* Both paths from the file system's root, then the difference. */
	root = dentry_path_raw(w->dentry, buf + cap / 2, cap / 2);
	if (IS_ERR(root))
		return -ENOENT;
	rlen = strlen(root);
	if (rlen == 1)		/* "/": the file system's root */
		rlen = 0;
	p = dentry_path_raw(dir, buf, cap / 2);
	if (IS_ERR(p))
		return -ENOENT;
	plen = strlen(p);
	if (plen <= rlen + 1 || memcmp(p, root, rlen) || p[rlen] != '/')
		return -ENOENT;
	plen -= rlen + 1;
	memmove(buf, p + rlen + 1, plen);
	if (plen + 1 + name->len > cap / 2)
		return -ENOENT;
	buf[plen++] = '/';
	memcpy(buf + plen, name->name, name->len);
	return plen + name->len;
}

/* Which filter bits an event needs, and the action it reports. */
static u32 smbsrv_notify_map(u32 mask, u32 *action)
{
	u32 names = (mask & FS_ISDIR) ? FILE_NOTIFY_CHANGE_DIR_NAME :
					FILE_NOTIFY_CHANGE_FILE_NAME;

	if (mask & FS_CREATE) {
		*action = FILE_ACTION_ADDED;
		return names;
	}
	if (mask & FS_DELETE) {
		*action = FILE_ACTION_REMOVED;
		return names;
	}
	if (mask & FS_MOVED_FROM) {
		*action = FILE_ACTION_RENAMED_OLD_NAME;
		return names;
	}
	if (mask & FS_MOVED_TO) {
		*action = FILE_ACTION_RENAMED_NEW_NAME;
		return names;
	}
	*action = FILE_ACTION_MODIFIED;
	if (mask & FS_MODIFY)
		return FILE_NOTIFY_CHANGE_SIZE | FILE_NOTIFY_CHANGE_LAST_WRITE;
	/* chmod, chown, times, xattrs (DOS attributes, EAs, ACLs). */
	return FILE_NOTIFY_CHANGE_ATTRIBUTES | FILE_NOTIFY_CHANGE_LAST_WRITE |
	       FILE_NOTIFY_CHANGE_LAST_ACCESS | FILE_NOTIFY_CHANGE_CREATION |
	       FILE_NOTIFY_CHANGE_EA | FILE_NOTIFY_CHANGE_SECURITY;
}

/*
 * Buffer a change for @w; in the RCU read section over the watches, so
 * the allocation may not sleep (DEBUG_ATOMIC_SLEEP on the debug kernel):
 * when it fails the watch overflows and the client enumerates instead.
 */
static void smbsrv_notify_add(struct smbsrv_watch *w, u32 action,
			      const char *name, u32 len)
{
	u32 size = smb_notify_info_size(2 * len);
	struct smbsrv_notify_ev *ev, *last;
	LIST_HEAD(dropped);

	ev = kmalloc(struct_size(ev, name, len), GFP_NOWAIT | __GFP_NOWARN);
	spin_lock(&w->lock);
	if (w->closed) {
		spin_unlock(&w->lock);
		kfree(ev);
		return;
	}
	last = list_empty(&w->events) ? NULL :
	       list_last_entry(&w->events, struct smbsrv_notify_ev, node);
	if (last && last->action == action && last->len == len &&
	    !memcmp(last->name, name, len)) {
		/* The same again (a write after a write): said once. */
		spin_unlock(&w->lock);
		kfree(ev);
		return;
	}
	if (!ev || w->overflow || w->bytes + size > w->cap) {
		/* Too much: the client enumerates instead. */
		w->overflow = true;
		w->bytes = 0;
		list_splice_init(&w->events, &dropped);
		spin_unlock(&w->lock);
		kfree(ev);
		smbsrv_notify_free_events(&dropped);
	} else {
		ev->action = action;
		ev->len = len;
		memcpy(ev->name, name, len);
		list_add_tail(&ev->node, &w->events);
		w->bytes += size;
		spin_unlock(&w->lock);
	}
	queue_work(system_wq, &w->work);
}

static int smbsrv_notify_handle(struct fsnotify_group *group, u32 mask,
				const void *data, int data_type,
				struct inode *dir, const struct qstr *file_name,
				u32 cookie, struct fsnotify_iter_info *iter)
{
	struct fsnotify_mark *mark = fsnotify_iter_sb_mark(iter);
	struct dentry *dentry = NULL, *ddir;
	struct smbsrv_notify_sb *nsb;
	struct smbsrv_watch *w;
	struct inode *inode;
	struct qstr name;
	u32 need, action;
	char *buf;
	int len;

	if (!mark || !(mask & SMBSRV_NOTIFY_EVENTS))
		return 0;
	nsb = container_of(mark, struct smbsrv_notify_sb, mark);
	inode = fsnotify_data_inode(data, data_type);
	if (inode && (mask & FS_ATTRIB) && READ_ONCE(nsb->created) == inode)
		return 0;
	WRITE_ONCE(nsb->created, (mask & FS_CREATE) ? inode : NULL);
	need = smbsrv_notify_map(mask, &action);

	/* The parent directory and the name the change is reported by. */
	if (dir && file_name) {
		ddir = d_find_any_alias(dir);
		name = *file_name;
	} else {
		/* A directory's own change: its parent and its name. */
		dentry = fsnotify_data_dentry(data, data_type);
		if (!dentry || IS_ROOT(dentry))
			return 0;
		dentry = dget(dentry);
		ddir = dget_parent(dentry);
		name = dentry->d_name;
	}
	if (!ddir) {
		dput(dentry);
		return 0;
	}
	buf = kmalloc(2 * PATH_MAX, GFP_NOFS);
	if (!buf)
		goto out;
	rcu_read_lock();
	list_for_each_entry_rcu(w, &nsb->watches, sb_node) {
		if (!(READ_ONCE(w->filter) & need))
			continue;
		len = smbsrv_notify_relpath(w, ddir, &name, buf, 2 * PATH_MAX);
		if (len > 0)
			smbsrv_notify_add(w, action, buf, len);
	}
	rcu_read_unlock();
	kfree(buf);
out:
	dput(ddir);
	dput(dentry);
	return 0;
}

static void smbsrv_notify_free_mark(struct fsnotify_mark *mark)
{
	kfree(container_of(mark, struct smbsrv_notify_sb, mark));
}

static const struct fsnotify_ops smbsrv_notify_ops = {
	.handle_event = smbsrv_notify_handle,
	.free_mark = smbsrv_notify_free_mark,
};

/* ---- answers ------------------------------------------------------------ */

/*
 * Build @req's response from @events (consumed), or STATUS_NOTIFY_ENUM_DIR
 * when they overflowed or do not fit @out_len.
 */
static u32 smbsrv_notify_fill(struct smbsrv_req *req, struct list_head *events,
			      bool overflow, u32 out_len)
{
	struct smbsrv_notify_ev *ev;
	u32 pos = 0, last = 0;
	u8 *buf = NULL, *body;
	u32 status = STATUS_SUCCESS;

	if (overflow || !out_len)
		status = STATUS_NOTIFY_ENUM_DIR;
	if (!status) {
		buf = kvmalloc(out_len, GFP_KERNEL);
		if (!buf)
			status = STATUS_NOTIFY_ENUM_DIR;
	}
	list_for_each_entry(ev, events, node) {
		if (status)
			break;
		if (smb_notify_info_append(buf, out_len, &pos, &last,
					   ev->action, ev->name, ev->len) ==
		    -ENOSPC)
			status = STATUS_NOTIFY_ENUM_DIR;
	}
	smbsrv_notify_free_events(events);
	if (!status) {
		body = smbsrv_rsp_body(req, SMB2_NOTIFY_RSP_FIXED +
					    max(pos, 1u));
		if (body) {
			memcpy(body + SMB2_NOTIFY_RSP_FIXED, buf, pos);
			smb2_notify_rsp_encode(body, pos);
		} else {
			status = STATUS_INSUFFICIENT_RESOURCES;
		}
	}
	kvfree(buf);
	return status;
}

/* Take what @w buffered; false when nothing. */
static bool smbsrv_notify_take(struct smbsrv_watch *w, struct list_head *out,
			       bool *overflow)
{
	bool any;

	spin_lock(&w->lock);
	*overflow = w->overflow;
	any = w->overflow || !list_empty(&w->events);
	list_splice_init(&w->events, out);
	w->overflow = false;
	w->bytes = 0;
	spin_unlock(&w->lock);
	return any;
}

/* Hand buffered changes to the waiters, one request at a time. */
static void smbsrv_notify_work(struct work_struct *work)
{
	struct smbsrv_watch *w = container_of(work, struct smbsrv_watch, work);
	struct smbsrv_notify_wait *wt;
	LIST_HEAD(events);
	bool overflow;
	u32 status;

	for (;;) {
		mutex_lock(&w->wmutex);
		wt = list_first_entry_or_null(&w->waiters,
					      struct smbsrv_notify_wait, node);
		if (!wt || !smbsrv_notify_take(w, &events, &overflow)) {
			mutex_unlock(&w->wmutex);
			return;
		}
		list_del_init(&wt->node);
		wt->waiting = false;
		mutex_unlock(&w->wmutex);
		status = smbsrv_notify_fill(wt->req, &events, overflow,
					    wt->out_len);
		/* The request (and @wt with it) may be gone once completed. */
		smbsrv_req_complete(wt->req, status);
	}
}

static void smbsrv_notify_cancel(struct smbsrv_req *req)
{
	struct smbsrv_notify_wait *wt = req->priv;
	struct smbsrv_watch *w = wt->w;
	bool mine;

	mutex_lock(&w->wmutex);
	mine = wt->waiting;
	if (mine) {
		wt->waiting = false;
		list_del_init(&wt->node);
	}
	mutex_unlock(&w->wmutex);
	if (mine)
		smbsrv_req_complete(req, STATUS_CANCELLED);
}

static void smbsrv_notify_wait_free(struct smbsrv_req *req)
{
	struct smbsrv_notify_wait *wt = req->priv;

	smbsrv_watch_put(wt->w);
	kfree(wt);
}

/* ---- watches ------------------------------------------------------------ */

/* The superblock mark of @sb, made when missing; under smbsrv_notify_mutex. */
static struct smbsrv_notify_sb *smbsrv_notify_sb_get(struct super_block *sb)
{
	struct smbsrv_notify_sb *nsb;
	int err;

	list_for_each_entry(nsb, &smbsrv_notify_sbs, node)
		if (nsb->sb == sb)
			return nsb;
	nsb = kzalloc(sizeof(*nsb), GFP_KERNEL);
	if (!nsb)
		return ERR_PTR(-ENOMEM);
	nsb->sb = sb;
	INIT_LIST_HEAD(&nsb->watches);
	fsnotify_init_mark(&nsb->mark, smbsrv_notify_group);
	nsb->mark.mask = SMBSRV_NOTIFY_EVENTS | FS_EVENT_ON_CHILD;
	err = fsnotify_add_mark(&nsb->mark, sb, FSNOTIFY_OBJ_TYPE_SB, 0);
	if (err) {
		fsnotify_put_mark(&nsb->mark);
		return ERR_PTR(err);
	}
	list_add(&nsb->node, &smbsrv_notify_sbs);
	return nsb;
}

/* Drop @nsb when its last watch went; under smbsrv_notify_mutex. */
static void smbsrv_notify_sb_put(struct smbsrv_notify_sb *nsb)
{
	if (!list_empty(&nsb->watches))
		return;
	list_del(&nsb->node);
	fsnotify_destroy_mark(&nsb->mark, smbsrv_notify_group);
	fsnotify_put_mark(&nsb->mark);
}

/*
 * @f's watch, made on its first CHANGE_NOTIFY, whose OutputBufferLength
 * is what the watch buffers from then on (as Windows does: a handle whose
 * first request could hold nothing always answers STATUS_NOTIFY_ENUM_DIR).
 */
static struct smbsrv_watch *smbsrv_notify_watch(struct smbsrv_file *f,
						u32 cap)
{
	struct dentry *dentry = f->filp->f_path.dentry;
	struct smbsrv_notify_sb *nsb;
	struct smbsrv_watch *w;

	mutex_lock(&smbsrv_notify_mutex);
	w = f->watch;
	if (w)
		goto out;
	if (READ_ONCE(f->open.gone)) {
		w = ERR_PTR(-ENOENT);
		goto out;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w) {
		w = ERR_PTR(-ENOMEM);
		goto out;
	}
	nsb = smbsrv_notify_sb_get(dentry->d_sb);
	if (IS_ERR(nsb)) {
		kfree(w);
		w = ERR_CAST(nsb);
		goto out;
	}
	refcount_set(&w->ref, 1);
	w->nsb = nsb;
	w->dentry = dget(dentry);
	w->inode = d_inode(dentry);
	spin_lock_init(&w->lock);
	INIT_LIST_HEAD(&w->events);
	mutex_init(&w->wmutex);
	INIT_LIST_HEAD(&w->waiters);
	INIT_WORK(&w->work, smbsrv_notify_work);
	w->cap = cap;
	list_add_rcu(&w->sb_node, &nsb->watches);
	f->watch = w;
out:
	mutex_unlock(&smbsrv_notify_mutex);
	return w;
}

void smbsrv_notify_close(struct smbsrv_file *f)
{
	struct smbsrv_notify_wait *wt, *tmp;
	struct smbsrv_watch *w;
	LIST_HEAD(done);

	/* Only directories are watched (f->watch is set under the mutex). */
	if (!smbsrv_file_is_dir(f))
		return;
	mutex_lock(&smbsrv_notify_mutex);
	w = f->watch;
	f->watch = NULL;
	if (w) {
		list_del_rcu(&w->sb_node);
		smbsrv_notify_sb_put(w->nsb);
	}
	mutex_unlock(&smbsrv_notify_mutex);
	if (!w)
		return;

	spin_lock(&w->lock);
	w->closed = true;
	spin_unlock(&w->lock);
	cancel_work_sync(&w->work);
	smbsrv_notify_free_events(&w->events);

	mutex_lock(&w->wmutex);
	list_for_each_entry_safe(wt, tmp, &w->waiters, node) {
		wt->waiting = false;
		list_move_tail(&wt->node, &done);
	}
	mutex_unlock(&w->wmutex);
	list_for_each_entry_safe(wt, tmp, &done, node) {
		list_del_init(&wt->node);
		smbsrv_req_complete(wt->req, STATUS_NOTIFY_CLEANUP);
	}
	dput(w->dentry);
	smbsrv_watch_put(w);
}

/* ---- CHANGE_NOTIFY ------------------------------------------------------ */

static u32 smbsrv_notify_request(struct smbsrv_req *req, struct smbsrv_file *f,
				 const struct smb2_notify_req *r)
{
	struct smbsrv_notify_wait *wt;
	struct smbsrv_watch *w;
	LIST_HEAD(events);
	bool overflow;
	int err;

	w = smbsrv_notify_watch(f, r->output_length);
	if (IS_ERR(w))
		return PTR_ERR(w) == -ENOENT ? STATUS_FILE_CLOSED :
					       STATUS_INSUFFICIENT_RESOURCES;
	spin_lock(&w->lock);
	WRITE_ONCE(w->filter, r->filter);
	w->tree = r->flags & SMB2_WATCH_TREE;
	spin_unlock(&w->lock);

	mutex_lock(&w->wmutex);
	/* Changes already buffered answer at once (when nobody waits). */
	if (list_empty(&w->waiters) &&
	    smbsrv_notify_take(w, &events, &overflow)) {
		mutex_unlock(&w->wmutex);
		return smbsrv_notify_fill(req, &events, overflow,
					  r->output_length);
	}
	if (!smbsrv_req_can_async(req)) {
		/*
		 * Inside a compound nothing can wait: Windows fails such a
		 * request with STATUS_INTERNAL_ERROR, the rest of the chain
		 * goes on (MS-SMB2 <162>; smbtorture compound.interim2).
		 */
		mutex_unlock(&w->wmutex);
		return STATUS_INTERNAL_ERROR;
	}
	wt = kzalloc(sizeof(*wt), GFP_KERNEL);
	if (!wt) {
		mutex_unlock(&w->wmutex);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	refcount_inc(&w->ref);
	wt->req = req;
	wt->w = w;
	wt->out_len = r->output_length;
	err = smbsrv_req_go_async(req, smbsrv_notify_cancel, wt,
				  smbsrv_notify_wait_free);
	if (err) {
		mutex_unlock(&w->wmutex);
		smbsrv_watch_put(w);
		kfree(wt);
		return smbsrv_req_async_status(err);
	}
	wt->waiting = true;
	list_add_tail(&wt->node, &w->waiters);
	mutex_unlock(&w->wmutex);
	/* A change that came in meanwhile is handed over now. */
	spin_lock(&w->lock);
	if (!w->closed)
		queue_work(system_wq, &w->work);
	spin_unlock(&w->lock);
	return STATUS_PENDING;
}

u32 smbsrv_smb2_change_notify(struct smbsrv_req *req)
{
	struct smb2_notify_req r;
	struct smbsrv_file *f;
	u32 status;

	status = smb2_notify_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	status = smbsrv_req_check_charge(req);
	if (status)
		return status;
	if (r.output_length > req->conn->max_trans)
		return STATUS_INVALID_PARAMETER;
	f = smbsrv_req_file(req, r.file_id);
	if (!f)
		return STATUS_FILE_CLOSED;
	if (!smbsrv_file_is_dir(f) || !r.filter)
		status = STATUS_INVALID_PARAMETER;
	else if (!(f->access & FILE_READ_DATA))
		status = STATUS_ACCESS_DENIED;
	else
		status = smbsrv_notify_request(req, f, &r);
	smbsrv_file_put(f);
	return status;
}

void smbsrv_notify_created_done(struct inode *inode)
{
	struct smbsrv_notify_sb *nsb;

	mutex_lock(&smbsrv_notify_mutex);
	list_for_each_entry(nsb, &smbsrv_notify_sbs, node) {
		if (nsb->sb == inode->i_sb)
			cmpxchg(&nsb->created, inode, NULL);
	}
	mutex_unlock(&smbsrv_notify_mutex);
}

void smbsrv_notify_delete_pending(struct inode *inode)
{
	struct smbsrv_notify_wait *wt, *tmp;
	struct smbsrv_notify_sb *nsb;
	struct smbsrv_watch *w;
	LIST_HEAD(done);

	mutex_lock(&smbsrv_notify_mutex);
	list_for_each_entry(nsb, &smbsrv_notify_sbs, node) {
		if (nsb->sb != inode->i_sb)
			continue;
		list_for_each_entry(w, &nsb->watches, sb_node) {
			if (w->inode != inode)
				continue;
			mutex_lock(&w->wmutex);
			list_for_each_entry_safe(wt, tmp, &w->waiters, node) {
				wt->waiting = false;
				list_move_tail(&wt->node, &done);
			}
			mutex_unlock(&w->wmutex);
		}
	}
	mutex_unlock(&smbsrv_notify_mutex);
	/* Each holds its watch: complete them with no lock held. */
	list_for_each_entry_safe(wt, tmp, &done, node) {
		list_del_init(&wt->node);
		smbsrv_req_complete(wt->req, STATUS_DELETE_PENDING);
	}
}

int smbsrv_notify_init(void)
{
	smbsrv_notify_group = fsnotify_alloc_group(&smbsrv_notify_ops, 0);
	return PTR_ERR_OR_ZERO(smbsrv_notify_group);
}

void smbsrv_notify_exit(void)
{
	/* Every open, and so every watch and mark, is gone by now. */
	fsnotify_wait_marks_destroyed();
	fsnotify_put_group(smbsrv_notify_group);
}
