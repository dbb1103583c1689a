// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: cluster mode's liveness and fence (see cluster.h): the deadline
 * the daemon passes on after each renewal of the node's lease in the
 * store, and what the module does when it passes unrenewed.
 */
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/mount.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "cluster.h"
#include "conn.h"
#include "durable.h"
#include "smbsrv.h"

/* --- liveness and fence ------------------------------------------------ */

bool smbsrv_cluster_fenced_flag;
static DEFINE_SPINLOCK(smbsrv_cluster_live_lock);
static u64 smbsrv_cluster_deadline;	/* CLOCK_MONOTONIC ns; 0: none */
static u64 smbsrv_cluster_inc;
static bool smbsrv_cluster_exiting;

static void smbsrv_cluster_fence(struct work_struct *work);
static DECLARE_DELAYED_WORK(smbsrv_cluster_fence_work, smbsrv_cluster_fence);

/* The file systems the fence syncs; each entry holds a reference. */
static struct vfsmount *smbsrv_cluster_mnts[SMBSRV_CLUSTER_MOUNTS];
static DEFINE_SPINLOCK(smbsrv_cluster_mnts_lock);

void smbsrv_cluster_mount(struct vfsmount *mnt)
{
	int i, slot = -1;

	spin_lock(&smbsrv_cluster_mnts_lock);
	for (i = 0; i < ARRAY_SIZE(smbsrv_cluster_mnts); i++) {
		if (smbsrv_cluster_mnts[i] &&
		    smbsrv_cluster_mnts[i]->mnt_sb == mnt->mnt_sb) {
			spin_unlock(&smbsrv_cluster_mnts_lock);
			return;
		}
		if (!smbsrv_cluster_mnts[i] && slot < 0)
			slot = i;
	}
	if (slot >= 0)
		smbsrv_cluster_mnts[slot] = mntget(mnt);
	spin_unlock(&smbsrv_cluster_mnts_lock);
	if (slot < 0)
		pr_warn_once("smbsrv: cluster: shares on more than %d file systems: the fence syncs the first %d only\n",
			     SMBSRV_CLUSTER_MOUNTS, SMBSRV_CLUSTER_MOUNTS);
	smbsrv_cluster_dir_watch(mnt);
}

/* Take the recorded file systems: the caller syncs and puts them. */
static int smbsrv_cluster_mounts_take(struct vfsmount **mnts)
{
	int i, n = 0;

	spin_lock(&smbsrv_cluster_mnts_lock);
	for (i = 0; i < ARRAY_SIZE(smbsrv_cluster_mnts); i++) {
		if (smbsrv_cluster_mnts[i])
			mnts[n++] = smbsrv_cluster_mnts[i];
		smbsrv_cluster_mnts[i] = NULL;
	}
	spin_unlock(&smbsrv_cluster_mnts_lock);
	return n;
}

/*
 * After the fence: write back what the node's clients were told is
 * written while its CephFS client may still write (the survivors
 * blocklist it only after its lease in the store expired, seconds after
 * the deadline).  A node cut off from the store waits here until its
 * client is blocklisted or the store is back: in its own work item, so
 * nothing else waits for it.
 */
static void smbsrv_cluster_fence_sync(struct work_struct *work)
{
	struct vfsmount *mnts[SMBSRV_CLUSTER_MOUNTS];
	u64 t0 = ktime_get_ns();
	int i, n, failed = 0;

	n = smbsrv_cluster_mounts_take(mnts);
	for (i = 0; i < n; i++) {
		struct super_block *sb = mnts[i]->mnt_sb;

		down_read(&sb->s_umount);
		if (sync_filesystem(sb))
			failed++;
		up_read(&sb->s_umount);
		mntput(mnts[i]);
	}
	pr_info("smbsrv: cluster: fenced: %d of %d file systems synced in %llu ms\n",
		n - failed, n, div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
}

static DECLARE_WORK(smbsrv_cluster_fence_sync_work, smbsrv_cluster_fence_sync);

static void smbsrv_cluster_fence(struct work_struct *work)
{
	u64 now = ktime_get_ns();

	spin_lock(&smbsrv_cluster_live_lock);
	if (!smbsrv_cluster_deadline || smbsrv_cluster_exiting) {
		spin_unlock(&smbsrv_cluster_live_lock);
		return;
	}
	if (now < smbsrv_cluster_deadline) {
		/* Renewed meanwhile: wait for the new deadline. */
		mod_delayed_work(system_wq, &smbsrv_cluster_fence_work,
				 nsecs_to_jiffies(smbsrv_cluster_deadline - now));
		spin_unlock(&smbsrv_cluster_live_lock);
		return;
	}
	smbsrv_cluster_deadline = 0;
	smbsrv_cluster_inc = 0;
	WRITE_ONCE(smbsrv_cluster_fenced_flag, true);
	spin_unlock(&smbsrv_cluster_live_lock);
	pr_warn("smbsrv: cluster: the node's lease was not renewed in time: fenced (every connection closed, shares refused)\n");
	smbsrv_conns_close_all();
	/* Their durable opens were kept on the way out: not here. */
	flush_workqueue(smbsrv_ctl_wq);
	smbsrv_durable_expire_all();
	queue_work(system_unbound_wq, &smbsrv_cluster_fence_sync_work);
}

void smbsrv_cluster_alive(u64 deadline_ns, u64 incarnation)
{
	u64 now = ktime_get_ns();
	bool was;

	spin_lock(&smbsrv_cluster_live_lock);
	if (smbsrv_cluster_exiting) {
		spin_unlock(&smbsrv_cluster_live_lock);
		return;
	}
	was = smbsrv_cluster_fenced_flag;
	smbsrv_cluster_deadline = deadline_ns ? deadline_ns : 1;
	smbsrv_cluster_inc = incarnation;
	if (deadline_ns > now)
		WRITE_ONCE(smbsrv_cluster_fenced_flag, false);
	mod_delayed_work(system_wq, &smbsrv_cluster_fence_work,
			 deadline_ns > now ?
			 nsecs_to_jiffies(deadline_ns - now) : 0);
	spin_unlock(&smbsrv_cluster_live_lock);
	if (was && deadline_ns > now)
		pr_info("smbsrv: cluster: the node's lease is renewed: serving again\n");
}

void smbsrv_cluster_alive_get(u64 *deadline_ns, u64 *incarnation)
{
	spin_lock(&smbsrv_cluster_live_lock);
	*deadline_ns = smbsrv_cluster_deadline;
	*incarnation = smbsrv_cluster_inc;
	spin_unlock(&smbsrv_cluster_live_lock);
}

void smbsrv_cluster_exit(void)
{
	struct vfsmount *mnts[SMBSRV_CLUSTER_MOUNTS];
	int n;

	spin_lock(&smbsrv_cluster_live_lock);
	smbsrv_cluster_exiting = true;
	spin_unlock(&smbsrv_cluster_live_lock);
	cancel_delayed_work_sync(&smbsrv_cluster_fence_work);
	flush_work(&smbsrv_cluster_fence_sync_work);
	n = smbsrv_cluster_mounts_take(mnts);
	while (n--)
		mntput(mnts[n]);
	smbsrv_cluster_dir_exit();
}
