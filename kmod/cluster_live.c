// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: cluster mode's liveness and fence (see cluster.h): the deadline
 * the daemon passes on after each renewal of the node's lease in the
 * store, and what the module does when it passes unrenewed.
 */
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
	spin_lock(&smbsrv_cluster_live_lock);
	smbsrv_cluster_exiting = true;
	spin_unlock(&smbsrv_cluster_live_lock);
	cancel_delayed_work_sync(&smbsrv_cluster_fence_work);
}
