// SPDX-License-Identifier: GPL-2.0-or-later
// Kerberos logons in the Authenticator: the GSS-API framing, principals,
// the username map, and every SPNEGO path a Kerberos logon takes, with a
// fake acceptor in place of MIT GSSAPI (the real one is exercised by the
// VM suite host/krb against an MIT KDC).
#include <catch2/catch.hpp>

#include <linux/smbsrv.h>

#include "auth.hpp"
#include "fake_accounts.hpp"
#include "kerberos.hpp"
#include "ntstatus.hpp"
#include "spnego.hpp"
#include "usermap.hpp"

using namespace smbsrv;

namespace {

bool same(ByteView a, ByteView b)
{
	return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// A GSS-framed krb5 token: OID, TOK_ID, then body.
Bytes framed(ByteView oid, Bytes tok_id_and_body)
{
	Bytes b = spnego::der::tlv(0x06, oid);
	append(b, tok_id_and_body);
	return spnego::der::tlv(0x60, b);
}

Bytes ap_req(const std::string &tag)
{
	Bytes body{0x01, 0x00};
	append(body, as_bytes(tag));
	return framed(spnego::oid_krb5, body);
}

// A MIC the fake context makes and checks: "mic:" and the message.
class FakeContext final : public krb5::Context {
public:
	std::optional<Bytes> get_mic(ByteView msg) override
	{
		Bytes m{'m', 'i', 'c', ':'};
		append(m, msg);
		return m;
	}
	bool verify_mic(ByteView msg, ByteView mic) override
	{
		return same(*get_mic(msg), mic);
	}
};

// Accepts ap_req("ok:PRINCIPAL"), refuses ap_req("bad"), calls anything
// else malformed.
class FakeAcceptor final : public krb5::Acceptor {
public:
	int calls = 0;
	krb5::Accepted accept(ByteView token) override
	{
		calls++;
		krb5::Accepted a;
		auto f = krb5::parse_framed(token);
		std::string body = f && f->inner.size() >= 2
					   ? std::string(f->inner.begin() + 2, f->inner.end())
					   : "";
		if (body.starts_with("ok:")) {
			a.kind = krb5::Accepted::Kind::ok;
			a.client = body.substr(3);
			a.service = "cifs/srv.smbsrv.test@SMBSRV.TEST";
			a.session_key = Bytes(32, 0x5a);
			a.output = framed(spnego::oid_krb5, Bytes{0x02, 0x00, 'r', 'e', 'p'});
			a.context = std::make_unique<FakeContext>();
		} else if (body == "bad") {
			a.kind = krb5::Accepted::Kind::refused;
			a.reason = "clock skew too great";
		} else {
			a.kind = krb5::Accepted::Kind::malformed;
			a.reason = "not a Kerberos AP-REQ";
		}
		return a;
	}
};

Bytes mech_list(std::initializer_list<ByteView> oids)
{
	Bytes list;
	for (ByteView o : oids)
		append(list, spnego::der::tlv(0x06, o));
	return spnego::der::tlv(0x30, list);
}

// A client's NegTokenInit: mechTypes, optional token and mechListMIC.
Bytes neg_init(const Bytes &mechs, std::optional<Bytes> token, std::optional<Bytes> mic = {})
{
	Bytes body = spnego::der::tlv(0xa0, mechs);
	if (token)
		append(body, spnego::der::tlv(0xa2, spnego::der::tlv(0x04, *token)));
	if (mic)
		append(body, spnego::der::tlv(0xa3, spnego::der::tlv(0x04, *mic)));
	Bytes init = spnego::der::tlv(0x06, spnego::oid_spnego);
	append(init, spnego::der::tlv(0xa0, spnego::der::tlv(0x30, body)));
	return spnego::der::tlv(0x60, init);
}

struct KRig {
	test::FakeAccounts accounts = test::accounts();
	std::shared_ptr<FakeAcceptor> acceptor = std::make_shared<FakeAcceptor>();
	AuthPolicy policy;
	std::unique_ptr<Authenticator> auth;

	KRig()
	{
		policy.kerberos = acceptor;
		policy.realm = "SMBSRV.TEST";
		reset();
	}
	void reset()
	{
		auth = std::make_unique<Authenticator>(
			policy, [](const std::string &) { return std::nullopt; }, accounts);
	}
	AuthResult step(ByteView blob) { return auth->step(7, "10.0.0.9", blob); }
};

// Windows' list (a function: the OIDs are globals of another file).
Bytes windows()
{
	return mech_list({spnego::oid_ms_krb5, spnego::oid_krb5, spnego::oid_ntlmssp});
}

} // namespace

TEST_CASE("GSS-API framing: which mechanism a token is for", "[krb5]")
{
	const Bytes windows_mechs = windows();
	Bytes t = ap_req("x");
	auto f = krb5::parse_framed(t);
	REQUIRE(f);
	CHECK(same(f->mech, spnego::oid_krb5));
	CHECK(krb5::is_ap_req(t));
	CHECK(krb5::is_ap_req(framed(spnego::oid_ms_krb5, Bytes{0x01, 0x00, 0x30})));
	// An AP-REP (TOK_ID 02 00), an NTLMSSP-OID token, SPNEGO, a TOK_ID
	// with nothing after it: not an AP-REQ.
	CHECK_FALSE(krb5::is_ap_req(framed(spnego::oid_krb5, Bytes{0x02, 0x00, 0x30})));
	CHECK_FALSE(krb5::is_ap_req(framed(spnego::oid_ntlmssp, Bytes{0x01, 0x00, 0x30})));
	CHECK_FALSE(krb5::is_ap_req(framed(spnego::oid_krb5, Bytes{0x01, 0x00})));
	CHECK_FALSE(krb5::is_ap_req(neg_init(windows_mechs, std::nullopt)));
	// Every truncation, and trailing garbage after the framing.
	for (size_t n = 0; n < t.size(); n++)
		CHECK_FALSE(krb5::parse_framed(ByteView(t).first(n)));
	Bytes longer = t;
	longer.push_back(0);
	CHECK_FALSE(krb5::parse_framed(longer));
	CHECK_FALSE(krb5::parse_framed(Bytes{0x60, 0x02, 0x04, 0x00}));
}

TEST_CASE("principals split at the last unescaped @", "[krb5]")
{
	using P = std::pair<std::string, std::string>;
	CHECK(krb5::split_principal("alice@SMBSRV.TEST") == P{"alice", "SMBSRV.TEST"});
	CHECK(krb5::split_principal("cifs/h.x@R") == P{"cifs/h.x", "R"});
	CHECK(krb5::split_principal("a\\@b@R") == P{"a\\@b", "R"});
	CHECK(krb5::split_principal("a\\@b") == P{"a\\@b", ""});
	CHECK(krb5::split_principal("noreal") == P{"noreal", ""});
}

TEST_CASE("username map: Samba's file syntax and order", "[krb5][usermap]")
{
	Diagnostics d;
	auto m = UsernameMap::parse("# comment\n"
				    "; another\n"
				    "alice = alice@OTHER.REALM \"Alice Liddell\"\n"
				    "!bob = bob@OTHER.REALM\n"
				    "carol = bob\n"
				    "no equals sign\n"
				    "demo = @staff\n"
				    "nobody = guest@OTHER.REALM\n",
				    "map", d);
	CHECK(m.map("alice@other.realm") == "alice");
	CHECK(m.map("Alice Liddell") == "alice");
	// "!" stops after its line: bob is not mapped on to carol.
	CHECK(m.map("bob@OTHER.REALM") == "bob");
	// Without "!", processing goes on with the new name.
	CHECK(m.map("bob") == "carol");
	CHECK_FALSE(m.map("dave@OTHER.REALM"));
	// Group entries match nothing (not supported yet), and say so.
	CHECK_FALSE(m.map("@staff"));
	REQUIRE(d.all().size() == 2);
	CHECK(d.all()[0].line == 6);
	CHECK(d.all()[1].line == 7);

	Diagnostics d2;
	auto star = UsernameMap::parse("!alice = alice@X\nnobody = *\n", "m", d2);
	CHECK(star.map("alice@X") == "alice");
	CHECK(star.map("anyone@ANY") == "nobody");
	CHECK(d2.all().empty());

	Diagnostics d3;
	auto bad = UsernameMap::parse("a = \"unterminated\n = b\n", "m", d3);
	CHECK(bad.empty());
	CHECK(d3.all().size() == 2);

	Diagnostics d4;
	CHECK(UsernameMap::load("/nonexistent/users.map", d4).empty());
	CHECK(d4.all().size() == 1);
}

TEST_CASE("Kerberos in SPNEGO: AP-REP, mechListMIC, session key, local user", "[krb5][auth]")
{
	const Bytes windows_mechs = windows();
	KRig rig;
	AuthResult r = rig.step(neg_init(windows_mechs, ap_req("ok:alice@SMBSRV.TEST")));
	REQUIRE(r.status == nt::SUCCESS);
	CHECK(r.user == "alice");
	CHECK(r.uid == 1001);
	CHECK(r.domain == "SMBSRV.TEST");
	CHECK(r.principal == "alice@SMBSRV.TEST");
	CHECK(r.flags == SMBSRV_SESSION_FLAGS_KERBEROS);
	CHECK(r.session_key == Bytes(32, 0x5a));
	auto p = spnego::parse_resp(r.blob);
	REQUIRE(p);
	CHECK(p->state == spnego::NegState::accept_completed);
	// The client's first mechanism (the MS OID) is echoed.
	REQUIRE(p->supported_mech);
	CHECK(same(*p->supported_mech, spnego::oid_ms_krb5));
	REQUIRE(p->response_token);
	CHECK(same(*p->response_token,
		   framed(spnego::oid_krb5, Bytes{0x02, 0x00, 'r', 'e', 'p'})));
	REQUIRE(p->mech_list_mic);
	CHECK(FakeContext().verify_mic(windows_mechs, *p->mech_list_mic));
	CHECK(rig.auth->pending() == 0);

	// The client's own mechListMIC, when it sends one, must verify.
	KRig rig2;
	Bytes good = *FakeContext().get_mic(windows_mechs);
	CHECK(rig2.step(neg_init(windows_mechs, ap_req("ok:alice@SMBSRV.TEST"), good)).status ==
	      nt::SUCCESS);
	Bytes bad = good;
	bad.back() ^= 1;
	CHECK(rig2.step(neg_init(windows_mechs, ap_req("ok:alice@SMBSRV.TEST"), bad)).status ==
	      nt::LOGON_FAILURE);
}

TEST_CASE("a bare Kerberos AP-REQ gets a bare AP-REP", "[krb5][auth]")
{
	KRig rig;
	Bytes t = ap_req("ok:bob@SMBSRV.TEST");
	AuthResult r = rig.step(t);
	REQUIRE(r.status == nt::SUCCESS);
	CHECK(r.user == "bob");
	CHECK(r.blob == framed(spnego::oid_krb5, Bytes{0x02, 0x00, 'r', 'e', 'p'}));

	rig.policy.kerberos = nullptr;
	rig.reset();
	CHECK(rig.step(t).status == nt::LOGON_FAILURE);
}

TEST_CASE("refused and malformed tickets", "[krb5][auth]")
{
	const Bytes windows_mechs = windows();
	KRig rig;
	CHECK(rig.step(neg_init(windows_mechs, ap_req("bad"))).status == nt::LOGON_FAILURE);
	CHECK(rig.step(neg_init(windows_mechs, Bytes{1, 2, 3})).status == nt::INVALID_PARAMETER);
	CHECK(rig.step(ap_req("bad")).status == nt::LOGON_FAILURE);
	CHECK(rig.auth->pending() == 0);
}

TEST_CASE("principal to local user: realm, username map, guest, Unix account", "[krb5][auth]")
{
	const Bytes windows_mechs = windows();
	KRig rig;
	auto logon = [&](const std::string &principal) {
		return rig.step(neg_init(windows_mechs, ap_req("ok:" + principal)));
	};
	// Another realm, a service principal, a user with no Unix account.
	CHECK(logon("alice@OTHER.REALM").status == nt::LOGON_FAILURE);
	CHECK(logon("host/alice@SMBSRV.TEST").status == nt::LOGON_FAILURE);
	CHECK(logon("zed@SMBSRV.TEST").status == nt::LOGON_FAILURE);
	// The realm compares without case.
	CHECK(logon("carol@smbsrv.test").user == "carol");

	Diagnostics d;
	rig.policy.username_map = std::make_shared<UsernameMap>(UsernameMap::parse(
		"alice = alice@OTHER.REALM\ndemo = carol@SMBSRV.TEST\n", "m", d));
	rig.reset();
	AuthResult r = logon("alice@OTHER.REALM");
	CHECK(r.status == nt::SUCCESS);
	CHECK(r.user == "alice");
	CHECK(r.domain == "OTHER.REALM");
	// The map wins over realm stripping.
	CHECK(logon("carol@SMBSRV.TEST").user == "demo");

	// map to guest = bad user: unmapped principals become guests, with
	// no session key (no signing), as NTLM guests.
	rig.policy.map_to_guest = MapToGuest::bad_user;
	rig.reset();
	r = logon("eve@ELSEWHERE");
	REQUIRE(r.status == nt::SUCCESS);
	CHECK(r.user == "nobody");
	CHECK(r.flags == (SMBSRV_SESSION_FLAGS_GUEST | SMBSRV_SESSION_FLAGS_KERBEROS));
	CHECK(r.session_key.empty());
	CHECK(r.principal == "eve@ELSEWHERE");
	CHECK(logon("zed@SMBSRV.TEST").status == nt::LOGON_FAILURE);
	rig.policy.map_to_guest = MapToGuest::bad_uid;
	rig.reset();
	CHECK(logon("zed@SMBSRV.TEST").user == "nobody");
	CHECK(logon("eve@ELSEWHERE").status == nt::LOGON_FAILURE);

	// What the module could not take is refused here, guest or not.
	rig.policy.map_to_guest = MapToGuest::bad_user;
	rig.reset();
	CHECK(logon(std::string(500, 'a') + "@" + std::string(11, 'R')).status == nt::SUCCESS);
	CHECK(logon(std::string(500, 'a') + "@" + std::string(12, 'R')).status ==
	      nt::LOGON_FAILURE);
	CHECK(logon("a@" + std::string(257, 'R')).status == nt::LOGON_FAILURE);
	CHECK(logon("a@" + std::string(256, 'R')).status == nt::SUCCESS);
}

TEST_CASE("mechanism choice: the client's first the server accepts", "[krb5][auth]")
{
	KRig rig;
	// NTLMSSP first: NTLMSSP it is, Kerberos untouched.
	AuthResult r = rig.step(neg_init(mech_list({spnego::oid_ntlmssp, spnego::oid_krb5}),
					  std::nullopt));
	REQUIRE(r.status == nt::MORE_PROCESSING_REQUIRED);
	auto p = spnego::parse_resp(r.blob);
	REQUIRE(p);
	CHECK(same(*p->supported_mech, spnego::oid_ntlmssp));
	CHECK(rig.acceptor->calls == 0);

	// Kerberos only, and no keytab: nothing in common.
	rig.policy.kerberos = nullptr;
	rig.reset();
	CHECK(rig.step(neg_init(mech_list({spnego::oid_krb5}), ap_req("ok:alice@SMBSRV.TEST")))
		      .status == nt::LOGON_FAILURE);
}

TEST_CASE("Kerberos as the client's second choice: request-mic, AP-REQ, then its MIC",
	  "[krb5][auth]")
{
	const Bytes oid_negoex{0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x1e};
	Bytes mechs = mech_list({oid_negoex, spnego::oid_krb5});
	auto run = [&](std::optional<bool> mic_good) {
		KRig rig;
		AuthResult r1 = rig.step(neg_init(mechs, Bytes{0x60, 0x00}));
		REQUIRE(r1.status == nt::MORE_PROCESSING_REQUIRED);
		auto p1 = spnego::parse_resp(r1.blob);
		REQUIRE(p1);
		CHECK(p1->state == spnego::NegState::request_mic);
		CHECK(same(*p1->supported_mech, spnego::oid_krb5));
		CHECK(rig.acceptor->calls == 0);

		spnego::Response leg2;
		leg2.response_token = ap_req("ok:alice@SMBSRV.TEST");
		AuthResult r2 = rig.step(spnego::build_resp(leg2));
		REQUIRE(r2.status == nt::MORE_PROCESSING_REQUIRED);
		auto p2 = spnego::parse_resp(r2.blob);
		REQUIRE(p2);
		CHECK(p2->state == spnego::NegState::accept_incomplete);
		CHECK(p2->response_token);
		REQUIRE(p2->mech_list_mic);
		CHECK(FakeContext().verify_mic(mechs, *p2->mech_list_mic));

		spnego::Response leg3;
		if (mic_good) {
			Bytes mic = *FakeContext().get_mic(mechs);
			if (!*mic_good)
				mic[0] ^= 1;
			leg3.mech_list_mic = mic;
		}
		return rig.step(spnego::build_resp(leg3));
	};
	AuthResult ok = run(true);
	CHECK(ok.status == nt::SUCCESS);
	CHECK(ok.user == "alice");
	CHECK(ok.session_key.size() == 32);
	auto p = spnego::parse_resp(ok.blob);
	REQUIRE(p);
	CHECK(p->state == spnego::NegState::accept_completed);
	CHECK(run(false).status == nt::LOGON_FAILURE);
	CHECK(run(std::nullopt).status == nt::INVALID_PARAMETER);
}

TEST_CASE("NEGOTIATE's mechanism list follows Kerberos and ntlm auth", "[krb5][spnego]")
{
	auto mechs = [](const Bytes &blob) {
		auto init = spnego::parse_init(blob);
		REQUIRE(init);
		std::vector<std::string> out;
		for (ByteView m : init->mech_types)
			out.push_back(spnego::oid_str(m));
		return out;
	};
	using V = std::vector<std::string>;
	KRig rig;
	CHECK(mechs(rig.auth->negotiate_blob()) ==
	      V{"1.2.840.48018.1.2.2", "1.2.840.113554.1.2.2", "1.3.6.1.4.1.311.2.2.10"});
	rig.policy.ntlm = false;
	rig.reset();
	CHECK(mechs(rig.auth->negotiate_blob()) ==
	      V{"1.2.840.48018.1.2.2", "1.2.840.113554.1.2.2"});
	// With neither, NTLMSSP stays for null sessions.
	rig.policy.kerberos = nullptr;
	rig.reset();
	CHECK(mechs(rig.auth->negotiate_blob()) == V{"1.3.6.1.4.1.311.2.2.10"});
	// An empty SESSION_SETUP blob gets the same list.
	rig.policy.kerberos = rig.acceptor;
	rig.reset();
	CHECK(rig.step({}).blob == rig.auth->negotiate_blob());
}

TEST_CASE("no keytab: Kerberos is off, and why is reported", "[krb5]")
{
	std::string why;
	CHECK_FALSE(krb5::make_gss_acceptor({"/nonexistent/krb5.keytab", ""}, &why));
	CHECK(why.find("keytab") != std::string::npos);
}
