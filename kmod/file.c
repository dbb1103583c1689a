// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: open files (see file.h).
 */
#include <linux/file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "audit.h"
#include "cluster.h"
#include "durable.h"
#include "file.h"
#include "proto.h"
#include "smbsrv.h"
#include "status.h"
#include "stream.h"
#include "vfs.h"
#include "wire/fscc.h"
#include "wire/ntstatus.h"

/* What an open holds; after its close, at the last reference. */
/* Which of the fnode's own-open counters @filp counts in, or NULL. */
static atomic_t *smbsrv_own_count(struct smbsrv_fnode *fn, struct file *filp)
{
	if (filp->f_mode & FMODE_WRITE)
		return &fn->own_writers;
	if (filp->f_mode & FMODE_READ)
		return &fn->own_readers;
	return NULL;
}

static void smbsrv_file_drop(struct smbsrv_file *f)
{
	atomic_t *own = NULL;
	const struct cred *old;

	if (f->filp) {
		if (f->fnode)
			own = smbsrv_own_count(f->fnode, f->filp);
		/* The file's own release (locks, leases) with its rights. */
		old = override_creds(f->cred);
		__fput_sync(f->filp);
		revert_creds(old);
		/* After the release: never more counted than the inode has. */
		if (own)
			atomic_dec(own);
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
/* The name went (@err 0), or could not: audited if the share says so. */
static void smbsrv_file_audit_delete(struct smbsrv_file *f, int err)
{
	struct smbsrv_tree *tree = READ_ONCE(f->open.tree);
	u32 status = err && err != -ENOENT ? smbsrv_errno_status(err) : 0;

	if (tree && smbsrv_audit_wants(tree, SMBSRV_AUDIT_OP_UNLINKAT, status))
		smbsrv_audit_tree(tree, SMBSRV_AUDIT_OP_UNLINKAT, status,
				  f->name, NULL, 0);
}

/*
 * The last open of @fn closed and its deletion ran: the fnode outlives it
 * while something still holds it (the closing request's reference, a
 * break), and a stream's fnode is found again by the next create of the
 * same name on the same inode, which must not see DELETE_PENDING then.
 */
static void smbsrv_file_pending_done(struct smbsrv_fnode *fn)
{
	const struct cred *cred = NULL;

	spin_lock(&fn->lock);
	if (list_empty(&fn->opens) && fn->delete_pending) {
		fn->delete_pending = false;
		cred = fn->delete_cred;
		fn->delete_cred = NULL;
	}
	spin_unlock(&fn->lock);
	if (cred)
		put_cred(cred);
}

static void smbsrv_file_close(struct smbsrv_open *op)
{
	struct smbsrv_file *f = smbsrv_file_of(op);
	struct smbsrv_fnode *fn = f->fnode;
	const struct cred *del = NULL, *base_del = NULL, *old;
	struct smbsrv_cluster_view *cv;
	bool now_pending = false, last;
	int err;

	/* Closed for good: no durable life after this. */
	smbsrv_durable_forget(f);
	/* Its byte-range locks go, and its waiting LOCK requests end. */
	smbsrv_brl_close(f);
	/* So do its change notifications. */
	smbsrv_server.proto->file_close(f);

	cv = smbsrv_cluster_on() ? smbsrv_cluster_lock(fn) : NULL;
	spin_lock(&fn->lock);
	if ((f->flags & SMBSRV_FILE_DELETE_ON_CLOSE) && !fn->delete_pending) {
		fn->delete_pending = true;
		fn->delete_cred = get_cred(f->cred);
		now_pending = true;
	}
	list_del_init(&f->fnode_node);
	last = list_empty(&fn->opens);
	/* Cluster mode: set by another node, removed with this close's rights. */
	if (list_empty(&fn->opens) && fn->delete_pending)
		del = get_cred(fn->delete_cred ?: f->cred);
	if (list_empty(&fn->opens) && fn->base_delete_cred)
		base_del = get_cred(fn->base_delete_cred);
	spin_unlock(&fn->lock);
	/*
	 * Cluster mode: the node's record of the file follows; the name goes
	 * at the last close cluster-wide, the other nodes learn of a
	 * deletion pending.
	 */
	if (cv && del && !smbsrv_cluster_closed_last(fn, cv)) {
		put_cred(del);
		del = NULL;
		smbsrv_file_pending_done(fn);
	} else if (cv && !del) {
		smbsrv_cluster_closed(fn, cv);
		if (now_pending) {
			cv = smbsrv_cluster_lock(fn);
			smbsrv_cluster_delete_pending(fn, cv, true);
			smbsrv_cluster_unlock(cv);
		}
	}
	/* Others' cached handles keep a file pending deletion (cache.c). */
	if (now_pending && !del)
		smbsrv_cache_break_handles(f);
	/* Its oplock or lease goes; opens waiting on it look again. */
	smbsrv_cache_close(f);
	if (now_pending && !del && smbsrv_file_is_dir(f))
		smbsrv_server.proto->delete_pending(fn->inode);
	/* LastWriteTime: the close's, or what a client set (wtime.h). */
	smbsrv_wtime_close(f, last, del);

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
		if (fn->stream && (f->flags & SMBSRV_FILE_AFPRESOURCE))
			err = smbsrv_stream_remove_rsrc(&f->filp->f_path,
							fn->stream);
		else if (fn->stream)
			err = smbsrv_stream_remove(&f->filp->f_path, fn->stream);
		else
			err = smbsrv_vfs_remove(&f->filp->f_path);
		revert_creds(old);
		put_cred(del);
		smbsrv_file_audit_delete(f, err);
		if (err && err != -ENOENT)
			pr_info_ratelimited("smbsrv: delete on close of %s: error %d\n",
					    f->name, err);
		smbsrv_file_pending_done(fn);
	}
	if (base_del) {
		old = override_creds(base_del);
		err = smbsrv_vfs_remove(&f->filp->f_path);
		revert_creds(old);
		put_cred(base_del);
		smbsrv_file_audit_delete(f, err);
		if (err && err != -ENOENT)
			pr_info_ratelimited("smbsrv: delete of %s after its streams: error %d\n",
					    f->name, err);
	}
}

static void smbsrv_file_release(struct smbsrv_open *op)
{
	struct smbsrv_file *f = smbsrv_file_of(op);

	smbsrv_file_drop(f);
	smbsrv_server.proto->dirscan_free(f->scan);
	if (f->flags & SMBSRV_FILE_REPLACED)
		path_put(&f->replaced);
}

static void smbsrv_file_free(struct smbsrv_open *op)
{
	struct smbsrv_file *f = smbsrv_file_of(op);

	kfree(f->lock_seq);
	kfree(f->name);
	kfree(f);
}

/*
 * Its connection went: a durable handle stays for its client, its locks
 * counting against no session until the client is back.
 */
static bool smbsrv_file_detach(struct smbsrv_open *op)
{
	struct smbsrv_file *f = smbsrv_file_of(op);

	if (!smbsrv_durable_detach(f))
		return false;
	smbsrv_brl_account(f, NULL);
	return true;
}

static const struct smbsrv_open_ops smbsrv_file_ops = {
	.close = smbsrv_file_close,
	.release = smbsrv_file_release,
	.free = smbsrv_file_free,
	.detach = smbsrv_file_detach,
};

u32 smbsrv_file_open(struct smbsrv_tree *tree, struct file *filp,
		     const char *name, const char *stream, u32 access,
		     u32 share_access, u32 options, u32 flags,
		     struct smbsrv_file **out, struct smbsrv_fnode **wait,
		     u32 *gen)
{
	struct smbsrv_cluster_view *cv;
	struct smbsrv_file *f;
	atomic_t *own;
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
	smbsrv_open_cache_init(&f->cache);
	f->name = kstrdup(name, GFP_KERNEL);
	f->fnode = smbsrv_fnode_get(file_inode(filp), stream);
	if (!f->name || !f->fnode) {
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto err;
	}
	own = smbsrv_own_count(f->fnode, filp);
	if (own)
		atomic_inc(own);
	if (smbsrv_cluster_on())
		status = smbsrv_cluster_add(f->fnode, f, wait, gen);
	else
		status = smbsrv_fnode_add(f->fnode, f);
	if (status)
		goto err;

	/* Nobody takes locks through @f before it is in the table. */
	f->brl_sess = tree->sess;
	err = smbsrv_open_insert(tree, &f->open, &smbsrv_file_ops);
	if (err) {
		cv = smbsrv_cluster_on() ? smbsrv_cluster_lock(f->fnode) : NULL;
		spin_lock(&f->fnode->lock);
		list_del_init(&f->fnode_node);
		spin_unlock(&f->fnode->lock);
		if (cv)
			smbsrv_cluster_closed(f->fnode, cv);
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

struct smbsrv_file *smbsrv_file_from_open(struct smbsrv_open *op)
{
	if (!op)
		return NULL;
	if (op->ops != &smbsrv_file_ops) {
		smbsrv_open_put(op);
		return NULL;
	}
	return smbsrv_file_of(op);
}

struct smbsrv_file *smbsrv_file_lookup(struct smbsrv_session *sess,
				       struct smbsrv_tree *tree,
				       u64 persistent, u64 volatile_id)
{
	return smbsrv_file_from_open(smbsrv_open_lookup(sess, tree, persistent,
							volatile_id));
}

struct smbsrv_file *smbsrv_file_next(struct smbsrv_session *sess,
				     unsigned long *id)
{
	struct smbsrv_open *op;

	rcu_read_lock();
	for (;;) {
		(*id)++;
		op = xa_find(&sess->opens, id, U32_MAX, XA_PRESENT);
		if (!op)
			break;
		if (op->ops == &smbsrv_file_ops && !READ_ONCE(op->gone) &&
		    refcount_inc_not_zero(&op->ref))
			break;
	}
	rcu_read_unlock();
	return op ? smbsrv_file_of(op) : NULL;
}

u32 smbsrv_file_set_delete_pending(struct smbsrv_file *f, bool pending)
{
	struct smbsrv_fnode *fn = f->fnode;
	struct smbsrv_cluster_view *cv = NULL;
	const struct cred *old = NULL;
	bool now_pending = false;
	u32 status;

	/* Cluster mode: the record first, the other nodes told. */
	if (smbsrv_cluster_on() && pending != READ_ONCE(fn->delete_pending))
		cv = smbsrv_cluster_lock(fn);
	if (cv) {
		status = smbsrv_cluster_delete_pending(fn, cv, pending);
		if (status) {
			smbsrv_cluster_unlock(cv);
			return status;
		}
	}
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
	if (cv)
		smbsrv_cluster_unlock(cv);
	if (old)
		put_cred(old);
	if (now_pending && smbsrv_file_is_dir(f))
		smbsrv_server.proto->delete_pending(fn->inode);
	return STATUS_SUCCESS;
}

bool smbsrv_file_delete_pending(struct smbsrv_file *f)
{
	return READ_ONCE(f->fnode->delete_pending);
}

/* ---- LockSequence (MS-SMB2 3.3.5.14) ------------------------------------ */

#define SMBSRV_LOCK_SEQ_BUCKETS	64
#define SMBSRV_LOCK_SEQ_VALID	0x80

/* LockSequence @seq's index is its upper 28 bits; 1-64 are checked. */
static bool smbsrv_lock_seq_index_ok(u32 seq)
{
	return seq >> 4 >= 1 && seq >> 4 <= SMBSRV_LOCK_SEQ_BUCKETS;
}

/*
 * Under @f's fnode lock: the LockSequenceArray entry of LockSequence @seq
 * (its number is the low 4 bits), or NULL when @f is not verified or the
 * index is not checked.
 */
static u8 *smbsrv_lock_seq_slot(struct smbsrv_file *f, u32 seq, bool every)
{
	lockdep_assert_held(&f->fnode->lock);
	if (!f->lock_seq || !(every || smbsrv_durable_is(f)) ||
	    !smbsrv_lock_seq_index_ok(seq))
		return NULL;
	return &f->lock_seq[(seq >> 4) - 1];
}

bool smbsrv_file_lock_replay(struct smbsrv_file *f, u32 seq, bool every_open)
{
	u8 want = SMBSRV_LOCK_SEQ_VALID | (seq & 0xf), *slot, *arr = NULL;
	struct smbsrv_fnode *fn = f->fnode;
	bool replay = false;

	/* The array, the first time it is wanted (not under the lock). */
	if ((every_open || smbsrv_durable_is(f)) &&
	    !READ_ONCE(f->lock_seq) && smbsrv_lock_seq_index_ok(seq))
		arr = kzalloc(SMBSRV_LOCK_SEQ_BUCKETS, GFP_KERNEL);
	spin_lock(&fn->lock);
	if (arr && !f->lock_seq) {
		f->lock_seq = arr;
		arr = NULL;
	}
	slot = smbsrv_lock_seq_slot(f, seq, every_open);
	if (slot) {
		replay = *slot == want;
		if (!replay)
			*slot = 0;
	}
	spin_unlock(&fn->lock);
	kfree(arr);
	return replay;
}

void smbsrv_file_lock_done(struct smbsrv_file *f, u32 seq)
{
	struct smbsrv_fnode *fn = f->fnode;
	u8 *slot;

	spin_lock(&fn->lock);
	/* Allocated by the replay check when @f is verified at all. */
	slot = smbsrv_lock_seq_slot(f, seq, true);
	if (slot)
		*slot = SMBSRV_LOCK_SEQ_VALID | (seq & 0xf);
	spin_unlock(&fn->lock);
}
