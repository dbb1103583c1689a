// SPDX-License-Identifier: GPL-2.0-or-later
// The primitive wrappers, against published vectors (RFC 1320, RFC 1321,
// RFC 2104, the classic RC4 vectors) and the UTF-16 conversions.
#include <catch2/catch.hpp>

#include "bytes.hpp"
#include "crypto.hpp"
#include "unicode.hpp"

using namespace smbsrv;

namespace {
std::string hex(ByteView b) { return to_hex(b); }
} // namespace

TEST_CASE("MD4, MD5 and HMAC-MD5 match their RFC vectors", "[crypto]")
{
	CHECK(hex(crypto::md4(as_bytes(""))) == "31d6cfe0d16ae931b73c59d7e0c089c0");
	CHECK(hex(crypto::md4(as_bytes("abc"))) == "a448017aaf21d8525fc10ae87aa6729d");
	CHECK(hex(crypto::md4(as_bytes("message digest"))) ==
	      "d9130a8164549fe818874806e1c7014b");
	CHECK(hex(crypto::md5({as_bytes("")})) == "d41d8cd98f00b204e9800998ecf8427e");
	// Parts are concatenated.
	CHECK(hex(crypto::md5({as_bytes("a"), as_bytes("bc")})) ==
	      "900150983cd24fb0d6963f7d28e17f72");
	Bytes key(16, 0x0b);
	CHECK(hex(crypto::hmac_md5(key, {as_bytes("Hi There")})) ==
	      "9294727a3638bb1c13f48ef8158bfc9d");
	CHECK(hex(crypto::hmac_md5(as_bytes("Jefe"),
				   {as_bytes("what do ya want "),
				    as_bytes("for nothing?")})) ==
	      "750c783e6ab0b503eaa86e310a5db738");
}

TEST_CASE("RC4 matches the classic vectors and keeps its state", "[crypto]")
{
	CHECK(hex(crypto::rc4_once(as_bytes("Key"), as_bytes("Plaintext"))) ==
	      "bbf316e8d940af0ad3");
	CHECK(hex(crypto::rc4_once(as_bytes("Wiki"), as_bytes("pedia"))) ==
	      "1021bf0420");
	// Two calls on one stream equal one call over the concatenation.
	crypto::Rc4 s(as_bytes("Secret"));
	Bytes a{'A', 't', 't', 'a', 'c', 'k', ' '};
	Bytes b{'a', 't', ' ', 'd', 'a', 'w', 'n'};
	s.crypt(a);
	s.crypt(b);
	Bytes ab = a;
	append(ab, b);
	CHECK(hex(ab) == "45a01f645fc35b383552544b9bf5");
}

TEST_CASE("random bytes are not constant", "[crypto]")
{
	Bytes a(32), b(32);
	crypto::random_bytes(a);
	crypto::random_bytes(b);
	CHECK(a != b);
	CHECK(a != Bytes(32, 0));
}

TEST_CASE("constant-time comparison", "[crypto]")
{
	Bytes a{1, 2, 3}, b{1, 2, 3}, c{1, 2, 4}, d{1, 2};
	CHECK(crypto::equal_ct(a, b));
	CHECK_FALSE(crypto::equal_ct(a, c));
	CHECK_FALSE(crypto::equal_ct(a, d));
}

TEST_CASE("base64 is strict both ways", "[crypto]")
{
	CHECK(crypto::base64_encode(as_bytes("")).empty());
	CHECK(crypto::base64_encode(as_bytes("f")) == "Zg==");
	CHECK(crypto::base64_encode(as_bytes("foobar")) == "Zm9vYmFy");
	auto d = crypto::base64_decode("Zm9vYg==");
	REQUIRE(d);
	CHECK(std::string(d->begin(), d->end()) == "foob");
	CHECK_FALSE(crypto::base64_decode("Zm9vYg="));	// bad length
	CHECK_FALSE(crypto::base64_decode("Zm9v Yg="));	// blank inside
	CHECK_FALSE(crypto::base64_decode("Zm9vYh=="));	// non-canonical
	CHECK_FALSE(crypto::base64_decode("Zm9v*mFy"));	// alphabet
}

TEST_CASE("UTF-8 and UTF-16LE convert both ways, strictly", "[unicode]")
{
	auto u = utf8_to_utf16le("Aé€😀");
	REQUIRE(u);
	CHECK(hex(*u) == "4100e900ac203dd800de");
	auto back = utf16le_to_utf8(*u);
	REQUIRE(back);
	CHECK(*back == "Aé€😀");

	CHECK_FALSE(utf8_to_utf16("\xc0\xaf"));		// overlong
	CHECK_FALSE(utf8_to_utf16("\xed\xa0\x80"));	// surrogate
	CHECK_FALSE(utf8_to_utf16("\xf4\x90\x80\x80")); // > U+10FFFF
	CHECK_FALSE(utf8_to_utf16("\xe2\x82"));		// truncated
	CHECK_FALSE(utf8_to_utf16("\xff"));

	Bytes odd{0x41, 0x00, 0x42};
	CHECK_FALSE(utf16le_to_utf8(odd));
	Bytes lone_hi{0x3d, 0xd8, 0x41, 0x00};
	CHECK_FALSE(utf16le_to_utf8(lone_hi));
	Bytes lone_lo{0x00, 0xde};
	CHECK_FALSE(utf16le_to_utf8(lone_lo));
	Bytes cut_pair{0x3d, 0xd8};
	CHECK_FALSE(utf16le_to_utf8(cut_pair));
}

TEST_CASE("upper case and case-insensitive names", "[unicode]")
{
	CHECK(utf16_upper(u"user-é-ß-ö") == u"USER-É-ß-Ö");
	CHECK(utf8_iequal("Alice", "aLICE"));
	CHECK(utf8_iequal("jürgen", "JÜRGEN"));
	CHECK_FALSE(utf8_iequal("alice", "alicf"));
}
