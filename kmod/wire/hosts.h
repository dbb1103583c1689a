/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "hosts allow" / "hosts deny" of [global], checked when a connection is
 * accepted.  The daemon parses the lists (addresses, prefixes, ALL,
 * EXCEPT, as Samba reads them) and hands the module a flat array of
 * fixed-size rules (the server attribute host-rules); the module only
 * matches addresses against it, here, with Samba's rule:
 *   neither list            everybody is allowed
 *   only "hosts allow"      only hosts it matches
 *   only "hosts deny"       all but hosts it matches
 *   both                    the allow list wins; hosts in neither are
 *                           allowed
 * A list matches an address when one of its entries does and none of
 * its EXCEPT entries does.
 *
 * A rule is SMB_HOST_RULE_SIZE bytes:
 *   0  list     SMB_HOST_LIST_ALLOW or SMB_HOST_LIST_DENY
 *   1  flags    SMB_HOST_RULE_EXCEPT: an entry after EXCEPT
 *   2  family   4 (IPv4), 6 (IPv6), or 0: matches nothing (a host name,
 *               and the marker that makes a list present even when it
 *               matches nothing)
 *   3  bits     prefix length: at most 32 (IPv4) or 128 (IPv6)
 *   4  addr     16 bytes, network order; IPv4 in the first 4
 */
#ifndef _SMBSRV_WIRE_HOSTS_H
#define _SMBSRV_WIRE_HOSTS_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMB_HOST_RULE_SIZE	20
#define SMB_HOST_RULES_MAX	1024	/* rules in one array */

#define SMB_HOST_LIST_ALLOW	0
#define SMB_HOST_LIST_DENY	1
#define SMB_HOST_RULE_EXCEPT	0x01

/* 0 when @len bytes at @rules are a valid rule array, else -EINVAL. */
int smb_host_rules_check(const u8 *rules, u32 len);

/*
 * Whether the rules (checked) let in the peer at @addr: 4 bytes for
 * @family 4, 16 for @family 6 (IPv4-mapped IPv6 addresses must have been
 * turned into IPv4 by the caller).
 */
bool smb_host_allowed(const u8 *rules, u32 len, u8 family, const u8 *addr);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_HOSTS_H */
