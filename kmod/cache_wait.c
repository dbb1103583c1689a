// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: requests waiting for client caching to change (see cache.h):
 * CREATEs parked on an fnode until the breaks they caused are answered
 * (smb2/oplock.c owns the request).  None waits in a worker: parked, a
 * CREATE costs its memory, and nothing else, for the 35 s a break may
 * take.
 *
 * smbsrv_wait_lock (the parked lists and each wait's state) is taken
 * inside an fnode's spinlock or alone.
 */
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "cache.h"
#include "fnode.h"
#include "sched.h"
#include "wire/ntstatus.h"

static DEFINE_SPINLOCK(smbsrv_wait_lock);

void smbsrv_cache_wait_take(struct smbsrv_fnode *fn, struct list_head *woken)
{
	struct smbsrv_cache_wait *w;

	lockdep_assert_held(&fn->lock);
	spin_lock(&smbsrv_wait_lock);
	list_for_each_entry(w, &fn->cache.waiters, node)
		w->parked = false;
	list_splice_init(&fn->cache.waiters, woken);
	spin_unlock(&smbsrv_wait_lock);
}

void smbsrv_cache_wait_run(struct list_head *woken)
{
	struct smbsrv_cache_wait *w, *tmp;
	struct smbsrv_fnode *fn;

	list_for_each_entry_safe(w, tmp, woken, node) {
		list_del_init(&w->node);
		fn = w->fn;
		w->fn = NULL;
		/* May complete (and free) @w: nothing touches it after. */
		smbsrv_sched_other(&w->work);
		smbsrv_fnode_put(fn);
	}
}

void smbsrv_cache_wait_init(struct smbsrv_cache_wait *w, work_func_t run)
{
	INIT_LIST_HEAD(&w->node);
	INIT_WORK(&w->work, run);
}

u32 smbsrv_cache_wait_park(struct smbsrv_cache_wait *w,
			   struct smbsrv_fnode *fn, u32 gen)
{
	bool again = false, cancelled = false;

	spin_lock(&fn->lock);
	spin_lock(&smbsrv_wait_lock);
	if (w->cancelled) {
		cancelled = true;
	} else if (fn->cache.gen != gen) {
		/* Changed since the decision to wait: look again now. */
		again = true;
	} else {
		w->fn = fn;
		w->parked = true;
		list_add_tail(&w->node, &fn->cache.waiters);
	}
	spin_unlock(&smbsrv_wait_lock);
	spin_unlock(&fn->lock);
	if (cancelled || again)
		smbsrv_fnode_put(fn);
	if (cancelled)
		return STATUS_CANCELLED;
	if (again)
		smbsrv_sched_other(&w->work);
	return STATUS_PENDING;
}

bool smbsrv_cache_wait_cancel(struct smbsrv_cache_wait *w)
{
	struct smbsrv_fnode *fn = NULL;
	bool mine;

	spin_lock(&smbsrv_wait_lock);
	mine = w->parked;
	if (mine) {
		w->parked = false;
		list_del_init(&w->node);
		fn = w->fn;
		w->fn = NULL;
	} else {
		/* Running again right now: it must not park after this. */
		w->cancelled = true;
	}
	spin_unlock(&smbsrv_wait_lock);
	if (mine)
		smbsrv_fnode_put(fn);
	return mine;
}

void smbsrv_cache_wait_release(struct smbsrv_cache_wait *w)
{
	if (w->fn)
		smbsrv_fnode_put(w->fn);
}
