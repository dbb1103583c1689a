/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: server-wide state shared by the module's parts.
 */
#ifndef _SMBSRV_H
#define _SMBSRV_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "knobs.h"

#define SMBSRV_VERSION "0.1.0"

struct smbsrv_listener;
struct smbsrv_proto_ops;

struct smbsrv_server {
	/* Serialises daemon attach/detach, knob changes and the listener. */
	struct mutex lock;
	struct smbsrv_knobs knobs;
	bool daemon_attached;
	u32 daemon_portid;
	u32 daemon_pid;
	struct smbsrv_listener *listener;
	/* The protocol layer's ops (proto.h), registered at its init. */
	const struct smbsrv_proto_ops *proto;
};

extern struct smbsrv_server smbsrv_server;
extern struct workqueue_struct *smbsrv_ctl_wq;

#endif /* _SMBSRV_H */
