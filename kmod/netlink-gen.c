// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/smbsrv.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

#include <uapi/linux/smbsrv.h>

/* Integer value ranges */
static const struct netlink_range_validation smbsrv_a_knobs_tcp_port_range = {
	.min	= 1ULL,
	.max	= 65535ULL,
};

static const struct netlink_range_validation smbsrv_a_knobs_smb2_max_read_range = {
	.min	= 65536ULL,
	.max	= 8388608ULL,
};

static const struct netlink_range_validation smbsrv_a_knobs_smb2_max_write_range = {
	.min	= 65536ULL,
	.max	= 8388608ULL,
};

static const struct netlink_range_validation smbsrv_a_knobs_smb2_max_trans_range = {
	.min	= 65536ULL,
	.max	= 8388608ULL,
};

static const struct netlink_range_validation smbsrv_a_knobs_smb2_max_credits_range = {
	.min	= 1ULL,
	.max	= 65535ULL,
};

/* Common nested types */
const struct nla_policy smbsrv_knobs_nl_policy[SMBSRV_A_KNOBS_MIN_RECEIVEFILE_SIZE + 1] = {
	[SMBSRV_A_KNOBS_TCP_PORT] = NLA_POLICY_FULL_RANGE(NLA_U32, &smbsrv_a_knobs_tcp_port_range),
	[SMBSRV_A_KNOBS_MAX_CONNECTIONS] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_SMB2_MAX_READ] = NLA_POLICY_FULL_RANGE(NLA_U32, &smbsrv_a_knobs_smb2_max_read_range),
	[SMBSRV_A_KNOBS_SMB2_MAX_WRITE] = NLA_POLICY_FULL_RANGE(NLA_U32, &smbsrv_a_knobs_smb2_max_write_range),
	[SMBSRV_A_KNOBS_SMB2_MAX_TRANS] = NLA_POLICY_FULL_RANGE(NLA_U32, &smbsrv_a_knobs_smb2_max_trans_range),
	[SMBSRV_A_KNOBS_SMB2_MAX_CREDITS] = NLA_POLICY_FULL_RANGE(NLA_U32, &smbsrv_a_knobs_smb2_max_credits_range),
	[SMBSRV_A_KNOBS_MIN_DIALECT] = NLA_POLICY_RANGE(NLA_U32, 514, 785),
	[SMBSRV_A_KNOBS_MAX_DIALECT] = NLA_POLICY_RANGE(NLA_U32, 514, 785),
	[SMBSRV_A_KNOBS_SIGNING] = NLA_POLICY_MAX(NLA_U32, 2),
	[SMBSRV_A_KNOBS_ENCRYPTION] = NLA_POLICY_MAX(NLA_U32, 2),
	[SMBSRV_A_KNOBS_MAX_IP_CONNECTIONS] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_MAX_SESSIONS] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_MAX_OPEN_FILES] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_DEADTIME] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_UPCALL_TIMEOUT] = NLA_POLICY_RANGE(NLA_U32, 1, 600),
	[SMBSRV_A_KNOBS_FRAME_TIMEOUT] = NLA_POLICY_RANGE(NLA_U32, 1, 3600),
	[SMBSRV_A_KNOBS_ROUTE_POLICY] = NLA_POLICY_MAX(NLA_U32, 2),
	[SMBSRV_A_KNOBS_SPLICE_THRESHOLD] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_RESPONSE_BATCH] = NLA_POLICY_MAX(NLA_U32, 256),
	[SMBSRV_A_KNOBS_INLINE_READS] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_NETBIOS_NAME] = { .type = NLA_NUL_STRING, .len = 64, },
	[SMBSRV_A_KNOBS_LOGON_TIMEOUT] = NLA_POLICY_MAX(NLA_U32, 3600),
	[SMBSRV_A_KNOBS_SMB2_LEASES] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_DURABLE_HANDLES] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_DURABLE_HANDLE_TIMEOUT] = NLA_POLICY_RANGE(NLA_U32, 1, 3600),
	[SMBSRV_A_KNOBS_MULTICHANNEL] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_SMB3_UNIX_EXTENSIONS] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_SERVER_MAX_OPEN_FILES] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_MAX_OPEN_FILES_PER_USER] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_MIN_RECEIVEFILE_SIZE] = { .type = NLA_U32, },
};

const struct nla_policy smbsrv_share_nl_policy[SMBSRV_A_SHARE_FRUIT_TM_MAX_SIZE + 1] = {
	[SMBSRV_A_SHARE_NAME] = { .type = NLA_NUL_STRING, .len = 80, },
	[SMBSRV_A_SHARE_PATH] = { .type = NLA_NUL_STRING, .len = 4096, },
	[SMBSRV_A_SHARE_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x7ffff),
	[SMBSRV_A_SHARE_FORCE_UID] = { .type = NLA_U32, },
	[SMBSRV_A_SHARE_FORCE_GID] = { .type = NLA_U32, },
	[SMBSRV_A_SHARE_CREATE_MASK] = { .type = NLA_U32, },
	[SMBSRV_A_SHARE_DIRECTORY_MASK] = { .type = NLA_U32, },
	[SMBSRV_A_SHARE_FORCE_CREATE_MODE] = { .type = NLA_U32, },
	[SMBSRV_A_SHARE_FORCE_DIRECTORY_MODE] = { .type = NLA_U32, },
	[SMBSRV_A_SHARE_VETO_FILES] = { .type = NLA_NUL_STRING, .len = 4096, },
	[SMBSRV_A_SHARE_MAX_CONNECTIONS] = { .type = NLA_U32, },
	[SMBSRV_A_SHARE_HIDE_FILES] = { .type = NLA_NUL_STRING, .len = 4096, },
	[SMBSRV_A_SHARE_SNAP_DIR] = { .type = NLA_NUL_STRING, .len = 4096, },
	[SMBSRV_A_SHARE_SNAP_SUBDIR] = { .type = NLA_NUL_STRING, .len = 4096, },
	[SMBSRV_A_SHARE_SNAP_FORMAT] = { .type = NLA_NUL_STRING, .len = 128, },
	[SMBSRV_A_SHARE_SNAP_SORT] = NLA_POLICY_MAX(NLA_U32, 2),
	[SMBSRV_A_SHARE_SNAP_ZONE] = { .type = NLA_BINARY, },
	[SMBSRV_A_SHARE_AUDIT_SUCCESS] = { .type = NLA_U32, },
	[SMBSRV_A_SHARE_AUDIT_FAILURE] = { .type = NLA_U32, },
	[SMBSRV_A_SHARE_FRUIT_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x1fff),
	[SMBSRV_A_SHARE_FRUIT_MODEL] = { .type = NLA_NUL_STRING, .len = 64, },
	[SMBSRV_A_SHARE_FRUIT_TM_MAX_SIZE] = { .type = NLA_U64, },
};

/* SMBSRV_CMD_STARTUP - do */
static const struct nla_policy smbsrv_startup_nl_policy[SMBSRV_A_SERVER_CLUSTERING + 1] = {
	[SMBSRV_A_SERVER_DAEMON_PID] = { .type = NLA_U32, },
	[SMBSRV_A_SERVER_KNOBS] = NLA_POLICY_NESTED(smbsrv_knobs_nl_policy),
	[SMBSRV_A_SERVER_NEGOTIATE_BLOB] = { .type = NLA_BINARY, },
	[SMBSRV_A_SERVER_HOST_RULES] = { .type = NLA_BINARY, },
	[SMBSRV_A_SERVER_LISTEN_ADDR] = { .type = NLA_BINARY, },
	[SMBSRV_A_SERVER_CLUSTERING] = { .type = NLA_U32, },
};

/* SMBSRV_CMD_KNOBS_SET - do */
static const struct nla_policy smbsrv_knobs_set_nl_policy[SMBSRV_A_SERVER_KNOBS + 1] = {
	[SMBSRV_A_SERVER_KNOBS] = NLA_POLICY_NESTED(smbsrv_knobs_nl_policy),
};

/* SMBSRV_CMD_SESSION_SETUP_DONE - do */
static const struct nla_policy smbsrv_session_setup_done_nl_policy[SMBSRV_A_AUTH_SID + 1] = {
	[SMBSRV_A_AUTH_HANDLE] = { .type = NLA_U32, },
	[SMBSRV_A_AUTH_STATUS] = { .type = NLA_U32, },
	[SMBSRV_A_AUTH_BLOB] = { .type = NLA_BINARY, },
	[SMBSRV_A_AUTH_SESSION_KEY] = { .type = NLA_BINARY, },
	[SMBSRV_A_AUTH_UID] = { .type = NLA_U32, },
	[SMBSRV_A_AUTH_GID] = { .type = NLA_U32, },
	[SMBSRV_A_AUTH_GROUPS] = { .type = NLA_U32, },
	[SMBSRV_A_AUTH_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x7),
	[SMBSRV_A_AUTH_USER] = { .type = NLA_NUL_STRING, .len = 256, },
	[SMBSRV_A_AUTH_DOMAIN] = { .type = NLA_NUL_STRING, .len = 256, },
	[SMBSRV_A_AUTH_PRINCIPAL] = { .type = NLA_NUL_STRING, .len = 512, },
	[SMBSRV_A_AUTH_SID] = { .type = NLA_BINARY, },
};

/* SMBSRV_CMD_TREE_CONNECT_DONE - do */
static const struct nla_policy smbsrv_tree_connect_done_nl_policy[SMBSRV_A_TREE_SHARE + 1] = {
	[SMBSRV_A_TREE_HANDLE] = { .type = NLA_U32, },
	[SMBSRV_A_TREE_STATUS] = { .type = NLA_U32, },
	[SMBSRV_A_TREE_SHARE] = NLA_POLICY_NESTED(smbsrv_share_nl_policy),
};

/* SMBSRV_CMD_RPC_DONE - do */
static const struct nla_policy smbsrv_rpc_done_nl_policy[SMBSRV_A_RPC_STATUS + 1] = {
	[SMBSRV_A_RPC_HANDLE] = { .type = NLA_U32, },
	[SMBSRV_A_RPC_STATUS] = { .type = NLA_U32, },
	[SMBSRV_A_RPC_DATA] = { .type = NLA_BINARY, },
};

/* SMBSRV_CMD_KILL - do */
static const struct nla_policy smbsrv_kill_nl_policy[SMBSRV_A_KILL_CONN_ID + 1] = {
	[SMBSRV_A_KILL_SESSION_ID] = { .type = NLA_U64, },
	[SMBSRV_A_KILL_CONN_ID] = { .type = NLA_U32, },
};

/* SMBSRV_CMD_AUDIT_SUBSCRIBE - do */
static const struct nla_policy smbsrv_audit_subscribe_nl_policy[SMBSRV_A_AUDIT_SESSION_SUCCESS + 1] = {
	[SMBSRV_A_AUDIT_RATE] = { .type = NLA_U32, },
	[SMBSRV_A_AUDIT_SESSION_SUCCESS] = { .type = NLA_U32, },
};

/* SMBSRV_CMD_CLUSTER_DONE - do */
static const struct nla_policy smbsrv_cluster_done_nl_policy[SMBSRV_A_CLUSTER_CACHING + 1] = {
	[SMBSRV_A_CLUSTER_HANDLE] = { .type = NLA_U32, },
	[SMBSRV_A_CLUSTER_STATUS] = { .type = NLA_U32, },
	[SMBSRV_A_CLUSTER_CACHING] = NLA_POLICY_MAX(NLA_U32, 7),
};

/* SMBSRV_CMD_CLUSTER_VIEW - do */
static const struct nla_policy smbsrv_cluster_view_nl_policy[SMBSRV_A_CLUSTER_PUSH + 1] = {
	[SMBSRV_A_CLUSTER_INO] = { .type = NLA_U64, },
	[SMBSRV_A_CLUSTER_STREAM] = { .type = NLA_NUL_STRING, .len = 255, },
	[SMBSRV_A_CLUSTER_NODE] = { .type = NLA_NUL_STRING, .len = 64, },
	[SMBSRV_A_CLUSTER_VERSION] = { .type = NLA_U64, },
	[SMBSRV_A_CLUSTER_LOCKS] = { .type = NLA_BINARY, },
	[SMBSRV_A_CLUSTER_PUSH] = NLA_POLICY_RANGE(NLA_U32, 1, 8),
	[SMBSRV_A_CLUSTER_CACHING] = NLA_POLICY_MAX(NLA_U32, 7),
};

/* SMBSRV_CMD_CLUSTER_ALIVE - do */
static const struct nla_policy smbsrv_cluster_alive_nl_policy[SMBSRV_A_CLUSTER_INCARNATION + 1] = {
	[SMBSRV_A_CLUSTER_DEADLINE] = { .type = NLA_U64, },
	[SMBSRV_A_CLUSTER_INCARNATION] = { .type = NLA_U64, },
};

/* Ops table for smbsrv */
static const struct genl_split_ops smbsrv_nl_ops[] = {
	{
		.cmd		= SMBSRV_CMD_STARTUP,
		.doit		= smbsrv_nl_startup_doit,
		.policy		= smbsrv_startup_nl_policy,
		.maxattr	= SMBSRV_A_SERVER_CLUSTERING,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= SMBSRV_CMD_STATUS_GET,
		.doit	= smbsrv_nl_status_get_doit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= SMBSRV_CMD_KNOBS_SET,
		.doit		= smbsrv_nl_knobs_set_doit,
		.policy		= smbsrv_knobs_set_nl_policy,
		.maxattr	= SMBSRV_A_SERVER_KNOBS,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= SMBSRV_CMD_SESSION_SETUP_DONE,
		.doit		= smbsrv_nl_session_setup_done_doit,
		.policy		= smbsrv_session_setup_done_nl_policy,
		.maxattr	= SMBSRV_A_AUTH_SID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= SMBSRV_CMD_TREE_CONNECT_DONE,
		.doit		= smbsrv_nl_tree_connect_done_doit,
		.policy		= smbsrv_tree_connect_done_nl_policy,
		.maxattr	= SMBSRV_A_TREE_SHARE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= SMBSRV_CMD_RPC_DONE,
		.doit		= smbsrv_nl_rpc_done_doit,
		.policy		= smbsrv_rpc_done_nl_policy,
		.maxattr	= SMBSRV_A_RPC_STATUS,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= SMBSRV_CMD_SESSION_GET,
		.dumpit	= smbsrv_nl_session_get_dumpit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= SMBSRV_CMD_CONNECTION_GET,
		.dumpit	= smbsrv_nl_connection_get_dumpit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= SMBSRV_CMD_KILL,
		.doit		= smbsrv_nl_kill_doit,
		.policy		= smbsrv_kill_nl_policy,
		.maxattr	= SMBSRV_A_KILL_CONN_ID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= SMBSRV_CMD_QUEUE_GET,
		.dumpit	= smbsrv_nl_queue_get_dumpit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= SMBSRV_CMD_READ_STATS_GET,
		.doit	= smbsrv_nl_read_stats_get_doit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= SMBSRV_CMD_OPEN_GET,
		.dumpit	= smbsrv_nl_open_get_dumpit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= SMBSRV_CMD_STATS_GET,
		.doit	= smbsrv_nl_stats_get_doit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= SMBSRV_CMD_AUDIT_SUBSCRIBE,
		.doit		= smbsrv_nl_audit_subscribe_doit,
		.policy		= smbsrv_audit_subscribe_nl_policy,
		.maxattr	= SMBSRV_A_AUDIT_SESSION_SUCCESS,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= SMBSRV_CMD_WRITE_STATS_GET,
		.doit	= smbsrv_nl_write_stats_get_doit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= SMBSRV_CMD_CLUSTER_DONE,
		.doit		= smbsrv_nl_cluster_done_doit,
		.policy		= smbsrv_cluster_done_nl_policy,
		.maxattr	= SMBSRV_A_CLUSTER_CACHING,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= SMBSRV_CMD_CLUSTER_VIEW,
		.doit		= smbsrv_nl_cluster_view_doit,
		.policy		= smbsrv_cluster_view_nl_policy,
		.maxattr	= SMBSRV_A_CLUSTER_PUSH,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= SMBSRV_CMD_CLUSTER_ALIVE,
		.doit		= smbsrv_nl_cluster_alive_doit,
		.policy		= smbsrv_cluster_alive_nl_policy,
		.maxattr	= SMBSRV_A_CLUSTER_INCARNATION,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
};

struct genl_family smbsrv_nl_family __ro_after_init = {
	.name		= SMBSRV_FAMILY_NAME,
	.version	= SMBSRV_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.split_ops	= smbsrv_nl_ops,
	.n_split_ops	= ARRAY_SIZE(smbsrv_nl_ops),
};
