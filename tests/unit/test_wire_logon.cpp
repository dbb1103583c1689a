// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/logon.c, ioctl.c, utf16.c: SESSION_SETUP, TREE_CONNECT, IOCTL.
#include <catch2/catch.hpp>

#include <cstring>

#include "wire_util.hpp"

extern "C" {
#include "ioctl.h"
#include "logon.h"
#include "utf16.h"
}

using namespace wiretest;

namespace {

Bytes session_setup(const Bytes &blob, uint64_t prev = 0)
{
	Bytes b = header(SMB2_SESSION_SETUP);
	Bytes body(24, 0);
	put16(body, 0, SMB2_SESS_REQ_SIZE);
	body[SMB2_SESS_REQ_SECURITY_MODE] = 1;
	put16(body, SMB2_SESS_REQ_SECBUF_OFFSET, 88);
	put16(body, SMB2_SESS_REQ_SECBUF_LENGTH, blob.size());
	put64(body, SMB2_SESS_REQ_PREV_SESSION, prev);
	append(b, body);
	append(b, blob);
	return b;
}

Bytes tree_connect(const std::u16string &path)
{
	Bytes b = header(SMB2_TREE_CONNECT);
	Bytes p = utf16(path);
	Bytes body(8, 0);
	put16(body, 0, SMB2_TCON_REQ_SIZE);
	put16(body, SMB2_TCON_REQ_PATH_OFFSET, 72);
	put16(body, SMB2_TCON_REQ_PATH_LENGTH, p.size());
	append(b, body);
	append(b, p);
	return b;
}

uint32_t share_of(const std::u16string &path, std::string &out)
{
	Bytes p = utf16(path);
	char buf[81];
	uint32_t st = smb2_tcon_share_name(p.data(), p.size(), buf,
					   sizeof(buf));
	if (!st)
		out = buf;
	return st;
}

} // namespace

TEST_CASE("SESSION_SETUP request", "[wire]")
{
	struct smb2_sess_req r;
	Bytes blob = { 'N', 'T', 'L', 'M' };
	Bytes b = session_setup(blob, 0x1234);

	REQUIRE(smb2_sess_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.blob_len == 4);
	CHECK(memcmp(r.blob, "NTLM", 4) == 0);
	CHECK(r.prev_session_id == 0x1234);
	CHECK(r.security_mode == 1);

	SECTION("blob past the end")
	{
		put16(b, 64 + SMB2_SESS_REQ_SECBUF_LENGTH, 5);
		CHECK(smb2_sess_req_decode(b.data(), b.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("blob overlapping the fixed part")
	{
		put16(b, 64 + SMB2_SESS_REQ_SECBUF_OFFSET, 80);
		CHECK(smb2_sess_req_decode(b.data(), b.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("empty blob")
	{
		Bytes e = session_setup({});
		REQUIRE(smb2_sess_req_decode(e.data(), e.size(), &r) == 0);
		CHECK(r.blob == nullptr);
		CHECK(r.blob_len == 0);
	}
	SECTION("every truncation fails")
	{
		for (size_t n = 0; n < b.size(); n++) {
			INFO("length " << n);
			CHECK(smb2_sess_req_decode(b.data(), n, &r) ==
			      STATUS_INVALID_PARAMETER);
		}
	}
}

TEST_CASE("SESSION_SETUP response", "[wire]")
{
	Bytes body(8 + 5, 0xee);
	CHECK(smb2_sess_rsp_encode(body.data(), SMB2_SESSION_FLAG_IS_GUEST,
				   5) == 13);
	CHECK(get16(body, 0) == 9);
	CHECK(get16(body, 2) == SMB2_SESSION_FLAG_IS_GUEST);
	CHECK(get16(body, 4) == 72);
	CHECK(get16(body, 6) == 5);
	CHECK(smb2_sess_rsp_encode(body.data(), 0, 0) == 9);
	CHECK(get16(body, 4) == 0);
}

TEST_CASE("TREE_CONNECT request and share names", "[wire]")
{
	struct smb2_tcon_req r;
	std::string share;
	Bytes b = tree_connect(u"\\\\server\\demo");

	REQUIRE(smb2_tcon_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.path_len == 26);
	for (size_t n = 0; n < b.size(); n++) {
		INFO("length " << n);
		CHECK(smb2_tcon_req_decode(b.data(), n, &r) ==
		      STATUS_INVALID_PARAMETER);
	}

	CHECK(share_of(u"\\\\server\\demo", share) == 0);
	CHECK(share == "demo");
	CHECK(share_of(u"\\\\127.0.0.1\\IPC$", share) == 0);
	CHECK(share == "IPC$");
	CHECK(share_of(u"demo", share) == 0);
	CHECK(share == "demo");
	CHECK(share_of(u"\\\\srv\\d\u00e9mo", share) == 0);
	CHECK(share == "d\xc3\xa9mo");
	CHECK(share_of(u"\\\\server", share) == STATUS_BAD_NETWORK_NAME);
	CHECK(share_of(u"\\\\server\\", share) == STATUS_BAD_NETWORK_NAME);
	CHECK(share_of(u"\\\\server\\a\\b", share) == STATUS_BAD_NETWORK_NAME);
	CHECK(share_of(u"\\\\server\\a/b", share) == STATUS_BAD_NETWORK_NAME);
	CHECK(share_of(u"", share) == STATUS_INVALID_PARAMETER);
	CHECK(share_of(std::u16string(u"\\\\s\\") + char16_t(0xd800), share) ==
	      STATUS_INVALID_PARAMETER);
	CHECK(share_of(u"\\\\s\\" + std::u16string(100, u'x'), share) ==
	      STATUS_BAD_NETWORK_NAME);
}

TEST_CASE("TREE_CONNECT response", "[wire]")
{
	Bytes body(16, 0xee);
	CHECK(smb2_tcon_rsp_encode(body.data(), SMB2_SHARE_TYPE_PIPE,
				   0x30, 0, 0x1f01ff) == 16);
	CHECK(get16(body, 0) == 16);
	CHECK(body[2] == SMB2_SHARE_TYPE_PIPE);
	CHECK(body[3] == 0);
	CHECK(get32(body, 4) == 0x30);
	CHECK(get32(body, 12) == 0x1f01ff);
}

TEST_CASE("UTF-16LE to UTF-8", "[wire]")
{
	char out[16];
	Bytes b = utf16(u"a\u00e9\u20ac");
	b.push_back(0x3d); /* U+1F600 as a surrogate pair */
	b.push_back(0xd8);
	b.push_back(0x00);
	b.push_back(0xde);

	REQUIRE(smb_utf16le_to_utf8(b.data(), b.size(), out, sizeof(out)) ==
		10);
	CHECK(std::string(out) == "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	/* Room for the text but not its NUL. */
	CHECK(smb_utf16le_to_utf8(b.data(), b.size(), out, 10) ==
	      -ENAMETOOLONG);
	CHECK(smb_utf16le_to_utf8(b.data(), 3, out, sizeof(out)) == -EINVAL);
	/* High surrogate at the end, lone low surrogate, embedded NUL. */
	CHECK(smb_utf16le_to_utf8(b.data(), b.size() - 2, out, 16) == -EINVAL);
	Bytes lo = utf16(u"a");
	lo.push_back(0x00);
	lo.push_back(0xdc);
	CHECK(smb_utf16le_to_utf8(lo.data(), lo.size(), out, 16) == -EINVAL);
	Bytes nul = utf16(u"a");
	nul.push_back(0);
	nul.push_back(0);
	CHECK(smb_utf16le_to_utf8(nul.data(), nul.size(), out, 16) == -EINVAL);
	CHECK(smb_utf16le_to_utf8(nul.data(), 0, out, 16) == 0);
	CHECK(out[0] == 0);
}

TEST_CASE("IOCTL request", "[wire]")
{
	struct smb2_ioctl_req r;
	Bytes b = header(SMB2_IOCTL);
	Bytes body(56, 0);
	put16(body, 0, SMB2_IOCTL_REQ_SIZE);
	put32(body, SMB2_IOCTL_REQ_CTL_CODE, FSCTL_VALIDATE_NEGOTIATE_INFO);
	put64(body, SMB2_IOCTL_REQ_FILE_ID, ~0ULL);
	put64(body, SMB2_IOCTL_REQ_FILE_ID + 8, ~0ULL);
	put32(body, SMB2_IOCTL_REQ_INPUT_OFFSET, 120);
	put32(body, SMB2_IOCTL_REQ_INPUT_COUNT, 26);
	put32(body, SMB2_IOCTL_REQ_MAX_OUTPUT, 24);
	put32(body, SMB2_IOCTL_REQ_FLAGS, SMB2_0_IOCTL_IS_FSCTL);
	append(b, body);
	b.resize(b.size() + 26, 0x11);

	REQUIRE(smb2_ioctl_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.ctl_code == FSCTL_VALIDATE_NEGOTIATE_INFO);
	CHECK(r.in_len == 26);
	CHECK(r.in == b.data() + 120);
	CHECK(r.max_out == 24);
	CHECK(r.fid_volatile == ~0ULL);
	CHECK(r.file_id == b.data() + 64 + SMB2_IOCTL_REQ_FILE_ID);

	SECTION("input beyond the PDU")
	{
		put32(b, 64 + SMB2_IOCTL_REQ_INPUT_COUNT, 27);
		CHECK(smb2_ioctl_req_decode(b.data(), b.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("output buffer beyond the PDU")
	{
		put32(b, 64 + SMB2_IOCTL_REQ_OUTPUT_OFFSET, 120);
		put32(b, 64 + SMB2_IOCTL_REQ_OUTPUT_COUNT, 0x7fffffff);
		CHECK(smb2_ioctl_req_decode(b.data(), b.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("response")
	{
		Bytes out(48 + 24, 0xee);
		CHECK(smb2_ioctl_rsp_encode(out.data(), &r, 24) == 72);
		CHECK(get16(out, 0) == 49);
		CHECK(get32(out, SMB2_IOCTL_RSP_CTL_CODE) ==
		      FSCTL_VALIDATE_NEGOTIATE_INFO);
		CHECK(get32(out, SMB2_IOCTL_RSP_OUTPUT_OFFSET) == 112);
		CHECK(get32(out, SMB2_IOCTL_RSP_OUTPUT_COUNT) == 24);
	}
}
