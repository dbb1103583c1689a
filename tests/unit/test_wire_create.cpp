// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/create.c: CREATE requests, create contexts, EA lists, responses.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "wire_util.hpp"

extern "C" {
#include "create.h"
#include "fscc.h"
}

using namespace wiretest;

namespace {

// One create context with a name and data, padded to 8 bytes unless last.
Bytes ctx(const std::string &name, const Bytes &data, bool last)
{
	Bytes c(16, 0);
	put16(c, SMB2_CREATE_CTX_NAME_OFFSET, 16);
	put16(c, SMB2_CREATE_CTX_NAME_LENGTH, name.size());
	c.insert(c.end(), name.begin(), name.end());
	while (c.size() % 8)
		c.push_back(0);
	if (!data.empty()) {
		put16(c, SMB2_CREATE_CTX_DATA_OFFSET, c.size());
		put32(c, SMB2_CREATE_CTX_DATA_LENGTH, data.size());
		append(c, data);
	}
	if (!last) {
		while (c.size() % 8)
			c.push_back(0);
		put32(c, SMB2_CREATE_CTX_NEXT, c.size());
	}
	return c;
}

Bytes create(const std::u16string &name, const Bytes &ctxs = {})
{
	Bytes b = header(SMB2_CREATE);
	Bytes n = utf16(name);
	Bytes body(56, 0);
	put16(body, 0, SMB2_CREATE_REQ_SIZE);
	body[SMB2_CREATE_REQ_OPLOCK] = SMB2_OPLOCK_LEVEL_BATCH;
	put32(body, SMB2_CREATE_REQ_IMPERSONATION, 2);
	put32(body, SMB2_CREATE_REQ_ACCESS, GENERIC_READ | GENERIC_WRITE);
	put32(body, SMB2_CREATE_REQ_ATTRIBUTES, FILE_ATTRIBUTE_NORMAL);
	put32(body, SMB2_CREATE_REQ_SHARE, FILE_SHARE_ALL);
	put32(body, SMB2_CREATE_REQ_DISPOSITION, FILE_OPEN_IF);
	put32(body, SMB2_CREATE_REQ_OPTIONS, FILE_NON_DIRECTORY_FILE);
	put16(body, SMB2_CREATE_REQ_NAME_OFFSET, 120);
	put16(body, SMB2_CREATE_REQ_NAME_LENGTH, n.size());
	append(b, body);
	append(b, n);
	if (n.empty())
		b.push_back(0);	// the one byte of buffer
	if (!ctxs.empty()) {
		while (b.size() % 8)
			b.push_back(0);
		put32(b, 64 + SMB2_CREATE_REQ_CTX_OFFSET, b.size());
		put32(b, 64 + SMB2_CREATE_REQ_CTX_LENGTH, ctxs.size());
		append(b, ctxs);
	}
	return b;
}

uint32_t decode(const Bytes &b, struct smb2_create_req &r)
{
	return smb2_create_req_decode(b.data(), b.size(), &r);
}

Bytes ea(const std::string &name, const std::string &value, bool last)
{
	Bytes e(8, 0);
	e[5] = name.size();
	put16(e, 6, value.size());
	e.insert(e.end(), name.begin(), name.end());
	e.push_back(0);
	e.insert(e.end(), value.begin(), value.end());
	if (!last) {
		while (e.size() % 4)
			e.push_back(0);
		put32(e, 0, e.size());
	}
	return e;
}

} // namespace

TEST_CASE("CREATE request: fixed part and name", "[wire][create]")
{
	struct smb2_create_req r;
	Bytes b = create(u"dir\\file.txt");

	REQUIRE(decode(b, r) == STATUS_SUCCESS);
	CHECK(r.oplock == SMB2_OPLOCK_LEVEL_BATCH);
	CHECK(r.impersonation == 2);
	CHECK(r.access == (GENERIC_READ | GENERIC_WRITE));
	CHECK(r.attributes == FILE_ATTRIBUTE_NORMAL);
	CHECK(r.share == FILE_SHARE_ALL);
	CHECK(r.disposition == FILE_OPEN_IF);
	CHECK(r.options == FILE_NON_DIRECTORY_FILE);
	CHECK(r.name_len == 24);
	CHECK(r.name == b.data() + 120);
	CHECK(r.ctx_present == 0);
	CHECK(r.ctx_count == 0);

	SECTION("empty name: the share root")
	{
		Bytes e = create(u"");
		REQUIRE(decode(e, r) == STATUS_SUCCESS);
		CHECK(r.name == nullptr);
		CHECK(r.name_len == 0);
	}
	SECTION("odd name length")
	{
		put16(b, 64 + SMB2_CREATE_REQ_NAME_LENGTH, 23);
		CHECK(decode(b, r) == STATUS_INVALID_PARAMETER);
	}
	SECTION("name past the end")
	{
		put16(b, 64 + SMB2_CREATE_REQ_NAME_LENGTH, 26);
		CHECK(decode(b, r) == STATUS_INVALID_PARAMETER);
	}
	SECTION("name inside the fixed part")
	{
		put16(b, 64 + SMB2_CREATE_REQ_NAME_OFFSET, 118);
		CHECK(decode(b, r) == STATUS_INVALID_PARAMETER);
	}
	SECTION("wrong StructureSize")
	{
		put16(b, 64, 56);
		CHECK(decode(b, r) == STATUS_INVALID_PARAMETER);
	}
	SECTION("every truncation is refused or still in bounds")
	{
		for (size_t n = 0; n < b.size(); n++) {
			Bytes t(b.begin(), b.begin() + n);
			INFO("length " << n);
			CHECK(decode(t, r) == STATUS_INVALID_PARAMETER);
		}
	}
}

TEST_CASE("CREATE request: create contexts", "[wire][create]")
{
	struct smb2_create_req r;
	Bytes ts(8, 0x11), alloc(8, 0);
	put64(alloc, 0, 1 << 20);
	Bytes ctxs = ctx("MxAc", ts, false);
	append(ctxs, ctx("QFid", {}, false));
	append(ctxs, ctx("FooO", Bytes(3, 7), false));	// unknown: ignored
	append(ctxs, ctx("AlSi", alloc, true));
	Bytes b = create(u"f", ctxs);

	REQUIRE(decode(b, r) == STATUS_SUCCESS);
	CHECK(r.ctx_count == 4);
	CHECK(smb2_create_has(&r, SMB2_CTX_QUERY_MAXIMAL_ACCESS));
	CHECK(smb2_create_has(&r, SMB2_CTX_QUERY_ON_DISK_ID));
	CHECK(smb2_create_has(&r, SMB2_CTX_ALLOCATION_SIZE));
	CHECK_FALSE(smb2_create_has(&r, SMB2_CTX_TIMEWARP_TOKEN));
	CHECK(r.ctx[SMB2_CTX_QUERY_MAXIMAL_ACCESS].data_len == 8);
	CHECK(r.ctx[SMB2_CTX_QUERY_ON_DISK_ID].data == nullptr);
	REQUIRE(r.ctx[SMB2_CTX_ALLOCATION_SIZE].data_len == 8);
	CHECK(get_unaligned_le64(r.ctx[SMB2_CTX_ALLOCATION_SIZE].data) ==
	      1u << 20);

	SECTION("every tag Windows knows is recognised")
	{
		const char *tags[] = { "ExtA", "SecD", "DHnQ", "DHnC", "DH2Q",
				       "DH2C", "AlSi", "MxAc", "TWrp", "QFid",
				       "RqLs" };
		for (const char *t : tags) {
			Bytes one = create(u"f", ctx(t, Bytes(8, 0), true));
			INFO(t);
			REQUIRE(decode(one, r) == STATUS_SUCCESS);
			CHECK(__builtin_popcount(r.ctx_present) == 1);
		}
	}
	SECTION("tags shorter than four bytes are refused, longer ignored")
	{
		for (size_t n = 1; n <= 34; n++) {
			Bytes one = create(u"f", ctx(std::string(n, 'x'), {}, true));
			INFO("tag length " << n);
			CHECK(decode(one, r) == (n < 4 ? STATUS_INVALID_PARAMETER :
						 STATUS_SUCCESS));
		}
	}
	SECTION("a known context twice")
	{
		Bytes two = ctx("MxAc", {}, false);
		append(two, ctx("MxAc", {}, true));
		Bytes t = create(u"f", two);
		CHECK(decode(t, r) == STATUS_INVALID_PARAMETER);
	}
	SECTION("Next not a multiple of 8, too small, past the end")
	{
		size_t first = 120 + 2;
		while (first % 8)
			first++;
		for (uint32_t next : { 12u, 8u, 1000u }) {
			Bytes t = b;
			put32(t, first, next);
			INFO("Next " << next);
			CHECK(decode(t, r) == STATUS_INVALID_PARAMETER);
		}
	}
	SECTION("data past its context")
	{
		Bytes one = ctx("AlSi", alloc, true);
		put32(one, SMB2_CREATE_CTX_DATA_LENGTH, 9);
		Bytes t = create(u"f", one);
		CHECK(decode(t, r) == STATUS_INVALID_PARAMETER);
	}
	SECTION("name overlapping the header")
	{
		Bytes one = ctx("QFid", {}, true);
		put16(one, SMB2_CREATE_CTX_NAME_OFFSET, 8);
		Bytes t = create(u"f", one);
		CHECK(decode(t, r) == STATUS_INVALID_PARAMETER);
	}
	SECTION("context list past the PDU")
	{
		put32(b, 64 + SMB2_CREATE_REQ_CTX_LENGTH, ctxs.size() + 1);
		CHECK(decode(b, r) == STATUS_INVALID_PARAMETER);
	}
	SECTION("a list shorter than one context header")
	{
		put32(b, 64 + SMB2_CREATE_REQ_CTX_LENGTH, 15);
		CHECK(decode(b, r) == STATUS_INVALID_PARAMETER);
	}
}

TEST_CASE("CREATE response and its contexts", "[wire][create]")
{
	struct smb2_create_rsp rsp = {};
	Bytes body(200, 0xee);

	rsp.action = FILE_CREATED;
	rsp.creation_time = 1;
	rsp.access_time = 2;
	rsp.write_time = 3;
	rsp.change_time = 4;
	rsp.allocation = 4096;
	rsp.eof = 100;
	rsp.attributes = FILE_ATTRIBUTE_ARCHIVE;
	rsp.fid_persistent = 7;
	rsp.fid_volatile = 8;
	CHECK(smb2_create_rsp_encode(body.data(), &rsp) == 89);
	CHECK(get16(body, 0) == 89);
	CHECK(get32(body, SMB2_CREATE_RSP_ACTION) == FILE_CREATED);
	CHECK(get32(body, SMB2_CREATE_RSP_ATTRIBUTES) == FILE_ATTRIBUTE_ARCHIVE);
	CHECK(get32(body, SMB2_CREATE_RSP_FILE_ID) == 7);
	CHECK(get32(body, SMB2_CREATE_RSP_FILE_ID + 8) == 8);
	CHECK(get32(body, SMB2_CREATE_RSP_EOF) == 100);
	CHECK(get32(body, SMB2_CREATE_RSP_CTX_OFFSET) == 0);
	CHECK(body[88] == 0);

	SECTION("two contexts, linked and decodable as a request list")
	{
		Bytes c(smb2_create_ctx_size(8) + smb2_create_ctx_size(32), 0);
		uint8_t mx[8] = { 0, 0, 0, 0, 0xff, 0x01, 0x1f, 0 };
		uint8_t qf[32] = { 1 };
		uint32_t a = smb2_create_ctx_encode(c.data(), "MxAc", mx, 8);
		CHECK(a == 32);
		smb2_create_ctx_link(c.data(), 32);
		uint32_t b = smb2_create_ctx_encode(c.data() + 32, "QFid", qf, 32);
		Bytes req = create(u"x", Bytes(c.begin(), c.begin() + 32 + b));
		struct smb2_create_req r;
		REQUIRE(decode(req, r) == STATUS_SUCCESS);
		CHECK(r.ctx_count == 2);
		REQUIRE(r.ctx[SMB2_CTX_QUERY_MAXIMAL_ACCESS].data_len == 8);
		CHECK(get_unaligned_le32(r.ctx[SMB2_CTX_QUERY_MAXIMAL_ACCESS].data +
					 4) == 0x001f01ff);
		CHECK(r.ctx[SMB2_CTX_QUERY_ON_DISK_ID].data_len == 32);
	}
}

TEST_CASE("EA lists (FILE_FULL_EA_INFORMATION)", "[wire][create]")
{
	Bytes list = ea("user.one", "1", false);
	append(list, ea("TWO", "second", true));
	struct smb_ea e;
	uint32_t pos = 0;

	REQUIRE(smb_ea_next(list.data(), list.size(), &pos, &e) == 1);
	CHECK(std::string(e.name, e.name_len) == "user.one");
	CHECK(e.value_len == 1);
	CHECK(e.value[0] == '1');
	REQUIRE(smb_ea_next(list.data(), list.size(), &pos, &e) == 1);
	CHECK(std::string(e.name) == "TWO");
	CHECK(std::string((const char *)e.value, e.value_len) == "second");
	CHECK(smb_ea_next(list.data(), list.size(), &pos, &e) == 0);

	SECTION("names with characters EA names may not have")
	{
		for (const char *bad : { "a:b", "a*", "a/b", "a\\b", "q?", "x=y",
					 "[x]", "a|b", "a,b", "a+b", "a;b" }) {
			Bytes l = ea(bad, "v", true);
			pos = 0;
			INFO(bad);
			CHECK(smb_ea_next(l.data(), l.size(), &pos, &e) == -EILSEQ);
		}
	}
	SECTION("malformed")
	{
		Bytes l = ea("name", "value", true);
		pos = 0;
		l[4 + 1] = 5;	// name length past its NUL
		CHECK(smb_ea_next(l.data(), l.size(), &pos, &e) == -EINVAL);
		l = ea("name", "value", true);
		put16(l, 6, 6);	// value past the end
		pos = 0;
		CHECK(smb_ea_next(l.data(), l.size(), &pos, &e) == -EINVAL);
		l = list;
		put32(l, 0, 6);	// NextEntryOffset not a multiple of 4
		pos = 0;
		CHECK(smb_ea_next(l.data(), l.size(), &pos, &e) == -EINVAL);
		l = list;
		put32(l, 0, 400);
		pos = 0;
		CHECK(smb_ea_next(l.data(), l.size(), &pos, &e) == -EINVAL);
		for (size_t n = 1; n < 8; n++) {
			pos = 0;
			CHECK(smb_ea_next(list.data(), n, &pos, &e) == -EINVAL);
		}
	}
}
