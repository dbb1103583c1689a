// SPDX-License-Identifier: GPL-2.0-or-later
#include "hosts.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cctype>
#include <cstring>
#include <netdb.h>
#include <sys/socket.h>

namespace smbsrv {

namespace {

// An address: 4 bytes (IPv4) or 16 (IPv6).  IPv4-mapped IPv6 addresses
// are IPv4, as the module reports dual-stack peers that way.
struct Addr {
	std::array<uint8_t, 16> b{};
	size_t len = 0;
};

std::optional<Addr> parse_addr(std::string_view s)
{
	std::string t(s);
	// Link-local scope ("fe80::1%eth0") does not matter here.
	if (size_t pct = t.find('%'); pct != std::string::npos)
		t.resize(pct);
	Addr a;
	if (inet_pton(AF_INET, t.c_str(), a.b.data()) == 1) {
		a.len = 4;
		return a;
	}
	if (inet_pton(AF_INET6, t.c_str(), a.b.data()) == 1) {
		static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
		if (std::memcmp(a.b.data(), mapped, 12) == 0) {
			std::memmove(a.b.data(), a.b.data() + 12, 4);
			a.len = 4;
		} else {
			a.len = 16;
		}
		return a;
	}
	return std::nullopt;
}

// A network: address and prefix length in bits.
struct Net {
	Addr addr;
	size_t bits = 0;
};

bool prefix_match(const Net &n, const Addr &a)
{
	if (n.addr.len != a.len)
		return false;
	size_t full = n.bits / 8, rest = n.bits % 8;
	if (std::memcmp(n.addr.b.data(), a.b.data(), full) != 0)
		return false;
	if (!rest)
		return true;
	auto mask = static_cast<uint8_t>(0xff << (8 - rest));
	return (n.addr.b[full] & mask) == (a.b[full] & mask);
}

// An entry other than ALL/EXCEPT as a network; nullopt if unusable.
std::optional<Net> parse_net(std::string_view e)
{
	Net n;
	size_t slash = e.find('/');
	if (slash != std::string_view::npos) {
		auto a = parse_addr(e.substr(0, slash));
		std::string_view m = e.substr(slash + 1);
		if (!a || m.empty())
			return std::nullopt;
		n.addr = *a;
		if (auto mask = parse_addr(m); mask && mask->len == 4 && a->len == 4 &&
					       m.find('.') != std::string_view::npos) {
			// A dotted netmask must be contiguous ones.
			uint32_t v = (uint32_t{mask->b[0]} << 24) | (uint32_t{mask->b[1]} << 16) |
				     (uint32_t{mask->b[2]} << 8) | mask->b[3];
			size_t bits = 0;
			while (bits < 32 && (v & (0x80000000U >> bits)))
				bits++;
			if (bits < 32 && (v << bits) != 0)
				return std::nullopt;
			n.bits = bits;
			return n;
		}
		size_t bits = 0;
		for (char c : m) {
			if (!std::isdigit(static_cast<unsigned char>(c)) || bits > 128)
				return std::nullopt;
			bits = bits * 10 + static_cast<size_t>(c - '0');
		}
		if (bits > a->len * 8)
			return std::nullopt;
		n.bits = bits;
		return n;
	}
	if (!e.empty() && e.back() == '.') {
		// Samba's "192.168." : that many leading octets.
		std::string t(e);
		size_t octets = 0;
		for (char c : t)
			octets += c == '.';
		if (octets > 3)
			return std::nullopt;
		while (std::count(t.begin(), t.end(), '.') < 4)
			t += "0.";
		t.pop_back();
		auto a = parse_addr(t);
		if (!a || a->len != 4)
			return std::nullopt;
		n.addr = *a;
		n.bits = octets * 8;
		return n;
	}
	if (e == "localhost") {
		n.addr = *parse_addr("127.0.0.1");
		n.bits = 8;
		return n;
	}
	auto a = parse_addr(e);
	if (!a)
		return std::nullopt;
	n.addr = *a;
	n.bits = a->len * 8;
	return n;
}

bool ieq(std::string_view a, std::string_view b)
{
	return a.size() == b.size() &&
	       std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
		       return std::tolower(static_cast<unsigned char>(x)) ==
			      std::tolower(static_cast<unsigned char>(y));
	       });
}

bool entry_matches(std::string_view e, const Addr &a)
{
	if (ieq(e, "ALL"))
		return true;
	if (e == "localhost" && a.len == 16) {
		Addr one{};
		one.len = 16;
		one.b[15] = 1;
		return a.b == one.b;
	}
	auto n = parse_net(e);
	return n && prefix_match(*n, a);
}

void put_rule(std::vector<uint8_t> &out, uint8_t list, uint8_t flags, uint8_t family,
	      size_t bits, const Addr &a)
{
	out.insert(out.end(), {list, flags, family, static_cast<uint8_t>(bits)});
	out.insert(out.end(), a.b.begin(), a.b.end());
}

// Rule fields (kmod/wire/hosts.h).
constexpr uint8_t rule_except = 0x01;
constexpr uint8_t family_none = 0, family_v4 = 4, family_v6 = 6;

void encode_list(std::vector<uint8_t> &out, uint8_t list,
		 const std::vector<std::string> &entries)
{
	if (entries.empty())
		return;
	// The list is there even if nothing in it can match (host names).
	put_rule(out, list, 0, family_none, 0, Addr{});
	uint8_t flags = 0;
	for (const auto &e : entries) {
		if (ieq(e, "EXCEPT")) {
			if (flags)
				break; // as host_list_matches()
			flags = rule_except;
			continue;
		}
		if (ieq(e, "ALL")) {
			put_rule(out, list, flags, family_v4, 0, Addr{});
			put_rule(out, list, flags, family_v6, 0, Addr{});
			continue;
		}
		if (e == "localhost") {
			Addr one{};
			one.b[15] = 1;
			put_rule(out, list, flags, family_v6, 128, one);
		}
		auto n = parse_net(e);
		if (!n)
			continue; // a host name: matches nothing
		put_rule(out, list, flags, n->addr.len == 4 ? family_v4 : family_v6, n->bits,
			 n->addr);
	}
}

} // namespace

std::vector<uint8_t> encode_host_rules(const std::vector<std::string> &allow,
				       const std::vector<std::string> &deny)
{
	std::vector<uint8_t> out;
	encode_list(out, 0, allow);
	encode_list(out, 1, deny);
	return out;
}

std::string check_host_entry(std::string_view entry)
{
	if (ieq(entry, "ALL") || ieq(entry, "EXCEPT") || parse_net(entry))
		return "";
	return "'" + std::string(entry) + "' is not an address or network";
}

bool is_host_name(std::string_view e)
{
	// RFC 1123 labels: letters, digits and '-', dot-separated; a name
	// has a letter somewhere ("10.0.0" is a bad address, not a name).
	if (e.empty() || e.size() > 253 || e.front() == '.' || e.front() == '-')
		return false;
	bool letter = false;
	for (char c : e) {
		auto u = static_cast<unsigned char>(c);
		if (std::isalpha(u))
			letter = true;
		else if (!std::isdigit(u) && c != '-' && c != '.')
			return false;
	}
	return letter && !ieq(e, "ALL") && !ieq(e, "EXCEPT");
}

namespace {

std::vector<std::string> getaddrinfo_resolver(const std::string &name)
{
	addrinfo hints{};
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	addrinfo *res = nullptr;
	std::vector<std::string> out;
	if (getaddrinfo(name.c_str(), nullptr, &hints, &res) != 0)
		return out;
	for (addrinfo *ai = res; ai; ai = ai->ai_next) {
		char host[NI_MAXHOST];
		if (getnameinfo(ai->ai_addr, ai->ai_addrlen, host, sizeof(host), nullptr, 0,
				NI_NUMERICHOST) == 0 &&
		    std::find(out.begin(), out.end(), host) == out.end())
			out.emplace_back(host);
	}
	freeaddrinfo(res);
	return out;
}

HostResolver &resolver()
{
	static HostResolver r = getaddrinfo_resolver;
	return r;
}

} // namespace

void set_host_resolver(HostResolver r)
{
	resolver() = r ? std::move(r) : HostResolver(getaddrinfo_resolver);
}

std::vector<std::string> resolve_host_names(const std::vector<std::string> &list,
					    std::vector<std::string> *problems)
{
	std::vector<std::string> out;
	for (const auto &e : list) {
		// "localhost" is an address range of its own (parse_net).
		if (check_host_entry(e).empty()) {
			out.push_back(e);
			continue;
		}
		// What cannot match stays in the list, matching nothing: an
		// allow list of nothing but a dead name must not become empty
		// (which would allow everybody).
		if (!is_host_name(e)) {
			if (problems)
				problems->push_back(check_host_entry(e));
			out.push_back(e);
			continue;
		}
		std::vector<std::string> addrs;
		for (auto &a : resolver()(e))
			if (parse_addr(a))
				addrs.push_back(std::move(a));
		if (addrs.empty()) {
			if (problems)
				problems->push_back("'" + e + "' does not resolve to an address; "
							    "it matches nothing");
			out.push_back(e);
		}
		for (auto &a : addrs)
			out.push_back(std::move(a));
	}
	return out;
}

bool host_list_matches(const std::vector<std::string> &list, std::string_view addr)
{
	auto a = parse_addr(addr);
	if (!a)
		return false;
	// "A B EXCEPT C D": matches A or B, unless C or D.
	bool in = false, except = false;
	for (const auto &e : list) {
		if (ieq(e, "EXCEPT")) {
			if (except)
				break; // a second EXCEPT: Samba nests; we stop
			except = true;
			if (!in)
				return false;
			continue;
		}
		if (!except && entry_matches(e, *a))
			in = true;
		else if (except && entry_matches(e, *a))
			return false;
	}
	return in;
}

bool host_allowed(const std::vector<std::string> &allow,
		  const std::vector<std::string> &deny, std::string_view addr)
{
	if (allow.empty() && deny.empty())
		return true;
	if (!allow.empty() && deny.empty())
		return host_list_matches(allow, addr);
	if (allow.empty())
		return !host_list_matches(deny, addr);
	if (host_list_matches(allow, addr))
		return true;
	return !host_list_matches(deny, addr);
}

} // namespace smbsrv
