// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: open files and the per-inode state they share (see file.h).
 */
#include <linux/file.h>
#include <linux/hashtable.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "file.h"
#include "smb2/notify.h"
#include "smb2/smb2.h"
#include "stream.h"
#include "vfs.h"
#include "wire/fscc.h"
#include "wire/ntstatus.h"

static DEFINE_SPINLOCK(smbsrv_fnodes_lock);
static DEFINE_HASHTABLE(smbsrv_fnodes, 10);

/* ---- per-inode state ---------------------------------------------------- */

static bool smbsrv_fnode_is(const struct smbsrv_fnode *fn,
			    const struct inode *inode, const char *stream)
{
	if (fn->inode != inode)
		return false;
	if (!fn->stream || !stream)
		return !fn->stream && !stream;
	return !strcmp(fn->stream, stream);
}

static struct smbsrv_fnode *smbsrv_fnode_get(struct inode *inode,
					     const char *stream)
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
	}
}

static void smbsrv_fnode_put(struct smbsrv_fnode *fn)
{
	spin_lock(&smbsrv_fnodes_lock);
	if (!refcount_dec_and_test(&fn->ref)) {
		spin_unlock(&smbsrv_fnodes_lock);
		return;
	}
	hash_del(&fn->hash);
	spin_unlock(&smbsrv_fnodes_lock);
	if (fn->delete_cred)
		put_cred(fn->delete_cred);
	if (fn->base_delete_cred)
		put_cred(fn->base_delete_cred);
	smbsrv_wtime_free(fn);
	kfree(fn->stream);
	kfree(fn);
}

struct smbsrv_fnode *smbsrv_fnode_find(struct inode *inode)
{
	struct smbsrv_fnode *fn;

	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each_possible(smbsrv_fnodes, fn, hash, (unsigned long)inode) {
		if (smbsrv_fnode_is(fn, inode, NULL)) {
			refcount_inc(&fn->ref);
			spin_unlock(&smbsrv_fnodes_lock);
			return fn;
		}
	}
	spin_unlock(&smbsrv_fnodes_lock);
	return NULL;
}

void smbsrv_fnode_release(struct smbsrv_fnode *fn)
{
	smbsrv_fnode_put(fn);
}

/*
 * MS-FSA 2.1.5.1.2: only opens with data access take part in sharing;
 * each side's access must be allowed by the other side's share access.
 */
static bool smbsrv_share_conflict(u32 access, u32 share, u32 o_access,
				  u32 o_share)
{
	if (!(access & FILE_DATA_ACCESS) || !(o_access & FILE_DATA_ACCESS))
		return false;
	if ((o_access & (FILE_READ_DATA | FILE_EXECUTE)) &&
	    !(share & FILE_SHARE_READ))
		return true;
	if ((o_access & (FILE_WRITE_DATA | FILE_APPEND_DATA)) &&
	    !(share & FILE_SHARE_WRITE))
		return true;
	if ((o_access & DELETE) && !(share & FILE_SHARE_DELETE))
		return true;
	if ((access & (FILE_READ_DATA | FILE_EXECUTE)) &&
	    !(o_share & FILE_SHARE_READ))
		return true;
	if ((access & (FILE_WRITE_DATA | FILE_APPEND_DATA)) &&
	    !(o_share & FILE_SHARE_WRITE))
		return true;
	if ((access & DELETE) && !(o_share & FILE_SHARE_DELETE))
		return true;
	return false;
}

/*
 * What the other fnodes of the inode (the file and its streams) say about
 * a new open of @fn: a file deleted while its streams stay open is
 * DELETE_PENDING for everyone; an open of the file with DELETE access
 * conflicts with any stream open that does not share delete (as Windows
 * opens each stream for delete then, smbtorture's smb2.streams.delete).
 */
static u32 smbsrv_fnode_check_others(struct smbsrv_fnode *fn,
				     struct smbsrv_file *f)
{
	struct smbsrv_fnode *o;
	struct smbsrv_file *of;
	u32 status = STATUS_SUCCESS;

	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each_possible(smbsrv_fnodes, o, hash,
			       (unsigned long)fn->inode) {
		if (o == fn || o->inode != fn->inode)
			continue;
		spin_lock(&o->lock);
		if (o->base_delete_cred && !list_empty(&o->opens))
			status = STATUS_DELETE_PENDING;
		else if (!o->stream && o->delete_pending)
			status = STATUS_DELETE_PENDING;
		else if (!fn->stream && o->stream && (f->access & DELETE))
			list_for_each_entry(of, &o->opens, fnode_node)
				if (!(of->share_access & FILE_SHARE_DELETE))
					status = STATUS_SHARING_VIOLATION;
		spin_unlock(&o->lock);
		if (status)
			break;
	}
	spin_unlock(&smbsrv_fnodes_lock);
	return status;
}

/*
 * The file of @fn (its last open closing, delete pending) has streams
 * open: they inherit the deletion (see base_delete_cred).  Returns
 * whether any did, so the file is not removed yet.
 */
static bool smbsrv_fnode_defer_delete(struct smbsrv_fnode *fn,
				      const struct cred *cred)
{
	struct smbsrv_fnode *o;
	bool deferred = false;

	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each_possible(smbsrv_fnodes, o, hash,
			       (unsigned long)fn->inode) {
		if (o == fn || o->inode != fn->inode)
			continue;
		spin_lock(&o->lock);
		if (!list_empty(&o->opens)) {
			if (!o->base_delete_cred)
				o->base_delete_cred = get_cred(cred);
			deferred = true;
		}
		spin_unlock(&o->lock);
	}
	spin_unlock(&smbsrv_fnodes_lock);
	return deferred;
}

/* Add @f to its fnode's opens unless it conflicts; under fnode->lock. */
static u32 smbsrv_fnode_add(struct smbsrv_fnode *fn, struct smbsrv_file *f)
{
	struct smbsrv_file *o;
	u32 status;

	status = smbsrv_fnode_check_others(fn, f);
	if (status)
		return status;
	spin_lock(&fn->lock);
	if (fn->delete_pending || fn->base_delete_cred) {
		status = STATUS_DELETE_PENDING;
		goto out;
	}
	list_for_each_entry(o, &fn->opens, fnode_node) {
		if (smbsrv_share_conflict(f->access, f->share_access,
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

/* ---- the open ----------------------------------------------------------- */

/* What an open holds; after its close, at the last reference. */
static void smbsrv_file_drop(struct smbsrv_file *f)
{
	const struct cred *old;

	if (f->filp) {
		/* The file's own release (locks, leases) with its rights. */
		old = override_creds(f->cred);
		__fput_sync(f->filp);
		revert_creds(old);
	}
	if (f->fnode)
		smbsrv_fnode_put(f->fnode);
	put_cred(f->cred);
}

/*
 * CLOSE semantics: off the file's opens; FILE_DELETE_ON_CLOSE makes the
 * file pending deletion; the last open of a file pending deletion
 * removes it, with the rights of whoever asked for the deletion.
 */
static void smbsrv_file_close(struct smbsrv_open *op)
{
	struct smbsrv_file *f = smbsrv_file_of(op);
	struct smbsrv_fnode *fn = f->fnode;
	const struct cred *del = NULL, *base_del = NULL, *old;
	bool now_pending = false, last;
	int err;

	/* Its byte-range locks go, and its waiting LOCK requests end. */
	smbsrv_brl_close(f);
	/* So do its change notifications. */
	smbsrv_notify_close(f);

	spin_lock(&fn->lock);
	if ((f->flags & SMBSRV_FILE_DELETE_ON_CLOSE) && !fn->delete_pending) {
		fn->delete_pending = true;
		fn->delete_cred = get_cred(f->cred);
		now_pending = true;
	}
	list_del_init(&f->fnode_node);
	last = list_empty(&fn->opens);
	if (list_empty(&fn->opens) && fn->delete_pending)
		del = get_cred(fn->delete_cred);
	if (list_empty(&fn->opens) && fn->base_delete_cred)
		base_del = get_cred(fn->base_delete_cred);
	spin_unlock(&fn->lock);
	if (now_pending && !del && smbsrv_file_is_dir(f))
		smbsrv_notify_delete_pending(fn->inode);
	/* LastWriteTime: the close's, or what a client set (wtime.h). */
	if (!del)
		smbsrv_wtime_close(f, last);

	/* The file goes once its streams are closed too. */
	if (del && !fn->stream && smbsrv_fnode_defer_delete(fn, del)) {
		put_cred(del);
		del = NULL;
	}
	if (base_del && smbsrv_fnode_defer_delete(fn, base_del)) {
		put_cred(base_del);
		base_del = NULL;
	}
	if (del) {
		old = override_creds(del);
		/* A stream goes alone; the file keeps its other streams. */
		if (fn->stream)
			err = smbsrv_stream_remove(&f->filp->f_path, fn->stream);
		else
			err = smbsrv_vfs_remove(&f->filp->f_path);
		revert_creds(old);
		put_cred(del);
		if (err && err != -ENOENT)
			pr_info_ratelimited("smbsrv: delete on close of %s: error %d\n",
					    f->name, err);
	}
	if (base_del) {
		old = override_creds(base_del);
		err = smbsrv_vfs_remove(&f->filp->f_path);
		revert_creds(old);
		put_cred(base_del);
		if (err && err != -ENOENT)
			pr_info_ratelimited("smbsrv: delete of %s after its streams: error %d\n",
					    f->name, err);
	}
}

static void smbsrv_file_release(struct smbsrv_open *op)
{
	struct smbsrv_file *f = smbsrv_file_of(op);

	smbsrv_file_drop(f);
	smbsrv_dirscan_free(f->scan);
}

static void smbsrv_file_free(struct smbsrv_open *op)
{
	struct smbsrv_file *f = smbsrv_file_of(op);

	kfree(f->name);
	kfree(f);
}

static const struct smbsrv_open_ops smbsrv_file_ops = {
	.close = smbsrv_file_close,
	.release = smbsrv_file_release,
	.free = smbsrv_file_free,
};

u32 smbsrv_file_open(struct smbsrv_tree *tree, struct file *filp,
		     const char *name, const char *stream, u32 access,
		     u32 share_access, u32 options, u32 flags,
		     struct smbsrv_file **out)
{
	struct smbsrv_file *f;
	u32 status;
	int err;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		__fput_sync(filp);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	f->filp = filp;
	f->cred = get_cred(current_cred());
	f->access = access;
	f->share_access = share_access;
	f->options = options;
	f->flags = flags;
	INIT_LIST_HEAD(&f->fnode_node);
	f->name = kstrdup(name, GFP_KERNEL);
	f->fnode = smbsrv_fnode_get(file_inode(filp), stream);
	if (!f->name || !f->fnode) {
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto err;
	}
	status = smbsrv_fnode_add(f->fnode, f);
	if (status)
		goto err;

	err = smbsrv_open_insert(tree, &f->open, &smbsrv_file_ops);
	if (err) {
		spin_lock(&f->fnode->lock);
		list_del_init(&f->fnode_node);
		spin_unlock(&f->fnode->lock);
		status = err == -EMFILE ? STATUS_TOO_MANY_OPENED_FILES :
			 err == -ENOENT ? STATUS_NETWORK_NAME_DELETED :
					  STATUS_INSUFFICIENT_RESOURCES;
		goto err;
	}
	*out = f;
	return STATUS_SUCCESS;
err:
	smbsrv_file_drop(f);
	kfree(f->name);
	kfree(f);
	return status;
}

struct smbsrv_file *smbsrv_file_lookup(struct smbsrv_req *req,
				       const u8 *file_id)
{
	struct smbsrv_open *op;
	u64 p, v;

	smbsrv_req_file_id(req, file_id, &p, &v);
	op = smbsrv_open_lookup(req, p, v);
	if (!op)
		return NULL;
	if (op->ops != &smbsrv_file_ops) {
		smbsrv_open_put(op);
		return NULL;
	}
	return smbsrv_file_of(op);
}

struct smbsrv_file *smbsrv_file_lookup_session(struct smbsrv_session *sess,
					       u64 persistent,
					       u64 volatile_id)
{
	struct smbsrv_open *op;

	if (!volatile_id || volatile_id > U32_MAX)
		return NULL;
	rcu_read_lock();
	op = xa_load(&sess->opens, volatile_id);
	if (op && (op->id_persistent != persistent ||
		   op->ops != &smbsrv_file_ops || READ_ONCE(op->gone) ||
		   !refcount_inc_not_zero(&op->ref)))
		op = NULL;
	rcu_read_unlock();
	return op ? smbsrv_file_of(op) : NULL;
}

void smbsrv_file_set_delete_pending(struct smbsrv_file *f, bool pending)
{
	struct smbsrv_fnode *fn = f->fnode;
	const struct cred *old = NULL;

	bool now_pending = false;

	spin_lock(&fn->lock);
	if (pending && !fn->delete_pending) {
		fn->delete_pending = true;
		fn->delete_cred = get_cred(f->cred);
		now_pending = true;
	} else if (!pending && fn->delete_pending) {
		fn->delete_pending = false;
		old = fn->delete_cred;
		fn->delete_cred = NULL;
	}
	spin_unlock(&fn->lock);
	if (old)
		put_cred(old);
	if (now_pending && smbsrv_file_is_dir(f))
		smbsrv_notify_delete_pending(fn->inode);
}

bool smbsrv_file_delete_pending(struct smbsrv_file *f)
{
	return READ_ONCE(f->fnode->delete_pending);
}

int smbsrv_file_stream_rekey(struct smbsrv_file *f, char **xname)
{
	struct smbsrv_fnode *fn, *me = f->fnode;
	struct inode *inode = me->inode;
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

u32 smbsrv_inode_open_count(struct inode *inode)
{
	struct smbsrv_fnode *fn;
	struct smbsrv_file *o;
	u32 n = 0;

	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each_possible(smbsrv_fnodes, fn, hash, (unsigned long)inode) {
		if (fn->inode != inode)
			continue;
		spin_lock(&fn->lock);
		list_for_each_entry(o, &fn->opens, fnode_node)
			n++;
		spin_unlock(&fn->lock);
	}
	spin_unlock(&smbsrv_fnodes_lock);
	return n;
}

bool smbsrv_inode_share_conflict(struct inode *inode, u32 access, u32 share,
				 const struct smbsrv_file *except)
{
	struct smbsrv_fnode *fn;
	struct smbsrv_file *o;
	bool conflict = false;

	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each_possible(smbsrv_fnodes, fn, hash, (unsigned long)inode) {
		if (fn->inode != inode)
			continue;
		spin_lock(&fn->lock);
		list_for_each_entry(o, &fn->opens, fnode_node) {
			if (o != except &&
			    smbsrv_share_conflict(access, share, o->access,
						  o->share_access)) {
				conflict = true;
				break;
			}
		}
		spin_unlock(&fn->lock);
	}
	spin_unlock(&smbsrv_fnodes_lock);
	return conflict;
}

bool smbsrv_file_open_below(struct dentry *dir)
{
	struct smbsrv_fnode *fn;
	struct smbsrv_file *o;
	struct dentry *d;
	bool found = false;
	int bkt;

	spin_lock(&smbsrv_fnodes_lock);
	hash_for_each(smbsrv_fnodes, bkt, fn, hash) {
		spin_lock(&fn->lock);
		list_for_each_entry(o, &fn->opens, fnode_node) {
			d = o->filp->f_path.dentry;
			if (d != dir && is_subdir(d, dir)) {
				found = true;
				break;
			}
		}
		spin_unlock(&fn->lock);
		if (found)
			break;
	}
	spin_unlock(&smbsrv_fnodes_lock);
	return found;
}
