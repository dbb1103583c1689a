// SPDX-License-Identifier: GPL-2.0-or-later
//
// "hosts allow" / "hosts deny" at accept: the rules the daemon encodes
// (encode_host_rules) matched by the module's code (kmod/wire/hosts.c)
// must decide exactly as the daemon's own tree-connect check
// (host_allowed) for every list and address; the module refuses
// malformed rule arrays.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <string>
#include <vector>

#include "hosts.h"
#include "hosts.hpp"
#include "params.hpp"

using namespace smbsrv;

namespace {

using V = std::vector<std::string>;

bool module_allows(const std::vector<uint8_t> &rules, const std::string &addr)
{
	uint8_t a[16] = {};
	if (inet_pton(AF_INET, addr.c_str(), a) == 1)
		return smb_host_allowed(rules.data(), static_cast<u32>(rules.size()), 4, a);
	REQUIRE(inet_pton(AF_INET6, addr.c_str(), a) == 1);
	return smb_host_allowed(rules.data(), static_cast<u32>(rules.size()), 6, a);
}

} // namespace

TEST_CASE("host rules: the module decides as the daemon does", "[hosts]")
{
	const std::vector<V> lists = {
		{},
		{"ALL"},
		{"10.0.2.2"},
		{"10.0.0.0/8", "EXCEPT", "10.0.9.0/24", "10.0.2.2"},
		{"192.168.1.0/255.255.255.0", "2001:db8::/32"},
		{"192.168."},
		{"localhost"},
		{"fileserver.example.com"},
		{"ALL", "EXCEPT", "fd00::/8"},
		{"10.0.0.0/8", "EXCEPT", "10.1.0.0/16", "EXCEPT", "10.1.2.3"},
		{"::ffff:10.0.2.2"},
		{"0.0.0.0/0"},
		{"10.0.2.3/31"},
	};
	const V addrs = {"10.0.2.2",  "10.0.2.3",	"10.0.9.7",    "10.1.2.3", "11.0.0.1",
			 "127.0.0.1", "127.200.0.1",	"192.168.1.77", "192.168.2.1",
			 "::1",	      "2001:db8::5",	"fd00::1",     "fe80::1",  "0.0.0.0"};
	size_t n = 0;
	for (const auto &allow : lists)
		for (const auto &deny : lists) {
			auto rules = encode_host_rules(allow, deny);
			REQUIRE(smb_host_rules_check(rules.data(), static_cast<u32>(rules.size())) == 0);
			for (const auto &a : addrs) {
				CAPTURE(allow, deny, a);
				CHECK(module_allows(rules, a) == host_allowed(allow, deny, a));
				n++;
			}
		}
	CHECK(n == lists.size() * lists.size() * addrs.size());
}

TEST_CASE("host rules: no lists, no rules; a list of names still counts", "[hosts]")
{
	CHECK(encode_host_rules({}, {}).empty());
	auto names = encode_host_rules(V{"fileserver"}, {});
	CHECK(names.size() == SMB_HOST_RULE_SIZE);
	CHECK_FALSE(module_allows(names, "10.0.2.2"));
	CHECK(module_allows(encode_host_rules({}, V{"fileserver"}), "10.0.2.2"));
}

TEST_CASE("host rules: [global]'s lists become the knob", "[hosts]")
{
	Diagnostics d;
	Config c = build_config(parse_conf_text("[global]\n hosts deny = 10.0.2.0/24\n"
						"[s]\n path = /srv\n hosts deny = ALL\n",
						"t.conf", d),
				d);
	REQUIRE_FALSE(d.has_errors());
	CHECK(c.knobs.host_rules == encode_host_rules({}, V{"10.0.2.0/24"}));
	CHECK_FALSE(module_allows(c.knobs.host_rules, "10.0.2.2"));
	CHECK(module_allows(c.knobs.host_rules, "10.0.3.2"));
	Config none = build_config(parse_conf_text("[s]\n path = /srv\n hosts deny = ALL\n",
						   "t.conf", d),
				   d);
	CHECK(none.knobs.host_rules.empty());
}

TEST_CASE("host rules: the module refuses malformed arrays", "[hosts]")
{
	auto ok = encode_host_rules(V{"10.0.0.0/8"}, V{"ALL"});
	REQUIRE(smb_host_rules_check(ok.data(), static_cast<u32>(ok.size())) == 0);
	CHECK(smb_host_rules_check(ok.data(), static_cast<u32>(ok.size() - 1)) == -EINVAL);
	for (auto [off, val] : std::vector<std::pair<size_t, uint8_t>>{
		     {0, 2}, {1, 2}, {2, 5}, {2, 10}}) {
		auto bad = ok;
		bad[SMB_HOST_RULE_SIZE + off] = val;
		CAPTURE(off, val);
		CHECK(smb_host_rules_check(bad.data(), static_cast<u32>(bad.size())) == -EINVAL);
	}
	auto bad = ok;
	bad[SMB_HOST_RULE_SIZE + 2] = 4;
	bad[SMB_HOST_RULE_SIZE + 3] = 33;
	CHECK(smb_host_rules_check(bad.data(), static_cast<u32>(bad.size())) == -EINVAL);
	bad[SMB_HOST_RULE_SIZE + 2] = 6;
	bad[SMB_HOST_RULE_SIZE + 3] = 129;
	CHECK(smb_host_rules_check(bad.data(), static_cast<u32>(bad.size())) == -EINVAL);
	std::vector<uint8_t> many(size_t{SMB_HOST_RULES_MAX + 1} * SMB_HOST_RULE_SIZE, 0);
	CHECK(smb_host_rules_check(many.data(), static_cast<u32>(many.size())) == -EINVAL);
	CHECK(smb_host_rules_check(nullptr, 0) == 0);
}

TEST_CASE("host names resolve at load; what cannot match is reported with file:line",
	  "[hosts]")
{
	set_host_resolver([](const std::string &name) -> std::vector<std::string> {
		if (name == "fileserver")
			return {"192.0.2.7", "2001:db8::7"};
		return {};
	});
	Diagnostics d;
	Config c = build_config(parse_conf_text("[global]\n hosts deny = 10.0.0.0/8 fileserver\n"
						"[s]\n path = /srv\n hosts allow = 10.1.2.0/33 "
						"ALL EXCEPT fd00::/8 nas.example.org\n"
						"[t]\n path = /srv\n hosts allow = nas\n",
						"t.conf", d),
				d);
	set_host_resolver(nullptr);
	auto m = d.all();
	REQUIRE(m.size() == 3);
	CHECK(m[0].str() == "t.conf:5: warning: hosts allow: '10.1.2.0/33' is not an "
			    "address or network");
	CHECK(m[1].str() == "t.conf:5: warning: hosts allow: 'nas.example.org' does not "
			    "resolve to an address; it matches nothing");
	CHECK(m[2].str() == "t.conf:8: warning: hosts allow: 'nas' does not resolve to an "
			    "address; it matches nothing");
	CHECK_FALSE(d.has_errors());

	// The name's addresses are in the lists, for the daemon and the module.
	const ShareConfig *s = c.share("s");
	REQUIRE(s != nullptr);
	CHECK(s->params.str("hosts deny") == "10.0.0.0/8 192.0.2.7 2001:db8::7");
	CHECK(s->params.str("hosts allow") == "10.1.2.0/33 ALL EXCEPT fd00::/8 nas.example.org");
	CHECK_FALSE(host_list_matches(s->params.list("hosts allow"), "fd00::1"));
	CHECK(host_list_matches(s->params.list("hosts allow"), "198.51.100.1"));
	CHECK(host_allowed({}, s->params.list("hosts deny"), "192.0.2.8"));
	CHECK_FALSE(host_allowed({}, s->params.list("hosts deny"), "192.0.2.7"));
	CHECK_FALSE(host_allowed({}, s->params.list("hosts deny"), "2001:db8::7"));
	auto rules = c.knobs.host_rules;
	CHECK(smb_host_rules_check(rules.data(), static_cast<u32>(rules.size())) == 0);
	CHECK(module_allows(rules, "10.9.9.9") == false);
	CHECK(module_allows(rules, "192.0.2.7") == false);
	CHECK(module_allows(rules, "192.0.2.8") == true);

	// A list of nothing but a dead name lets nobody in; it does not
	// become an empty list that would let everybody in.
	const ShareConfig *t = c.share("t");
	REQUIRE(t != nullptr);
	CHECK(t->params.str("hosts allow") == "nas");
	CHECK_FALSE(host_allowed(t->params.list("hosts allow"), {}, "10.0.2.2"));
}

TEST_CASE("the default resolver: localhost stays a range, numeric names parse", "[hosts]")
{
	CHECK(is_host_name("nas"));
	CHECK(is_host_name("nas-1.example.org"));
	CHECK_FALSE(is_host_name("10.0.0"));
	CHECK_FALSE(is_host_name("10.0.0.0/33"));
	CHECK_FALSE(is_host_name(".example.org"));
	CHECK_FALSE(is_host_name("ALL"));
	std::vector<std::string> problems;
	// getaddrinfo answers numeric hosts itself, without any resolver.
	auto l = resolve_host_names({"localhost", "EXCEPT", "127.0.0.2"}, &problems);
	CHECK(problems.empty());
	CHECK(l == std::vector<std::string>{"localhost", "EXCEPT", "127.0.0.2"});
	l = resolve_host_names({"host.invalid"}, &problems);
	CHECK(l == std::vector<std::string>{"host.invalid"});
	CHECK(problems.size() == 1);
}
