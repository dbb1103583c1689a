// SPDX-License-Identifier: GPL-2.0-or-later
//
// The logon information of a Kerberos ticket's PAC (MS-PAC 2.5): the
// KERB_VALIDATION_INFO that AD and Samba AD domain controllers put into
// every ticket, NDR-serialised (MS-RPCE 2.2.6 type serialisation).  MIT
// Kerberos hands it over only once it has verified the PAC's server
// signature with the keytab's key (kerberos.cpp); this decodes it.  The
// input is the network's: every count is checked against the bytes that
// are there and against max_sids.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bytes.hpp"
#include "sid.hpp"

namespace smbsrv::pac {

// A token's SIDs are capped as Windows caps a token's groups: a PAC that
// lists more is refused (its logon fails), never truncated.
constexpr size_t max_sids = 1024;

struct LogonInfo {
	std::string user;	  // EffectiveName (the account name)
	std::string domain;	  // LogonDomainName (NetBIOS)
	Sid domain_sid;		  // LogonDomainId
	uint32_t user_rid = 0;	  // UserId
	uint32_t group_rid = 0;	  // PrimaryGroupId
	std::vector<uint32_t> group_rids;  // GroupIds, in the logon domain
	std::vector<Sid> extra_sids;	   // ExtraSids (other domains, well-known)
	std::optional<Sid> resource_domain; // ResourceGroupDomainSid
	std::vector<uint32_t> resource_rids; // ResourceGroupIds

	[[nodiscard]] Sid user_sid() const;
	[[nodiscard]] Sid group_sid() const;
	// Every SID the PAC lists (user, primary group, groups, extra SIDs,
	// resource groups), sorted in the module's order without duplicates.
	[[nodiscard]] std::vector<Sid> token_sids() const;
};

// nullopt with *why set when the buffer is not a KERB_VALIDATION_INFO
// or lists more than max_sids SIDs.
std::optional<LogonInfo> decode_logon_info(ByteView buf, std::string *why);

} // namespace smbsrv::pac
