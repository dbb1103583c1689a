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
extern const struct nla_policy smbsrv_knobs_nl_policy[SMBSRV_A_KNOBS_MIN_RECEIVEFILE_SIZE + 1];
extern const struct nla_policy smbsrv_share_nl_policy[SMBSRV_A_SHARE_FRUIT_TM_MAX_SIZE + 1];

int smbsrv_nl_startup_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_status_get_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_knobs_set_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_session_setup_done_doit(struct sk_buff *skb,
				      struct genl_info *info);
int smbsrv_nl_tree_connect_done_doit(struct sk_buff *skb,
				     struct genl_info *info);
int smbsrv_nl_rpc_done_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_session_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int smbsrv_nl_connection_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb);
int smbsrv_nl_kill_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_queue_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int smbsrv_nl_read_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_open_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int smbsrv_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_audit_subscribe_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_write_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_cluster_done_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_cluster_view_doit(struct sk_buff *skb, struct genl_info *info);
int smbsrv_nl_cluster_alive_doit(struct sk_buff *skb, struct genl_info *info);

extern struct genl_family smbsrv_nl_family;

#endif /* _LINUX_SMBSRV_GEN_H */
