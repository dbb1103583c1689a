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
const struct nla_policy smbsrv_knobs_nl_policy[SMBSRV_A_KNOBS_SMB2_MAX_CREDITS + 1] = {
	[SMBSRV_A_KNOBS_TCP_PORT] = NLA_POLICY_FULL_RANGE(NLA_U32, &smbsrv_a_knobs_tcp_port_range),
	[SMBSRV_A_KNOBS_MAX_CONNECTIONS] = { .type = NLA_U32, },
	[SMBSRV_A_KNOBS_SMB2_MAX_READ] = NLA_POLICY_FULL_RANGE(NLA_U32, &smbsrv_a_knobs_smb2_max_read_range),
	[SMBSRV_A_KNOBS_SMB2_MAX_WRITE] = NLA_POLICY_FULL_RANGE(NLA_U32, &smbsrv_a_knobs_smb2_max_write_range),
	[SMBSRV_A_KNOBS_SMB2_MAX_TRANS] = NLA_POLICY_FULL_RANGE(NLA_U32, &smbsrv_a_knobs_smb2_max_trans_range),
	[SMBSRV_A_KNOBS_SMB2_MAX_CREDITS] = NLA_POLICY_FULL_RANGE(NLA_U32, &smbsrv_a_knobs_smb2_max_credits_range),
};

/* SMBSRV_CMD_STARTUP - do */
static const struct nla_policy smbsrv_startup_nl_policy[SMBSRV_A_SERVER_KNOBS + 1] = {
	[SMBSRV_A_SERVER_DAEMON_PID] = { .type = NLA_U32, },
	[SMBSRV_A_SERVER_KNOBS] = NLA_POLICY_NESTED(smbsrv_knobs_nl_policy),
};

/* Ops table for smbsrv */
static const struct genl_split_ops smbsrv_nl_ops[] = {
	{
		.cmd		= SMBSRV_CMD_STARTUP,
		.doit		= smbsrv_nl_startup_doit,
		.policy		= smbsrv_startup_nl_policy,
		.maxattr	= SMBSRV_A_SERVER_KNOBS,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= SMBSRV_CMD_STATUS_GET,
		.doit	= smbsrv_nl_status_get_doit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
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
