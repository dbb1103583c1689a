// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the per-inode state all opens of one file share (see fnode.h).
 */
#include <linux/dcache.h>
#include <linux/hashtable.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "file.h"
#include "fnode.h"
#include "wire/cluster.h"
#include "wire/fscc.h"
#include "wire/ntstatus.h"

static DEFINE_SPINLOCK(smbsrv_fnodes_lock);
static DEFINE_HASHTABLE(smbsrv_fnodes, 10);
static const struct smbsrv_fnode_ops *smbsrv_fnode_ops;

void smbsrv_fnode_set_ops(const struct smbsrv_fnode_ops *ops)
{
	smbsrv_fnode_ops = ops;
}

static bool smbsrv_fnode_is(const struct smbsrv_fnode *fn,
			    const struct inode *inode, const char *stream)
{
	if (fn->inode != inode)
		return false;
	if (!fn->stream || !stream)
		return !fn->stream && !stream;
	return !strcmp(fn->stream, stream);
}

struct smbsrv_fnode *smbsrv_fnode_get(struct inode *inode, const char *stream)
{
	struct smbsrv_fnode *fn, *new = NULL;

	for (;;) {
		spin_lock(&smbsrv_fnodes_lock);
		hash_for_each_possible(smbsrv_fnodes, fn, hash,
				       (unsigned long)inode) {
			if (smbsrv_fnode_is(fn, inode, stream)) {
				refcount_inc(&fn->ref);
				spin_unlock(&smbsrv_fnodes_lock);
				if (new)
					kfree(new->stream);
				kfree(new);
				return fn;
			}
		}
		if (new) {
			hash_add(smbsrv_fnodes, &new->hash,
				 (unsigned long)inode);
			spin_unlock(&smbsrv_fnodes_lock);
			return new;
		}
		spin_unlock(&smbsrv_fnodes_lock);
		new = kzalloc(sizeof(*new), GFP_KERNEL);
		if (!new)
			return NULL;
		if (stream) {
			new->stream = kstrdup(stream, GFP_KERNEL);
			if (!new->stream) {
				kfree(new);
				return NULL;
			}
		}
		mutex_init(&new->stream_mutex);
		refcount_set(&new->ref, 1);
		new->inode = inode;
		spin_lock_init(&new->lock);
		INIT_LIST_HEAD(&new->opens);
		smbsrv_brl_init(&new->brl);
		smbsrv_fnode_ops->init(new);
	}
}

struct smbsrv_fnode *smbsrv_fnode_find(struct inode *inode, const char *stream)
{
	struct smbsrv_fnode *fn;

	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each_possible(smbsrv_fnodes, fn, hash, (unsigned long)inode) {
		if (smbsrv_fnode_is(fn, inode, stream)) {
			refcount_inc(&fn->ref);
			spin_unlock(&smbsrv_fnodes_lock);
			return fn;
		}
	}
	spin_unlock(&smbsrv_fnodes_lock);
	return NULL;
}

struct smbsrv_fnode *smbsrv_fnode_find_ino(u64 ino, const char *stream)
{
	struct smbsrv_fnode *fn;
	int bkt;

	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each(smbsrv_fnodes, bkt, fn, hash) {
		if (fn->cview && fn->inode->i_ino == ino &&
		    smbsrv_fnode_is(fn, fn->inode, stream)) {
			refcount_inc(&fn->ref);
			spin_unlock(&smbsrv_fnodes_lock);
			return fn;
		}
	}
	spin_unlock(&smbsrv_fnodes_lock);
	return NULL;
}

void smbsrv_fnode_hold(struct smbsrv_fnode *fn)
{
	refcount_inc(&fn->ref);
}

void smbsrv_fnode_put(struct smbsrv_fnode *fn)
{
	spin_lock(&smbsrv_fnodes_lock);
	if (!refcount_dec_and_test(&fn->ref)) {
		spin_unlock(&smbsrv_fnodes_lock);
		return;
	}
	hash_del(&fn->hash);
	spin_unlock(&smbsrv_fnodes_lock);
	smbsrv_fnode_ops->exit(fn);
	/* Cluster mode's view (cluster.h): nothing in it outlives it. */
	kfree(fn->cview);
	if (fn->brl.cluster)
		smbsrv_brl_exit(&fn->brl);
	if (fn->delete_cred)
		put_cred(fn->delete_cred);
	if (fn->base_delete_cred)
		put_cred(fn->base_delete_cred);
	kfree(fn->stream);
	kfree(fn);
}

/*
 * Visit each fnode of @inode (the file's and its streams') but @skip,
 * holding smbsrv_fnodes_lock and the fnode's lock, until @visit returns
 * true.  The one walk over "the inode's opens" everything below uses.
 */
static void smbsrv_inode_for_each(struct inode *inode,
				  const struct smbsrv_fnode *skip,
				  bool (*visit)(struct smbsrv_fnode *fn,
						void *arg),
				  void *arg)
{
	struct smbsrv_fnode *fn;
	bool stop;

	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each_possible(smbsrv_fnodes, fn, hash, (unsigned long)inode) {
		if (fn == skip || fn->inode != inode)
			continue;
		spin_lock(&fn->lock);
		stop = visit(fn, arg);
		spin_unlock(&fn->lock);
		if (stop)
			break;
	}
	spin_unlock(&smbsrv_fnodes_lock);
}

struct smbsrv_fnode_check {
	struct smbsrv_fnode *fn;	/* the new open's */
	struct smbsrv_file *f;		/* the new open */
	u32 status;
};

/*
 * What another fnode @o of the inode (the file or a stream) says about a
 * new open: a file deleted while its streams stay open is DELETE_PENDING
 * for everyone; an open of the file with DELETE access conflicts with any
 * stream open that does not share delete (as Windows opens each stream
 * for delete then, smbtorture's smb2.streams.delete).
 */
static bool smbsrv_fnode_check_one(struct smbsrv_fnode *o, void *arg)
{
	struct smbsrv_fnode_check *c = arg;
	struct smbsrv_file *of;

	if (o->base_delete_cred && !list_empty(&o->opens))
		c->status = STATUS_DELETE_PENDING;
	else if (!o->stream && o->delete_pending)
		c->status = STATUS_DELETE_PENDING;
	else if (!c->fn->stream && o->stream && (c->f->access & DELETE))
		list_for_each_entry(of, &o->opens, fnode_node)
			if (!(of->share_access & FILE_SHARE_DELETE))
				c->status = STATUS_SHARING_VIOLATION;
	return c->status != STATUS_SUCCESS;
}

struct smbsrv_fnode_defer {
	const struct cred *cred;
	bool deferred;
};

static bool smbsrv_fnode_defer_one(struct smbsrv_fnode *o, void *arg)
{
	struct smbsrv_fnode_defer *d = arg;

	if (!list_empty(&o->opens)) {
		if (!o->base_delete_cred)
			o->base_delete_cred = get_cred(d->cred);
		d->deferred = true;
	}
	return false;
}

bool smbsrv_fnode_defer_delete(struct smbsrv_fnode *fn,
			       const struct cred *cred)
{
	struct smbsrv_fnode_defer d = { .cred = cred };

	smbsrv_inode_for_each(fn->inode, fn, smbsrv_fnode_defer_one, &d);
	return d.deferred;
}

u32 smbsrv_fnode_add(struct smbsrv_fnode *fn, struct smbsrv_file *f)
{
	struct smbsrv_fnode_check c = { .fn = fn, .f = f };
	struct smbsrv_file *o;
	u32 status;

	smbsrv_inode_for_each(fn->inode, fn, smbsrv_fnode_check_one, &c);
	if (c.status)
		return c.status;
	spin_lock(&fn->lock);
	if (fn->delete_pending || fn->base_delete_cred) {
		status = STATUS_DELETE_PENDING;
		goto out;
	}
	list_for_each_entry(o, &fn->opens, fnode_node) {
		if (smb_share_conflict(f->access, f->share_access,
				       o->access, o->share_access)) {
			status = STATUS_SHARING_VIOLATION;
			goto out;
		}
	}
	list_add_tail(&f->fnode_node, &fn->opens);
out:
	spin_unlock(&fn->lock);
	return status;
}

int smbsrv_fnode_rekey(struct smbsrv_fnode *me, char **xname)
{
	struct inode *inode = me->inode;
	struct smbsrv_fnode *fn;
	char *old;

	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each_possible(smbsrv_fnodes, fn, hash, (unsigned long)inode) {
		if (fn != me && smbsrv_fnode_is(fn, inode, *xname)) {
			spin_unlock(&smbsrv_fnodes_lock);
			return -EBUSY;
		}
	}
	old = me->stream;
	me->stream = *xname;
	*xname = old;
	spin_unlock(&smbsrv_fnodes_lock);
	return 0;
}

u32 smbsrv_file_open_count(struct smbsrv_file *f)
{
	struct smbsrv_file *o;
	u32 n = 0;

	spin_lock(&f->fnode->lock);
	list_for_each_entry(o, &f->fnode->opens, fnode_node)
		n++;
	spin_unlock(&f->fnode->lock);
	return n;
}

static bool smbsrv_fnode_count_one(struct smbsrv_fnode *fn, void *arg)
{
	struct smbsrv_file *o;

	list_for_each_entry(o, &fn->opens, fnode_node)
		(*(u32 *)arg)++;
	return false;
}

u32 smbsrv_inode_open_count(struct inode *inode)
{
	u32 n = 0;

	smbsrv_inode_for_each(inode, NULL, smbsrv_fnode_count_one, &n);
	return n;
}

struct smbsrv_fnode_share {
	u32 access;
	u32 share;
	const struct smbsrv_file *except;
	bool conflict;
};

static bool smbsrv_fnode_share_one(struct smbsrv_fnode *fn, void *arg)
{
	struct smbsrv_fnode_share *c = arg;
	struct smbsrv_file *o;

	list_for_each_entry(o, &fn->opens, fnode_node) {
		if (o != c->except &&
		    smb_share_conflict(c->access, c->share, o->access,
				       o->share_access)) {
			c->conflict = true;
			break;
		}
	}
	return c->conflict;
}

void smbsrv_inode_own_opens(struct inode *inode, u32 *writers, u32 *readers)
{
	struct smbsrv_fnode *fn;

	*writers = 0;
	*readers = 0;
	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each_possible(smbsrv_fnodes, fn, hash, (unsigned long)inode) {
		if (fn->inode != inode)
			continue;
		*writers += atomic_read(&fn->own_writers);
		*readers += atomic_read(&fn->own_readers);
	}
	spin_unlock(&smbsrv_fnodes_lock);
}

bool smbsrv_inode_share_conflict(struct inode *inode, u32 access, u32 share,
				 const struct smbsrv_file *except)
{
	struct smbsrv_fnode_share c = {
		.access = access,
		.share = share,
		.except = except,
	};

	smbsrv_inode_for_each(inode, NULL, smbsrv_fnode_share_one, &c);
	return c.conflict;
}

/* Whether a directory of inode number @ino is an ancestor of @d. */
static bool smbsrv_dentry_below_ino(struct dentry *d, u64 ino)
{
	struct dentry *p = READ_ONCE(d->d_parent);
	struct inode *inode;

	while (p != d) {
		inode = d_inode_rcu(p);
		if (inode && inode->i_ino == ino)
			return true;
		d = p;
		p = READ_ONCE(d->d_parent);
	}
	return false;
}

/*
 * Whether @below is true of some open's dentry and @arg: one walk of every
 * open for both the local and the cluster's directory-rename checks.  RCU
 * covers the parent walk of smbsrv_dentry_below_ino().
 */
static bool smbsrv_any_open(bool (*below)(struct dentry *d, void *arg),
			    void *arg)
{
	struct smbsrv_fnode *fn;
	struct smbsrv_file *o;
	bool found = false;
	int bkt;

	rcu_read_lock();
	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each(smbsrv_fnodes, bkt, fn, hash) {
		spin_lock(&fn->lock);
		list_for_each_entry(o, &fn->opens, fnode_node) {
			if (below(o->filp->f_path.dentry, arg)) {
				found = true;
				break;
			}
		}
		spin_unlock(&fn->lock);
		if (found)
			break;
	}
	spin_unlock(&smbsrv_fnodes_lock);
	rcu_read_unlock();
	return found;
}

static bool smbsrv_below_ino(struct dentry *d, void *arg)
{
	return smbsrv_dentry_below_ino(d, *(u64 *)arg);
}

bool smbsrv_ino_open_below(u64 ino)
{
	return smbsrv_any_open(smbsrv_below_ino, &ino);
}

static bool smbsrv_below_dentry(struct dentry *d, void *arg)
{
	struct dentry *dir = arg;

	return d != dir && is_subdir(d, dir);
}

bool smbsrv_file_open_below(struct dentry *dir)
{
	return smbsrv_any_open(smbsrv_below_dentry, dir);
}
