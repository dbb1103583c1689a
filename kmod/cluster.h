/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: cluster mode (Documentation/design-cluster.md).
 *
 * With clustering on (the daemon's start-up says so; never off again for
 * the module's life), an fnode's share modes are checked against the
 * other nodes' through the daemon, which keeps this node's aggregate of
 * its opens of each file in the cluster state store.  Each fnode gets a
 * view at its first open: the aggregate last recorded and a mutex that
 * orders this node's changes of it.  A new open that leaves the aggregate
 * as recorded costs nothing (the fast path); one that changes it, and a
 * close that changes it, costs one upcall.  Off, every entry point is
 * one patched-out branch (a static key) and the fnode's view stays NULL.
 */
#ifndef _SMBSRV_CLUSTER_H
#define _SMBSRV_CLUSTER_H

#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "wire/cluster.h"

struct inode;
struct smbsrv_file;
struct smbsrv_fnode;

DECLARE_STATIC_KEY_FALSE(smbsrv_clustering);

static inline bool smbsrv_cluster_on(void)
{
	return static_branch_unlikely(&smbsrv_clustering);
}

/* The daemon's start-up asked for cluster mode. */
void smbsrv_cluster_enable(void);

struct smbsrv_cluster_view {
	struct mutex lock;		/* orders changes of @rec */
	struct smb_cluster_agg rec;	/* what the store has of this node */
	struct smbsrv_fnode *fn;	/* whose view this is */
	struct work_struct sync;	/* records the caching gone down */
	/* A directory: the store says this node leases it (cluster_dir.c). */
	bool dirlease;
};

/*
 * smbsrv_fnode_add() of @f to @fn, then the cluster's check when the
 * node's aggregate changes; @f is off @fn's opens again unless it
 * returns STATUS_SUCCESS.  SMBSRV_CACHE_WAIT: another node's holders are
 * breaking their caching, the CREATE parks on *@wait (referenced) until
 * its generation moves on from *@gen (smbsrv_cache_wait_park()) and runs
 * again.  May sleep (an upcall).
 */
u32 smbsrv_cluster_add(struct smbsrv_fnode *fn, struct smbsrv_file *f,
		       struct smbsrv_fnode **wait, u32 *gen);

/*
 * Client caching across nodes (design-cluster.md): the file's record
 * stands in for the kernel lease (klease.c), which CephFS does not give.
 * cache.c registers these at its init; cluster.c reaches it only through
 * them.
 */
struct smbsrv_cluster_cache_ops {
	/* The strongest caching @fn's holders have, as lease bits. */
	u32 (*held)(struct smbsrv_fnode *fn);
	/*
	 * Another node opens @fn: its holders give up the lease bits @bits,
	 * as for a local process's open (breaks sent, not waited for).
	 */
	void (*drop)(struct smbsrv_fnode *fn, u32 bits);
	/* Another node's caching of @fn went down: its CREATEs run again. */
	void (*wake)(struct smbsrv_fnode *fn);
	/* Directory @fn changed through another node: its leases break. */
	void (*dir_changed)(struct smbsrv_fnode *fn);
};

void smbsrv_cluster_set_cache_ops(const struct smbsrv_cluster_cache_ops *ops);

/*
 * Before granting caching that needs *@type (F_RDLCK, F_WRLCK) on @fn, a
 * file or stream: have the node's record carry it, as far as the other
 * nodes' opens allow (0 RTT when it does already).  *@type becomes what
 * is covered.  A directory: have the store record the node's lease and
 * every node mark it (op dir-lease; 0 RTT when recorded already): their
 * changes of it then break the lease (cluster_dir.c).  The view
 * returned (NULL: none, *@type F_UNLCK) stays locked, so that no record
 * of lower caching overtakes the grant, until smbsrv_cluster_raised().
 * May sleep.
 */
struct smbsrv_cluster_view *smbsrv_cluster_raise(struct smbsrv_fnode *fn,
						 int *type);
void smbsrv_cluster_raised(struct smbsrv_fnode *fn,
			   struct smbsrv_cluster_view *v);
/*
 * The holders' caching of @fn may have gone down: record it (from a
 * work item: never waits; the nodes waiting for it are woken by the
 * daemon).
 */
void smbsrv_cluster_sync(struct smbsrv_fnode *fn);

/*
 * Around taking an open off @fn's opens (under fn->lock, by the
 * caller): lock returns the view (NULL: the fnode has none, nothing to
 * do), which the caller passes to closed (never NULL) to record the new
 * aggregate if it changed and unlock.  May sleep.
 */
struct smbsrv_cluster_view *smbsrv_cluster_lock(struct smbsrv_fnode *fn);
void smbsrv_cluster_closed(struct smbsrv_fnode *fn,
			   struct smbsrv_cluster_view *v);

static inline void smbsrv_cluster_unlock(struct smbsrv_cluster_view *v)
{
	mutex_unlock(&v->lock);
}

/*
 * Delete on close across nodes (design-cluster.md): as
 * smbsrv_cluster_closed(), for the node's last close of @fn while it is
 * pending deletion: whether this close is the last one cluster-wide and
 * removes the name (the record's pending deletion goes with it).  When
 * another node still has it open, the deletion stays in the record
 * (pushed to that node, whose last close removes it) and this returns
 * false; also when the store cannot answer (the name stays).  May sleep.
 */
bool smbsrv_cluster_closed_last(struct smbsrv_fnode *fn,
				struct smbsrv_cluster_view *v);
/*
 * Under @v (smbsrv_cluster_lock()), as @fn's pending deletion changes to
 * @pending on this node: record it and tell the other nodes with the
 * file open (they then refuse new opens with DELETE_PENDING and break
 * their holders' handle caching).  STATUS_SUCCESS, or why not.  May
 * sleep.
 */
u32 smbsrv_cluster_delete_pending(struct smbsrv_fnode *fn,
				  struct smbsrv_cluster_view *v, bool pending);
/*
 * Whether another node has @inode open (with data access: what its
 * record keeps): a rename does not replace it.  True when the store
 * cannot answer.  May sleep.
 */
bool smbsrv_cluster_opened(struct inode *inode);
/*
 * Before the directory @dir is renamed: whether another node has anything
 * below it open (one notify to every node).  True when the store cannot
 * answer.  May sleep.
 */
bool smbsrv_cluster_open_below(struct inode *dir);
/*
 * @fn was renamed: the other nodes' holders give up handle caching of it,
 * as this node's (smbsrv_cache_break_handles()).  May sleep.
 */
void smbsrv_cluster_break_handles(struct smbsrv_fnode *fn);

/* The fnode's view goes with it (fnode.c frees it: kfree()). */

/*
 * Liveness (design-cluster.md, "Liveness, node loss, partitions"): the
 * daemon renews the node's lease in the store and passes on a deadline
 * (cluster-alive); one that passes unrenewed fences the node: every
 * connection is closed, disconnected durable opens expire, tree connects
 * to disk shares and opens that need the store are refused, and closes
 * no longer ask the store (its records of this node are about to be
 * reaped), until the next cluster-alive.  A deadline already past fences
 * at once (the daemon leaving cleanly).
 */
void smbsrv_cluster_alive(u64 deadline_ns, u64 incarnation);
/* The deadline and incarnation in force (0, 0: none, or fenced). */
void smbsrv_cluster_alive_get(u64 *deadline_ns, u64 *incarnation);

extern bool smbsrv_cluster_fenced_flag;

static inline bool smbsrv_cluster_fenced(void)
{
	return smbsrv_cluster_on() && READ_ONCE(smbsrv_cluster_fenced_flag);
}

/*
 * A tree of a clustered share was connected on @mnt: the fence syncs its
 * file system (best effort, before the survivors blocklist the node's
 * CephFS client), then lets it go.  At most SMBSRV_CLUSTER_MOUNTS file
 * systems are kept (every share of a node in cluster mode is on the
 * cluster's one CephFS).
 */
struct vfsmount;
#define SMBSRV_CLUSTER_MOUNTS 8
void smbsrv_cluster_mount(struct vfsmount *mnt);

/*
 * Directory leases held through other nodes (cluster_dir.c): the
 * daemon marks directory @ino (cluster-view dirmark) while another node
 * leases it; a change of a marked directory made here is reported to the
 * daemon from a work item (op dir-changed), which tells the holders.
 * dir_changed takes any directory: an unmarked one costs a lookup, and
 * nothing while none is marked.  dir_watch: a tree of a clustered share
 * was connected on @mnt, whose changes are to be seen.
 */
void smbsrv_cluster_dir_mark(u64 ino, bool on);
void smbsrv_cluster_dir_changed(u64 ino);
void smbsrv_cluster_dir_watch(struct vfsmount *mnt);
void smbsrv_cluster_dir_exit(void);

/* Module exit: no fence runs after this. */
void smbsrv_cluster_exit(void);

#endif /* _SMBSRV_CLUSTER_H */
