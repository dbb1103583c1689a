// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: breaks in progress and their deadlines (see brk.h).
 *
 * smbsrv_brk_lock is taken alone or inside an fnode's spinlock.
 */
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "brk.h"
#include "smbsrv.h"

static DEFINE_SPINLOCK(smbsrv_brk_lock);
static LIST_HEAD(smbsrv_brk_list);
static struct delayed_work smbsrv_brk_work;
static const struct smbsrv_brk_ops *smbsrv_brk_ops;

void smbsrv_brk_start(struct smbsrv_brk *b)
{
	bool first;

	spin_lock(&smbsrv_brk_lock);
	if (list_empty(&b->node)) {
		first = list_empty(&smbsrv_brk_list);
		b->deadline = jiffies + SMBSRV_BREAK_TIMEOUT;
		list_add_tail(&b->node, &smbsrv_brk_list);
		/* Deadlines only grow: the head is always the next one. */
		if (first)
			mod_delayed_work(smbsrv_ctl_wq, &smbsrv_brk_work,
					 SMBSRV_BREAK_TIMEOUT);
	}
	spin_unlock(&smbsrv_brk_lock);
}

void smbsrv_brk_restart(struct smbsrv_brk *b)
{
	smbsrv_brk_stop(b);
	smbsrv_brk_start(b);
}

void smbsrv_brk_stop(struct smbsrv_brk *b)
{
	spin_lock(&smbsrv_brk_lock);
	list_del_init(&b->node);
	spin_unlock(&smbsrv_brk_lock);
}

static void smbsrv_brk_timeout(struct work_struct *work)
{
	unsigned long deadline;
	struct smbsrv_brk *b;

	for (;;) {
		spin_lock(&smbsrv_brk_lock);
		b = list_first_entry_or_null(&smbsrv_brk_list,
					     struct smbsrv_brk, node);
		if (b && time_before(jiffies, b->deadline))
			mod_delayed_work(smbsrv_ctl_wq, &smbsrv_brk_work,
					 b->deadline - jiffies);
		if (!b || time_before(jiffies, b->deadline)) {
			spin_unlock(&smbsrv_brk_lock);
			return;
		}
		list_del_init(&b->node);
		deadline = b->deadline;
		/* Whatever is on the list is alive: hold it for the work. */
		smbsrv_brk_ops->hold(b);
		spin_unlock(&smbsrv_brk_lock);
		smbsrv_brk_ops->expire(b, deadline);
		smbsrv_brk_ops->put(b);
	}
}

void smbsrv_brk_init(const struct smbsrv_brk_ops *ops)
{
	smbsrv_brk_ops = ops;
	INIT_DELAYED_WORK(&smbsrv_brk_work, smbsrv_brk_timeout);
}

void smbsrv_brk_exit(void)
{
	cancel_delayed_work_sync(&smbsrv_brk_work);
	WARN_ON(!list_empty(&smbsrv_brk_list));
}
