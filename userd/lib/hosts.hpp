// SPDX-License-Identifier: GPL-2.0-or-later
//
// "hosts allow" / "hosts deny", as Samba reads them (ksmbd has neither):
// entries are ALL, addresses (IPv4, IPv6), prefixes (10.0.0.0/8,
// fd00::/8, 192.168.1.0/255.255.255.0, or Samba's "192.168." form), and
// "EXCEPT" to carve out of what the entries before it match.  Host names
// are not resolved: they are reported and never match.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace smbsrv {

// Why an entry cannot be used, or "" when it is fine.
std::string check_host_entry(std::string_view entry);

// Does addr (text, IPv4, IPv6 or IPv4-mapped IPv6) match the list?
bool host_list_matches(const std::vector<std::string> &list, std::string_view addr);

// Samba's rule: with neither list everybody is allowed; with only an
// allow list, only its hosts; with only a deny list, all but its hosts;
// with both, the allow list wins and hosts in neither are allowed.
bool host_allowed(const std::vector<std::string> &allow,
		  const std::vector<std::string> &deny, std::string_view addr);

// The same two lists as the module checks them at accept (the server
// attribute host-rules, 20-byte rules as kmod/wire/hosts.h describes):
// the module's verdict for any address is host_allowed()'s.  Empty when
// both lists are.
std::vector<uint8_t> encode_host_rules(const std::vector<std::string> &allow,
				       const std::vector<std::string> &deny);

} // namespace smbsrv
