// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/negotiate.c: SMB1 upgrade, NEGOTIATE, 3.1.1 contexts, response.
#include <catch2/catch.hpp>

#include <cstring>

#include "wire_util.hpp"

extern "C" {
#include "negotiate.h"
}

using namespace wiretest;

namespace {

Bytes smb1_negotiate(const std::vector<std::string> &dialects)
{
	Bytes b(SMB1_HDR_SIZE, 0);
	put32(b, 0, SMB1_PROTO_NUMBER);
	b[SMB1_HDR_COMMAND] = SMB1_COM_NEGOTIATE;
	Bytes d;
	for (const auto &s : dialects) {
		d.push_back(0x02);
		d.insert(d.end(), s.begin(), s.end());
		d.push_back(0);
	}
	b.push_back(0);			/* WordCount */
	b.push_back(d.size() & 0xff);	/* ByteCount */
	b.push_back(d.size() >> 8);
	append(b, d);
	return b;
}

struct Ctx {
	uint16_t type;
	Bytes data;
};

/* An SMB2 NEGOTIATE request PDU with dialects and 3.1.1 contexts. */
Bytes negotiate(const std::vector<uint16_t> &dialects,
		const std::vector<Ctx> &ctxs = {})
{
	Bytes b = header(SMB2_NEGOTIATE);
	Bytes body(36, 0);
	put16(body, 0, 36);
	put16(body, SMB2_NEG_REQ_DIALECT_COUNT, dialects.size());
	put16(body, SMB2_NEG_REQ_SECURITY_MODE, 1);
	put32(body, SMB2_NEG_REQ_CAPABILITIES, 0x7f);
	for (int i = 0; i < 16; i++)
		body[SMB2_NEG_REQ_CLIENT_GUID + i] = i + 1;
	for (uint16_t d : dialects)
		put16(body, body.size(), d);
	append(b, body);
	if (!ctxs.empty()) {
		while (b.size() % 8)
			b.push_back(0);
		put32(b, 64 + SMB2_NEG_REQ_CTX_OFFSET, b.size());
		put16(b, 64 + SMB2_NEG_REQ_CTX_COUNT, ctxs.size());
		for (const Ctx &ctx : ctxs) {
			while (b.size() % 8)
				b.push_back(0);
			size_t at = b.size();
			put16(b, at, ctx.type);
			put16(b, at + 2, ctx.data.size());
			put32(b, at + 4, 0);
			append(b, ctx.data);
		}
	}
	return b;
}

Bytes list16(const std::vector<uint16_t> &v)
{
	Bytes b;
	put16(b, 0, v.size());
	for (uint16_t x : v)
		put16(b, b.size(), x);
	return b;
}

Ctx preauth(const std::vector<uint16_t> &algs = { SMB2_PREAUTH_HASH_SHA512 },
	    uint16_t salt = 32)
{
	Bytes b;
	put16(b, 0, algs.size());
	put16(b, 2, salt);
	for (uint16_t a : algs)
		put16(b, b.size(), a);
	b.resize(b.size() + salt, 0x5a);
	return { SMB2_PREAUTH_INTEGRITY_CAPABILITIES, b };
}

Ctx ciphers(const std::vector<uint16_t> &v)
{
	return { SMB2_ENCRYPTION_CAPABILITIES, list16(v) };
}

Ctx signing(const std::vector<uint16_t> &v)
{
	return { SMB2_SIGNING_CAPABILITIES, list16(v) };
}

uint32_t decode_ctxs(const Bytes &pdu, struct smb2_neg_ctxs *c)
{
	struct smb2_negotiate_req r;
	REQUIRE(smb2_negotiate_req_decode(pdu.data(), pdu.size(), &r) ==
		STATUS_SUCCESS);
	return smb2_neg_ctxs_decode(pdu.data(), pdu.size(), &r, c);
}

} // namespace

TEST_CASE("SMB1 negotiate: dialect strings", "[wire]")
{
	bool s2002, sany;
	Bytes b = smb1_negotiate({ "NT LM 0.12", "SMB 2.002", "SMB 2.???" });

	REQUIRE(smb1_negotiate_scan(b.data(), b.size(), &s2002, &sany) == 0);
	CHECK(s2002);
	CHECK(sany);

	b = smb1_negotiate({ "NT LM 0.12" });
	REQUIRE(smb1_negotiate_scan(b.data(), b.size(), &s2002, &sany) == 0);
	CHECK_FALSE(s2002);
	CHECK_FALSE(sany);

	b = smb1_negotiate({ "SMB 2.002" });
	REQUIRE(smb1_negotiate_scan(b.data(), b.size(), &s2002, &sany) == 0);
	CHECK(s2002);
	CHECK_FALSE(sany);

	/* A prefix of a dialect string is not the dialect. */
	b = smb1_negotiate({ "SMB 2.00", "SMB 2.??" });
	REQUIRE(smb1_negotiate_scan(b.data(), b.size(), &s2002, &sany) == 0);
	CHECK_FALSE(s2002);
	CHECK_FALSE(sany);
}

TEST_CASE("SMB1 negotiate: malformed", "[wire]")
{
	bool s2002, sany;
	Bytes good = smb1_negotiate({ "SMB 2.002" });

	SECTION("every truncation fails")
	{
		for (size_t n = 0; n < good.size(); n++) {
			Bytes t(good.begin(), good.begin() + n);
			INFO("length " << n);
			CHECK(smb1_negotiate_scan(t.data(), t.size(), &s2002,
						  &sany) == -EPROTO);
		}
	}
	SECTION("ByteCount beyond the message")
	{
		put16(good, SMB1_HDR_SIZE + 1, 0xffff);
		CHECK(smb1_negotiate_scan(good.data(), good.size(), &s2002,
					  &sany) == -EPROTO);
	}
	SECTION("not a negotiate")
	{
		good[SMB1_HDR_COMMAND] = 0x73;
		CHECK(smb1_negotiate_scan(good.data(), good.size(), &s2002,
					  &sany) == -EPROTO);
	}
	SECTION("buffer format other than dialect")
	{
		good[SMB1_HDR_SIZE + 3] = 0x04;
		CHECK(smb1_negotiate_scan(good.data(), good.size(), &s2002,
					  &sany) == -EPROTO);
	}
}

TEST_CASE("NEGOTIATE request decoding", "[wire]")
{
	struct smb2_negotiate_req r;
	Bytes b = negotiate({ 0x0202, 0x0210, 0x0300 });

	REQUIRE(smb2_negotiate_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.dialect_count == 3);
	CHECK(r.security_mode == 1);
	CHECK(r.capabilities == 0x7f);
	CHECK(r.client_guid[0] == 1);

	SECTION("DialectCount 0 is STATUS_INVALID_PARAMETER (3.3.5.4)")
	{
		put16(b, 64 + SMB2_NEG_REQ_DIALECT_COUNT, 0);
		CHECK(smb2_negotiate_req_decode(b.data(), b.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("dialects beyond the PDU")
	{
		put16(b, 64 + SMB2_NEG_REQ_DIALECT_COUNT, 4);
		CHECK(smb2_negotiate_req_decode(b.data(), b.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("every truncation fails")
	{
		for (size_t n = 0; n < b.size(); n++) {
			INFO("length " << n);
			CHECK(smb2_negotiate_req_decode(b.data(), n, &r) ==
			      STATUS_INVALID_PARAMETER);
		}
	}
}

TEST_CASE("dialect selection within the configured bounds", "[wire]")
{
	Bytes d;
	for (uint16_t x : { 0x0202, 0x0210, 0x0300, 0x0302, 0x0311, 0x02ff })
		put16(d, d.size(), x);

	CHECK(smb2_dialect_select(d.data(), 6, 0x0202, 0x0311) == 0x0311);
	CHECK(smb2_dialect_select(d.data(), 6, 0x0202, 0x0302) == 0x0302);
	CHECK(smb2_dialect_select(d.data(), 6, 0x0202, 0x0210) == 0x0210);
	CHECK(smb2_dialect_select(d.data(), 2, 0x0300, 0x0311) == 0);
	/* Unknown values and the wildcard never win. */
	Bytes w;
	put16(w, 0, 0x02ff);
	put16(w, 2, 0x0400);
	put16(w, 4, 0x0301);
	CHECK(smb2_dialect_select(w.data(), 3, 0x0202, 0xffff) == 0);
}

TEST_CASE("3.1.1 negotiate contexts", "[wire]")
{
	struct smb2_neg_ctxs c;

	SECTION("preauth, encryption and signing")
	{
		Bytes b = negotiate({ 0x0311 }, { preauth(),
			ciphers({ SMB2_CIPHER_AES256_GCM,
				  SMB2_CIPHER_AES128_CCM }),
			signing({ SMB2_SIGNING_AES_CMAC,
				  SMB2_SIGNING_AES_GMAC }) });
		REQUIRE(decode_ctxs(b, &c) == STATUS_SUCCESS);
		CHECK(c.preauth);
		CHECK(c.encryption);
		CHECK(c.cipher_count == 2);
		CHECK(smb2_cipher_select(&c, 0x1e) == SMB2_CIPHER_AES256_GCM);
		CHECK(smb2_cipher_select(&c, 1u << SMB2_CIPHER_AES128_CCM) ==
		      SMB2_CIPHER_AES128_CCM);
		CHECK(smb2_cipher_select(&c, 0) == SMB2_CIPHER_NONE);
		CHECK(smb2_signing_select(&c) == SMB2_SIGNING_AES_GMAC);
	}
	SECTION("no preauth context")
	{
		Bytes b = negotiate({ 0x0311 }, { ciphers({ 1 }) });
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
	}
	SECTION("no contexts at all")
	{
		Bytes b = negotiate({ 0x0311 });
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
	}
	SECTION("two preauth contexts")
	{
		Bytes b = negotiate({ 0x0311 }, { preauth(), preauth() });
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
	}
	SECTION("preauth without SHA-512")
	{
		Bytes b = negotiate({ 0x0311 }, { preauth({ 0x0002 }) });
		CHECK(decode_ctxs(b, &c) ==
		      STATUS_SMB_NO_PREAUTH_INTEGRITY_HASH_OVERLAP);
	}
	SECTION("preauth with no algorithm")
	{
		Bytes b = negotiate({ 0x0311 }, { preauth({}) });
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
	}
	SECTION("salt longer than the context")
	{
		Ctx p = preauth();
		put16(p.data, 2, 200);
		Bytes b = negotiate({ 0x0311 }, { p });
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
	}
	SECTION("empty cipher list, repeated encryption context")
	{
		Bytes b = negotiate({ 0x0311 }, { preauth(), ciphers({}) });
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
		b = negotiate({ 0x0311 }, { preauth(), ciphers({ 1 }),
					    ciphers({ 2 }) });
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
	}
	SECTION("empty or repeated signing list")
	{
		Bytes b = negotiate({ 0x0311 }, { preauth(), signing({}) });
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
		b = negotiate({ 0x0311 }, { signing({ 1 }), preauth(),
					    signing({ 1 }) });
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
	}
	SECTION("unknown signing algorithms fall back to AES-CMAC")
	{
		Bytes b = negotiate({ 0x0311 }, { preauth(), signing({ 7 }) });
		REQUIRE(decode_ctxs(b, &c) == STATUS_SUCCESS);
		CHECK(smb2_signing_select(&c) == SMB2_SIGNING_AES_CMAC);
	}
	SECTION("unknown and netname contexts are ignored")
	{
		Bytes name = utf16(u"server");
		Bytes b = negotiate({ 0x0311 }, { { 0x0099, Bytes(3, 1) },
			preauth(), { SMB2_NETNAME_NEGOTIATE_CONTEXT_ID, name } });
		CHECK(decode_ctxs(b, &c) == STATUS_SUCCESS);
	}
	SECTION("misaligned or out-of-range context offset")
	{
		Bytes b = negotiate({ 0x0311 }, { preauth() });
		uint32_t off = get32(b, 64 + SMB2_NEG_REQ_CTX_OFFSET);
		put32(b, 64 + SMB2_NEG_REQ_CTX_OFFSET, off + 4);
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
		put32(b, 64 + SMB2_NEG_REQ_CTX_OFFSET, 0xfffffff8u);
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
		/* Pointing into the dialects. */
		put32(b, 64 + SMB2_NEG_REQ_CTX_OFFSET, 96);
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
	}
	SECTION("a context count larger than the list")
	{
		Bytes b = negotiate({ 0x0311 }, { preauth() });
		put16(b, 64 + SMB2_NEG_REQ_CTX_COUNT, 2);
		CHECK(decode_ctxs(b, &c) == STATUS_INVALID_PARAMETER);
	}
	SECTION("every truncation of the context list fails")
	{
		Bytes b = negotiate({ 0x0311 }, { preauth(), ciphers({ 1, 2 }),
						  signing({ 2 }) });
		uint32_t off = get32(b, 64 + SMB2_NEG_REQ_CTX_OFFSET);
		struct smb2_negotiate_req r;
		REQUIRE(smb2_negotiate_req_decode(b.data(), b.size(), &r) ==
			0);
		for (size_t n = off; n < b.size(); n++) {
			INFO("length " << n);
			CHECK(smb2_neg_ctxs_decode(b.data(), n, &r, &c) ==
			      STATUS_INVALID_PARAMETER);
		}
	}
}

TEST_CASE("NEGOTIATE response encoding", "[wire]")
{
	uint8_t guid[16], salt[32];
	Bytes blob = { 0x60, 0x01, 0x02 };
	memset(guid, 0xab, sizeof(guid));
	memset(salt, 0xcd, sizeof(salt));

	struct smb2_negotiate_rsp a = {};
	a.security_mode = SMB2_NEGOTIATE_SIGNING_ENABLED;
	a.dialect = 0x0311;
	a.server_guid = guid;
	a.capabilities = SMB2_GLOBAL_CAP_LARGE_MTU;
	a.max_transact = 1 << 20;
	a.max_read = 4 << 20;
	a.max_write = 4 << 20;
	a.system_time = 0x01d0000000000000ULL;
	a.secbuf = blob.data();
	a.secbuf_len = blob.size();
	a.salt = salt;
	a.encryption = true;
	a.cipher = SMB2_CIPHER_AES128_GCM;
	a.signing = true;
	a.signing_alg = SMB2_SIGNING_AES_GMAC;

	uint32_t size = smb2_negotiate_rsp_size(&a);
	Bytes pdu(64 + size, 0xee);
	REQUIRE(smb2_negotiate_rsp_encode(pdu.data() + 64, &a) == size);
	const size_t B = 64;

	CHECK(get16(pdu, B) == 65);
	CHECK(get16(pdu, B + SMB2_NEG_RSP_DIALECT) == 0x0311);
	CHECK(get32(pdu, B + SMB2_NEG_RSP_MAX_READ) == 4u << 20);
	CHECK(get16(pdu, B + SMB2_NEG_RSP_SECBUF_OFFSET) == 128);
	CHECK(get16(pdu, B + SMB2_NEG_RSP_SECBUF_LENGTH) == 3);
	CHECK(pdu[128] == 0x60);
	CHECK(get16(pdu, B + SMB2_NEG_RSP_CTX_COUNT) == 3);

	/* Walk the contexts as a client would. */
	uint32_t off = get32(pdu, B + SMB2_NEG_RSP_CTX_OFFSET);
	CHECK(off % 8 == 0);
	CHECK(off >= 131);
	std::vector<uint16_t> types;
	for (int i = 0; i < 3; i++) {
		off = (off + 7) & ~7u;
		REQUIRE(off + 8 <= pdu.size());
		uint16_t type = get16(pdu, off), len = get16(pdu, off + 2);
		REQUIRE(off + 8 + len <= pdu.size());
		types.push_back(type);
		if (type == SMB2_PREAUTH_INTEGRITY_CAPABILITIES) {
			CHECK(get16(pdu, off + 8) == 1);
			CHECK(get16(pdu, off + 10) == 32);
			CHECK(get16(pdu, off + 12) == SMB2_PREAUTH_HASH_SHA512);
			CHECK(pdu[off + 14] == 0xcd);
		} else if (type == SMB2_ENCRYPTION_CAPABILITIES) {
			CHECK(get16(pdu, off + 8) == 1);
			CHECK(get16(pdu, off + 10) == SMB2_CIPHER_AES128_GCM);
		} else if (type == SMB2_SIGNING_CAPABILITIES) {
			CHECK(get16(pdu, off + 10) == SMB2_SIGNING_AES_GMAC);
		}
		off += 8 + len;
	}
	CHECK(off == pdu.size());
	CHECK(types == std::vector<uint16_t>{ 1, 2, 8 });

	SECTION("2.1 has no contexts")
	{
		a.dialect = 0x0210;
		uint32_t sz = smb2_negotiate_rsp_size(&a);
		CHECK(sz == 64 + 3);
		Bytes p(64 + sz, 0xee);
		smb2_negotiate_rsp_encode(p.data() + 64, &a);
		CHECK(get16(p, 64 + SMB2_NEG_RSP_CTX_COUNT) == 0);
		CHECK(get32(p, 64 + SMB2_NEG_RSP_CTX_OFFSET) == 0);
	}
	SECTION("an empty security buffer still leaves one byte")
	{
		a.dialect = 0x0300;
		a.secbuf_len = 0;
		CHECK(smb2_negotiate_rsp_size(&a) == 65);
	}
}

TEST_CASE("VALIDATE_NEGOTIATE_INFO", "[wire]")
{
	struct smb2_vneg_req v;
	Bytes in(24, 0);
	put32(in, 0, 0x44);
	in[4] = 0x11;
	put16(in, 20, 1);
	put16(in, 22, 2);
	put16(in, 24, 0x0300);
	put16(in, 26, 0x0302);

	REQUIRE(smb2_vneg_decode(in.data(), in.size(), &v) == 0);
	CHECK(v.capabilities == 0x44);
	CHECK(v.guid[0] == 0x11);
	CHECK(v.security_mode == 1);
	CHECK(v.dialect_count == 2);
	CHECK(smb2_vneg_decode(in.data(), in.size() - 1, &v) == -EINVAL);
	CHECK(smb2_vneg_decode(in.data(), 23, &v) == -EINVAL);
	CHECK(smb2_vneg_decode(nullptr, 0, &v) == -EINVAL);

	Bytes out(24, 0);
	uint8_t guid[16] = { 9 };
	smb2_vneg_rsp_encode(out.data(), 0x40, guid, 3, 0x0302);
	CHECK(get32(out, 0) == 0x40);
	CHECK(out[4] == 9);
	CHECK(get16(out, 20) == 3);
	CHECK(get16(out, 22) == 0x0302);
}
