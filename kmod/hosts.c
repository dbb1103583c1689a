// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: "hosts allow" / "hosts deny" at accept time (hosts.h).
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "hosts.h"
#include "wire/hosts.h"

struct smbsrv_host_rules {
	struct rcu_head rcu;
	u32 len;
	u8 data[] __counted_by(len);
};

static struct smbsrv_host_rules __rcu *smbsrv_host_rules;
static DEFINE_SPINLOCK(smbsrv_host_rules_lock);

int smbsrv_hosts_set(const void *rules, u32 len)
{
	struct smbsrv_host_rules *r = NULL, *old;

	if (smb_host_rules_check(rules, len))
		return -EINVAL;
	if (len) {
		r = kmalloc(struct_size(r, data, len), GFP_KERNEL);
		if (!r)
			return -ENOMEM;
		r->len = len;
		memcpy(r->data, rules, len);
	}
	spin_lock(&smbsrv_host_rules_lock);
	old = rcu_replace_pointer(smbsrv_host_rules, r,
				  lockdep_is_held(&smbsrv_host_rules_lock));
	spin_unlock(&smbsrv_host_rules_lock);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

bool smbsrv_hosts_admit(const struct sockaddr_storage *peer)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)peer;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)peer;
	struct smbsrv_host_rules *r;
	bool ok = true;

	rcu_read_lock();
	r = rcu_dereference(smbsrv_host_rules);
	if (r && peer->ss_family == AF_INET)
		ok = smb_host_allowed(r->data, r->len, 4,
				      (const u8 *)&sin->sin_addr.s_addr);
	else if (r && peer->ss_family == AF_INET6)
		ok = smb_host_allowed(r->data, r->len, 6,
				      sin6->sin6_addr.s6_addr);
	rcu_read_unlock();
	return ok;
}

void smbsrv_hosts_exit(void)
{
	kfree(rcu_dereference_protected(smbsrv_host_rules, true));
	RCU_INIT_POINTER(smbsrv_host_rules, NULL);
}
