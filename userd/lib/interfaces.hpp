// SPDX-License-Identifier: GPL-2.0-or-later
//
// `interfaces` and `bind interfaces only`: where the module listens.
// Samba's and ksmbd's semantics: each item of `interfaces` is an interface
// name (shell wildcards allowed: "eth*"), an IP address, or a network
// ("192.168.1.0/24", "192.168.1.0/255.255.255.0", "fd00::/64"); Samba's
// ";options" suffix is ignored.  With `bind interfaces only = yes` the
// module listens on the local addresses those items name, and nowhere
// else; otherwise (the default) on every address.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bytes.hpp"

namespace smbsrv {

// One address of a local interface that is up.
struct LocalAddr {
	std::string ifname;
	int family = 0;	    // AF_INET or AF_INET6
	uint8_t addr[16]{}; // 4 or 16 bytes used, network order
	uint32_t scope = 0; // IPv6 scope id (link-local)
	unsigned prefix = 0;
};

// The addresses of the interfaces that are up (getifaddrs).
std::vector<LocalAddr> local_addresses();

// The module's limit (SMBSRV_LISTEN_ADDRS_MAX).
inline constexpr size_t max_listen_addrs = 16;

struct ListenPlan {
	// Each address as the module's listen-addr takes it: 4 bytes, 16,
	// or 16 and the scope id.  Empty: every address.
	std::vector<Bytes> addrs;
	std::vector<std::string> text; // the same, as text
	std::vector<std::string> warnings; // items that matched nothing
	std::vector<std::string> errors;   // items that make no sense
};

// Where to listen.  Without bind_only, or with an empty list, every
// address (Samba listens everywhere then too).
ListenPlan listen_plan(bool bind_only, const std::vector<std::string> &interfaces,
		       const std::vector<LocalAddr> &local);

// An address as text: "10.0.0.1", "fe80::1%2".
std::string addr_text(int family, const uint8_t *addr, uint32_t scope = 0);

// A listen-addr payload (4, 16 or 20 bytes) as text; "" if malformed.
std::string listen_addr_text(ByteView a);

} // namespace smbsrv
