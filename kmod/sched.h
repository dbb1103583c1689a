/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: which workqueue runs what.
 *
 * Every decision about where receive work and requests run is made here,
 * so that routing policies (per-CPU, CPU-scoped unbound, inline) change
 * one file.  Today: one per-CPU bound workqueue; a request runs on the
 * CPU whose softirq saw its bytes arrive.
 */
#ifndef _SMBSRV_SCHED_H
#define _SMBSRV_SCHED_H

#include <linux/workqueue.h>

struct smbsrv_conn;

int smbsrv_sched_init(void);
void smbsrv_sched_exit(void);

/* Queue the connection's receive work. */
void smbsrv_sched_recv(struct smbsrv_conn *conn);
/* Queue the processing of a received message. */
void smbsrv_sched_msg(struct smbsrv_conn *conn, struct work_struct *work);
/* Queue other per-connection work (async completions, teardown steps). */
void smbsrv_sched_other(struct work_struct *work);

#endif /* _SMBSRV_SCHED_H */
