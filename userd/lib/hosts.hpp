// SPDX-License-Identifier: GPL-2.0-or-later
//
// "hosts allow" / "hosts deny", as Samba reads them (ksmbd has neither):
// entries are ALL, addresses (IPv4, IPv6), prefixes (10.0.0.0/8,
// fd00::/8, 192.168.1.0/255.255.255.0, or Samba's "192.168." form), and
// "EXCEPT" to carve out of what the entries before it match.  Host names
// are resolved when the configuration is loaded (resolve_host_names):
// the lists the matchers below see hold addresses only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace smbsrv {

// Why an entry cannot be used, or "" when it is fine.
std::string check_host_entry(std::string_view entry);

// Does an entry look like a host name ("nas", "nas.example.org")?
bool is_host_name(std::string_view entry);

// A host name's addresses as text, none if it does not resolve.  The
// default asks getaddrinfo(3); tests put in their own.
using HostResolver = std::function<std::vector<std::string>(const std::string &)>;
void set_host_resolver(HostResolver r); // nullptr: getaddrinfo again

// A hosts allow/deny list with each host name replaced by its addresses.
// *problems gets one message per entry that cannot match anything.
std::vector<std::string> resolve_host_names(const std::vector<std::string> &list,
					    std::vector<std::string> *problems);

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
