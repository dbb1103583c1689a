// SPDX-License-Identifier: GPL-2.0-or-later
// NTLMSSP server side against the published MS-NLMP 4.2.4 (NTLMv2)
// examples, and against malformed, truncated and hostile messages.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>

#include "bytes.hpp"
#include "ntlmssp.hpp"
#include "unicode.hpp"

using namespace smbsrv;
using namespace smbsrv::ntlm;

namespace {

Bytes hex(const char *h)
{
	Bytes b;
	REQUIRE(from_hex(h, b));
	return b;
}

// MS-NLMP 4.2.1 common values.
const char *kServerChallenge = "0123456789abcdef";

// MS-NLMP 4.2.4.3: the AUTHENTICATE message of the NTLMv2 example (user
// "User", domain "Domain", password "Password", workstation "COMPUTER",
// random session key 0x55 * 16 sent encrypted).
const char *kAuthenticate =
	"4e544c4d535350000300000018001800"
	"6c00000054005400840000000c000c00"
	"48000000080008005400000010001000"
	"5c00000010001000d8000000358288e2"
	"0501280a0000000f44006f006d006100"
	"69006e00550073006500720043004f00"
	"4d005000550054004500520086c35097"
	"ac9cec102554764a57cccc19aaaaaaaa"
	"aaaaaaaa68cd0ab851e51c96aabc927b"
	"ebef6a1c010100000000000000000000"
	"00000000aaaaaaaaaaaaaaaa00000000"
	"02000c0044006f006d00610069006e00"
	"01000c00530065007200760065007200"
	"0000000000000000c5dad2544fc97990"
	"94ce1ce90bc9d03e";

// The example's flags: KEY_EXCH, 56, 128, VERSION, TARGET_INFO, ESS,
// ALWAYS_SIGN, NTLM, SEAL, SIGN, OEM, UNICODE (and REQUEST_TARGET).
constexpr uint32_t kClientFlags = 0xe2088237;

Bytes negotiate(uint32_t flags)
{
	Bytes m{'N', 'T', 'L', 'M', 'S', 'S', 'P', 0};
	put_u32(m, NEGOTIATE);
	put_u32(m, flags);
	m.resize(32, 0); // empty domain and workstation fields
	if (flags & NEGOTIATE_VERSION)
		m.resize(40, 0);
	return m;
}

Entropy fixed_entropy()
{
	Entropy e;
	e.random = [](std::span<uint8_t> out) {
		Bytes c = hex(kServerChallenge);
		for (size_t i = 0; i < out.size(); i++)
			out[i] = c[i % c.size()];
	};
	e.now = [] { return uint64_t{0x01d0000000000000}; };
	return e;
}

ServerIdentity identity()
{
	ServerIdentity id;
	id.netbios_name = "Server";
	id.netbios_domain = "Domain";
	id.dns_name = "server.example.org";
	id.dns_domain = "example.org";
	return id;
}

CredentialLookup users(const std::string &name, const std::string &password)
{
	return [=](const std::string &u) -> std::optional<Credential> {
		if (!utf8_iequal(u, name))
			return std::nullopt;
		return Credential{name, *nt_hash(password)};
	};
}

Server challenged_server()
{
	Server s(identity(), fixed_entropy());
	REQUIRE(s.challenge(negotiate(kClientFlags)));
	return s;
}

} // namespace

TEST_CASE("NTOWFv2 matches MS-NLMP 4.2.4.1.1", "[ntlmssp]")
{
	auto k = ntowfv2(*nt_hash("Password"), u"User", u"Domain");
	CHECK(to_hex(k) == "0c868a403bfd7a93a3001ef22ef02e3f");
	// The user name is upper-cased, the domain is not.
	CHECK(ntowfv2(*nt_hash("Password"), u"user", u"Domain") == k);
	CHECK(ntowfv2(*nt_hash("Password"), u"User", u"DOMAIN") != k);
}

TEST_CASE("CHALLENGE: flags, challenge, target name and target info", "[ntlmssp]")
{
	Server s(identity(), fixed_entropy());
	auto c = s.challenge(negotiate(kClientFlags));
	REQUIRE(c);
	ByteView m = *c;
	REQUIRE(message_type(m) == CHALLENGE);
	uint32_t f = get_u32(m, 20);
	CHECK((f & NEGOTIATE_UNICODE));
	CHECK_FALSE((f & NEGOTIATE_OEM));
	for (uint32_t want : {NEGOTIATE_NTLM, NEGOTIATE_TARGET_INFO,
			      NEGOTIATE_KEY_EXCH, NEGOTIATE_128, NEGOTIATE_56,
			      NEGOTIATE_EXTENDED_SESSIONSECURITY, NEGOTIATE_SIGN,
			      NEGOTIATE_SEAL, NEGOTIATE_VERSION, TARGET_TYPE_SERVER})
		CHECK((f & want) == want);
	CHECK(to_hex(m.subspan(24, 8)) == kServerChallenge);
	// Target name "Server" in UTF-16LE.
	uint16_t tlen = get_u16(m, 12);
	uint32_t toff = get_u32(m, 16);
	REQUIRE(toff + tlen <= m.size());
	CHECK(utf16le_to_utf8(m.subspan(toff, tlen)) == "Server");
	// Target info: the names and a timestamp, then EOL.
	uint16_t ilen = get_u16(m, 40);
	uint32_t ioff = get_u32(m, 44);
	REQUIRE(ioff + ilen == m.size());
	auto pairs = parse_av_pairs(m.subspan(ioff, ilen));
	REQUIRE(pairs);
	std::map<uint16_t, Bytes> av;
	for (const auto &p : *pairs)
		av[p.id] = Bytes(p.value.begin(), p.value.end());
	CHECK(utf16le_to_utf8(av[AV_NB_DOMAIN_NAME]) == "Domain");
	CHECK(utf16le_to_utf8(av[AV_NB_COMPUTER_NAME]) == "Server");
	CHECK(utf16le_to_utf8(av[AV_DNS_DOMAIN_NAME]) == "example.org");
	CHECK(utf16le_to_utf8(av[AV_DNS_COMPUTER_NAME]) == "server.example.org");
	REQUIRE(av[AV_TIMESTAMP].size() == 8);
	CHECK(get_u64(av[AV_TIMESTAMP], 0) == 0x01d0000000000000);

	// Only what the client asked for: no KEY_EXCH, SEAL or VERSION here.
	Server s2(identity(), fixed_entropy());
	auto c2 = s2.challenge(negotiate(NEGOTIATE_UNICODE | NEGOTIATE_NTLM |
					 NEGOTIATE_EXTENDED_SESSIONSECURITY));
	REQUIRE(c2);
	uint32_t f2 = get_u32(*c2, 20);
	CHECK_FALSE((f2 & (NEGOTIATE_KEY_EXCH | NEGOTIATE_SEAL | NEGOTIATE_VERSION)));
	// A second NEGOTIATE on the same exchange is out of order.
	CHECK_FALSE(s2.challenge(negotiate(kClientFlags)));
}

TEST_CASE("the MS-NLMP 4.2.4.3 AUTHENTICATE logs on and yields its session key", "[ntlmssp]")
{
	Server s = challenged_server();
	Verdict v = s.authenticate(hex(kAuthenticate), users("User", "Password"));
	INFO(v.reason);
	REQUIRE(v.kind == Verdict::Kind::ok);
	CHECK(v.user == "User");
	CHECK(v.domain == "Domain");
	CHECK(v.workstation == "COMPUTER");
	CHECK_FALSE(v.mic_present);
	// KEY_EXCH: the exported key is the client's RandomSessionKey,
	// RC4-decrypted with the session base key 8de40cca...
	CHECK(to_hex(v.session_key) == std::string(32, '5'));
	CHECK(s.security() != nullptr);
	// An exchange authenticates once.
	CHECK(s.authenticate(hex(kAuthenticate), users("User", "Password")).kind ==
	      Verdict::Kind::malformed);
}

TEST_CASE("wrong password, unknown user, another server challenge", "[ntlmssp]")
{
	{
		Server s = challenged_server();
		Verdict v = s.authenticate(hex(kAuthenticate), users("User", "password"));
		CHECK(v.kind == Verdict::Kind::wrong_password);
		CHECK(v.session_key.empty());
		CHECK(s.security() == nullptr);
	}
	{
		Server s = challenged_server();
		CHECK(s.authenticate(hex(kAuthenticate), users("Other", "Password")).kind ==
		      Verdict::Kind::unknown_user);
	}
	{
		// A replay against a fresh challenge does not verify.
		Server s(identity(), Entropy{});
		REQUIRE(s.challenge(negotiate(kClientFlags)));
		CHECK(s.authenticate(hex(kAuthenticate), users("User", "Password")).kind ==
		      Verdict::Kind::wrong_password);
	}
	{
		// AUTHENTICATE before any CHALLENGE.
		Server s(identity(), fixed_entropy());
		CHECK(s.authenticate(hex(kAuthenticate), users("User", "Password")).kind ==
		      Verdict::Kind::malformed);
	}
}

TEST_CASE("NTLMv1 and LM responses are refused, null sessions recognised", "[ntlmssp]")
{
	// Rebuild the example with other responses; fields point past the
	// 88-byte header.
	auto build = [](ByteView lm, ByteView nt, std::u16string_view user) {
		Bytes m{'N', 'T', 'L', 'M', 'S', 'S', 'P', 0};
		put_u32(m, AUTHENTICATE);
		m.resize(88, 0);
		Bytes payload;
		auto put = [&](size_t desc, ByteView b) {
			size_t off = 88 + payload.size();
			m[desc] = static_cast<uint8_t>(b.size());
			m[desc + 2] = static_cast<uint8_t>(b.size());
			m[desc + 4] = static_cast<uint8_t>(off);
			append(payload, b);
		};
		put(12, lm);
		put(20, nt);
		put(28, utf16le_bytes(u"Domain"));
		put(36, utf16le_bytes(user));
		put(44, {});
		put(52, {});
		for (int i = 0; i < 4; i++)
			m[60 + i] = static_cast<uint8_t>(kClientFlags >> (8 * i));
		append(m, payload);
		return m;
	};
	Bytes r24(24, 0x11);
	{
		Server s = challenged_server();
		Verdict v = s.authenticate(build(r24, r24, u"User"), users("User", "Password"));
		CHECK(v.kind == Verdict::Kind::refused);
		CHECK(v.reason.find("NTLMv1") != std::string::npos);
	}
	{
		Server s = challenged_server();
		Verdict v = s.authenticate(build(r24, {}, u"User"), users("User", "Password"));
		CHECK(v.kind == Verdict::Kind::refused);
		CHECK(v.reason.find("LM") != std::string::npos);
	}
	{
		// smbclient -N first tries its Unix user with an empty
		// password: LM-style, but an unknown user is just unknown
		// (and may be mapped to guest).
		Server s = challenged_server();
		Verdict v = s.authenticate(build(Bytes{0}, {}, u"root"), users("User", "Password"));
		CHECK(v.kind == Verdict::Kind::unknown_user);
	}
	for (const Bytes &lm : {Bytes{}, Bytes{0}}) {
		Server s = challenged_server();
		Verdict v = s.authenticate(build(lm, {}, u""), users("User", "Password"));
		CHECK(v.kind == Verdict::Kind::anonymous);
		CHECK(v.session_key.empty());
	}
	{
		// A short "NTLMv2" response.
		Server s = challenged_server();
		CHECK(s.authenticate(build({}, Bytes(40, 1), u"User"),
				     users("User", "Password")).kind == Verdict::Kind::malformed);
	}
}

TEST_CASE("every truncation and every field overrun of AUTHENTICATE is refused", "[ntlmssp]")
{
	Bytes full = hex(kAuthenticate);
	for (size_t n = 0; n < full.size(); n++) {
		Server s = challenged_server();
		Bytes cut(full.begin(), full.begin() + static_cast<long>(n));
		Verdict v = s.authenticate(cut, users("User", "Password"));
		INFO("length " << n);
		CHECK(v.kind != Verdict::Kind::ok);
	}
	// Each length and offset field pushed past the end.
	for (size_t desc = 12; desc <= 52; desc += 8) {
		for (size_t k : {0, 4}) {
			Bytes bad = full;
			bad[desc + k] = 0xff;
			bad[desc + k + 1] = 0xff;
			Server s = challenged_server();
			INFO("descriptor " << desc << "+" << k);
			CHECK(s.authenticate(bad, users("User", "Password")).kind ==
			      Verdict::Kind::malformed);
		}
	}
	// A KEY_EXCH key that is not 16 bytes.
	Bytes bad = full;
	bad[52] = 15;
	Server s = challenged_server();
	CHECK(s.authenticate(bad, users("User", "Password")).kind ==
	      Verdict::Kind::malformed);
}

TEST_CASE("NEGOTIATE: truncations and bad fields are refused", "[ntlmssp]")
{
	Bytes full = negotiate(kClientFlags & ~NEGOTIATE_VERSION);
	for (size_t n = 0; n < full.size(); n++) {
		Server s(identity(), fixed_entropy());
		CHECK_FALSE(s.challenge(ByteView(full).first(n)));
	}
	Bytes bad = full;
	bad[16] = 10; // domain: 10 bytes at offset 0 is fine...
	bad[20] = 30; // ...but at offset 30 it overruns the 32-byte message
	Server s(identity(), fixed_entropy());
	CHECK_FALSE(s.challenge(bad));
	Bytes wrong_type = full;
	wrong_type[8] = 3;
	Server s2(identity(), fixed_entropy());
	CHECK_FALSE(s2.challenge(wrong_type));
	// VERSION announced but missing.
	Bytes no_version = negotiate(kClientFlags);
	no_version.resize(32);
	Server s3(identity(), fixed_entropy());
	CHECK_FALSE(s3.challenge(no_version));
	Server s4(identity(), fixed_entropy());
	CHECK(s4.challenge(negotiate(kClientFlags)));
}

TEST_CASE("AV pair lists must end with EOL inside the buffer", "[ntlmssp]")
{
	CHECK(parse_av_pairs(hex("0000 0000"))->empty());
	CHECK(parse_av_pairs(hex("0100 0200 4100 0000 0000"))->size() == 1);
	CHECK_FALSE(parse_av_pairs(hex("")));
	CHECK_FALSE(parse_av_pairs(hex("0100 0200 4100")));	 // no EOL
	CHECK_FALSE(parse_av_pairs(hex("0100 0400 4100 0000"))); // overrun
	CHECK_FALSE(parse_av_pairs(hex("00")));
}

TEST_CASE("session security matches the MS-NLMP 4.2.4.4 GSS_WrapEx example", "[ntlmssp]")
{
	Bytes key(16, 0x55);
	uint32_t flags = 0xe28a8233; // the example's CHALLENGE flags
	Bytes plain = utf16le_bytes(u"Plaintext");

	SessionSecurity client(key, flags, SessionSecurity::Role::client);
	Bytes c = plain;
	Bytes csig = client.seal(c);
	CHECK(to_hex(c) == "54e50165bf1936dc996020c1811b0f06fb5f");
	CHECK(to_hex(csig) == "010000007fb38ec5c55d497600000000");

	SessionSecurity server(key, flags, SessionSecurity::Role::server);
	Bytes sv = plain;
	Bytes ssig = server.seal(sv);
	CHECK(to_hex(sv) == "160871b730ba74e946c453d7465b54278dd0");
	CHECK(to_hex(ssig) == "01000000b298b847ce7c580700000000");

	// Sign/verify across the two roles, with sequence numbers advancing.
	SessionSecurity a(key, flags, SessionSecurity::Role::client);
	SessionSecurity b(key, flags, SessionSecurity::Role::server);
	for (int i = 0; i < 3; i++) {
		Bytes sig = a.sign(plain);
		CHECK(get_u32(sig, 12) == static_cast<uint32_t>(i));
		CHECK(b.verify(plain, sig));
	}
	Bytes sig = b.sign(plain);
	sig[5] ^= 1;
	CHECK_FALSE(a.verify(plain, sig));
}
