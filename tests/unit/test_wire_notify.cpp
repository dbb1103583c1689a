// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/notify.c: CHANGE_NOTIFY and FILE_NOTIFY_INFORMATION records.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "wire_util.hpp"

extern "C" {
#include "notify.h"
}

using namespace wiretest;

TEST_CASE("CHANGE_NOTIFY request", "[wire][notify]")
{
	struct smb2_notify_req r;
	Bytes b = header(SMB2_CHANGE_NOTIFY);
	Bytes body(32, 0);

	put16(body, 0, SMB2_NOTIFY_REQ_SIZE);
	put16(body, SMB2_NOTIFY_REQ_FLAGS, SMB2_WATCH_TREE);
	put32(body, SMB2_NOTIFY_REQ_OUTPUT_LENGTH, 65536);
	put64(body, SMB2_NOTIFY_REQ_FILE_ID, 3);
	put32(body, SMB2_NOTIFY_REQ_FILTER, FILE_NOTIFY_CHANGE_ALL);
	append(b, body);
	REQUIRE(smb2_notify_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.flags == SMB2_WATCH_TREE);
	CHECK(r.output_length == 65536);
	CHECK(get_unaligned_le64(r.file_id) == 3);
	CHECK(r.filter == FILE_NOTIFY_CHANGE_ALL);
	for (size_t n = 0; n < b.size(); n++)
		CHECK(smb2_notify_req_decode(b.data(), n, &r) ==
		      STATUS_INVALID_PARAMETER);
	put16(b, 64, 33);
	CHECK(smb2_notify_req_decode(b.data(), b.size(), &r) ==
	      STATUS_INVALID_PARAMETER);
}

TEST_CASE("CHANGE_NOTIFY response", "[wire][notify]")
{
	Bytes body(16, 0xaa);

	CHECK(smb2_notify_rsp_encode(body.data(), 0) == 9);
	CHECK(get16(body, 0) == 9);
	CHECK(get16(body, 2) == 0);
	CHECK(get32(body, 4) == 0);
	CHECK(body[8] == 0);
	CHECK(smb2_notify_rsp_encode(body.data(), 24) == 32);
	CHECK(get16(body, 2) == 72);
	CHECK(get32(body, 4) == 24);
}

TEST_CASE("FILE_NOTIFY_INFORMATION records", "[wire][notify]")
{
	Bytes buf(64, 0xaa);
	uint32_t pos = 0, last = 0;

	// "a/b" becomes "a\b"; the record is padded to 4 bytes.
	REQUIRE(smb_notify_info_append(buf.data(), buf.size(), &pos, &last,
				       FILE_ACTION_ADDED, "a/b", 3) == 0);
	CHECK(pos == 20);
	CHECK(last == 0);
	CHECK(get32(buf, 0) == 0);
	CHECK(get32(buf, 4) == FILE_ACTION_ADDED);
	CHECK(get32(buf, 8) == 6);
	CHECK(Bytes(buf.begin() + 12, buf.begin() + 18) == utf16(u"a\\b"));
	CHECK(buf[18] == 0);
	CHECK(buf[19] == 0);

	// The second is linked from the first.
	REQUIRE(smb_notify_info_append(buf.data(), buf.size(), &pos, &last,
				       FILE_ACTION_RENAMED_NEW_NAME,
				       "\xc3\xa9t\xc3\xa9", 5) == 0);
	CHECK(get32(buf, 0) == 20);
	CHECK(last == 20);
	CHECK(get32(buf, 24) == FILE_ACTION_RENAMED_NEW_NAME);
	CHECK(get32(buf, 28) == 6);
	CHECK(Bytes(buf.begin() + 32, buf.begin() + 38) == utf16(u"\u00e9t\u00e9"));
	CHECK(pos == 40);

	// One that does not fit changes nothing.
	std::string big(13, 'x');
	Bytes before = buf;
	CHECK(smb_notify_info_append(buf.data(), buf.size(), &pos, &last,
				     FILE_ACTION_REMOVED, big.data(),
				     big.size()) == -ENOSPC);
	CHECK(buf == before);
	CHECK(pos == 40);
	// Exactly fitting (12 + 12 bytes) is fine, padding or not.
	std::string fits(6, 'y');
	CHECK(smb_notify_info_append(buf.data(), buf.size(), &pos, &last,
				     FILE_ACTION_REMOVED, fits.data(),
				     fits.size()) == 0);
	CHECK(pos == 64);
	CHECK(get32(buf, 20) == 20);

	// Bad names.
	uint32_t p2 = 0, l2 = 0;
	CHECK(smb_notify_info_append(buf.data(), buf.size(), &p2, &l2, 1, "",
				     0) == -EINVAL);
	CHECK(smb_notify_info_append(buf.data(), buf.size(), &p2, &l2, 1,
				     "\xff", 1) == -EINVAL);
	CHECK(p2 == 0);
}
