// SPDX-License-Identifier: GPL-2.0-or-later
// PAC logon information (MS-PAC 2.5) and what a Kerberos logon makes of
// it: the decoder against a buffer MIT GSSAPI returned for a Samba AD DC's
// ticket and against buffers Samba's NDR marshalling made
// (data/pac/make-pacs.py), every truncation and count refused; SIDs and
// their order; idmap's parameters and rid arithmetic; the Authenticator
// with a fake acceptor that hands over a PAC.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <linux/smbsrv.h>

#include "auth.hpp"
#include "fake_accounts.hpp"
#include "idmap.hpp"
#include "idmap_db.hpp"
#include "kerberos.hpp"
#include "ntstatus.hpp"
#include "pac.hpp"
#include "params.hpp"
#include "sid.hpp"
#include "spnego.hpp"

extern "C" {
#include "ntacl.h"
}

using namespace smbsrv;

namespace {

Bytes pac_file(const std::string &name)
{
	std::ifstream in(std::string(SMBSRV_TEST_DATA) + "/pac/" + name, std::ios::binary);
	REQUIRE(in.good());
	return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Sid sid(const std::string &s)
{
	auto v = Sid::parse(s);
	REQUIRE(v);
	return *v;
}

std::vector<std::string> strs(const std::vector<Sid> &v)
{
	std::vector<std::string> out;
	out.reserve(v.size());
	for (const auto &s : v)
		out.push_back(s.str());
	return out;
}

const std::string dom = "S-1-5-21-3442439000-2303981109-1835343899";

void put32(Bytes &b, size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[off + i] = static_cast<uint8_t>(v >> (8 * i));
}

} // namespace

TEST_CASE("SIDs: text form, wire form, order", "[pac][sid]")
{
	Sid s = sid("S-1-5-21-1-2-3-1104");
	CHECK(s.str() == "S-1-5-21-1-2-3-1104");
	Bytes w = s.wire();
	CHECK(w.size() == 8 + 4 * 5);
	CHECK(w[0] == 1);
	CHECK(w[1] == 5);
	CHECK(w[7] == 5);
	REQUIRE(Sid::decode(w));
	CHECK(*Sid::decode(w) == s);
	Bytes longer = w;
	longer.push_back(0);
	CHECK_FALSE(Sid::decode(longer));
	CHECK_FALSE(Sid::decode(ByteView(w).first(w.size() - 1)));
	CHECK(sid("S-1-18-1").str() == "S-1-18-1");
	CHECK(sid("S-1-281474976710655-0").str() == "S-1-281474976710655-0");
	for (const char *bad : {"", "S-1", "S-2-5-1", "S-1-5-", "S-1-5-x", "X-1-5-1",
				"S-1-281474976710656-1", "S-1-5-4294967296",
				"S-1-5-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-16"})
		CHECK_FALSE(Sid::parse(bad));

	uint32_t rid = 0;
	CHECK(s.in_domain(sid("S-1-5-21-1-2-3"), &rid));
	CHECK(rid == 1104);
	CHECK_FALSE(s.in_domain(sid("S-1-5-21-1-2-4"), &rid));
	CHECK_FALSE(s.in_domain(sid("S-1-5-21-1-2"), &rid));
	// The module's order: fewer sub-authorities first, then numerically.
	CHECK(sid("S-1-18-1") < sid("S-1-5-21-1"));
	CHECK(sid("S-1-5-21-1-2-3-9") < sid("S-1-5-21-1-2-3-10"));
	CHECK(sid("S-1-5-21-1-2-3-4294967295") < sid("S-1-5-21-1-2-4-0"));
	CHECK(sid("S-1-1-0") < sid("S-1-5-0"));
}

TEST_CASE("PAC logon information of a Samba AD DC's ticket", "[pac]")
{
	std::string why;
	auto info = pac::decode_logon_info(pac_file("samba-ad-dc-pat.bin"), &why);
	REQUIRE(info);
	CHECK(info->user == "pat");
	CHECK(info->domain == "ADSMB");
	CHECK(info->domain_sid.str() == dom);
	CHECK(info->user_rid == 1102);
	CHECK(info->group_rid == 513);
	CHECK(info->group_rids == std::vector<uint32_t>{513, 1104});
	CHECK(strs(info->extra_sids) == std::vector<std::string>{"S-1-18-1"});
	CHECK_FALSE(info->resource_domain);
	CHECK(info->user_sid().str() == dom + "-1102");
	CHECK(strs(info->token_sids()) ==
	      std::vector<std::string>{"S-1-18-1", dom + "-513", dom + "-1102", dom + "-1104"});
}

TEST_CASE("PAC logon information made by Samba's NDR code", "[pac]")
{
	std::string why;
	auto info = pac::decode_logon_info(pac_file("rich.bin"), &why);
	REQUIRE(info);
	const std::string d = "S-1-5-21-1111111111-2222222222-3333333333";
	const std::string other = "S-1-5-21-444444444-555555555-666666666";
	CHECK(info->user == "zoë");
	CHECK(info->domain == "EXAMPLE");
	CHECK(info->group_rids == std::vector<uint32_t>{513, 1104, 1106});
	CHECK(strs(info->extra_sids) ==
	      std::vector<std::string>{other + "-1234", "S-1-18-1", d + "-1104"});
	REQUIRE(info->resource_domain);
	CHECK(info->resource_domain->str() == other);
	CHECK(info->resource_rids == std::vector<uint32_t>{2001, 2002});
	// Distinct (1104 is both a group and an extra SID), in the module's
	// order.
	auto t = info->token_sids();
	CHECK(strs(t) == std::vector<std::string>{"S-1-18-1", other + "-1234", other + "-2001",
						  other + "-2002", d + "-513", d + "-1104",
						  d + "-1105", d + "-1106"});
	std::vector<smb_sid> raw;
	raw.reserve(t.size());
	for (const auto &s : t)
		raw.push_back(s.raw());
	CHECK(smb_sids_sorted(raw.data(), static_cast<uint32_t>(raw.size())));

	// 1024 SIDs is the limit; one more is refused, not truncated.
	auto limit = pac::decode_logon_info(pac_file("limit.bin"), &why);
	REQUIRE(limit);
	CHECK(limit->token_sids().size() == pac::max_sids);
	CHECK_FALSE(pac::decode_logon_info(pac_file("too-many.bin"), &why));
	CHECK(why.find("1025 SIDs, more than 1024") != std::string::npos);
}

TEST_CASE("malformed PAC logon information is refused", "[pac]")
{
	Bytes good = pac_file("rich.bin");
	std::string why;
	// Every truncation of the object (the header's length follows it).
	for (size_t n = 0; n + 8 < good.size(); n += 4) {
		CAPTURE(n);
		Bytes b(good.begin(), good.begin() + static_cast<long>(n));
		CHECK_FALSE(pac::decode_logon_info(b, &why));
		if (n >= 16) {
			put32(b, 8, static_cast<uint32_t>(n - 16));
			CHECK_FALSE(pac::decode_logon_info(b, &why));
		}
	}
	// Offsets in the buffer of the fixed part (the same in every
	// KERB_VALIDATION_INFO NDR lays out).
	auto mutate = [&](size_t off, uint32_t v) {
		Bytes b = good;
		put32(b, off, v);
		return pac::decode_logon_info(b, &why).has_value();
	};
	CHECK(mutate(0x80, 3));		       // GroupCount as it is: decodes
	CHECK_FALSE(mutate(0x80, 0xffffffff)); // GroupCount absurd
	CHECK_FALSE(mutate(0x80, 1025));
	CHECK_FALSE(mutate(0x80, 2));  // GroupCount not the array's size
	CHECK_FALSE(mutate(0xd8, 0x40000000)); // SidCount absurd
	CHECK_FALSE(mutate(0xd8, 2));
	CHECK_FALSE(mutate(0xe4, 0xffffffff)); // ResourceGroupCount
	CHECK_FALSE(mutate(0xac, 0));	       // no LogonDomainId
	CHECK_FALSE(mutate(0x10, 0));	       // no KERB_VALIDATION_INFO
	CHECK_FALSE(mutate(8, 0xfffffff0));    // object longer than the buffer
	Bytes be = good;
	be[1] = 0x00; // big-endian
	CHECK_FALSE(pac::decode_logon_info(be, &why));
	CHECK_FALSE(pac::decode_logon_info({}, &why));
}

TEST_CASE("idmap config: Samba's parameters", "[pac][idmap]")
{
	auto build = [](const std::string &text, Diagnostics &d) {
		return build_config(parse_conf_text(text, "t.conf", d), d);
	};
	Diagnostics d;
	Config c = build("[global]\n"
			 "idmap config * : backend = tdb\n"
			 "idmap config * : range = 3000-7999\n"
			 "idmap config ADSMB:backend = rid\n"
			 "idmap  config  adsmb : range = 10000 - 999999\n"
			 "idmap config OTHER : backend = ad\n"
			 "idmap config OTHER : range = 2000000-2999999\n"
			 "idmap config OTHER : schema_mode = rfc2307\n",
			 d);
	REQUIRE_FALSE(d.has_errors());
	// The ad backend and schema_mode: said, not silently ignored (the *
	// range with backend = tdb is in effect: silent).
	REQUIRE(d.all().size() == 2);
	CHECK(d.all()[0].line == 6);
	CHECK(d.all()[0].message.find("only backend = rid maps a domain") != std::string::npos);
	CHECK(d.all()[0].message.find("ids from the * range") != std::string::npos);
	CHECK(d.all()[1].line == 8);
	Idmap m = Idmap::from_params(c.global);
	CHECK(m.default_range() == std::make_pair(3000u, 7999u));
	CHECK(m.maps("ADSMB"));
	CHECK(m.maps("adsmb"));
	CHECK_FALSE(m.maps("OTHER"));
	CHECK_FALSE(m.maps("*"));
	CHECK(m.id("ADSMB", 1104) == 11104u);
	CHECK(m.id("ADSMB", 0) == 10000u);
	CHECK(m.id("ADSMB", 989999) == 999999u);
	CHECK_FALSE(m.id("ADSMB", 990000));
	CHECK_FALSE(m.id("ADSMB", 0xffffffff));
	CHECK_FALSE(m.id("OTHER", 1104));
	auto dump = dump_config(c, false);
	CHECK(dump.find("idmap config * : range = 3000-7999") != std::string::npos);
	CHECK(dump.find("idmap config ADSMB : backend = rid") != std::string::npos);
	CHECK(dump.find("idmap config ADSMB : range = 10000 - 999999") != std::string::npos);
	CHECK(find_param("idmap config ANY : range"));

	const std::string overlap = std::string("idmap config * : range = 1000-2000\n") +
				    "idmap config A : backend = rid\n" +
				    "idmap config A : range = 2000-3000\n";
	for (const std::string &bad : std::vector<std::string>{
		     "idmap config A : range = 10-5\n", "idmap config A : range = x\n",
		     "idmap config A : range = 0-100\n", "idmap config A : range = 5-4294967295\n",
		     "idmap config A : backend = rid\n", overlap}) {
		CAPTURE(bad);
		Diagnostics e;
		build(std::string("[global]\n") + bad, e);
		CHECK(e.has_errors());
	}
	// The * range's default, empty, as a full dump writes it, reads back.
	Diagnostics none;
	build("[global]\nidmap config * : range = \n", none);
	CHECK_FALSE(none.has_errors());
	Diagnostics dumped;
	Config d0 = build("", dumped);
	Diagnostics again;
	build(dump_config(d0, true), again);
	CHECK_FALSE(again.has_errors());
	Diagnostics share;
	build("[s]\npath = /s\nidmap config A : range = 1-2\n", share);
	REQUIRE(share.all().size() == 1);
	CHECK(share.all()[0].message.find("in share section") != std::string::npos);
}

namespace {

Bytes framed_ap_req(const std::string &tag)
{
	Bytes body{0x01, 0x00};
	append(body, as_bytes(tag));
	Bytes b = spnego::der::tlv(0x06, spnego::oid_krb5);
	append(b, body);
	return spnego::der::tlv(0x60, b);
}

// Accepts framed_ap_req("ok:PRINCIPAL") with the PAC it was given.
class PacAcceptor final : public krb5::Acceptor {
public:
	std::optional<Bytes> pac;
	krb5::Accepted accept(ByteView token) override
	{
		krb5::Accepted a;
		auto f = krb5::parse_framed(token);
		std::string body(f->inner.begin() + 2, f->inner.end());
		a.kind = krb5::Accepted::Kind::ok;
		a.client = body.substr(3);
		a.session_key = Bytes(32, 0x5a);
		a.logon_info = pac;
		return a;
	}
};

struct PRig {
	test::FakeAccounts accounts = test::accounts();
	std::shared_ptr<PacAcceptor> acceptor = std::make_shared<PacAcceptor>();
	AuthPolicy policy;

	PRig()
	{
		policy.kerberos = acceptor;
		policy.realm = "AD.SMBSRV.TEST";
		Diagnostics d;
		Config c = build_config(parse_conf_text("[global]\n"
							"idmap config ADSMB : backend = rid\n"
							"idmap config ADSMB : range = 100000-199999\n",
							"t.conf", d),
					d);
		REQUIRE(d.all().empty());
		policy.idmap = Idmap::from_params(c.global);
	}
	AuthResult logon(const std::string &principal)
	{
		Authenticator auth(
			policy, [](const std::string &) { return std::nullopt; }, accounts);
		return auth.step(7, "10.0.0.9", framed_ap_req("ok:" + principal));
	}
};

} // namespace

TEST_CASE("Kerberos logons with a PAC: the token's SIDs and idmap", "[pac][krb5]")
{
	PRig rig;
	rig.acceptor->pac = pac_file("samba-ad-dc-pat.bin");

	// No local account: a domain user, ids from the rid backend.
	AuthResult r = rig.logon("pat@AD.SMBSRV.TEST");
	REQUIRE(r.status == nt::SUCCESS);
	CHECK(r.user == "ADSMB\\pat");
	CHECK(r.domain == "AD.SMBSRV.TEST");
	CHECK(r.uid == 101102);
	CHECK(r.gid == 100513);
	CHECK(r.groups == std::vector<uint32_t>{100513, 101104});
	CHECK(strs(r.sids) ==
	      std::vector<std::string>{"S-1-18-1", dom + "-513", dom + "-1102", dom + "-1104"});
	CHECK(r.flags == SMBSRV_SESSION_FLAGS_KERBEROS);

	// A local account of that name: its ids, the PAC's SIDs, and the
	// domain groups that map added to its groups.
	rig.accounts.users["pat"] = {"pat", 1010, 1010, {1010}};
	r = rig.logon("pat@AD.SMBSRV.TEST");
	REQUIRE(r.status == nt::SUCCESS);
	CHECK(r.user == "pat");
	CHECK(r.uid == 1010);
	CHECK(r.groups == std::vector<uint32_t>{1010, 100513, 101104});
	CHECK(r.sids.size() == 4);

	// Without a rid domain for ADSMB and no local account: refused.
	rig.accounts.users.erase("pat");
	rig.policy.idmap = Idmap();
	CHECK(rig.logon("pat@AD.SMBSRV.TEST").status == nt::LOGON_FAILURE);

	// A PAC that does not decode, or lists too many SIDs: refused.
	PRig bad;
	bad.acceptor->pac = Bytes{1, 0x10, 8, 0};
	CHECK(bad.logon("pat@AD.SMBSRV.TEST").status == nt::LOGON_FAILURE);
	bad.acceptor->pac = pac_file("too-many.bin");
	bad.accounts.users["over"] = {"over", 1011, 1011, {1011}};
	CHECK(bad.logon("over@AD.SMBSRV.TEST").status == nt::LOGON_FAILURE);
	// The limit itself logs on.
	bad.acceptor->pac = pac_file("limit.bin");
	bad.accounts.users["max"] = {"max", 1012, 1012, {1012}};
	r = bad.logon("max@AD.SMBSRV.TEST");
	REQUIRE(r.status == nt::SUCCESS);
	CHECK(r.sids.size() == 1024);

	// No PAC (an MIT KDC's ticket without logon information): no SIDs.
	PRig mit;
	r = mit.logon("alice@AD.SMBSRV.TEST");
	REQUIRE(r.status == nt::SUCCESS);
	CHECK(r.sids.empty());
}

TEST_CASE("Kerberos logons with a PAC: ids from the * range", "[pac][krb5][idmap]")
{
	char tmpl[] = "/tmp/smbsrv-idmap-auth.XXXXXX";
	REQUIRE(mkdtemp(tmpl));
	std::string dir = tmpl;
	auto policy = [&](const std::string &range) {
		PRig rig;
		rig.acceptor->pac = pac_file("samba-ad-dc-pat.bin");
		Diagnostics d;
		Config c = build_config(parse_conf_text("[global]\nidmap config * : range = " + range +
								"\nstate directory = " + dir + "\n",
							"t.conf", d),
					d);
		REQUIRE(d.all().empty());
		rig.policy.idmap = Idmap::from_params(c.global);
		std::string why;
		rig.policy.idmap_db = IdmapDb::open(dir + "/idmap.tdb", &why);
		REQUIRE(rig.policy.idmap_db);
		return rig;
	};
	{
		// ADSMB has no rid line: pat, no local account, gets the
		// first uid, Domain Users the first gid, engineers the next.
		PRig rig = policy("3000-3009");
		AuthResult r = rig.logon("pat@AD.SMBSRV.TEST");
		REQUIRE(r.status == nt::SUCCESS);
		CHECK(r.user == "ADSMB\\pat");
		CHECK(r.uid == 3000);
		CHECK(r.gid == 3000);
		CHECK(r.groups == std::vector<uint32_t>{3000, 3001});
		CHECK(r.sids.size() == 4);
		// Again: the same ids, nothing more allocated.
		r = rig.logon("pat@AD.SMBSRV.TEST");
		CHECK(r.uid == 3000);
		CHECK(r.groups == std::vector<uint32_t>{3000, 3001});
		// A local account keeps its ids; the domain groups join.
		rig.accounts.users["pat"] = {"pat", 1010, 1010, {1010}};
		r = rig.logon("pat@AD.SMBSRV.TEST");
		REQUIRE(r.status == nt::SUCCESS);
		CHECK(r.uid == 1010);
		CHECK(r.groups == std::vector<uint32_t>{1010, 3000, 3001});
	}
	{
		// The handle closed and opened again (a restart): the same
		// ids, from the file.
		PRig rig = policy("3000-3009");
		AuthResult r = rig.logon("pat@AD.SMBSRV.TEST");
		REQUIRE(r.status == nt::SUCCESS);
		CHECK(r.uid == 3000);
		CHECK(r.groups == std::vector<uint32_t>{3000, 3001});
	}
	{
		// A range whose only uid another SID holds: pat's stored uid
		// is outside it and no new one is free: refused, as Samba
		// refuses a SID without a uid (STATUS_LOGON_FAILURE).
		PRig rig = policy("4000-4000");
		auto other = Sid::parse("S-1-5-21-1-2-3-500");
		REQUIRE(rig.policy.idmap_db->id(*other, IdmapDb::Kind::uid, 4000, 4000).id == 4000u);
		CHECK(rig.logon("pat@AD.SMBSRV.TEST").status == nt::LOGON_FAILURE);
		CHECK(rig.logon("pat@AD.SMBSRV.TEST").status == nt::LOGON_FAILURE);
	}
	std::filesystem::remove_all(dir);
}
