// SPDX-License-Identifier: GPL-2.0-or-later
// The Authenticator: exchanges recorded from Samba's client (gensec, as
// smbclient runs it) replayed byte for byte, tampering of every kind, and
// the bookkeeping of multi-leg logons.  The recordings come from
// tests/interop/samba-gensec.py --record.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <fstream>
#include <linux/smbsrv.h>
#include <map>
#include <sstream>

#include "auth.hpp"
#include "ntstatus.hpp"
#include "spnego.hpp"
#include "userdb.hpp"

using namespace smbsrv;

namespace {

class FakeAccounts final : public Accounts {
public:
	std::map<std::string, Account> users;
	void add(const std::string &name, uint32_t uid, uint32_t gid)
	{
		users[name] = Account{name, uid, gid, {gid}};
	}
	std::optional<Account> user(const std::string &name) override
	{
		auto it = users.find(name);
		if (it == users.end())
			return std::nullopt;
		return it->second;
	}
	std::optional<uint32_t> group(const std::string &) override { return std::nullopt; }
};

Bytes hex(const std::string &h)
{
	Bytes b;
	if (h != "-")
		REQUIRE(from_hex(h, b));
	return b;
}

std::string field(ByteView b) { return b.empty() ? "-" : to_hex(b); }

struct Leg {
	Bytes client;
	std::vector<std::string> server; // status blob key flags uid user
};

struct Recording {
	std::string name;
	Bytes seed;
	uint64_t time = 0;
	std::string map_to_guest;
	UserDb db;
	FakeAccounts accounts;
	uint64_t sid = 0;
	std::string addr;
	std::vector<Leg> legs;
	std::string client_key;
};

Recording load(const std::string &name)
{
	Recording r;
	r.name = name;
	std::ifstream in(std::string(SMBSRV_TEST_DATA) + "/auth/" + name + ".txt");
	REQUIRE(in);
	std::string line;
	while (std::getline(in, line)) {
		std::istringstream ls(line);
		std::string kind;
		ls >> kind;
		if (kind == "seed") {
			std::string s;
			ls >> s;
			r.seed = hex(s);
		} else if (kind == "time") {
			ls >> r.time;
		} else if (kind == "map-to-guest") {
			std::getline(ls >> std::ws, r.map_to_guest);
		} else if (kind == "user") {
			std::string u, p;
			ls >> u >> p;
			r.db.set(u, *nt_hash(p));
		} else if (kind == "account") {
			std::string a;
			uint32_t uid, gid;
			ls >> a >> uid >> gid;
			r.accounts.add(a, uid, gid);
		} else if (kind == "session") {
			std::string sid;
			ls >> sid >> r.addr;
			r.sid = std::stoull(sid, nullptr, 0);
		} else if (kind == "C") {
			std::string h;
			ls >> h;
			r.legs.push_back({hex(h), {}});
		} else if (kind == "S") {
			std::string f;
			while (ls >> f)
				r.legs.back().server.push_back(f);
		} else if (kind == "client-key") {
			ls >> r.client_key;
		}
	}
	REQUIRE_FALSE(r.legs.empty());
	return r;
}

std::vector<std::string> recordings()
{
	std::vector<std::string> out;
	DIR *d = opendir((std::string(SMBSRV_TEST_DATA) + "/auth").c_str());
	REQUIRE(d);
	while (dirent *e = readdir(d)) {
		std::string n = e->d_name;
		if (n.size() > 4 && n.ends_with(".txt"))
			out.push_back(n.substr(0, n.size() - 4));
	}
	closedir(d);
	std::sort(out.begin(), out.end());
	return out;
}

// An Authenticator set up exactly as auth-driver was for a recording.
struct Rig {
	Recording rec;
	std::chrono::steady_clock::time_point now{};
	std::unique_ptr<Authenticator> auth;

	explicit Rig(const std::string &name) : rec(load(name))
	{
		AuthPolicy p;
		p.identity.netbios_name = "SMBSRV";
		p.identity.netbios_domain = "WORKGROUP";
		p.identity.dns_name = "smbsrv.test";
		p.identity.dns_domain = "test";
		const std::string &m = rec.map_to_guest;
		p.map_to_guest = m == "bad user"     ? MapToGuest::bad_user :
				 m == "bad password" ? MapToGuest::bad_password :
						       MapToGuest::never;
		ntlm::Entropy e;
		Bytes seed = rec.seed;
		e.random = [seed](std::span<uint8_t> out) {
			for (size_t i = 0; i < out.size(); i++)
				out[i] = seed[i % seed.size()];
		};
		uint64_t t = rec.time;
		e.now = [t] { return t; };
		auto lookup = [this](const std::string &u) -> std::optional<ntlm::Credential> {
			const UserEntry *x = rec.db.find(u);
			if (!x)
				return std::nullopt;
			return ntlm::Credential{x->name, x->hash};
		};
		auth = std::make_unique<Authenticator>(p, lookup, rec.accounts, e,
						       [this] { return now; });
	}
	AuthResult step(ByteView blob, const std::string &addr = "")
	{
		return auth->step(rec.sid, addr.empty() ? rec.addr : addr, blob);
	}
};

std::vector<std::string> summary(const AuthResult &r)
{
	char status[16];
	std::snprintf(status, sizeof(status), "%08x", r.status);
	return {status,
		field(r.blob),
		field(r.session_key),
		std::to_string(r.flags),
		std::to_string(r.uid),
		r.user.empty() ? "-" : r.user};
}

// Replace the NTLMSSP token inside a SPNEGO NegTokenResp.
Bytes rewrap(ByteView resp, ByteView token)
{
	auto p = spnego::parse_resp(resp);
	REQUIRE(p);
	spnego::Response out;
	out.state = p->state;
	out.response_token = Bytes(token.begin(), token.end());
	if (p->mech_list_mic)
		out.mech_list_mic = Bytes(p->mech_list_mic->begin(), p->mech_list_mic->end());
	return spnego::build_resp(out);
}

Bytes token_of(ByteView resp)
{
	auto p = spnego::parse_resp(resp);
	REQUIRE(p);
	REQUIRE(p->response_token);
	return {p->response_token->begin(), p->response_token->end()};
}

} // namespace

TEST_CASE("Samba client exchanges replay byte for byte", "[auth]")
{
	auto names = recordings();
	REQUIRE(names.size() >= 10);
	for (const auto &name : names) {
		Rig rig(name);
		INFO("recording " << name);
		for (const auto &leg : rig.rec.legs)
			CHECK(summary(rig.step(leg.client)) == leg.server);
		CHECK(rig.auth->pending() == 0);
		if (!rig.rec.client_key.empty())
			CHECK(rig.rec.legs.back().server[2] == rig.rec.client_key);
	}
}

TEST_CASE("recorded outcomes are the expected ones", "[auth]")
{
	auto last = [](const std::string &n) { return load(n).legs.back().server; };
	CHECK(last("spnego-alice")[0] == "00000000");
	CHECK(last("spnego-alice")[3] == "0");
	CHECK(last("spnego-alice")[5] == "alice");
	CHECK(last("ntlmssp-alice")[1] == "-"); // raw NTLMSSP ends without a blob
	CHECK(last("spnego-upper-case-user")[5] == "alice");
	CHECK(last("spnego-unicode")[5] == "jürgen");
	CHECK(last("spnego-wrong-password")[0] == "c000006d");
	CHECK(last("spnego-unknown-user")[0] == "c000006d");
	CHECK(last("spnego-unknown-user-guest")[3] ==
	      std::to_string(SMBSRV_SESSION_FLAGS_GUEST));
	CHECK(last("spnego-unknown-user-guest")[2] == "-"); // guests have no key
	CHECK(last("spnego-anonymous")[3] == std::to_string(SMBSRV_SESSION_FLAGS_ANONYMOUS));
	CHECK(last("ntlmssp-anonymous")[5] == "nobody");
}

TEST_CASE("a tampered AUTHENTICATE or mechListMIC is refused", "[auth]")
{
	Rig base("spnego-alice");
	REQUIRE(base.rec.legs.size() == 2);
	const Bytes &auth_resp = base.rec.legs[1].client;
	Bytes authmsg = token_of(auth_resp);

	SECTION("the workstation name, covered only by the MIC")
	{
		Rig rig("spnego-alice");
		rig.step(rig.rec.legs[0].client);
		uint16_t len = get_u16(authmsg, 44);
		uint32_t off = get_u32(authmsg, 48);
		REQUIRE(len > 0);
		Bytes t = authmsg;
		t[off] ^= 0x01;
		AuthResult r = rig.step(rewrap(auth_resp, t));
		CHECK(r.status == nt::LOGON_FAILURE);
		CHECK(r.session_key.empty());
	}
	SECTION("the MIC itself")
	{
		Rig rig("spnego-alice");
		rig.step(rig.rec.legs[0].client);
		Bytes t = authmsg;
		t[72] ^= 0x80;
		CHECK(rig.step(rewrap(auth_resp, t)).status == nt::LOGON_FAILURE);
	}
	SECTION("the NTProofStr")
	{
		Rig rig("spnego-alice");
		rig.step(rig.rec.legs[0].client);
		uint32_t off = get_u32(authmsg, 24);
		Bytes t = authmsg;
		t[off + 3] ^= 0x10;
		CHECK(rig.step(rewrap(auth_resp, t)).status == nt::LOGON_FAILURE);
	}
	SECTION("the SPNEGO mechListMIC")
	{
		Rig rig("spnego-alice");
		rig.step(rig.rec.legs[0].client);
		Bytes t = auth_resp;
		t[t.size() - 5] ^= 0x01; // inside the checksum
		CHECK(rig.step(t).status == nt::LOGON_FAILURE);
	}
	SECTION("the mechListMIC dropped, and nothing else changed")
	{
		// The client's first choice was NTLMSSP, so no MIC is demanded;
		// the logon succeeds and the server sends none either.
		Rig rig("spnego-alice");
		rig.step(rig.rec.legs[0].client);
		spnego::Response out;
		out.response_token = authmsg;
		AuthResult r = rig.step(spnego::build_resp(out));
		CHECK(r.status == nt::SUCCESS);
		auto fin = spnego::parse_resp(r.blob);
		REQUIRE(fin);
		CHECK(fin->state == spnego::NegState::accept_completed);
		CHECK_FALSE(fin->mech_list_mic);
	}
}

TEST_CASE("every truncation of every client token fails cleanly", "[auth]")
{
	for (const char *name : {"spnego-alice", "ntlmssp-alice", "spnego-anonymous"}) {
		Recording rec = load(name);
		for (size_t leg = 0; leg < rec.legs.size(); leg++) {
			const Bytes &full = rec.legs[leg].client;
			for (size_t n = 0; n < full.size(); n++) {
				Rig rig(name);
				for (size_t k = 0; k < leg; k++)
					rig.step(rig.rec.legs[k].client);
				AuthResult r = rig.step(ByteView(full).first(n));
				INFO(name << " leg " << leg << " cut at " << n);
				// An empty blob restarts SPNEGO; anything else fails.
				if (n == 0)
					CHECK(r.status == nt::MORE_PROCESSING_REQUIRED);
				else
					CHECK((r.status == nt::INVALID_PARAMETER ||
					       r.status == nt::LOGON_FAILURE));
			}
		}
	}
}

TEST_CASE("exchanges are per session and per client address", "[auth]")
{
	Rig rig("spnego-alice");
	const auto &legs = rig.rec.legs;
	REQUIRE(rig.step(legs[0].client).status == nt::MORE_PROCESSING_REQUIRED);
	CHECK(rig.auth->pending() == 1);
	// The second leg from another address finds nothing...
	CHECK(rig.step(legs[1].client, "10.9.9.9").status == nt::INVALID_PARAMETER);
	// ...and does not disturb the real client's logon.
	CHECK(rig.step(legs[1].client).status == nt::SUCCESS);
	CHECK(rig.auth->pending() == 0);
	// A replay of the last leg has no exchange to continue.
	CHECK(rig.step(legs[1].client).status == nt::INVALID_PARAMETER);
	// Re-authentication: a new NegTokenInit on the session starts over.
	CHECK(rig.step(legs[0].client).status == nt::MORE_PROCESSING_REQUIRED);
	CHECK(rig.step(legs[0].client).status == nt::MORE_PROCESSING_REQUIRED);
	CHECK(rig.auth->pending() == 1);
	CHECK(summary(rig.step(legs[1].client)) == legs[1].server);
}

TEST_CASE("unfinished exchanges expire and are bounded", "[auth]")
{
	Rig rig("spnego-alice");
	const auto &legs = rig.rec.legs;
	rig.step(legs[0].client);
	rig.now += Authenticator::max_idle + std::chrono::seconds(1);
	CHECK(rig.step(legs[1].client).status == nt::INVALID_PARAMETER);
	CHECK(rig.auth->pending() == 0);

	for (uint64_t sid = 1; sid <= Authenticator::max_pending + 10; sid++) {
		rig.now += std::chrono::milliseconds(1);
		rig.auth->step(sid, "10.0.0.1", legs[0].client);
	}
	CHECK(rig.auth->pending() == Authenticator::max_pending);
	// The oldest went first; the newest are there.
	CHECK(rig.auth->step(1, "10.0.0.1", legs[1].client).status == nt::INVALID_PARAMETER);
}

TEST_CASE("an empty blob gets our NegTokenInit; garbage gets INVALID_PARAMETER", "[auth]")
{
	Rig rig("spnego-alice");
	AuthResult r = rig.step({});
	CHECK(r.status == nt::MORE_PROCESSING_REQUIRED);
	CHECK(r.blob == spnego::negotiate_blob());
	CHECK(rig.step(Bytes{0x42, 0x42}).status == nt::INVALID_PARAMETER);
	// An NTLMSSP CHALLENGE from a client makes no sense.
	Bytes chal = token_of(rig.rec.legs[0].server.size() > 1
				      ? hex(rig.rec.legs[0].server[1])
				      : Bytes{});
	CHECK(rig.step(chal).status == nt::INVALID_PARAMETER);
	// A NegTokenResp saying "reject" ends the logon.
	Rig rig2("spnego-alice");
	rig2.step(rig2.rec.legs[0].client);
	spnego::Response rej;
	rej.state = spnego::NegState::reject;
	CHECK(rig2.step(spnego::build_resp(rej)).status == nt::LOGON_FAILURE);
}

TEST_CASE("NTLMSSP offered after Kerberos: request-mic, then a MIC is required", "[auth]")
{
	// Samba's raw NTLMSSP messages, wrapped as a client that prefers
	// Kerberos would wrap them.  The CHALLENGE we send is byte-identical
	// to the recorded one, so the recorded AUTHENTICATE still verifies.
	Recording rec = load("ntlmssp-alice");
	REQUIRE(rec.legs.size() == 2);
	Bytes negotiate = rec.legs[0].client;
	Bytes authenticate = rec.legs[1].client;
	Bytes mechs = spnego::der::tlv(0x06, spnego::oid_ms_krb5);
	append(mechs, spnego::der::tlv(0x06, spnego::oid_krb5));
	append(mechs, spnego::der::tlv(0x06, spnego::oid_ntlmssp));
	Bytes mech_list = spnego::der::tlv(0x30, mechs);
	Bytes body = spnego::der::tlv(0xa0, mech_list);
	append(body, spnego::der::tlv(0xa2, spnego::der::tlv(0x04, Bytes{0x6e, 0x00})));
	Bytes init = spnego::der::tlv(0x06, spnego::oid_spnego);
	append(init, spnego::der::tlv(0xa0, spnego::der::tlv(0x30, body)));
	init = spnego::der::tlv(0x60, init);

	auto run = [&](bool with_mic, bool good_mic) {
		Rig rig("ntlmssp-alice");
		AuthResult r1 = rig.step(init);
		REQUIRE(r1.status == nt::MORE_PROCESSING_REQUIRED);
		auto p1 = spnego::parse_resp(r1.blob);
		REQUIRE(p1);
		CHECK(p1->state == spnego::NegState::request_mic);
		CHECK(std::equal(p1->supported_mech->begin(), p1->supported_mech->end(),
				 spnego::oid_ntlmssp.begin(), spnego::oid_ntlmssp.end()));
		CHECK_FALSE(p1->response_token);

		spnego::Response leg2;
		leg2.response_token = negotiate;
		AuthResult r2 = rig.step(spnego::build_resp(leg2));
		REQUIRE(r2.status == nt::MORE_PROCESSING_REQUIRED);
		CHECK(field(token_of(r2.blob)) == rec.legs[0].server[1]);

		spnego::Response leg3;
		leg3.response_token = authenticate;
		if (with_mic) {
			uint32_t flags = get_u32(authenticate, 60);
			ntlm::SessionSecurity client(hex(rec.client_key), flags,
						     ntlm::SessionSecurity::Role::client);
			Bytes mic = client.sign(mech_list);
			if (!good_mic)
				mic[6] ^= 1;
			leg3.mech_list_mic = mic;
			AuthResult r3 = rig.step(spnego::build_resp(leg3));
			if (!good_mic)
				return r3;
			// Our mechListMIC verifies with the client's keys.
			auto p3 = spnego::parse_resp(r3.blob);
			REQUIRE(p3);
			REQUIRE(p3->mech_list_mic);
			ntlm::SessionSecurity verifier(hex(rec.client_key), flags,
						       ntlm::SessionSecurity::Role::client);
			verifier.sign(mech_list); // the client's seq 0 is spent
			CHECK(verifier.verify(mech_list, *p3->mech_list_mic));
			return r3;
		}
		return rig.step(spnego::build_resp(leg3));
	};
	CHECK(run(true, true).status == nt::SUCCESS);
	CHECK(run(true, false).status == nt::LOGON_FAILURE);
	CHECK(run(false, false).status == nt::LOGON_FAILURE);
}

TEST_CASE("policy: a user without a Unix account, and a missing guest account", "[auth]")
{
	{
		Rig rig("spnego-alice");
		rig.rec.accounts.users.erase("alice");
		rig.step(rig.rec.legs[0].client);
		CHECK(rig.step(rig.rec.legs[1].client).status == nt::LOGON_FAILURE);
	}
	{
		Rig rig("spnego-anonymous");
		rig.rec.accounts.users.erase("nobody");
		for (size_t i = 0; i + 1 < rig.rec.legs.size(); i++)
			rig.step(rig.rec.legs[i].client);
		CHECK(rig.step(rig.rec.legs.back().client).status == nt::LOGON_FAILURE);
	}
}

TEST_CASE("ntlm auth = disabled: NTLM logons blocked, null sessions still work", "[auth]")
{
	auto no_ntlm = [](Rig &rig) {
		AuthPolicy p = *rig.auth->policy();
		p.ntlm = false;
		rig.auth->set_policy(p);
	};
	for (const char *name : {"spnego-alice", "ntlmssp-alice"}) {
		Rig rig(name);
		no_ntlm(rig);
		REQUIRE(rig.rec.legs.size() == 2);
		CHECK(rig.step(rig.rec.legs[0].client).status == nt::MORE_PROCESSING_REQUIRED);
		AuthResult r = rig.step(rig.rec.legs[1].client);
		CHECK(r.status == nt::NTLM_BLOCKED);
		CHECK(r.session_key.empty());
	}
	// map to guest does not turn a blocked NTLM logon into a guest one.
	{
		Rig rig("spnego-wrong-password-guest");
		no_ntlm(rig);
		AuthResult r;
		for (const auto &leg : rig.rec.legs)
			r = rig.step(leg.client);
		CHECK(r.status == nt::NTLM_BLOCKED);
	}
	{
		Rig rig("spnego-anonymous");
		no_ntlm(rig);
		AuthResult r;
		for (const auto &leg : rig.rec.legs)
			r = rig.step(leg.client);
		CHECK(r.status == nt::SUCCESS);
		CHECK(r.flags == SMBSRV_SESSION_FLAGS_ANONYMOUS);
	}
}
