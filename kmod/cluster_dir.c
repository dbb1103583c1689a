// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: cluster mode, directory leases held through other nodes
 * (Documentation/design-cluster.md, "Directory leases").
 *
 * fsnotify sees only this node's changes, so a directory leased through
 * another node is marked here (the daemon's cluster-view dirmark, applied
 * before the holder grants), and a change of a marked directory made on
 * this node is reported to the daemon (cluster-req dir-changed, from a
 * work item: nobody waits), which tells the holders.  The changes are
 * seen by one fsnotify mark per clustered file system (a superblock
 * mark, made when a tree of it is first connected, holding the mount
 * until the module goes) with the events the one-node marks of klease.c
 * watch; while no directory is marked, an event costs one atomic read.
 * A file modified through this node is reported at its close, as
 * cache.c breaks the local leases of its directory then
 * (smbsrv_cluster_dir_changed()).
 */
#include <linux/fsnotify_backend.h>
#include <linux/hashtable.h>
#include <linux/mount.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <uapi/linux/smbsrv.h>

#include "cluster.h"
#include "smbsrv.h"
#include "upcall.h"

#define SMBSRV_CLUSTER_DIR_EVENTS	(FS_CREATE | FS_DELETE | \
					 FS_MOVED_FROM | FS_MOVED_TO)
#define SMBSRV_CLUSTER_DIR_BITS	8

/* A directory another node leases (smbsrv_cluster_dir_marks). */
struct smbsrv_cluster_dmark {
	struct hlist_node node;
	u64 ino;
};

/* A directory whose change is to be reported (smbsrv_cluster_dir_todo). */
struct smbsrv_cluster_dchange {
	struct list_head node;
	u64 ino;
};

/* A clustered file system's superblock mark. */
struct smbsrv_cluster_sbmark {
	struct fsnotify_mark mark;	/* first: container_of */
	struct vfsmount *mnt;		/* referenced: no unmount under it */
};

static DEFINE_HASHTABLE(smbsrv_cluster_dir_marks, SMBSRV_CLUSTER_DIR_BITS);
static atomic_t smbsrv_cluster_dir_nr = ATOMIC_INIT(0);
static LIST_HEAD(smbsrv_cluster_dir_todo);
/* The marks and the changes to report. */
static DEFINE_SPINLOCK(smbsrv_cluster_dir_lock);
/* The superblock marks, and their group, under the mutex. */
static struct smbsrv_cluster_sbmark *smbsrv_cluster_sbmarks[SMBSRV_CLUSTER_MOUNTS];
static DEFINE_MUTEX(smbsrv_cluster_sbmarks_mutex);
static struct fsnotify_group *smbsrv_cluster_dir_group;

static void smbsrv_cluster_dir_work(struct work_struct *work);
static DECLARE_WORK(smbsrv_cluster_dir_report, smbsrv_cluster_dir_work);

/* Under smbsrv_cluster_dir_lock. */
static struct smbsrv_cluster_dmark *smbsrv_cluster_dir_find(u64 ino)
{
	struct smbsrv_cluster_dmark *m;

	hash_for_each_possible(smbsrv_cluster_dir_marks, m, node, ino)
		if (m->ino == ino)
			return m;
	return NULL;
}

void smbsrv_cluster_dir_mark(u64 ino, bool on)
{
	struct smbsrv_cluster_dmark *m, *nm = NULL;
	bool lost = false;

	if (on)
		nm = kzalloc(sizeof(*nm), GFP_KERNEL);
	spin_lock(&smbsrv_cluster_dir_lock);
	m = smbsrv_cluster_dir_find(ino);
	if (on && !m) {
		lost = !nm;
		if (nm) {
			nm->ino = ino;
			hash_add(smbsrv_cluster_dir_marks, &nm->node, ino);
			atomic_inc(&smbsrv_cluster_dir_nr);
			nm = NULL;
		}
	} else if (!on && m) {
		hash_del(&m->node);
		atomic_dec(&smbsrv_cluster_dir_nr);
	}
	spin_unlock(&smbsrv_cluster_dir_lock);
	kfree(nm);
	if (!on)
		kfree(m);
	if (lost)
		pr_warn_ratelimited("smbsrv: cluster: no memory to mark directory %llu\n",
				    ino);
}

void smbsrv_cluster_dir_changed(u64 ino)
{
	struct smbsrv_cluster_dchange *c, *nc;
	bool marked;

	if (!atomic_read(&smbsrv_cluster_dir_nr))
		return;
	spin_lock(&smbsrv_cluster_dir_lock);
	marked = smbsrv_cluster_dir_find(ino);
	spin_unlock(&smbsrv_cluster_dir_lock);
	if (!marked)
		return;
	/* Called inside file system changes: no reclaim into them. */
	nc = kzalloc(sizeof(*nc), GFP_NOFS);
	if (!nc)
		return;
	nc->ino = ino;
	spin_lock(&smbsrv_cluster_dir_lock);
	list_for_each_entry(c, &smbsrv_cluster_dir_todo, node)
		if (c->ino == ino)
			goto queued;
	list_add_tail(&nc->node, &smbsrv_cluster_dir_todo);
	nc = NULL;
queued:
	spin_unlock(&smbsrv_cluster_dir_lock);
	kfree(nc);
	queue_work(smbsrv_ctl_wq, &smbsrv_cluster_dir_report);
}

/* Each change queued, one upcall each. */
static void smbsrv_cluster_dir_work(struct work_struct *work)
{
	struct smbsrv_cluster_q q = { .op = SMBSRV_CLUSTER_OP_DIR_CHANGED };
	struct smbsrv_cluster_dchange *c;
	u32 status;

	for (;;) {
		spin_lock(&smbsrv_cluster_dir_lock);
		c = list_first_entry_or_null(&smbsrv_cluster_dir_todo,
					     struct smbsrv_cluster_dchange,
					     node);
		if (c)
			list_del(&c->node);
		spin_unlock(&smbsrv_cluster_dir_lock);
		if (!c)
			return;
		q.ino = c->ino;
		kfree(c);
		if (smbsrv_cluster_fenced())
			continue;
		if (smbsrv_upcall_cluster(&q, &status) || status)
			pr_warn_ratelimited("smbsrv: cluster: a change of directory %llu not reported\n",
					    q.ino);
	}
}

static int smbsrv_cluster_dir_event(struct fsnotify_group *group, u32 mask,
				    const void *data, int data_type,
				    struct inode *dir, const struct qstr *name,
				    u32 cookie, struct fsnotify_iter_info *iter)
{
	if ((mask & SMBSRV_CLUSTER_DIR_EVENTS) && dir)
		smbsrv_cluster_dir_changed(dir->i_ino);
	return 0;
}

static void smbsrv_cluster_dir_free_mark(struct fsnotify_mark *mark)
{
	kfree(container_of(mark, struct smbsrv_cluster_sbmark, mark));
}

static const struct fsnotify_ops smbsrv_cluster_dir_ops = {
	.handle_event = smbsrv_cluster_dir_event,
	.free_mark = smbsrv_cluster_dir_free_mark,
};

void smbsrv_cluster_dir_watch(struct vfsmount *mnt)
{
	struct smbsrv_cluster_sbmark *m;
	int i, slot = -1;

	mutex_lock(&smbsrv_cluster_sbmarks_mutex);
	for (i = 0; i < ARRAY_SIZE(smbsrv_cluster_sbmarks); i++) {
		m = smbsrv_cluster_sbmarks[i];
		if (m && m->mnt->mnt_sb == mnt->mnt_sb)
			goto out;
		if (!m && slot < 0)
			slot = i;
	}
	if (!smbsrv_cluster_dir_group) {
		smbsrv_cluster_dir_group =
			fsnotify_alloc_group(&smbsrv_cluster_dir_ops, 0);
		if (IS_ERR(smbsrv_cluster_dir_group)) {
			smbsrv_cluster_dir_group = NULL;
			goto fail;
		}
	}
	m = slot >= 0 ? kzalloc(sizeof(*m), GFP_KERNEL) : NULL;
	if (!m)
		goto fail;
	fsnotify_init_mark(&m->mark, smbsrv_cluster_dir_group);
	m->mark.mask = SMBSRV_CLUSTER_DIR_EVENTS;
	if (fsnotify_add_mark(&m->mark, mnt->mnt_sb, FSNOTIFY_OBJ_TYPE_SB, 0)) {
		fsnotify_put_mark(&m->mark);	/* frees it */
		goto fail;
	}
	m->mnt = mntget(mnt);
	smbsrv_cluster_sbmarks[slot] = m;
out:
	mutex_unlock(&smbsrv_cluster_sbmarks_mutex);
	return;
fail:
	mutex_unlock(&smbsrv_cluster_sbmarks_mutex);
	pr_warn_once("smbsrv: cluster: cannot watch a file system: changes made here do not break other nodes' directory leases\n");
}

void smbsrv_cluster_dir_exit(void)
{
	struct smbsrv_cluster_dmark *d;
	struct smbsrv_cluster_sbmark *m;
	struct vfsmount *mnt;
	struct hlist_node *tmp;
	int i;

	mutex_lock(&smbsrv_cluster_sbmarks_mutex);
	for (i = 0; i < ARRAY_SIZE(smbsrv_cluster_sbmarks); i++) {
		m = smbsrv_cluster_sbmarks[i];
		if (!m)
			continue;
		smbsrv_cluster_sbmarks[i] = NULL;
		mnt = m->mnt;
		fsnotify_destroy_mark(&m->mark, smbsrv_cluster_dir_group);
		fsnotify_put_mark(&m->mark);
		mntput(mnt);
	}
	if (smbsrv_cluster_dir_group) {
		fsnotify_wait_marks_destroyed();
		fsnotify_put_group(smbsrv_cluster_dir_group);
		smbsrv_cluster_dir_group = NULL;
	}
	mutex_unlock(&smbsrv_cluster_sbmarks_mutex);
	cancel_work_sync(&smbsrv_cluster_dir_report);
	spin_lock(&smbsrv_cluster_dir_lock);
	hash_for_each_safe(smbsrv_cluster_dir_marks, i, tmp, d, node) {
		hash_del(&d->node);
		kfree(d);
	}
	while (!list_empty(&smbsrv_cluster_dir_todo)) {
		struct smbsrv_cluster_dchange *c =
			list_first_entry(&smbsrv_cluster_dir_todo,
					 struct smbsrv_cluster_dchange, node);

		list_del(&c->node);
		kfree(c);
	}
	spin_unlock(&smbsrv_cluster_dir_lock);
	atomic_set(&smbsrv_cluster_dir_nr, 0);
}
