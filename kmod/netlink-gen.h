/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/smbsrv.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_SMBSRV_GEN_H
#define _LINUX_SMBSRV_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/smbsrv.h>

/* Common nested types */
extern const struct nla_policy smbsrv_knobs_nl_policy[SMBSRV_A_KNOBS_SMB2_MAX_CREDITS + 1];

int smbsrv_nl_startup_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_status_get_doit(struct sk_buff *skb, struct genl_info *info);

extern struct genl_family smbsrv_nl_family;

#endif /* _LINUX_SMBSRV_GEN_H */
