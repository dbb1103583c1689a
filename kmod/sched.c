// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: request routing.
 */
#include <linux/workqueue.h>

#include "conn.h"
#include "sched.h"

static struct workqueue_struct *smbsrv_wq;

int smbsrv_sched_init(void)
{
	/*
	 * Per-CPU and concurrency managed: a worker that sleeps (an upcall,
	 * a disk read) lets another run on its CPU.  WQ_MEM_RECLAIM: the
	 * server must make progress to free memory under writeback.
	 */
	smbsrv_wq = alloc_workqueue("smbsrv", WQ_MEM_RECLAIM, 0);
	return smbsrv_wq ? 0 : -ENOMEM;
}

void smbsrv_sched_exit(void)
{
	destroy_workqueue(smbsrv_wq);
}

void smbsrv_sched_recv(struct smbsrv_conn *conn)
{
	queue_work(smbsrv_wq, &conn->recv_work);
}

void smbsrv_sched_msg(struct smbsrv_conn *conn, struct work_struct *work)
{
	queue_work(smbsrv_wq, work);
}

void smbsrv_sched_other(struct work_struct *work)
{
	queue_work(smbsrv_wq, work);
}
