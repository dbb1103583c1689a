// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the server-wide budget of opens (see budget.h).
 *
 * One lock for the count and the users' table: taken twice per open, the
 * cost of a CREATE is its path walk, not this.  A user's entry lives
 * while it has opens.
 */
#include <linux/hashtable.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "budget.h"
#include "smbsrv.h"

struct smbsrv_budget_user {
	struct hlist_node node;
	kuid_t uid;
	u32 opens;
};

#define SMBSRV_BUDGET_HASH_BITS	6

static DEFINE_SPINLOCK(smbsrv_budget_lock);
static DEFINE_HASHTABLE(smbsrv_budget_users, SMBSRV_BUDGET_HASH_BITS);
static u32 smbsrv_budget_opens;
static u64 smbsrv_budget_refused;
static u64 smbsrv_budget_refused_user;

static struct smbsrv_budget_user *smbsrv_budget_find(kuid_t uid)
{
	struct smbsrv_budget_user *u;

	hash_for_each_possible(smbsrv_budget_users, u, node, __kuid_val(uid))
		if (uid_eq(u->uid, uid))
			return u;
	return NULL;
}

int smbsrv_budget_charge(kuid_t uid, struct smbsrv_budget_user **bu)
{
	u32 max = READ_ONCE(smbsrv_server.knobs.server_max_open_files);
	u32 umax = READ_ONCE(smbsrv_server.knobs.max_open_files_per_user);
	struct smbsrv_budget_user *u, *fresh = NULL;
	const char *why = NULL;

again:
	spin_lock(&smbsrv_budget_lock);
	u = smbsrv_budget_find(uid);
	if (!u && !fresh) {
		spin_unlock(&smbsrv_budget_lock);
		fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
		if (!fresh)
			return -ENOMEM;
		goto again;
	}
	if (max && smbsrv_budget_opens >= max) {
		smbsrv_budget_refused++;
		why = "server max open files";
	} else if (umax && u && u->opens >= umax) {
		smbsrv_budget_refused_user++;
		why = "max open files per user";
	} else {
		if (!u) {
			u = fresh;
			fresh = NULL;
			u->uid = uid;
			hash_add(smbsrv_budget_users, &u->node, __kuid_val(uid));
		}
		u->opens++;
		smbsrv_budget_opens++;
		*bu = u;
	}
	spin_unlock(&smbsrv_budget_lock);
	kfree(fresh);
	if (!why)
		return 0;
	pr_info_ratelimited("smbsrv: open of uid %u refused (%s)\n",
			    from_kuid(&init_user_ns, uid), why);
	return -ENFILE;
}

void smbsrv_budget_uncharge(struct smbsrv_budget_user *bu)
{
	spin_lock(&smbsrv_budget_lock);
	smbsrv_budget_opens--;
	if (!--bu->opens)
		hash_del(&bu->node);
	else
		bu = NULL;
	spin_unlock(&smbsrv_budget_lock);
	kfree(bu);
}

void smbsrv_budget_stats(struct smbsrv_budget_stats *st)
{
	spin_lock(&smbsrv_budget_lock);
	st->opens = smbsrv_budget_opens;
	st->refused = smbsrv_budget_refused;
	st->refused_user = smbsrv_budget_refused_user;
	spin_unlock(&smbsrv_budget_lock);
}

void smbsrv_budget_exit(void)
{
	WARN_ON(smbsrv_budget_opens);
}
