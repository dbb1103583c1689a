// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/rw.c and dosattr.c: CLOSE, FLUSH, READ, WRITE; DOS attributes.
#include <catch2/catch.hpp>

#include <cstring>

#include "wire_util.hpp"

extern "C" {
#include "dosattr.h"
#include "rw.h"
}

using namespace wiretest;

namespace {

Bytes read_req(uint32_t len, uint64_t off, uint32_t min)
{
	Bytes b = header(SMB2_READ);
	Bytes body(49, 0);
	put16(body, 0, SMB2_READ_REQ_SIZE);
	body[SMB2_READ_REQ_FLAGS] = SMB2_READFLAG_READ_UNBUFFERED;
	put32(body, SMB2_READ_REQ_LENGTH, len);
	put64(body, SMB2_READ_REQ_OFFSET, off);
	put64(body, SMB2_READ_REQ_FILE_ID, 5);
	put64(body, SMB2_READ_REQ_FILE_ID + 8, 6);
	put32(body, SMB2_READ_REQ_MINIMUM, min);
	append(b, body);
	return b;
}

Bytes write_req(const Bytes &data, uint64_t off, uint32_t flags)
{
	Bytes b = header(SMB2_WRITE);
	Bytes body(48, 0);
	put16(body, 0, SMB2_WRITE_REQ_SIZE);
	put16(body, SMB2_WRITE_REQ_DATA_OFFSET, 112);
	put32(body, SMB2_WRITE_REQ_LENGTH, data.size());
	put64(body, SMB2_WRITE_REQ_OFFSET, off);
	put64(body, SMB2_WRITE_REQ_FILE_ID, 5);
	put32(body, SMB2_WRITE_REQ_FLAGS, flags);
	append(b, body);
	append(b, data.empty() ? Bytes(1, 0) : data);
	return b;
}

} // namespace

TEST_CASE("READ request", "[wire][rw]")
{
	struct smb2_read_req r;
	Bytes b = read_req(65536, 1ull << 40, 1);

	REQUIRE(smb2_read_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.length == 65536);
	CHECK(r.offset == 1ull << 40);
	CHECK(r.minimum == 1);
	CHECK(r.flags == SMB2_READFLAG_READ_UNBUFFERED);
	CHECK(get_unaligned_le64(r.file_id) == 5);
	CHECK(r.channel == 0);

	SECTION("channel info inside the PDU or nowhere")
	{
		Bytes t = b;
		put16(t, 64 + SMB2_READ_REQ_CHINFO_OFFSET, 112);
		put16(t, 64 + SMB2_READ_REQ_CHINFO_LENGTH, 1);
		CHECK(smb2_read_req_decode(t.data(), t.size(), &r) == 0);
		put16(t, 64 + SMB2_READ_REQ_CHINFO_LENGTH, 2);
		CHECK(smb2_read_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("truncations")
	{
		for (size_t n = 0; n < b.size() - 1; n++)
			CHECK(smb2_read_req_decode(b.data(), n, &r) ==
			      STATUS_INVALID_PARAMETER);
	}
}

TEST_CASE("WRITE request", "[wire][rw]")
{
	struct smb2_write_req r;
	Bytes data = { 'd', 'a', 't', 'a' };
	Bytes b = write_req(data, SMB2_WRITE_APPEND,
			    SMB2_WRITEFLAG_WRITE_THROUGH);

	REQUIRE(smb2_write_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.length == 4);
	CHECK(r.offset == SMB2_WRITE_APPEND);
	CHECK(r.flags == SMB2_WRITEFLAG_WRITE_THROUGH);
	REQUIRE(r.data != nullptr);
	CHECK(memcmp(r.data, "data", 4) == 0);

	SECTION("zero-length")
	{
		Bytes z = write_req({}, 10, 0);
		REQUIRE(smb2_write_req_decode(z.data(), z.size(), &r) == 0);
		CHECK(r.length == 0);
		CHECK(r.data == nullptr);
	}
	SECTION("data past the end of the PDU")
	{
		put32(b, 64 + SMB2_WRITE_REQ_LENGTH, 5);
		CHECK(smb2_write_req_decode(b.data(), b.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
		put32(b, 64 + SMB2_WRITE_REQ_LENGTH, 0xffffffff);
		CHECK(smb2_write_req_decode(b.data(), b.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("data inside the fixed part")
	{
		put16(b, 64 + SMB2_WRITE_REQ_DATA_OFFSET, 100);
		CHECK(smb2_write_req_decode(b.data(), b.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("truncations")
	{
		for (size_t n = 0; n < b.size(); n++)
			CHECK(smb2_write_req_decode(b.data(), n, &r) ==
			      STATUS_INVALID_PARAMETER);
	}
}

TEST_CASE("WRITE request with its data received apart", "[wire][rw]")
{
	struct smb2_write_req r;
	Bytes data(70000, 'x');
	// The head alone: what the receiver keeps when the data went to pages.
	Bytes b = write_req(data, 12345, 0);
	b.resize(112);

	REQUIRE(smb2_write_req_decode_ext(b.data(), b.size(), 70000, &r) == 0);
	CHECK(r.length == 70000);
	CHECK(r.offset == 12345);
	CHECK(r.data == nullptr);
	CHECK(get_unaligned_le64(r.file_id) == 5);
	// The ordinary decode refuses the same head: its data is not there.
	CHECK(smb2_write_req_decode(b.data(), b.size(), &r) == STATUS_INVALID_PARAMETER);

	SECTION("the data length must be the Length field, and not 0")
	{
		CHECK(smb2_write_req_decode_ext(b.data(), b.size(), 69999, &r) ==
		      STATUS_INVALID_PARAMETER);
		CHECK(smb2_write_req_decode_ext(b.data(), b.size(), 0, &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("the data must start where the PDU ends")
	{
		put16(b, 64 + SMB2_WRITE_REQ_DATA_OFFSET, 120);
		CHECK(smb2_write_req_decode_ext(b.data(), b.size(), 70000, &r) ==
		      STATUS_INVALID_PARAMETER);
		put16(b, 64 + SMB2_WRITE_REQ_DATA_OFFSET, 64);
		CHECK(smb2_write_req_decode_ext(b.data(), b.size(), 70000, &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("channel info must still lie in the PDU")
	{
		put16(b, 64 + SMB2_WRITE_REQ_CHINFO_OFFSET, 112);
		put16(b, 64 + SMB2_WRITE_REQ_CHINFO_LENGTH, 16);
		CHECK(smb2_write_req_decode_ext(b.data(), b.size(), 70000, &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("truncations")
	{
		for (size_t n = 0; n < b.size(); n++)
			CHECK(smb2_write_req_decode_ext(b.data(), n, 70000, &r) ==
			      STATUS_INVALID_PARAMETER);
	}
}

TEST_CASE("CLOSE and FLUSH", "[wire][rw]")
{
	Bytes b = header(SMB2_CLOSE);
	Bytes body(24, 0);
	put16(body, 0, SMB2_CLOSE_REQ_SIZE);
	put16(body, SMB2_CLOSE_REQ_FLAGS, SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB);
	put64(body, SMB2_CLOSE_REQ_FILE_ID, 9);
	append(b, body);
	struct smb2_close_req c;

	REQUIRE(smb2_close_req_decode(b.data(), b.size(), &c) == 0);
	CHECK(c.flags == SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB);
	CHECK(get_unaligned_le64(c.file_id) == 9);
	CHECK(smb2_close_req_decode(b.data(), b.size() - 1, &c) ==
	      STATUS_INVALID_PARAMETER);

	const uint8_t *fid;
	put16(b, 12, SMB2_FLUSH);
	REQUIRE(smb2_flush_req_decode(b.data(), b.size(), &fid) == 0);
	CHECK(get_unaligned_le64(fid) == 9);

	Bytes rsp(60, 0xee);
	struct smb2_close_rsp cr = {};
	cr.flags = SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB;
	cr.eof = 12345;
	cr.attributes = 0x20;
	CHECK(smb2_close_rsp_encode(rsp.data(), &cr) == 60);
	CHECK(get16(rsp, 0) == 60);
	CHECK(get16(rsp, 2) == 1);
	CHECK(get32(rsp, 48) == 12345);
	CHECK(get32(rsp, 56) == 0x20);
}

TEST_CASE("READ and WRITE responses", "[wire][rw]")
{
	Bytes rsp(32, 0xee);

	CHECK(smb2_read_rsp_encode(rsp.data(), 10, 0) == 26);
	CHECK(get16(rsp, 0) == 17);
	CHECK(rsp[2] == 80);
	CHECK(get32(rsp, 4) == 10);
	CHECK(smb2_read_rsp_encode(rsp.data(), 0, 0) == 17);
	CHECK(rsp[16] == 0);
	CHECK(smb2_write_rsp_encode(rsp.data(), 77) == 16);
	CHECK(get16(rsp, 0) == 17);
	CHECK(get32(rsp, 4) == 77);
}

TEST_CASE("DOS attribute xattr", "[wire][dosattr]")
{
	struct smb_dosattr da = {}, back;
	uint8_t buf[SMB_DOSATTR_V4_SIZE];

	da.valid = SMB_DOSINFO_ATTRIB | SMB_DOSINFO_CREATE_TIME;
	da.attrib = 0x22;
	da.create_time = 0x01d9000012345678ull;
	REQUIRE(smb_dosattr_encode(buf, &da) == 32);
	// The bytes ksmbd writes for version 4.
	const uint8_t want[16] = { 0, 0, 4, 0, 4, 0, 0, 0,
				   0x51, 0, 0, 0, 0x22, 0, 0, 0 };
	CHECK(memcmp(buf, want, 16) == 0);
	REQUIRE(smb_dosattr_decode(buf, sizeof(buf), &back) == 0);
	CHECK(back.valid == (SMB_DOSINFO_ATTRIB | SMB_DOSINFO_CREATE_TIME));
	CHECK(back.attrib == 0x22);
	CHECK(back.create_time == da.create_time);

	SECTION("Samba's version 5 with its hex string")
	{
		Bytes s = { '0', 'x', '2', '0', 0, 0, 5, 0, 5, 0, 0, 0 };
		Bytes info(16, 0);
		put32(info, 0, SMB_DOSINFO_ATTRIB | SMB_DOSINFO_CREATE_TIME);
		put32(info, 4, 0x20);
		put64(info, 8, 42);
		append(s, info);
		REQUIRE(smb_dosattr_decode(s.data(), s.size(), &back) == 0);
		CHECK(back.attrib == 0x20);
		CHECK(back.create_time == 42);
	}
	SECTION("version 3 (older ksmbd)")
	{
		Bytes s = { '0', 'x', '1', 0, 3, 0, 0, 0, 3, 0, 0, 0 };
		Bytes info(44, 0);
		put32(info, 0, SMB_DOSINFO_ATTRIB);
		put32(info, 4, 0x1);
		put64(info, 28, 99);
		append(s, info);
		REQUIRE(smb_dosattr_decode(s.data(), s.size(), &back) == 0);
		CHECK(back.valid == SMB_DOSINFO_ATTRIB);
		CHECK(back.attrib == 1);
		CHECK(back.create_time == 0);	// not valid
	}
	SECTION("anything else is refused, never read past the end")
	{
		for (size_t n = 0; n < sizeof(buf); n++)
			CHECK(smb_dosattr_decode(buf, n, &back) == -EINVAL);
		uint8_t bad[SMB_DOSATTR_V4_SIZE];
		memcpy(bad, buf, sizeof(bad));
		bad[4] = 5;	// level != version
		CHECK(smb_dosattr_decode(bad, sizeof(bad), &back) == -EINVAL);
		memcpy(bad, buf, sizeof(bad));
		bad[2] = bad[4] = 9;
		CHECK(smb_dosattr_decode(bad, sizeof(bad), &back) == -EINVAL);
		uint8_t nonul[8] = { 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a' };
		CHECK(smb_dosattr_decode(nonul, 8, &back) == -EINVAL);
	}
	SECTION("NT time")
	{
		CHECK(smb_nttime(0, 0) == 116444736000000000ull);
		CHECK(smb_nttime(1, 500) == 116444736010000005ull);
		CHECK(smb_nttime(-11644473600LL, 0) == 0);
		CHECK(smb_nttime(-11644473601LL, 0) == 0);
	}
}
