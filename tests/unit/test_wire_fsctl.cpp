// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/fsctl.c: IOCTL payloads (copy chunk, resume keys, ranges,
// reparse points, symbolic link error responses, object ids, duplicate
// extents, compression, network interfaces); wire/utf16.c back from UTF-8.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "wire_util.hpp"

extern "C" {
#include "fsctl.h"
#include "utf16.h"
}

using namespace wiretest;

TEST_CASE("UTF-8 to UTF-16LE", "[wire][utf16]")
{
	uint8_t out[64];
	auto conv = [&](const std::string &s, uint32_t cap = 64,
			unsigned flags = 0) {
		return smb_utf8_to_utf16le(s.data(), s.size(), out, cap, flags);
	};

	CHECK(conv("") == 0);
	REQUIRE(conv("a/b") == 6);
	CHECK(Bytes(out, out + 6) == utf16(u"a/b"));
	REQUIRE(conv("a/b", 64, SMB_UTF16_BACKSLASH) == 6);
	CHECK(Bytes(out, out + 6) == utf16(u"a\\b"));
	// Two-, three- and four-byte forms; the last as a surrogate pair.
	REQUIRE(conv("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") == 8);
	CHECK(Bytes(out, out + 8) == utf16(u"\u00e9\u20ac\U0001F600"));
	// Counting only.
	CHECK(smb_utf8_to_utf16le("\xf0\x9f\x98\x80x", 5, nullptr, 100, 0) ==
	      6);
	// Not UTF-8: stray continuation, truncated, overlong, surrogate,
	// beyond U+10FFFF, NUL.
	for (const char *bad : {"\x80", "\xc3", "\xe2\x82", "\xc0\xaf",
				"\xe0\x80\xaf", "\xed\xa0\x80",
				"\xf4\x90\x80\x80", "\xff"})
		CHECK(conv(bad) == -EINVAL);
	CHECK(smb_utf8_to_utf16le("a\0b", 3, out, 64, 0) == -EINVAL);
	// Room: exactly enough, one byte short, a pair that does not fit.
	CHECK(conv("abc", 6) == 6);
	CHECK(conv("abc", 5) == -ENAMETOOLONG);
	CHECK(conv("a\xf0\x9f\x98\x80", 4) == -ENAMETOOLONG);
}

TEST_CASE("SRV_COPYCHUNK_COPY", "[wire][fsctl]")
{
	struct smb2_copychunk_req r;
	struct smb2_copychunk c;
	Bytes in(32, 0);

	for (int i = 0; i < 24; i++)
		in[i] = uint8_t(i + 1);
	put32(in, 24, 2);
	in.resize(32 + 48);
	put64(in, 32, 10);
	put64(in, 40, 20);
	put32(in, 48, 30);
	put64(in, 56, 1ull << 40);
	put64(in, 64, ~0ull);
	put32(in, 72, 1 << 20);
	REQUIRE(smb2_copychunk_decode(in.data(), in.size(), &r) == 0);
	CHECK(r.key == in.data());
	CHECK(r.count == 2);
	smb2_copychunk_get(&r, 0, &c);
	CHECK(c.source == 10);
	CHECK(c.target == 20);
	CHECK(c.length == 30);
	smb2_copychunk_get(&r, 1, &c);
	CHECK(c.source == 1ull << 40);
	CHECK(c.target == ~0ull);
	CHECK(c.length == 1u << 20);
	for (size_t n = 0; n < in.size(); n++)
		CHECK(smb2_copychunk_decode(in.data(), n, &r) == -EINVAL);
	put32(in, 24, 0xffffffff);
	CHECK(smb2_copychunk_decode(in.data(), in.size(), &r) == -EINVAL);
	put32(in, 24, 0);
	CHECK(smb2_copychunk_decode(in.data(), in.size(), &r) == 0);
	CHECK(r.count == 0);

	uint8_t out[12];
	smb2_copychunk_rsp_encode(out, 256, 1 << 20, 16 << 20);
	Bytes o(out, out + 12);
	CHECK(get32(o, 0) == 256);
	CHECK(get32(o, 4) == 1u << 20);
	CHECK(get32(o, 8) == 16u << 20);
}

TEST_CASE("resume keys", "[wire][fsctl]")
{
	const struct smb2_resume_key k = { 0x1122334455667788ull, 7,
					   0xa1b2c3d4e5f60718ull };
	struct smb2_resume_key back;
	Bytes out(SMB2_RESUME_KEY_RSP_SIZE, 0xee);

	smb2_resume_key_rsp_encode(out.data(), &k);
	CHECK(get64(out, 0) == k.fid_persistent);
	CHECK(get64(out, 8) == k.fid_volatile);
	CHECK(get64(out, 16) == k.tag);
	CHECK(get32(out, 24) == 0);	// ContextLength
	CHECK(get32(out, 28) == 0);	// Reserved
	// A copy request names the source by those first 24 bytes.
	smb2_resume_key_decode(out.data(), &back);
	CHECK(back.fid_persistent == k.fid_persistent);
	CHECK(back.fid_volatile == k.fid_volatile);
	CHECK(back.tag == k.tag);
}

TEST_CASE("DUPLICATE_EXTENTS_DATA", "[wire][fsctl]")
{
	Bytes in(SMB_DUP_EXTENTS_SIZE, 0);
	struct smb_dup_extents d;

	put64(in, 0, 5);
	put64(in, 8, 6);
	put64(in, 16, 4096);
	put64(in, 24, 8192);
	put64(in, 32, 1ull << 40);
	REQUIRE(smb_dup_extents_decode(in.data(), in.size(), &d) == 0);
	CHECK(d.fid_persistent == 5);
	CHECK(d.fid_volatile == 6);
	CHECK(d.source_offset == 4096);
	CHECK(d.target_offset == 8192);
	CHECK(d.length == 1ull << 40);
	for (u32 n = 0; n < SMB_DUP_EXTENTS_SIZE; n++)
		CHECK(smb_dup_extents_decode(in.data(), n, &d) == -EINVAL);
	in.push_back(0);	// trailing bytes are not an error
	CHECK(smb_dup_extents_decode(in.data(), in.size(), &d) == 0);
}

TEST_CASE("COMPRESSION_STATE", "[wire][fsctl]")
{
	Bytes in = {0x02, 0x00};
	uint8_t out[2] = {0xee, 0xee};
	u16 f = 0xffff;

	REQUIRE(smb_compression_decode(in.data(), 2, &f) == 0);
	CHECK(f == 2);
	CHECK(smb_compression_decode(in.data(), 1, &f) == -EINVAL);
	CHECK(smb_compression_decode(in.data(), 0, &f) == -EINVAL);
	smb_compression_encode(out, COMPRESSION_FORMAT_NONE);
	CHECK(out[0] == 0);
	CHECK(out[1] == 0);
}

TEST_CASE("FILE_OBJECTID_BUFFER", "[wire][fsctl]")
{
	uint8_t guid[16];
	Bytes out(SMB_OBJECT_ID_SIZE, 0xee);

	for (int i = 0; i < 16; i++)
		guid[i] = (uint8_t)(0x40 + i);
	smb_object_id_encode(out.data(), 0x0102030405060708ull, 9, 0x801,
			     guid);
	CHECK(get64(out, 0) == 0x0102030405060708ull);
	CHECK(get32(out, 8) == 9);
	CHECK(get32(out, 12) == 0x801);
	CHECK(Bytes(out.begin() + 16, out.begin() + 32) ==
	      Bytes(guid, guid + 16));
	// BirthObjectId is the ObjectId; DomainId is zero.
	CHECK(Bytes(out.begin() + 32, out.begin() + 48) ==
	      Bytes(out.begin(), out.begin() + 16));
	CHECK(Bytes(out.begin() + 48, out.end()) == Bytes(16, 0));
}

TEST_CASE("offset/length pairs", "[wire][fsctl]")
{
	Bytes in(16, 0);
	u64 a, b;

	put64(in, 0, 4096);
	put64(in, 8, 1ull << 62);
	REQUIRE(smb_range_decode(in.data(), in.size(), &a, &b) == 0);
	CHECK(a == 4096);
	CHECK(b == 1ull << 62);
	CHECK(smb_range_decode(in.data(), 15, &a, &b) == -EINVAL);
	put64(in, 8, 1ull << 63);
	CHECK(smb_range_decode(in.data(), in.size(), &a, &b) == -EINVAL);
	put64(in, 8, 0);
	put64(in, 0, ~0ull);
	CHECK(smb_range_decode(in.data(), in.size(), &a, &b) == -EINVAL);
	uint8_t out[16];
	smb_range_encode(out, 1, 2);
	Bytes o(out, out + 16);
	CHECK(get64(o, 0) == 1);
	CHECK(get64(o, 8) == 2);
}

TEST_CASE("symbolic link reparse points", "[wire][fsctl]")
{
	uint8_t buf[256];
	struct smb_reparse r;
	struct smb_symlink_reparse s;
	int n;

	n = smb_symlink_reparse_encode(buf, sizeof(buf), "../dir/x", 8, true, false);
	REQUIRE(n == 8 + 12 + 32);
	CHECK(smb_symlink_reparse_encode(nullptr, 0, "../dir/x", 8, true, false) ==
	      n);
	CHECK(smb_symlink_reparse_encode(buf, n - 1, "../dir/x", 8, true, false) ==
	      -ENOSPC);
	CHECK(smb_symlink_reparse_encode(buf, 256, "", 0, true, false) == -EINVAL);
	CHECK(smb_symlink_reparse_encode(buf, 256, "\xff", 1, true, false) ==
	      -EINVAL);
	std::string huge(9000, 'x');
	CHECK(smb_symlink_reparse_encode(nullptr, 0, huge.data(), huge.size(),
					 false, false) == -ENOSPC);

	REQUIRE(smb_reparse_decode(buf, n, &r) == 0);
	CHECK(r.tag == IO_REPARSE_TAG_SYMLINK);
	CHECK(r.data_len == n - 8);
	REQUIRE(smb_symlink_reparse_decode(&r, &s) == 0);
	CHECK(s.flags == SYMLINK_FLAG_RELATIVE);
	CHECK(Bytes(s.subst, s.subst + s.subst_len) == utf16(u"..\\dir\\x"));
	CHECK(Bytes(s.print, s.print + s.print_len) == utf16(u"..\\dir\\x"));

	// The reparse buffer must be exactly as long as it says.
	CHECK(smb_reparse_decode(buf, n - 1, &r) == -EINVAL);
	CHECK(smb_reparse_decode(buf, 7, &r) == -EINVAL);
	Bytes t(buf, buf + n);
	t.push_back(0);
	CHECK(smb_reparse_decode(t.data(), t.size(), &r) == -EINVAL);

	// Names outside the path buffer, odd or empty.
	auto bad = [&](size_t field, uint16_t v) {
		Bytes u(buf, buf + n);
		put16(u, 8 + field, v);
		struct smb_reparse rr;
		REQUIRE(smb_reparse_decode(u.data(), u.size(), &rr) == 0);
		return smb_symlink_reparse_decode(&rr, &s);
	};
	CHECK(bad(0, 17) == -EINVAL);	// SubstituteNameOffset past the end
	CHECK(bad(2, 34) == -EINVAL);	// SubstituteNameLength past the end
	CHECK(bad(2, 15) == -EINVAL);	// odd
	CHECK(bad(2, 0) == -EINVAL);	// empty target
	CHECK(bad(4, 18) == -EINVAL);	// PrintName past the end
	CHECK(bad(6, 33) == -EINVAL);

	// Another tag is not a symbolic link.
	Bytes m(buf, buf + n);
	put32(m, 0, IO_REPARSE_TAG_MOUNT_POINT);
	REQUIRE(smb_reparse_decode(m.data(), m.size(), &r) == 0);
	CHECK(smb_symlink_reparse_decode(&r, &s) == -EINVAL);
	// Too short for the symbolic link header.
	Bytes sh = {0x0c, 0, 0, 0xa0, 4, 0, 0, 0, 0, 0, 0, 0};
	REQUIRE(smb_reparse_decode(sh.data(), sh.size(), &r) == 0);
	CHECK(smb_symlink_reparse_decode(&r, &s) == -EINVAL);
}

TEST_CASE("symbolic link error response", "[wire][fsctl]")
{
	uint8_t buf[128];
	int n = smb_symlink_error_encode(buf, sizeof(buf), "/abs/t", 6, false, false,
					 4);
	REQUIRE(n == 28 + 24);
	Bytes b(buf, buf + n);
	CHECK(get32(b, 0) == uint32_t(n - 4));
	CHECK(get32(b, 4) == 0x4c4d5953);
	CHECK(get32(b, 8) == IO_REPARSE_TAG_SYMLINK);
	CHECK(get16(b, 12) == 12 + 24);
	CHECK(get16(b, 14) == 4);
	CHECK(get16(b, 16) == 12);	// substitute name after the print name
	CHECK(get16(b, 18) == 12);
	CHECK(get16(b, 20) == 0);
	CHECK(get16(b, 22) == 12);
	CHECK(get32(b, 24) == 0);
	CHECK(Bytes(b.begin() + 28, b.begin() + 40) == utf16(u"\\abs\\t"));
	CHECK(Bytes(b.begin() + 40, b.end()) == utf16(u"\\abs\\t"));
	CHECK(smb_symlink_error_encode(buf, n - 1, "/abs/t", 6, false, false, 0) ==
	      -ENOSPC);
}

TEST_CASE("network interface info", "[wire][fsctl]")
{
	uint8_t e[SMB2_NETIF_INFO_SIZE];
	const uint8_t v4[4] = {10, 0, 2, 15};
	uint8_t v6[16] = {0xfe, 0x80};

	smb2_netif_encode(e, 2, SMB2_NETIF_CAP_RSS, 1000000000ull, v4, 4, 0);
	Bytes b(e, e + sizeof(e));
	CHECK(get32(b, 0) == 0);
	CHECK(get32(b, 4) == 2);
	CHECK(get32(b, 8) == SMB2_NETIF_CAP_RSS);
	CHECK(get64(b, 16) == 1000000000ull);
	CHECK(get16(b, 24) == 2);
	CHECK(Bytes(b.begin() + 28, b.begin() + 32) == Bytes(v4, v4 + 4));

	v6[15] = 1;
	smb2_netif_encode(e, 3, 0, 0, v6, 16, 3);
	b.assign(e, e + sizeof(e));
	CHECK(get16(b, 24) == 0x17);
	CHECK(Bytes(b.begin() + 32, b.begin() + 48) == Bytes(v6, v6 + 16));
	CHECK(get32(b, 48) == 3);
}

TEST_CASE("NETWORK_INTERFACE_INFO entries chain by Next", "[wire][fsctl]")
{
	constexpr size_t e = SMB2_NETIF_INFO_SIZE;
	uint8_t list[3 * e];
	const uint8_t a[4] = {10, 0, 2, 15};
	const uint8_t b6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
				0, 0, 0, 0, 0, 0, 0, 1};

	smb2_netif_encode(list, 2, 0, 1000000000ull, a, 4, 0);
	smb2_netif_encode(list + e, 2, 0, 1000000000ull,
			  b6, 16, 0);
	smb2_netif_encode(list + 2 * e, 3,
			  SMB2_NETIF_CAP_RSS, 1000000000ull, a, 4, 0);
	smb2_netif_chain(list, 3);
	Bytes b(list, list + sizeof(list));
	// Each entry's Next is the offset of the following one from it.
	CHECK(get32(b, 0) == SMB2_NETIF_INFO_SIZE);
	CHECK(get32(b, e) == SMB2_NETIF_INFO_SIZE);
	CHECK(get32(b, 2 * e) == 0);
	CHECK(get32(b, e + 4) == 2);
	CHECK(get16(b, e + 24) == 0x17);
	CHECK(get32(b, 2 * e + 8) == SMB2_NETIF_CAP_RSS);

	// One entry (or none) is left alone.
	smb2_netif_chain(list, 1);
	smb2_netif_chain(list, 0);
	CHECK(get32(Bytes(list, list + sizeof(list)), 0) == SMB2_NETIF_INFO_SIZE);
}
