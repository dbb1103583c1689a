// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: cluster mode, share modes across nodes and the other nodes'
 * pushes (see cluster.h).
 */
#include <linux/cred.h>
#include <linux/filelock.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <uapi/linux/smbsrv.h>

#include "brl.h"
#include "cache.h"
#include "cluster.h"
#include "file.h"
#include "fnode.h"
#include "netlink-gen.h"
#include "smbsrv.h"
#include "upcall.h"
#include "wire/ntstatus.h"

DEFINE_STATIC_KEY_FALSE(smbsrv_clustering);

static const struct smbsrv_cluster_cache_ops *smbsrv_cluster_cache;

void smbsrv_cluster_set_cache_ops(const struct smbsrv_cluster_cache_ops *ops)
{
	smbsrv_cluster_cache = ops;
}

static void smbsrv_cluster_sync_work(struct work_struct *work);

void smbsrv_cluster_enable(void)
{
	if (!static_key_enabled(&smbsrv_clustering)) {
		static_branch_enable(&smbsrv_clustering);
		pr_info("smbsrv: cluster mode on\n");
	}
}

/* The view of @fn, made at its first use; NULL without memory. */
static struct smbsrv_cluster_view *smbsrv_cluster_view(struct smbsrv_fnode *fn)
{
	struct smbsrv_cluster_view *v = READ_ONCE(fn->cview), *old;

	if (v)
		return v;
	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return NULL;
	mutex_init(&v->lock);
	smb_cluster_agg_init(&v->rec);
	v->fn = fn;
	INIT_WORK(&v->sync, smbsrv_cluster_sync_work);
	old = cmpxchg(&fn->cview, NULL, v);
	if (old) {
		kfree(v);
		return old;
	}
	return v;
}

/*
 * The node's aggregate of @fn's opens now (snapshot opens take no part)
 * and its holders' caching.
 */
static void smbsrv_cluster_agg_of(struct smbsrv_fnode *fn,
				  struct smb_cluster_agg *a)
{
	const struct smbsrv_cluster_cache_ops *ops = READ_ONCE(smbsrv_cluster_cache);
	struct smbsrv_file *o;

	smb_cluster_agg_init(a);
	spin_lock(&fn->lock);
	list_for_each_entry(o, &fn->opens, fnode_node)
		if (!(o->flags & SMBSRV_FILE_SNAPSHOT))
			smb_cluster_agg_add(a, o->access, o->share_access);
	spin_unlock(&fn->lock);
	if (ops)
		a->caching = ops->held(fn) & SMB_CLUSTER_CACHING;
}

/*
 * Whether the record's @rec stays right for the aggregate @a: the same
 * opens, and no caching beyond what it says (less is recorded later, by
 * smbsrv_cluster_sync()).
 */
static bool smbsrv_cluster_covers(const struct smb_cluster_agg *rec,
				  const struct smb_cluster_agg *a)
{
	return a->access == rec->access && a->share == rec->share &&
	       !(a->caching & ~rec->caching);
}

/* One upcall about @ino (@stream); the daemon's NTSTATUS, or a failure's. */
static u32 smbsrv_cluster_ask_ino(u64 ino, const char *stream, u32 op,
				  u32 access, u32 share,
				  const struct smb_cluster_agg *a, u32 *allowed)
{
	struct smbsrv_cluster_q q = {
		.op = op,
		.ino = ino,
		.stream = stream,
		.access = access,
		.share = share,
		.node_access = a->access,
		.node_share = a->share,
		.caching = a->caching,
		.allowed = allowed,
	};
	u32 status = STATUS_SUCCESS;
	int err;

	err = smbsrv_upcall_cluster(&q, &status);
	if (err) {
		pr_warn_ratelimited("smbsrv: cluster state store unreachable (%d)\n",
				    err);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	return status;
}

static u32 smbsrv_cluster_ask(struct smbsrv_fnode *fn, u32 op, u32 access,
			      u32 share, const struct smb_cluster_agg *a,
			      u32 *allowed)
{
	return smbsrv_cluster_ask_ino(fn->inode->i_ino, fn->stream, op, access,
				      share, a, allowed);
}

static void smbsrv_cluster_unlink(struct smbsrv_fnode *fn,
				  struct smbsrv_file *f)
{
	spin_lock(&fn->lock);
	list_del_init(&f->fnode_node);
	spin_unlock(&fn->lock);
}

u32 smbsrv_cluster_add(struct smbsrv_fnode *fn, struct smbsrv_file *f,
		       struct smbsrv_fnode **wait, u32 *gen)
{
	struct smbsrv_cluster_view *v = smbsrv_cluster_view(fn);
	struct smb_cluster_agg a;
	u32 status, g;

	if (!v || smbsrv_cluster_fenced())
		return STATUS_INSUFFICIENT_RESOURCES;
	mutex_lock(&v->lock);
	status = smbsrv_fnode_add(fn, f);
	if (status)
		goto out;
	smbsrv_cluster_agg_of(fn, &a);
	/*
	 * Fast path: the store's record of this node stays right (an
	 * overwrite also asks: it writes, whatever its access).
	 */
	if (smbsrv_cluster_covers(&v->rec, &a) &&
	    !(f->flags & SMBSRV_FILE_OVERWRITE))
		goto out;
	/* Before the upcall: a wake that comes during it is not lost. */
	spin_lock(&fn->lock);
	g = fn->cache.gen;
	spin_unlock(&fn->lock);
	status = smbsrv_cluster_ask(fn, f->flags & SMBSRV_FILE_OVERWRITE ?
				    SMBSRV_CLUSTER_OP_OVERWRITE :
				    SMBSRV_CLUSTER_OP_OPEN, f->access,
				    f->share_access, &a, NULL);
	if (status == STATUS_SUCCESS) {
		v->rec = a;
		goto out;
	}
	smbsrv_cluster_unlink(fn, f);
	/* Another node's holders are breaking: wait for them, run again. */
	if (status == STATUS_PENDING) {
		smbsrv_fnode_hold(fn);
		*wait = fn;
		*gen = g;
		status = SMBSRV_CACHE_WAIT;
	}
out:
	mutex_unlock(&v->lock);
	return status;
}

struct smbsrv_cluster_view *smbsrv_cluster_raise(struct smbsrv_fnode *fn,
						 int *type)
{
	struct smbsrv_cluster_view *v = smbsrv_cluster_view(fn);
	u32 want = SMB2_LEASE_READ | SMB2_LEASE_HANDLE, allowed = 0;
	struct smb_cluster_agg a;

	if (*type == F_WRLCK)
		want |= SMB2_LEASE_WRITE;
	if (!v) {
		*type = F_UNLCK;
		return NULL;
	}
	mutex_lock(&v->lock);
	if (smbsrv_cluster_fenced()) {
		*type = F_UNLCK;
		return v;
	}
	if (!fn->stream && S_ISDIR(fn->inode->i_mode)) {
		smbsrv_cluster_agg_of(fn, &a);
		a.caching = SMB2_LEASE_READ | SMB2_LEASE_HANDLE;
		if (!v->dirlease &&
		    smbsrv_cluster_ask(fn, SMBSRV_CLUSTER_OP_DIR_LEASE, 0, 0, &a,
				       NULL) == STATUS_SUCCESS)
			v->dirlease = true;
		if (!v->dirlease)
			*type = F_UNLCK;
		return v;
	}
	/* Recorded already: the other nodes' opens were checked against it. */
	if (!(want & ~v->rec.caching))
		return v;
	smbsrv_cluster_agg_of(fn, &a);
	a.caching |= want | v->rec.caching;
	if (smbsrv_cluster_ask(fn, SMBSRV_CLUSTER_OP_CACHING, 0, 0, &a,
			       &allowed) != STATUS_SUCCESS) {
		*type = F_UNLCK;
		return v;
	}
	a.caching &= allowed;
	v->rec = a;
	if (!(allowed & SMB2_LEASE_READ))
		*type = F_UNLCK;
	else if (!(allowed & SMB2_LEASE_WRITE))
		*type = F_RDLCK;
	return v;
}

void smbsrv_cluster_raised(struct smbsrv_fnode *fn,
			   struct smbsrv_cluster_view *v)
{
	if (!v)
		return;
	mutex_unlock(&v->lock);
	/* What was recorded and not granted goes again. */
	smbsrv_cluster_sync(fn);
}

void smbsrv_cluster_sync(struct smbsrv_fnode *fn)
{
	struct smbsrv_cluster_view *v = READ_ONCE(fn->cview);

	if (!v || !(READ_ONCE(v->rec.caching) || READ_ONCE(v->dirlease)))
		return;
	smbsrv_fnode_hold(fn);
	if (!queue_work(smbsrv_ctl_wq, &v->sync))
		smbsrv_fnode_put(fn);
}

/*
 * The holders' caching went down (an acknowledgment, a timeout, a
 * close, a break for another node): the record follows, an unguarded
 * write as a close's (only narrower), and the daemon wakes the nodes
 * whose CREATEs wait for it.
 */
static void smbsrv_cluster_sync_work(struct work_struct *work)
{
	struct smbsrv_cluster_view *v = container_of(work,
						     struct smbsrv_cluster_view,
						     sync);
	struct smbsrv_fnode *fn = v->fn;
	struct smb_cluster_agg a;

	mutex_lock(&v->lock);
	smbsrv_cluster_agg_of(fn, &a);
	/* A directory's last lease went: the store and the marks follow. */
	if (v->dirlease && !(a.caching & SMB2_LEASE_READ)) {
		struct smb_cluster_agg none = a;

		none.caching = 0;
		/* Fenced: the store's record of this node is being reaped. */
		if (smbsrv_cluster_fenced() ||
		    smbsrv_cluster_ask(fn, SMBSRV_CLUSTER_OP_DIR_LEASE, 0, 0,
				       &none, NULL) == STATUS_SUCCESS)
			v->dirlease = false;
	}
	if (!smbsrv_cluster_fenced() && !smb_cluster_agg_eq(&a, &v->rec) &&
	    smbsrv_cluster_covers(&v->rec, &a) &&
	    smbsrv_cluster_ask(fn, SMBSRV_CLUSTER_OP_CLOSE, 0, 0, &a, NULL) ==
	    STATUS_SUCCESS)
		v->rec = a;
	mutex_unlock(&v->lock);
	smbsrv_fnode_put(fn);
}

struct smbsrv_cluster_view *smbsrv_cluster_lock(struct smbsrv_fnode *fn)
{
	struct smbsrv_cluster_view *v = READ_ONCE(fn->cview);

	if (v)
		mutex_lock(&v->lock);
	return v;
}

void smbsrv_cluster_closed(struct smbsrv_fnode *fn,
			   struct smbsrv_cluster_view *v)
{
	struct smb_cluster_agg a;

	smbsrv_cluster_agg_of(fn, &a);
	/* Fenced: the store's records of this node are being reaped. */
	if (smbsrv_cluster_fenced())
		smb_cluster_agg_init(&v->rec);
	else if (!smb_cluster_agg_eq(&a, &v->rec) &&
		 smbsrv_cluster_ask(fn, SMBSRV_CLUSTER_OP_CLOSE, 0, 0, &a, NULL) ==
	    STATUS_SUCCESS)
		v->rec = a;
	mutex_unlock(&v->lock);
}

bool smbsrv_cluster_closed_last(struct smbsrv_fnode *fn,
				struct smbsrv_cluster_view *v)
{
	struct smb_cluster_agg a;
	u32 status = STATUS_INSUFFICIENT_RESOURCES;

	smbsrv_cluster_agg_of(fn, &a);
	if (smbsrv_cluster_fenced()) {
		smb_cluster_agg_init(&v->rec);
	} else {
		status = smbsrv_cluster_ask(fn, SMBSRV_CLUSTER_OP_UNLINK, 0, 0,
					    &a, NULL);
		/* Either way the node's key was written. */
		if (status == STATUS_SUCCESS || status == STATUS_DELETE_PENDING)
			v->rec = a;
	}
	mutex_unlock(&v->lock);
	return status == STATUS_SUCCESS;
}

u32 smbsrv_cluster_delete_pending(struct smbsrv_fnode *fn,
				  struct smbsrv_cluster_view *v, bool pending)
{
	struct smb_cluster_agg a;

	lockdep_assert_held(&v->lock);
	if (smbsrv_cluster_fenced())
		return STATUS_INSUFFICIENT_RESOURCES;
	smb_cluster_agg_init(&a);
	return smbsrv_cluster_ask(fn, pending ?
				  SMBSRV_CLUSTER_OP_DELETE_PENDING :
				  SMBSRV_CLUSTER_OP_DELETE_CLEARED, 0, 0, &a,
				  NULL);
}

bool smbsrv_cluster_opened(struct inode *inode)
{
	struct smb_cluster_agg a;

	if (smbsrv_cluster_fenced())
		return true;
	smb_cluster_agg_init(&a);
	return smbsrv_cluster_ask_ino(inode->i_ino, NULL,
				      SMBSRV_CLUSTER_OP_OPENED, 0, 0, &a,
				      NULL) != STATUS_SUCCESS;
}

bool smbsrv_cluster_open_below(struct inode *dir)
{
	struct smb_cluster_agg a;

	if (smbsrv_cluster_fenced())
		return true;
	smb_cluster_agg_init(&a);
	return smbsrv_cluster_ask_ino(dir->i_ino, NULL,
				      SMBSRV_CLUSTER_OP_RENAME_CHECK, 0, 0, &a,
				      NULL) != STATUS_SUCCESS;
}

void smbsrv_cluster_break_handles(struct smbsrv_fnode *fn)
{
	struct smb_cluster_agg a;

	if (!READ_ONCE(fn->cview) || smbsrv_cluster_fenced())
		return;
	smb_cluster_agg_init(&a);
	smbsrv_cluster_ask(fn, SMBSRV_CLUSTER_OP_HANDLES, 0, 0, &a, NULL);
}

/* Another node set (@pending) or cleared @fn's pending deletion. */
static void smbsrv_cluster_remote_delete(struct smbsrv_fnode *fn,
					 bool pending)
{
	const struct smbsrv_cluster_cache_ops *ops = READ_ONCE(smbsrv_cluster_cache);
	const struct cred *cred = NULL;
	bool now = false;

	spin_lock(&fn->lock);
	if (pending && !fn->delete_pending) {
		/* No rights of its own here: the last close's remove it. */
		fn->delete_pending = true;
		now = true;
	} else if (!pending && fn->delete_pending) {
		fn->delete_pending = false;
		cred = fn->delete_cred;
		fn->delete_cred = NULL;
	}
	spin_unlock(&fn->lock);
	if (cred)
		put_cred(cred);
	/* Cached handles keep a file pending deletion (cache.c). */
	if (now && ops)
		ops->drop(fn, SMB2_LEASE_HANDLE);
}

/*
 * cluster-view: another node's byte-range locks of a file, applied before
 * the daemon acknowledges the notify that brought them; or another node's
 * break of this node's caching of it, or its wake, or the file's pending
 * deletion set or cleared there; or a directory's rename, refused with
 * -EBUSY while anything below it is open here; or a directory's mark
 * (cluster_dir.c) or change through another node.  A file not open here
 * has nothing to keep, break or wake.
 */
int smbsrv_nl_cluster_view_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct smbsrv_cluster_cache_ops *ops = READ_ONCE(smbsrv_cluster_cache);
	u32 kind = SMBSRV_CLUSTER_PUSH_LOCKS;
	struct nlattr **a = info->attrs;
	const char *stream = NULL;
	struct smbsrv_fnode *fn;
	const void *locks = NULL;
	int n = 0, err = 0;

	if (!smbsrv_cluster_on())
		return -EOPNOTSUPP;
	if (GENL_REQ_ATTR_CHECK(info, SMBSRV_A_CLUSTER_INO) ||
	    GENL_REQ_ATTR_CHECK(info, SMBSRV_A_CLUSTER_NODE) ||
	    GENL_REQ_ATTR_CHECK(info, SMBSRV_A_CLUSTER_VERSION))
		return -EINVAL;
	if (a[SMBSRV_A_CLUSTER_LOCKS]) {
		locks = nla_data(a[SMBSRV_A_CLUSTER_LOCKS]);
		n = smb_cluster_locks_check(locks,
					    nla_len(a[SMBSRV_A_CLUSTER_LOCKS]));
		if (n < 0) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    a[SMBSRV_A_CLUSTER_LOCKS],
					    "malformed lock list");
			return -EINVAL;
		}
	}
	if (a[SMBSRV_A_CLUSTER_PUSH])
		kind = nla_get_u32(a[SMBSRV_A_CLUSTER_PUSH]);
	if (kind == SMBSRV_CLUSTER_PUSH_BREAK &&
	    GENL_REQ_ATTR_CHECK(info, SMBSRV_A_CLUSTER_CACHING))
		return -EINVAL;
	/* Another node renames a directory: anything open below it here? */
	if (kind == SMBSRV_CLUSTER_PUSH_RENAME_CHECK)
		return smbsrv_ino_open_below(nla_get_u64(a[SMBSRV_A_CLUSTER_INO])) ?
		       -EBUSY : 0;
	if (kind == SMBSRV_CLUSTER_PUSH_DIRMARK) {
		if (GENL_REQ_ATTR_CHECK(info, SMBSRV_A_CLUSTER_CACHING))
			return -EINVAL;
		smbsrv_cluster_dir_mark(nla_get_u64(a[SMBSRV_A_CLUSTER_INO]),
					nla_get_u32(a[SMBSRV_A_CLUSTER_CACHING]));
		return 0;
	}
	if (a[SMBSRV_A_CLUSTER_STREAM])
		stream = nla_data(a[SMBSRV_A_CLUSTER_STREAM]);
	fn = smbsrv_fnode_find_ino(nla_get_u64(a[SMBSRV_A_CLUSTER_INO]),
				   stream);
	if (!fn)
		return 0;
	switch (kind) {
	case SMBSRV_CLUSTER_PUSH_LOCKS:
		err = smbsrv_brl_remote(&fn->brl,
					nla_data(a[SMBSRV_A_CLUSTER_NODE]),
					nla_get_u64(a[SMBSRV_A_CLUSTER_VERSION]),
					locks, n);
		break;
	case SMBSRV_CLUSTER_PUSH_BREAK:
		if (ops)
			ops->drop(fn, nla_get_u32(a[SMBSRV_A_CLUSTER_CACHING]));
		break;
	case SMBSRV_CLUSTER_PUSH_WAKE:
		if (ops)
			ops->wake(fn);
		break;
	case SMBSRV_CLUSTER_PUSH_DELETE:
	case SMBSRV_CLUSTER_PUSH_UNDELETE:
		smbsrv_cluster_remote_delete(fn, kind == SMBSRV_CLUSTER_PUSH_DELETE);
		break;
	case SMBSRV_CLUSTER_PUSH_DIRCHANGE:
		if (ops && !fn->stream && S_ISDIR(fn->inode->i_mode))
			ops->dir_changed(fn);
		break;
	}
	smbsrv_fnode_put(fn);
	return err;
}
