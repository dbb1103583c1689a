// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: per-share tree counts (share.h).
 *
 * A small list under a spinlock: one entry per share that has trees, so
 * its length is bounded by the configured shares in use, and each tree
 * connect walks it once.
 */
#include <linux/err.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <net/netlink.h>
#include <uapi/linux/smbsrv.h>

#include "share.h"

struct smbsrv_share_use {
	struct list_head node;
	u32 trees;
	u32 max;		/* the limit at the latest tree connect */
	char name[];
};

static LIST_HEAD(smbsrv_share_uses);
static DEFINE_SPINLOCK(smbsrv_share_uses_lock);

static struct smbsrv_share_use *smbsrv_share_use_find(const char *name)
{
	struct smbsrv_share_use *u;

	lockdep_assert_held(&smbsrv_share_uses_lock);
	list_for_each_entry(u, &smbsrv_share_uses, node)
		if (!strcasecmp(u->name, name))
			return u;
	return NULL;
}

struct smbsrv_share_use *smbsrv_share_use_get(const char *name, u32 max)
{
	struct smbsrv_share_use *u, *fresh;
	size_t len = strlen(name);

	fresh = kmalloc(struct_size(fresh, name, len + 1), GFP_KERNEL);
	if (!fresh)
		return ERR_PTR(-ENOMEM);
	spin_lock(&smbsrv_share_uses_lock);
	u = smbsrv_share_use_find(name);
	if (!u) {
		u = fresh;
		fresh = NULL;
		u->trees = 0;
		memcpy(u->name, name, len + 1);
		list_add(&u->node, &smbsrv_share_uses);
	}
	u->max = max;
	/* At the limit the entry has trees (max > 0): it stays. */
	if (max && u->trees >= max)
		u = ERR_PTR(-EUSERS);
	else
		u->trees++;
	spin_unlock(&smbsrv_share_uses_lock);
	kfree(fresh);
	return u;
}

void smbsrv_share_use_put(struct smbsrv_share_use *u)
{
	bool last;

	spin_lock(&smbsrv_share_uses_lock);
	last = !--u->trees;
	if (last)
		list_del(&u->node);
	spin_unlock(&smbsrv_share_uses_lock);
	if (last)
		kfree(u);
}

void smbsrv_share_use_put_all(struct sk_buff *msg, int type)
{
	struct smbsrv_share_use *u;
	struct nlattr *nest;

	spin_lock(&smbsrv_share_uses_lock);
	list_for_each_entry(u, &smbsrv_share_uses, node) {
		nest = nla_nest_start(msg, type);
		if (!nest)
			break;
		if (nla_put_string(msg, SMBSRV_A_SHARE_USE_NAME, u->name) ||
		    nla_put_u32(msg, SMBSRV_A_SHARE_USE_TREES, u->trees) ||
		    nla_put_u32(msg, SMBSRV_A_SHARE_USE_MAX_CONNECTIONS,
				u->max)) {
			nla_nest_cancel(msg, nest);
			break;
		}
		nla_nest_end(msg, nest);
	}
	spin_unlock(&smbsrv_share_uses_lock);
}
