// SPDX-License-Identifier: GPL-2.0
/*
 * Matching peers against the "hosts allow" / "hosts deny" rules the
 * daemon passes down (hosts.h).
 */
#include "hosts.h"

int smb_host_rules_check(const u8 *rules, u32 len)
{
	const u8 *r;

	if (len % SMB_HOST_RULE_SIZE ||
	    len / SMB_HOST_RULE_SIZE > SMB_HOST_RULES_MAX)
		return -EINVAL;
	for (r = rules; r < rules + len; r += SMB_HOST_RULE_SIZE) {
		if (r[0] > SMB_HOST_LIST_DENY || r[1] & ~SMB_HOST_RULE_EXCEPT)
			return -EINVAL;
		if ((r[2] == 4 && r[3] > 32) || (r[2] == 6 && r[3] > 128) ||
		    (r[2] != 0 && r[2] != 4 && r[2] != 6))
			return -EINVAL;
	}
	return 0;
}

static bool smb_host_rule_matches(const u8 *r, u8 family, const u8 *addr)
{
	u32 full = r[3] / 8, rest = r[3] % 8;
	u8 mask;

	if (!r[2] || r[2] != family)
		return false;
	if (memcmp(r + 4, addr, full))
		return false;
	if (!rest)
		return true;
	mask = (u8)(0xff << (8 - rest));
	return (r[4 + full] & mask) == (addr[full] & mask);
}

/* Is list @list present, and does it match? */
static bool smb_host_list(const u8 *rules, u32 len, u8 list, u8 family,
			  const u8 *addr, bool *present)
{
	bool in = false, out = false;
	const u8 *r;

	*present = false;
	for (r = rules; r < rules + len; r += SMB_HOST_RULE_SIZE) {
		if (r[0] != list)
			continue;
		*present = true;
		if (!smb_host_rule_matches(r, family, addr))
			continue;
		if (r[1] & SMB_HOST_RULE_EXCEPT)
			out = true;
		else
			in = true;
	}
	return in && !out;
}

bool smb_host_allowed(const u8 *rules, u32 len, u8 family, const u8 *addr)
{
	bool has_allow, has_deny, allow, deny;

	allow = smb_host_list(rules, len, SMB_HOST_LIST_ALLOW, family, addr,
			      &has_allow);
	deny = smb_host_list(rules, len, SMB_HOST_LIST_DENY, family, addr,
			     &has_deny);
	if (has_allow && allow)
		return true;
	if (has_allow && !has_deny)
		return false;
	return !deny;
}
