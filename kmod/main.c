// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: an SMB2/SMB3 file server.  Module init/exit and server state.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

#include "budget.h"
#include "cache.h"
#include "cluster.h"
#include "conn.h"
#include "crypto.h"
#include "durable.h"
#include "fold.h"
#include "hosts.h"
#include "netlink.h"
#include "recv.h"
#include "sched.h"
#include "session.h"
#include "smb2/entry.h"
#include "smbsrv.h"
#include "times.h"
#include "transport.h"

struct smbsrv_server smbsrv_server = {
	.lock = __MUTEX_INITIALIZER(smbsrv_server.lock),
};

/* Listener accept work and other control-plane work. */
struct workqueue_struct *smbsrv_ctl_wq;

static int __init smbsrv_init(void)
{
	int err;

	smbsrv_knobs_init(&smbsrv_server.knobs);
	err = smbsrv_crypto_init();
	if (err)
		return err;
	smbsrv_ctl_wq = alloc_workqueue("smbsrv-ctl", WQ_MEM_RECLAIM, 0);
	if (!smbsrv_ctl_wq) {
		err = -ENOMEM;
		goto err_crypto;
	}
	err = smbsrv_sched_init();
	if (err)
		goto err_wq;
	err = smbsrv_recv_cache_init();
	if (err)
		goto err_sched;
	err = smbsrv_smb2_init();
	if (err)
		goto err_recv;
	err = smbsrv_cache_init();
	if (err)
		goto err_smb2;
	smbsrv_durable_init();

	err = smbsrv_netlink_init();
	if (err)
		goto err_cache;

	pr_info("smbsrv: version %s loaded\n", SMBSRV_VERSION);
	return 0;

err_cache:
	smbsrv_durable_exit();
	smbsrv_cache_exit();
err_smb2:
	smbsrv_smb2_exit();
err_recv:
	smbsrv_recv_cache_exit();
err_sched:
	smbsrv_sched_exit();
err_wq:
	destroy_workqueue(smbsrv_ctl_wq);
err_crypto:
	smbsrv_crypto_exit();
	return err;
}

static void __exit smbsrv_exit(void)
{
	/*
	 * No netlink request can start or move the listener after this, and
	 * every upcall fails.
	 */
	smbsrv_netlink_exit();
	smbsrv_cluster_exit();

	mutex_lock(&smbsrv_server.lock);
	smbsrv_listener_stop(smbsrv_server.listener);
	smbsrv_server.listener = NULL;
	mutex_unlock(&smbsrv_server.lock);

	/* No connection is accepted any more: close the ones there are. */
	smbsrv_conns_exit();
	smbsrv_sessions_exit();
	smbsrv_durable_exit();
	smbsrv_cache_exit();
	smbsrv_smb2_exit();
	smbsrv_recv_cache_exit();
	smbsrv_sched_exit();
	destroy_workqueue(smbsrv_ctl_wq);
	smbsrv_budget_exit();
	smbsrv_fold_exit();
	smbsrv_times_exit();
	smbsrv_negotiate_blob_exit();
	smbsrv_hosts_exit();
	smbsrv_crypto_exit();
	pr_info("smbsrv: unloaded\n");
}

module_init(smbsrv_init);
module_exit(smbsrv_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("smbsrv developers");
MODULE_DESCRIPTION("SMB2/SMB3 file server");
MODULE_VERSION(SMBSRV_VERSION);
/*
 * No MODULE_ALIAS_GENL_FAMILY: resolving the family must not load the
 * module behind the admin's back; smbsrvd tells them to load it instead.
 */
