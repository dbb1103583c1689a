// SPDX-License-Identifier: GPL-2.0-or-later
// SPNEGO tokens: what Samba's client sends, what we build, and malformed
// DER of every kind.
#include <catch2/catch.hpp>

#include "bytes.hpp"
#include "ntlmssp.hpp"
#include "spnego.hpp"

using namespace smbsrv;
using namespace smbsrv::spnego;

namespace {

Bytes hex(const char *h)
{
	Bytes b;
	REQUIRE(from_hex(h, b));
	return b;
}

// Samba 4.17's gensec client, GSS-SPNEGO: NegTokenInit with NTLMSSP as its
// only mechanism and the NTLMSSP NEGOTIATE as optimistic token.
const char *kSambaInit =
	"604806062b0601050502a03e303ca00e300c060a2b06010401823702020aa22a04"
	"284e544c4d53535000010000001582086200000000280000000000000028000000"
	"060100000000000f";

bool same(ByteView a, ByteView b)
{
	return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

} // namespace

TEST_CASE("OIDs print in dotted form", "[spnego]")
{
	CHECK(oid_str(oid_spnego) == "1.3.6.1.5.5.2");
	CHECK(oid_str(oid_ntlmssp) == "1.3.6.1.4.1.311.2.2.10");
	CHECK(oid_str(oid_krb5) == "1.2.840.113554.1.2.2");
	CHECK(oid_str(oid_ms_krb5) == "1.2.840.48018.1.2.2");
	CHECK(oid_str(hex("2b86")) == "?");
}

TEST_CASE("Samba's NegTokenInit parses", "[spnego]")
{
	Bytes b = hex(kSambaInit);
	auto init = parse_init(b);
	REQUIRE(init);
	REQUIRE(init->mech_types.size() == 1);
	CHECK(same(init->mech_types[0], oid_ntlmssp));
	CHECK(to_hex(init->mech_types_der) == "300c060a2b06010401823702020a");
	REQUIRE(init->mech_token);
	CHECK(ntlm::message_type(*init->mech_token) == ntlm::NEGOTIATE);
	CHECK_FALSE(init->mech_list_mic);
}

TEST_CASE("our NegTokenInit2 is what cifs and Windows expect", "[spnego]")
{
	Bytes b = negotiate_blob();
	// GSS framing, SPNEGO OID, mechTypes { NTLMSSP }, negHints.
	CHECK(to_hex(b) ==
	      "604806062b0601050502a03e303ca00e300c060a2b06010401823702020a"
	      "a32a3028a0261b246e6f745f646566696e65645f696e5f5246433431373840"
	      "706c656173655f69676e6f7265");
	auto init = parse_init(b);
	REQUIRE(init);
	REQUIRE(init->mech_types.size() == 1);
	CHECK(same(init->mech_types[0], oid_ntlmssp));
	CHECK_FALSE(init->mech_token);
}

TEST_CASE("NegTokenResp builds and parses back", "[spnego]")
{
	Response r;
	r.state = NegState::accept_incomplete;
	r.supported_mech = oid_ntlmssp;
	r.response_token = Bytes(300, 0x42); // long-form length
	r.mech_list_mic = Bytes(16, 7);
	Bytes b = build_resp(r);
	CHECK(b[0] == 0xa1);
	CHECK(b[1] == 0x82); // two length octets
	auto p = parse_resp(b);
	REQUIRE(p);
	CHECK(p->state == NegState::accept_incomplete);
	CHECK(same(*p->supported_mech, oid_ntlmssp));
	CHECK(same(*p->response_token, *r.response_token));
	CHECK(same(*p->mech_list_mic, *r.mech_list_mic));

	Response done;
	done.state = NegState::accept_completed;
	CHECK(to_hex(build_resp(done)) == "a1073005a0030a0100");
	auto d = parse_resp(build_resp(done));
	REQUIRE(d);
	CHECK(d->state == NegState::accept_completed);
	CHECK_FALSE(d->response_token);
}

TEST_CASE("every truncation of a token is refused", "[spnego]")
{
	Bytes init = hex(kSambaInit);
	for (size_t n = 0; n < init.size(); n++)
		CHECK_FALSE(parse_init(ByteView(init).first(n)));
	Response r;
	r.state = NegState::accept_incomplete;
	r.response_token = Bytes(200, 1);
	r.mech_list_mic = Bytes(16, 2);
	Bytes resp = build_resp(r);
	for (size_t n = 0; n < resp.size(); n++)
		CHECK_FALSE(parse_resp(ByteView(resp).first(n)));
	// Trailing garbage too.
	init.push_back(0);
	CHECK_FALSE(parse_init(init));
	resp.push_back(0);
	CHECK_FALSE(parse_resp(resp));
}

TEST_CASE("malformed DER is refused", "[spnego]")
{
	// Indefinite length (BER), 5-octet length, multi-byte tag.
	CHECK_FALSE(parse_resp(hex("a1803005a0030a010000 00")));
	CHECK_FALSE(parse_resp(hex("a1850000000007 3005a0030a0100")));
	CHECK_FALSE(parse_resp(hex("bf01 00")));
	// Length beyond the buffer, nested.
	CHECK_FALSE(parse_resp(hex("a1073009a0030a0100")));
	// negState with two octets, or out of range.
	CHECK_FALSE(parse_resp(hex("a1083006a0040a020000")));
	CHECK_FALSE(parse_resp(hex("a1073005a0030a0104")));
	// Fields repeated or out of order.
	CHECK_FALSE(parse_resp(hex("a10c300aa0030a0100a0030a0100")));
	CHECK_FALSE(parse_resp(hex("a10c300aa2030401aaa0030a0100")));
	// Wrong inner type: responseToken as an OID.
	CHECK_FALSE(parse_resp(hex("a1073005a2030601aa")));
	// An init without mechTypes, with an empty one, or with a non-OID.
	CHECK_FALSE(parse_init(hex("a0093007a2050403aabbcc")));
	CHECK_FALSE(parse_init(hex("a0063004a0023000")));
	CHECK_FALSE(parse_init(hex("a0083006a0043002 0400")));
	// GSS framing with another mechanism's OID.
	CHECK_FALSE(parse_init(hex("601006062b0601050503a0063004a0023000")));
	// An empty buffer.
	CHECK_FALSE(parse_init({}));
	CHECK_FALSE(parse_resp({}));
}

TEST_CASE("a bare [0] NegTokenInit with Kerberos first parses", "[spnego]")
{
	Bytes mechs = der::tlv(0x30, [] {
		Bytes l = der::tlv(0x06, oid_ms_krb5);
		append(l, der::tlv(0x06, oid_krb5));
		append(l, der::tlv(0x06, oid_ntlmssp));
		return l;
	}());
	Bytes seq = der::tlv(0xa0, mechs);
	append(seq, der::tlv(0xa2, der::tlv(0x04, Bytes{1, 2, 3})));
	append(seq, der::tlv(0xa3, der::tlv(0x04, Bytes(16, 9))));
	Bytes b = der::tlv(0xa0, der::tlv(0x30, seq));
	auto init = parse_init(b);
	REQUIRE(init);
	REQUIRE(init->mech_types.size() == 3);
	CHECK(same(init->mech_types[2], oid_ntlmssp));
	CHECK(same(init->mech_types_der, mechs));
	CHECK(init->mech_token->size() == 3);
	CHECK(init->mech_list_mic->size() == 16);
}
