// SPDX-License-Identifier: GPL-2.0-or-later
#include "interfaces.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cstring>
#include <fnmatch.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

namespace smbsrv {

namespace {

// Prefix length of a dotted IPv4 netmask; -1 if it is not contiguous.
int mask_prefix(const uint8_t *m)
{
	uint32_t v = (uint32_t(m[0]) << 24) | (uint32_t(m[1]) << 16) | (uint32_t(m[2]) << 8) | m[3];
	int n = 0;
	while (n < 32 && (v & (0x80000000U >> n)))
		n++;
	uint32_t want = n ? ~0U << (32 - n) : 0;
	return v == want ? n : -1;
}

bool same_prefix(const uint8_t *a, const uint8_t *b, unsigned bits)
{
	unsigned full = bits / 8, rest = bits % 8;
	if (std::memcmp(a, b, full) != 0)
		return false;
	if (!rest)
		return true;
	auto m = static_cast<uint8_t>(0xff << (8 - rest));
	return (a[full] & m) == (b[full] & m);
}

unsigned addr_len(int family)
{
	return family == AF_INET ? 4 : 16;
}

// A network or address item: family, bytes, prefix bits.  False if the
// item is none (then it is an interface name).
bool parse_net(const std::string &item, int &family, uint8_t *addr, int &prefix,
	       std::string &error)
{
	std::string a = item, p;
	size_t slash = item.find('/');
	if (slash != std::string::npos) {
		a = item.substr(0, slash);
		p = item.substr(slash + 1);
	}
	if (inet_pton(AF_INET, a.c_str(), addr) == 1)
		family = AF_INET;
	else if (inet_pton(AF_INET6, a.c_str(), addr) == 1)
		family = AF_INET6;
	else
		return false;
	int max = family == AF_INET ? 32 : 128;
	prefix = max;
	if (slash == std::string::npos)
		return true;
	uint8_t m[16];
	if (family == AF_INET && inet_pton(AF_INET, p.c_str(), m) == 1) {
		prefix = mask_prefix(m);
		if (prefix < 0)
			error = "interfaces: '" + item + "': " + p + " is not a netmask";
		return true;
	}
	if (p.empty() || p.size() > 3 ||
	    !std::all_of(p.begin(), p.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
	    std::stoi(p) > max) {
		error = "interfaces: '" + item + "': '" + p + "' is not a prefix length (0-" +
			std::to_string(max) + ")";
		return true;
	}
	prefix = std::stoi(p);
	return true;
}

} // namespace

std::string addr_text(int family, const uint8_t *addr, uint32_t scope)
{
	char buf[INET6_ADDRSTRLEN + 16];
	if (!inet_ntop(family, addr, buf, sizeof(buf)))
		return "";
	std::string s = buf;
	if (family == AF_INET6 && scope)
		s += "%" + std::to_string(scope);
	return s;
}

std::string listen_addr_text(ByteView a)
{
	if (a.size() == 4)
		return addr_text(AF_INET, a.data());
	if (a.size() == 16 || a.size() == 20) {
		uint32_t scope = 0;
		if (a.size() == 20)
			std::memcpy(&scope, a.data() + 16, 4);
		return addr_text(AF_INET6, a.data(), scope);
	}
	return "";
}

std::vector<LocalAddr> local_addresses()
{
	std::vector<LocalAddr> out;
	ifaddrs *list = nullptr;
	if (getifaddrs(&list) != 0)
		return out;
	for (ifaddrs *i = list; i; i = i->ifa_next) {
		if (!i->ifa_addr || !(i->ifa_flags & IFF_UP))
			continue;
		int fam = i->ifa_addr->sa_family;
		if (fam != AF_INET && fam != AF_INET6)
			continue;
		LocalAddr a;
		a.ifname = i->ifa_name;
		a.family = fam;
		const uint8_t *mask = nullptr;
		if (fam == AF_INET) {
			std::memcpy(a.addr, &reinterpret_cast<sockaddr_in *>(i->ifa_addr)->sin_addr, 4);
			if (i->ifa_netmask)
				mask = reinterpret_cast<const uint8_t *>(
					&reinterpret_cast<sockaddr_in *>(i->ifa_netmask)->sin_addr);
		} else {
			auto *s6 = reinterpret_cast<sockaddr_in6 *>(i->ifa_addr);
			std::memcpy(a.addr, &s6->sin6_addr, 16);
			a.scope = s6->sin6_scope_id;
			if (i->ifa_netmask)
				mask = reinterpret_cast<const uint8_t *>(
					&reinterpret_cast<sockaddr_in6 *>(i->ifa_netmask)->sin6_addr);
		}
		unsigned bits = 0;
		for (unsigned b = 0; mask && b < addr_len(fam) * 8; b++)
			if (mask[b / 8] & (0x80 >> (b % 8)))
				bits++;
		a.prefix = bits;
		out.push_back(a);
	}
	freeifaddrs(list);
	return out;
}

ListenPlan listen_plan(bool bind_only, const std::vector<std::string> &interfaces,
		       const std::vector<LocalAddr> &local)
{
	ListenPlan plan;
	if (!bind_only || interfaces.empty())
		return plan;
	std::vector<const LocalAddr *> chosen;
	bool matched = false;
	auto choose = [&](const LocalAddr &a) {
		matched = true;
		for (const auto *c : chosen)
			if (c->family == a.family &&
			    std::memcmp(c->addr, a.addr, addr_len(a.family)) == 0)
				return;
		chosen.push_back(&a);
	};
	for (const auto &raw : interfaces) {
		// Samba's "eth0;speed=1000000000,capability=RSS": options ignored.
		std::string item = raw.substr(0, raw.find(';'));
		if (item.empty())
			continue;
		int family = 0, prefix = 0;
		uint8_t net[16]{};
		std::string error;
		matched = false;
		if (parse_net(item, family, net, prefix, error)) {
			if (!error.empty()) {
				plan.errors.push_back(error);
				continue;
			}
			// An address listens on itself if it is local; a network
			// on every local address in it.
			for (const auto &a : local)
				if (a.family == family &&
				    same_prefix(a.addr, net, static_cast<unsigned>(prefix)))
					choose(a);
		} else {
			for (const auto &a : local)
				if (fnmatch(item.c_str(), a.ifname.c_str(), 0) == 0)
					choose(a);
		}
		if (!matched)
			plan.warnings.push_back("interfaces: '" + raw +
						"' matches no address of an interface that is up");
	}
	if (chosen.size() > max_listen_addrs) {
		plan.errors.push_back("interfaces name " + std::to_string(chosen.size()) +
				      " addresses; smbsrv listens on at most " +
				      std::to_string(max_listen_addrs));
		return plan;
	}
	for (const auto *a : chosen) {
		Bytes b(a->addr, a->addr + addr_len(a->family));
		if (a->family == AF_INET6 && a->scope) {
			const auto *s = reinterpret_cast<const uint8_t *>(&a->scope);
			b.insert(b.end(), s, s + 4);
		}
		plan.addrs.push_back(std::move(b));
		plan.text.push_back(addr_text(a->family, a->addr, a->scope));
	}
	return plan;
}

} // namespace smbsrv
