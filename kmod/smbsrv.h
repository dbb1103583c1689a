/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: server-wide state shared by the module's parts.
 */
#ifndef _SMBSRV_H
#define _SMBSRV_H

#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#define SMBSRV_VERSION "0.1.0"

/* Defaults match ksmbd-tools' documented ones (ksmbd.conf(5)). */
#define SMBSRV_DEFAULT_PORT		445
#define SMBSRV_DEFAULT_MAX_CONNECTIONS	128
#define SMBSRV_DEFAULT_MAX_READ		SZ_4M
#define SMBSRV_DEFAULT_MAX_WRITE	SZ_4M
#define SMBSRV_DEFAULT_MAX_TRANS	SZ_1M
#define SMBSRV_DEFAULT_MAX_CREDITS	8192

struct smbsrv_knobs {
	u32 tcp_port;
	u32 max_connections;
	u32 max_read;
	u32 max_write;
	u32 max_trans;
	u32 max_credits;
};

struct smbsrv_listener;

struct smbsrv_server {
	/* Serialises daemon attach/detach, knob changes and the listener. */
	struct mutex lock;
	struct smbsrv_knobs knobs;
	bool daemon_attached;
	u32 daemon_portid;
	u32 daemon_pid;
	struct smbsrv_listener *listener;
};

extern struct smbsrv_server smbsrv_server;
extern struct workqueue_struct *smbsrv_ctl_wq;

#endif /* _SMBSRV_H */
