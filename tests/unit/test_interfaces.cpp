// SPDX-License-Identifier: GPL-2.0-or-later
//
// interfaces / bind interfaces only: which local addresses a list names
// (interface names and wildcards, addresses, networks in both notations,
// Samba's ;options), what matches nothing or makes no sense, the limit,
// and the listen-addr payloads the module gets (and reports back).
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <cstring>
#include <netinet/in.h>
#include <string>
#include <vector>

#include "interfaces.hpp"

using namespace smbsrv;

namespace {

LocalAddr addr(const std::string &ifname, const std::string &text, unsigned prefix,
	       uint32_t scope = 0)
{
	LocalAddr a;
	a.ifname = ifname;
	a.family = text.find(':') != std::string::npos ? AF_INET6 : AF_INET;
	REQUIRE(inet_pton(a.family, text.c_str(), a.addr) == 1);
	a.prefix = prefix;
	a.scope = scope;
	return a;
}

// A machine with loopback, two Ethernet ports and a dummy interface.
std::vector<LocalAddr> machine()
{
	return {addr("lo", "127.0.0.1", 8),	    addr("lo", "::1", 128),
		addr("eth0", "10.0.2.15", 24),	    addr("eth0", "fe80::1", 64, 2),
		addr("eth1", "192.168.10.5", 24),  addr("eth1", "fd00::5", 64),
		addr("dummy0", "192.168.10.77", 32)};
}

} // namespace

TEST_CASE("interfaces: without bind interfaces only, every address")
{
	CHECK(listen_plan(false, {"eth0"}, machine()).addrs.empty());
	// bind interfaces only with no interfaces: every address, as Samba.
	ListenPlan p = listen_plan(true, {}, machine());
	CHECK(p.addrs.empty());
	CHECK(p.errors.empty());
}

TEST_CASE("interfaces: names, wildcards, addresses and networks")
{
	ListenPlan p = listen_plan(true, {"eth1"}, machine());
	CHECK(p.text == std::vector<std::string>{"192.168.10.5", "fd00::5"});
	CHECK(p.warnings.empty());

	p = listen_plan(true, {"eth*"}, machine());
	CHECK(p.text == std::vector<std::string>{"10.0.2.15", "fe80::1%2", "192.168.10.5",
						 "fd00::5"});
	// The link-local address carries its scope id: 16 bytes and 4.
	REQUIRE(p.addrs.size() == 4);
	CHECK(p.addrs[0] == Bytes{10, 0, 2, 15});
	CHECK(p.addrs[1].size() == 20);
	CHECK(listen_addr_text(p.addrs[1]) == "fe80::1%2");
	CHECK(p.addrs[2].size() == 4);
	CHECK(p.addrs[3].size() == 16);

	// An address names itself; a network every local address in it, in
	// both notations; duplicates once; the order is the list's.
	p = listen_plan(true, {"127.0.0.1", "192.168.10.0/24", "192.168.10.0/255.255.255.0",
			       "eth1"},
			machine());
	CHECK(p.text == std::vector<std::string>{"127.0.0.1", "192.168.10.5", "192.168.10.77",
						 "fd00::5"});
	CHECK(p.warnings.empty());
	p = listen_plan(true, {"fd00::/64", "::1"}, machine());
	CHECK(p.text == std::vector<std::string>{"fd00::5", "::1"});
	// Samba's options after a name.
	p = listen_plan(true, {"dummy0;speed=1000000000,capability=RSS"}, machine());
	CHECK(p.text == std::vector<std::string>{"192.168.10.77"});
}

TEST_CASE("interfaces: what matches nothing, what makes no sense, the limit")
{
	ListenPlan p = listen_plan(true, {"eth9", "10.9.9.9", "eth0"}, machine());
	CHECK(p.text == std::vector<std::string>{"10.0.2.15", "fe80::1%2"});
	REQUIRE(p.warnings.size() == 2);
	CHECK(p.warnings[0] ==
	      "interfaces: 'eth9' matches no address of an interface that is up");
	CHECK(p.warnings[1].find("'10.9.9.9'") != std::string::npos);

	p = listen_plan(true, {"eth9"}, machine());
	CHECK(p.addrs.empty());
	CHECK(p.warnings.size() == 1);

	for (const char *bad : {"10.0.0.0/33", "10.0.0.0/255.0.255.0", "fd00::/129", "10.0.0.0/x",
				"10.0.0.0/"}) {
		INFO(bad);
		p = listen_plan(true, {bad}, machine());
		CHECK(p.errors.size() == 1);
		CHECK(p.addrs.empty());
	}

	std::vector<LocalAddr> many;
	for (int i = 1; i <= 17; i++)
		many.push_back(addr("eth" + std::to_string(i), "10.1.0." + std::to_string(i), 24));
	p = listen_plan(true, {"10.1.0.0/24"}, many);
	CHECK(p.addrs.empty());
	REQUIRE(p.errors.size() == 1);
	CHECK(p.errors[0].find("at most 16") != std::string::npos);
	many.pop_back();
	CHECK(listen_plan(true, {"10.1.0.0/24"}, many).addrs.size() == 16);
}

TEST_CASE("interfaces: listen-addr payloads as text; this machine's addresses read")
{
	CHECK(listen_addr_text(Bytes{0, 0, 0, 0}) == "0.0.0.0");
	CHECK(listen_addr_text(Bytes(16, 0)) == "::");
	CHECK(listen_addr_text(Bytes{1, 2, 3}).empty());
	CHECK(listen_addr_text(Bytes(17, 0)).empty());
	// getifaddrs: the loopback interface is up wherever this runs.
	bool lo = false;
	for (const auto &a : local_addresses())
		if (a.family == AF_INET && a.addr[0] == 127 && a.prefix == 8)
			lo = true;
	CHECK(lo);
}
