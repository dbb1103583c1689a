// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/aapl.c: the AAPL context, AfpInfo, AppleDouble, ReadDirAttr,
// Time Machine's band size.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "wire_util.hpp"

extern "C" {
#include "aapl.h"
#include "dir.h"
#include "info.h"
}

using namespace wiretest;

namespace {

void be32(Bytes &b, size_t off, uint32_t v)
{
	if (b.size() < off + 4)
		b.resize(off + 4);
	b[off] = v >> 24;
	b[off + 1] = v >> 16;
	b[off + 2] = v >> 8;
	b[off + 3] = v;
}

void be16(Bytes &b, size_t off, uint16_t v)
{
	if (b.size() < off + 2)
		b.resize(off + 2);
	b[off] = v >> 8;
	b[off + 1] = v;
}

uint32_t rbe32(const uint8_t *p)
{
	return uint32_t(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

Bytes query(uint64_t cmd, uint64_t bitmap, uint64_t caps)
{
	Bytes b;
	put64(b, 0, cmd);
	put64(b, 8, bitmap);
	put64(b, 16, caps);
	return b;
}

Bytes afpinfo(const char *type_creator)
{
	Bytes b(SMB_AFPINFO_SIZE, 0);
	smb_afpinfo_init(b.data(), nullptr);
	memcpy(b.data() + 16, type_creator, 8);
	return b;
}

struct Xattr {
	std::string name;
	std::string value;
};

// A "._" file as macOS writes one: "Mac OS X" filler, a Finder info entry
// carrying an "ATTR" block with @xattrs, then the resource fork.
Bytes osx_dot_und(const char *type_creator, const std::vector<Xattr> &xattrs,
		  const std::string &rfork)
{
	Bytes b;
	be32(b, 0, SMB_AD_MAGIC);
	be32(b, 4, SMB_AD_VERSION2);
	b.resize(26, 0);
	memcpy(&b[8], "Mac OS X        ", 16);
	be16(b, 24, 2);
	const uint32_t fi = 50, hoff = fi + 32 + 2;
	b.resize(hoff + 36, 0);
	memcpy(&b[fi], type_creator, 8);
	// Entries after the header, 4-aligned; then the values.
	uint32_t off = hoff + 36;
	std::vector<uint32_t> ent;
	for (const auto &x : xattrs) {
		off = (off + 3) & ~3u;
		ent.push_back(off);
		off += 11 + uint32_t(x.name.size()) + 1;
	}
	uint32_t start = off;
	b.resize(start, 0);
	for (size_t i = 0; i < xattrs.size(); i++) {
		auto voff = uint32_t(b.size());
		b.insert(b.end(), xattrs[i].value.begin(), xattrs[i].value.end());
		be32(b, ent[i], voff);
		be32(b, ent[i] + 4, uint32_t(xattrs[i].value.size()));
		be16(b, ent[i] + 8, 0);
		b[ent[i] + 10] = uint8_t(xattrs[i].name.size() + 1);
		memcpy(&b[ent[i] + 11], xattrs[i].name.c_str(), xattrs[i].name.size() + 1);
	}
	auto total = uint32_t(b.size());
	be32(b, hoff, 0x41545452);
	be32(b, hoff + 8, total);
	be32(b, hoff + 12, start);
	be32(b, hoff + 16, total - start);
	be16(b, hoff + 34, uint16_t(xattrs.size()));
	// Entries: Finder info up to the fork, the fork at the end.
	be32(b, 26, SMB_ADEID_FINDERI);
	be32(b, 30, fi);
	be32(b, 34, total - fi);
	be32(b, 38, SMB_ADEID_RFORK);
	be32(b, 42, total);
	be32(b, 46, uint32_t(rfork.size()));
	b.insert(b.end(), rfork.begin(), rfork.end());
	return b;
}

} // namespace

TEST_CASE("AAPL: a server query decodes, anything else is INVALID_PARAMETER")
{
	smb2_aapl_req q{};
	Bytes b = query(SMB2_AAPL_SERVER_QUERY, 7, 0xd);
	REQUIRE(smb2_aapl_req_decode(b.data(), uint32_t(b.size()), &q) == STATUS_SUCCESS);
	CHECK(q.bitmap == 7);
	CHECK(q.client_caps == 0xd);
	// Samba reads the command from the low 32 bits.
	b = query(uint64_t(0xdead) << 32 | SMB2_AAPL_SERVER_QUERY, 1, 0);
	CHECK(smb2_aapl_req_decode(b.data(), 24, &q) == STATUS_SUCCESS);
	b = query(SMB2_AAPL_RESOLVE_ID, 1, 0);
	CHECK(smb2_aapl_req_decode(b.data(), 24, &q) == STATUS_INVALID_PARAMETER);
	b = query(SMB2_AAPL_SERVER_QUERY, 1, 0);
	CHECK(smb2_aapl_req_decode(b.data(), 23, &q) == STATUS_INVALID_PARAMETER);
	b.push_back(0);
	CHECK(smb2_aapl_req_decode(b.data(), 25, &q) == STATUS_INVALID_PARAMETER);
	CHECK(smb2_aapl_req_decode(nullptr, 0, &q) == STATUS_INVALID_PARAMETER);
}

TEST_CASE("AAPL: the answer carries what the bitmap asks, the model in UTF-16")
{
	uint8_t buf[SMB2_AAPL_RSP_MAX];
	smb2_aapl_rsp r{};
	r.bitmap = SMB2_AAPL_SERVER_CAPS | SMB2_AAPL_VOLUME_CAPS | SMB2_AAPL_MODEL_INFO;
	r.server_caps = 0xf;
	r.volume_caps = SMB2_AAPL_FULL_SYNC;
	r.model = "MacSamba";
	r.model_len = 8;
	int n = smb2_aapl_rsp_encode(buf, sizeof(buf), &r);
	// smbtorture's expectation: 40 bytes and the model.
	REQUIRE(n == 40 + 16);
	Bytes b(buf, buf + n);
	CHECK(get32(b, 0) == SMB2_AAPL_SERVER_QUERY);
	CHECK(get32(b, 4) == 0);
	CHECK(get64(b, 8) == r.bitmap);
	CHECK(get64(b, 16) == 0xf);
	CHECK(get64(b, 24) == SMB2_AAPL_FULL_SYNC);
	CHECK(get32(b, 32) == 0);
	CHECK(get32(b, 36) == 16);
	CHECK(memcmp(buf + 40, u"MacSamba", 16) == 0);

	r.bitmap = SMB2_AAPL_VOLUME_CAPS;
	n = smb2_aapl_rsp_encode(buf, sizeof(buf), &r);
	REQUIRE(n == 24);
	CHECK(get64(Bytes(buf, buf + n), 16) == SMB2_AAPL_FULL_SYNC);

	std::string long_model(SMB2_AAPL_MODEL_MAX + 1, 'x');
	r.bitmap = SMB2_AAPL_MODEL_INFO;
	r.model = long_model.c_str();
	r.model_len = uint32_t(long_model.size());
	CHECK(smb2_aapl_rsp_encode(buf, sizeof(buf), &r) == -EINVAL);
	r.model = "bad\xff";
	r.model_len = 4;
	CHECK(smb2_aapl_rsp_encode(buf, sizeof(buf), &r) == -EINVAL);
	// The largest model fits the largest answer (4-byte characters).
	std::string wide;
	for (int i = 0; i < SMB2_AAPL_MODEL_MAX / 4; i++)
		wide += "\xf0\x9f\x8d\x8e";
	r.model = wide.c_str();
	r.model_len = uint32_t(wide.size());
	CHECK(smb2_aapl_rsp_encode(buf, sizeof(buf), &r) == 16 + 8 + 64);
}

TEST_CASE("AfpInfo: stream names, fresh values, stored values")
{
	CHECK(smb_afp_stream_kind("AFP_AfpInfo", 11) == SMB_AFP_INFO);
	CHECK(smb_afp_stream_kind("afp_afpinfo:$DATA", 17) == SMB_AFP_INFO);
	CHECK(smb_afp_stream_kind("AFP_Resource", 12) == SMB_AFP_RESOURCE);
	CHECK(smb_afp_stream_kind("AFP_Resource:$data", 18) == SMB_AFP_RESOURCE);
	CHECK(smb_afp_stream_kind("AFP_AfpInfo2", 12) == SMB_AFP_NONE);
	CHECK(smb_afp_stream_kind("AFP_AfpInf", 10) == SMB_AFP_NONE);
	CHECK(smb_afp_stream_kind(":$DATA", 6) == SMB_AFP_NONE);

	Bytes a = afpinfo("SMB,OLE!");
	CHECK(rbe32(a.data()) == 0x41465000);
	CHECK(rbe32(a.data() + 4) == 0x00000100);
	CHECK(rbe32(a.data() + 12) == 0x80000000);
	CHECK(smb_afpinfo_stored_valid(a.data(), 60));
	// Samba's streams_xattr stores a NUL after the data.
	a.push_back(0);
	CHECK(smb_afpinfo_stored_valid(a.data(), 61));
	a[60] = 1;
	CHECK_FALSE(smb_afpinfo_stored_valid(a.data(), 61));
	CHECK_FALSE(smb_afpinfo_stored_valid(a.data(), 59));
	CHECK_FALSE(smb_afpinfo_stored_valid(reinterpret_cast<const uint8_t *>("foo"), 3));
	a[0] = 'B';
	CHECK_FALSE(smb_afpinfo_stored_valid(a.data(), 60));
}

TEST_CASE("AfpInfo: writes follow macOS's rules")
{
	uint8_t out[SMB_AFPINFO_SIZE];
	bool empty = true;
	Bytes a = afpinfo("SMB,OLE!");
	// smbtorture's writing_afpinfo table: offset, size, accepted.
	struct {
		uint64_t off;
		uint32_t len;
		bool ok;
	} const cases[] = {
		{0, 1, false}, {0, 2, false}, {0, 3, true}, {0, 16, true},
		{0, 59, true}, {0, 60, true}, {0, 61, true}, {0, 10064, true},
		{1, 59, false}, {1, 60, true}, {30, 16, false}, {58, 60, true},
		{60, 59, false}, {60, 60, true}, {61, 1024, true},
	};
	Bytes big(10064, 0);
	memcpy(big.data(), a.data(), 60);
	for (const auto &c : cases) {
		CAPTURE(c.off, c.len);
		int r = smb_afpinfo_write(big.data(), c.len, c.off, out, &empty);
		CHECK((r >= 0) == c.ok);
	}
	// Up to 16 bytes: nothing to keep.
	CHECK(smb_afpinfo_write(a.data(), 16, 0, out, &empty) == 0);
	CHECK(smb_afpinfo_write(a.data(), 60, 0, out, &empty) == 1);
	CHECK_FALSE(empty);
	CHECK(memcmp(out, a.data(), 60) == 0);
	// A short write is padded with zeros.
	CHECK(smb_afpinfo_write(a.data(), 20, 0, out, &empty) == 1);
	CHECK(memcmp(out + 16, "SMB,", 4) == 0);
	CHECK(out[20] == 0);
	// All-zero Finder info: the Mac deletes the stream.
	Bytes z = afpinfo("\0\0\0\0\0\0\0\0");
	CHECK(smb_afpinfo_write(z.data(), 60, 0, out, &empty) == 1);
	CHECK(empty);
	// Not "AFP", or a bad version.
	Bytes bad = a;
	bad[0] = 'X';
	CHECK(smb_afpinfo_write(bad.data(), 60, 0, out, &empty) == -EINVAL);
	bad = a;
	bad[5] = 2;
	CHECK(smb_afpinfo_write(bad.data(), 60, 0, out, &empty) == -EINVAL);
}

TEST_CASE("AfpInfo: reads from offset 0 up to offset 60, EOF up to 60")
{
	CHECK(smb_afpinfo_read_len(0, 61) == 60);
	CHECK(smb_afpinfo_read_len(59, 2) == 2);
	CHECK(smb_afpinfo_read_len(60, 1) == 1);
	CHECK(smb_afpinfo_read_len(61, 1) == 0);
	CHECK(smb_afpinfo_read_len(~0ULL, 1) == 0);
	CHECK(smb_afpinfo_eof_ok(0));
	CHECK(smb_afpinfo_eof_ok(60));
	CHECK_FALSE(smb_afpinfo_eof_ok(61));
}

TEST_CASE("AppleDouble: netatalk's metadata blob round-trips")
{
	uint8_t m[SMB_AD_META_SIZE];
	Bytes a = afpinfo("BARRFOOO");
	smb_adouble_meta_init(m, a.data() + 16, 946684800 + 1000);
	smb_adouble ad{};
	REQUIRE(smb_adouble_parse(m, sizeof(m), sizeof(m), false, &ad) == 0);
	CHECK_FALSE(ad.osx);
	CHECK(ad.finder_off == 122);
	CHECK(ad.finder_len == 32);
	CHECK(memcmp(m + ad.finder_off, "BARRFOOO", 8) == 0);
	CHECK(ad.dates_off == 354);
	CHECK(rbe32(m + 354) == 1000);
	CHECK(rbe32(m + 362) == 0x80000000);
	CHECK(ad.rfork_len == 0);
	CHECK(ad.xattr_count == 0);
	// Cut short, or a bad magic.
	CHECK(smb_adouble_parse(m, 100, 100, false, &ad) == -EINVAL);
	m[3] ^= 1;
	CHECK(smb_adouble_parse(m, sizeof(m), sizeof(m), false, &ad) == -EINVAL);
}

TEST_CASE("AppleDouble: a macOS \"._\" file with packed xattrs")
{
	std::vector<Xattr> xs = {{"com.apple.metadata:_kMDItemUserTags", "tags"},
				 {"foo:bar", "baz"}};
	Bytes f = osx_dot_und("TESTSLOW", xs, std::string(286, 'r'));
	smb_adouble ad{};
	REQUIRE(smb_adouble_parse(f.data(), uint32_t(f.size()), f.size(), true, &ad) == 0);
	CHECK(ad.osx);
	CHECK(memcmp(f.data() + ad.finder_off, "TESTSLOW", 8) == 0);
	CHECK(ad.rfork_len == 286);
	CHECK(ad.rfork_off + 286 == f.size());
	REQUIRE(ad.xattr_count == 2);
	uint32_t i = 0, pos = ad.xattr_pos;
	smb_ad_xattr x{};
	for (const auto &want : xs) {
		REQUIRE(smb_adouble_xattr(f.data(), uint32_t(f.size()), &ad, &i, &pos, &x) == 1);
		CHECK(std::string(x.name, x.name_len) == want.name);
		CHECK(std::string(reinterpret_cast<const char *>(f.data()) + x.off, x.len) ==
		      want.value);
	}
	CHECK(smb_adouble_xattr(f.data(), uint32_t(f.size()), &ad, &i, &pos, &x) == 0);

	// Only the header read: the fork lies beyond, within the file.
	uint32_t hdr = ad.rfork_off;
	REQUIRE(smb_adouble_parse(f.data(), hdr, f.size(), true, &ad) == 0);
	CHECK(ad.rfork_len == 286);
	// A fork claimed past the file's end is cut to it.
	REQUIRE(smb_adouble_parse(f.data(), hdr, f.size() - 6, true, &ad) == 0);
	CHECK(ad.rfork_len == 280);

	// Broken blocks: a value past the block, a name past the data.
	Bytes bad = f;
	be32(bad, 50 + 34 + 36 + 4, 100000);
	CHECK(smb_adouble_parse(bad.data(), uint32_t(bad.size()), bad.size(), true, &ad) ==
	      -EINVAL);
	bad = f;
	bad[50 + 34 + 36 + 10] = 255;
	CHECK(smb_adouble_parse(bad.data(), uint32_t(bad.size()), bad.size(), true, &ad) ==
	      -EINVAL);
	bad = f;
	be32(bad, 50 + 34, 0x41545453);
	CHECK(smb_adouble_parse(bad.data(), uint32_t(bad.size()), bad.size(), true, &ad) ==
	      -EINVAL);
	// Without asking for xattrs the block is not looked at.
	CHECK(smb_adouble_parse(bad.data(), uint32_t(bad.size()), bad.size(), false, &ad) == 0);
	// An entry that ends past what was read (not the fork).
	bad = f;
	be32(bad, 34, 100000);
	CHECK(smb_adouble_parse(bad.data(), uint32_t(bad.size()), bad.size(), true, &ad) ==
	      -EINVAL);
}

TEST_CASE("AppleDouble: packed xattr names as stream names")
{
	char out[64];
	auto name = [&](const std::string &in, uint32_t cap = sizeof(out)) {
		int n = smb_adouble_stream_name(in.data(), uint32_t(in.size()), out, cap);
		return n < 0 ? std::string("<error>") : std::string(out, size_t(n));
	};
	CHECK(name("com.apple.metadata:_kMDItemUserTags") ==
	      "com.apple.metadata\xef\x80\xa2_kMDItemUserTags");
	CHECK(name("foo:bar") == "foo\xef\x80\xa2" "bar");
	// Every character NTFS refuses, Samba's map: U+F020 to U+F027.
	CHECK(name("\"*:<>?\\|") ==
	      "\xef\x80\xa0\xef\x80\xa1\xef\x80\xa2\xef\x80\xa3"
	      "\xef\x80\xa4\xef\x80\xa5\xef\x80\xa6\xef\x80\xa7");
	CHECK(name(std::string("a\x01z")) == "a\xef\x80\x81z");
	CHECK(name(std::string("\x1f")) == "\xef\x80\x9f");
	// UTF-8 passes as it is.
	CHECK(name("caf\xc3\xa9") == "caf\xc3\xa9");
	// No name, NUL, '/', or too long for the room given.
	CHECK(name("") == "<error>");
	CHECK(name(std::string("a\0b", 3)) == "<error>");
	CHECK(name("a/b") == "<error>");
	CHECK(name("abcd", 3) == "<error>");
	CHECK(name("ab:", 4) == "<error>");
	CHECK(name("ab:", 5) == "ab\xef\x80\xa2");
}

TEST_CASE("AppleDouble: Samba's \"._\" header without xattrs")
{
	uint8_t h[SMB_AD_DOT_UND_SIZE];
	smb_adouble_dot_und_init(h, nullptr, 3);
	Bytes f(h, h + sizeof(h));
	f.insert(f.end(), {'f', 'o', 'o'});
	smb_adouble ad{};
	REQUIRE(smb_adouble_parse(f.data(), uint32_t(f.size()), f.size(), true, &ad) == 0);
	CHECK(ad.rfork_off == 82);
	CHECK(ad.rfork_len == 3);
	CHECK(ad.finder_off == 50);
	CHECK_FALSE(ad.osx);
}

TEST_CASE("The placeholder resource fork is recognised")
{
	Bytes r(SMB_BLANK_RFORK_SIZE, 0);
	const uint8_t head[] = {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x1e};
	memcpy(r.data(), head, sizeof(head));
	memcpy(r.data() + 16, "This resource fork intentionally left blank   ", 46);
	const uint8_t tail[] = {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x1e,
				0, 0, 0, 0, 0, 0, 0, 0, 0, 0x1c, 0, 0x1e, 0xff, 0xff};
	memcpy(r.data() + 256, tail, sizeof(tail));
	CHECK(smb_rfork_is_blank(r.data(), uint32_t(r.size())));
	r[100] = 1;
	CHECK_FALSE(smb_rfork_is_blank(r.data(), uint32_t(r.size())));
	r[100] = 0;
	CHECK_FALSE(smb_rfork_is_blank(r.data(), 285));
}

TEST_CASE("ReadDirAttr: compressed Finder info")
{
	uint8_t out[16];
	Bytes a = afpinfo("SMB,OLE!");
	a[16 + 8] = 0x12;	// Finder flags
	a[16 + 9] = 0x34;
	a[16 + 24] = 0x56;	// extended flags
	a[16 + 25] = 0x78;
	smb_aapl_finder_compress(out, a.data(), true, 946684800 + 7);
	CHECK(memcmp(out, "SMB,OLE!", 8) == 0);
	CHECK(out[8] == 0x12);
	CHECK(out[9] == 0x34);
	CHECK(out[10] == 0x56);
	CHECK(out[11] == 0x78);
	CHECK(rbe32(out + 12) == 7);
	// Directories have no type and creator.
	smb_aapl_finder_compress(out, a.data(), false, 946684800);
	CHECK(memcmp(out, "\0\0\0\0\0\0\0\0", 8) == 0);
	// No AfpInfo: the date says "never".
	smb_aapl_finder_compress(out, nullptr, true, 0);
	CHECK(rbe32(out + 12) == 0x80000000);
	CHECK(out[0] == 0);
}

TEST_CASE("Time Machine: the band size of an Info.plist")
{
	u64 n = 0;
	std::string p = "<dict>\n        <key>band-size</key>\n        <integer>8192</integer>\n</dict>\n";
	REQUIRE(smb_tm_band_size(p.c_str(), uint32_t(p.size()), &n) == 0);
	CHECK(n == 8192);
	p = "<key>band-size</key>\r\n\t<integer>8388608</integer>\r\n";
	REQUIRE(smb_tm_band_size(p.c_str(), uint32_t(p.size()), &n) == 0);
	CHECK(n == 8388608);
	for (const char *bad : {"<key>band-size</key>", "<key>band-size</key>\n<integer></integer>",
				"<key>band-size</key>\n<integer>12x</integer>",
				"<key>band-size</key>\n<string>1</string>",
				"<key>band-size</key>\n<integer>99999999999999999999999</integer>",
				"<key>size</key>\n<integer>1</integer>", ""}) {
		CAPTURE(bad);
		CHECK(smb_tm_band_size(bad, uint32_t(strlen(bad)), &n) == -EINVAL);
	}
}

TEST_CASE("ReadDirAttr: the Mac fields of a FILE_ID_BOTH_DIRECTORY_INFORMATION entry")
{
	smb_aapl_dirent a{};
	a.max_access = 0x1f01ff;
	a.rfork_size = 3;
	memcpy(a.finder, "SMB,OLE!", 8);
	a.mode = 0100644;
	smb_dirent e{};
	e.name = "test_aapl";
	e.name_len = 9;
	e.ea_size = 77;
	e.aapl = &a;
	uint8_t buf[256] = {};
	smb_out o{buf, sizeof(buf)};
	int n = smb_dirent_encode(FILE_ID_BOTH_DIRECTORY_INFORMATION, &e, &o, 0);
	REQUIRE(n == 104 + 18);
	Bytes b(buf, buf + n);
	CHECK(get32(b, 64) == 0x1f01ff);	// EaSize: max access
	CHECK(b[68] == 24);			// ShortNameLength
	CHECK(b[69] == 0);
	CHECK(get64(b, 70) == 3);		// resource fork size
	CHECK(memcmp(buf + 78, "SMB,OLE!", 8) == 0);
	CHECK(get16(b, 94) == 0644 + 0100000 % 65536);	// Reserved2: mode
	// Without them: EaSize and no short name.
	e.aapl = nullptr;
	memset(buf, 0, sizeof(buf));
	smb_dirent_encode(FILE_ID_BOTH_DIRECTORY_INFORMATION, &e, &o, 0);
	CHECK(buf[64] == 77);
	CHECK(buf[68] == 0);
}
