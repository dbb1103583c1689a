// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/dir.c and unicode.c: QUERY_DIRECTORY requests, directory
// entries, search patterns, 8.3 names, UTF-8/UTF-16 and case folding.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "wire_util.hpp"

extern "C" {
#include "dir.h"
#include "fscc.h"
#include "info.h"
#include "unicode.h"
#include "utf16.h"
}

using namespace wiretest;

namespace {

Bytes qdir(const std::u16string &pattern, uint8_t cls, uint8_t flags,
	   uint32_t out_len)
{
	Bytes b = header(SMB2_QUERY_DIRECTORY);
	Bytes n = utf16(pattern);
	Bytes body(32, 0);
	put16(body, 0, SMB2_QDIR_REQ_SIZE);
	body[SMB2_QDIR_REQ_INFO_CLASS] = cls;
	body[SMB2_QDIR_REQ_FLAGS] = flags;
	put32(body, SMB2_QDIR_REQ_FILE_INDEX, 7);
	put64(body, SMB2_QDIR_REQ_FILE_ID, 1);
	put64(body, SMB2_QDIR_REQ_FILE_ID + 8, 2);
	put16(body, SMB2_QDIR_REQ_NAME_OFFSET, n.empty() ? 0 : 96);
	put16(body, SMB2_QDIR_REQ_NAME_LENGTH, n.size());
	put32(body, SMB2_QDIR_REQ_OUTPUT_LENGTH, out_len);
	append(b, body);
	append(b, n.empty() ? Bytes(1, 0) : n);
	return b;
}

bool match(const std::u16string &pattern, const std::string &name)
{
	static struct smb_pattern p;
	Bytes b = utf16(pattern);

	REQUIRE(smb_pattern_compile(b.data(), b.size(), &p) == STATUS_SUCCESS);
	return smb_pattern_match(&p, name.data(), name.size());
}

uint32_t compile(const Bytes &b)
{
	static struct smb_pattern p;

	return smb_pattern_compile(b.data(), b.size(), &p);
}

std::string short_name(const std::string &name)
{
	uint8_t out[24];
	uint32_t n = smb_short_name(name.data(), name.size(), out);
	std::string s;

	REQUIRE(n % 2 == 0);
	REQUIRE(n <= 24);
	for (uint32_t i = 0; i < n; i += 2) {
		REQUIRE(out[i + 1] == 0);
		s.push_back(static_cast<char>(out[i]));
	}
	return s;
}

} // namespace

TEST_CASE("QUERY_DIRECTORY request", "[wire][dir]")
{
	struct smb2_query_dir_req r;
	Bytes b = qdir(u"*.txt", FILE_ID_BOTH_DIRECTORY_INFORMATION,
		       SMB2_RESTART_SCANS | SMB2_RETURN_SINGLE_ENTRY, 65536);

	REQUIRE(smb2_query_dir_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.info_class == FILE_ID_BOTH_DIRECTORY_INFORMATION);
	CHECK(r.flags == (SMB2_RESTART_SCANS | SMB2_RETURN_SINGLE_ENTRY));
	CHECK(r.file_index == 7);
	CHECK(get_unaligned_le64(r.file_id) == 1);
	CHECK(get_unaligned_le64(r.file_id + 8) == 2);
	CHECK(r.name_len == 10);
	CHECK(r.name == b.data() + 96);
	CHECK(r.out_len == 65536);

	SECTION("an empty pattern")
	{
		Bytes e = qdir(u"", FILE_NAMES_INFORMATION, 0, 100);
		REQUIRE(smb2_query_dir_req_decode(e.data(), e.size(), &r) == 0);
		CHECK(r.name == nullptr);
		CHECK(r.name_len == 0);
	}
	SECTION("every truncation is refused")
	{
		for (size_t n = 0; n < b.size(); n++)
			CHECK(smb2_query_dir_req_decode(b.data(), n, &r) ==
			      STATUS_INVALID_PARAMETER);
	}
	SECTION("a pattern outside the PDU or in the fixed part")
	{
		Bytes t = b;
		put16(t, 64 + SMB2_QDIR_REQ_NAME_LENGTH, 12);
		CHECK(smb2_query_dir_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
		t = b;
		put16(t, 64 + SMB2_QDIR_REQ_NAME_OFFSET, 90);
		CHECK(smb2_query_dir_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
		t = b;
		put16(t, 64 + SMB2_QDIR_REQ_NAME_OFFSET, 0xffff);
		CHECK(smb2_query_dir_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("a wrong StructureSize")
	{
		Bytes t = b;
		put16(t, 64, 32);
		CHECK(smb2_query_dir_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
}

TEST_CASE("search patterns: '*' and '?'", "[wire][dir]")
{
	CHECK(match(u"*", "anything.at.all"));
	CHECK(match(u"*", "."));
	CHECK(match(u"*.txt", "a.txt"));
	CHECK(match(u"*.txt", "A.TXT"));
	CHECK(match(u"*.txt", "x.y.txt"));
	CHECK_FALSE(match(u"*.txt", "a.txt2"));
	CHECK_FALSE(match(u"*.txt", "atxt"));
	CHECK(match(u"a?c", "abc"));
	CHECK(match(u"a?c", "a.c"));
	CHECK_FALSE(match(u"a?c", "ac"));
	CHECK_FALSE(match(u"a?c", "abbc"));
	CHECK(match(u"a*b*c", "axxbyyc"));
	CHECK(match(u"a*b*c", "abc"));
	CHECK_FALSE(match(u"a*b*c", "axxbyy"));
	CHECK(match(u"file.txt", "FILE.TXT"));
	CHECK_FALSE(match(u"file.txt", "file.txt.bak"));
	CHECK(match(u"t0?" u"?-*", "t013-13.txt"));
	CHECK(match(u"**?", "a"));
	CHECK_FALSE(match(u"**?", ""));
	// An empty pattern is "*".
	Bytes none;
	static struct smb_pattern p;
	REQUIRE(smb_pattern_compile(none.data(), 0, &p) == STATUS_SUCCESS);
	CHECK(p.any);
	CHECK(smb_pattern_match(&p, "x", 1));
}

TEST_CASE("search patterns: DOS wildcards (MS-FSA 2.1.4.4)", "[wire][dir]")
{
	// '<' (DOS_STAR): anything but the final dot.
	CHECK(match(u"<.txt", "a.txt"));
	CHECK(match(u"<.txt", "a.b.txt"));
	CHECK_FALSE(match(u"<.txt", "a.txt.bak"));
	CHECK(match(u"<", "noext"));
	CHECK_FALSE(match(u"<", "has.ext"));
	CHECK(match(u"<.<", "has.ext"));
	// '>' (DOS_QM): one character, or nothing before a dot or the end.
	CHECK(match(u"a>>", "a"));
	CHECK(match(u"a>>", "ab"));
	CHECK(match(u"a>>", "abc"));
	CHECK_FALSE(match(u"a>>", "abcd"));
	CHECK(match(u"a>>.txt", "a.txt"));
	CHECK(match(u"a>>.txt", "abc.txt"));
	CHECK_FALSE(match(u"a>>.txt", "abcd.txt"));
	CHECK_FALSE(match(u">", "."));
	// '"' (DOS_DOT): a dot, or nothing at the end.
	CHECK(match(u"foo\"", "foo"));
	CHECK(match(u"foo\"", "foo."));
	CHECK_FALSE(match(u"foo\"", "foox"));
	CHECK(match(u"<\"", "noext"));
	CHECK(match(u">>>>>>>>\">>>", "readme.md"));
	CHECK_FALSE(match(u">>>>>>>>\">>>", "toolongname.md"));
}

TEST_CASE("search patterns compare without case", "[wire][dir]")
{
	CHECK(match(u"\u00c4BC*", "\u00e4bcdef"));
	CHECK(match(u"\u0416*", "\u0436\u0443\u043a"));
	CHECK(match(u"\u03a3\u039f\u03a6\u0399\u0391", "\u03c3\u03bf\u03c6\u03b9\u03b1"));
	CHECK(match(u"?", "\u20ac"));
	CHECK(match(u"??", "\U0001F600x"));
	CHECK_FALSE(match(u"?", "\U0001F600x"));
	// Bytes that are not UTF-8 match only wildcards.
	CHECK(match(u"a?b", std::string("a\xff" "b")));
	CHECK_FALSE(match(u"a\u00ffb", std::string("a\xff" "b")));
}

TEST_CASE("search patterns that are refused", "[wire][dir]")
{
	CHECK(compile(Bytes{'a'}) == STATUS_INVALID_PARAMETER);
	CHECK(compile(utf16(u"a\\b")) == STATUS_OBJECT_NAME_INVALID);
	CHECK(compile(utf16(u"a/b")) == STATUS_OBJECT_NAME_INVALID);
	CHECK(compile(Bytes{'a', 0, 0, 0}) == STATUS_OBJECT_NAME_INVALID);
	CHECK(compile(Bytes{0x00, 0xd8}) == STATUS_OBJECT_NAME_INVALID);
	CHECK(compile(Bytes{0x00, 0xdc, 'a', 0}) == STATUS_OBJECT_NAME_INVALID);
	CHECK(compile(Bytes{0x00, 0xd8, 'a', 0}) == STATUS_OBJECT_NAME_INVALID);
	CHECK(compile(utf16(std::u16string(SMB_PATTERN_MAX, u'a'))) ==
	      STATUS_SUCCESS);
	CHECK(compile(utf16(std::u16string(SMB_PATTERN_MAX + 1, u'a'))) ==
	      STATUS_OBJECT_NAME_INVALID);
}

TEST_CASE("a long pattern of stars matches in linear time", "[wire][dir]")
{
	std::u16string pat;
	std::string name(250, 'a');

	for (int i = 0; i < 250; i++)
		pat += u"*a";
	pat += u"b";
	CHECK_FALSE(match(pat, name));
	name.back() = 'b';
	CHECK_FALSE(match(pat, name));
	name = std::string(250, 'a') + "b";
	CHECK(match(pat, name));
}

TEST_CASE("8.3 names", "[wire][dir]")
{
	CHECK(short_name("bufsize.txt") == "BUFSIZE.TXT");
	CHECK(short_name("README") == "README");
	CHECK(short_name("a") == "A");
	CHECK(short_name(".").empty());
	CHECK(short_name("..").empty());

	std::string s = short_name("torture_search.txt");
	REQUIRE(s.size() == 12);
	CHECK(s.substr(0, 5) == "TORT~");
	CHECK(s.substr(8) == ".TXT");
	for (char c : s.substr(5, 3))
		CHECK(((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')));
	// The same name gives the same short name, in any case; another
	// name another one.
	CHECK(short_name("TORTURE_SEARCH.TXT") == s);
	CHECK(short_name("torture_search2.txt") != s);

	s = short_name("testsmb2_dir");
	CHECK(s.size() == 8);
	CHECK(s.substr(0, 5) == "TEST~");
	s = short_name(".profile");
	CHECK(s.substr(0, 5) == "PROF~");
	CHECK(s.size() == 8);
	s = short_name("a.b.c");
	CHECK(s.substr(0, 3) == "AB~");
	CHECK(s.substr(6) == ".C");
	s = short_name("my file.jpeg");
	CHECK(s.substr(0, 5) == "MYFI~");
	CHECK(s.substr(8) == ".JPE");
	s = short_name("\u00e4\u00f6\u00fc");
	CHECK(s.substr(0, 1) == "~");
}

TEST_CASE("directory entries of every class", "[wire][dir]")
{
	const uint8_t classes[] = {
		FILE_DIRECTORY_INFORMATION, FILE_FULL_DIRECTORY_INFORMATION,
		FILE_BOTH_DIRECTORY_INFORMATION, FILE_NAMES_INFORMATION,
		FILE_ID_BOTH_DIRECTORY_INFORMATION, FILE_ID_FULL_DIRECTORY_INFORMATION,
		FILE_ID_EXTD_DIRECTORY_INFORMATION,
		FILE_ID_64_EXTD_DIRECTORY_INFORMATION,
		FILE_ID_64_EXTD_BOTH_DIRECTORY_INFORMATION,
		FILE_ID_ALL_EXTD_DIRECTORY_INFORMATION,
		FILE_ID_ALL_EXTD_BOTH_DIRECTORY_INFORMATION,
	};
	const uint32_t fixed[] = { 64, 68, 94, 12, 104, 80, 88, 80, 106, 96,
				   122 };
	uint8_t sn[24];
	struct smb_dirent e = {};
	e.name = "na\u00efve.txt";
	e.name_len = strlen(e.name);
	e.file_index = 42;
	e.creation_time = 1;
	e.access_time = 2;
	e.write_time = 3;
	e.change_time = 4;
	e.eof = 5;
	e.allocation = 4096;
	e.attributes = FILE_ATTRIBUTE_ARCHIVE;
	e.ea_size = 24;
	e.file_id = 0x1122334455667788ull;
	e.short_len = smb_short_name(e.name, e.name_len, sn);
	e.short_name = sn;
	Bytes want_name = utf16(u"na\u00efve.txt");

	for (size_t i = 0; i < sizeof(classes); i++) {
		uint8_t c = classes[i];
		INFO("class " << int(c));
		REQUIRE(smb_dirent_fixed(c) == fixed[i]);
		Bytes out(512, 0xee);
		struct smb_out o = { out.data(), 512 };
		int n = smb_dirent_encode(c, &e, &o, 8);
		REQUIRE(n == int(fixed[i] + want_name.size()));
		CHECK(get32(out, 8) == 0);
		CHECK(get32(out, 12) == 42);
		CHECK(Bytes(out.begin() + 8 + fixed[i],
			    out.begin() + 8 + n) == want_name);
		CHECK(out[8 + n] == 0xee);	// nothing written past it
		if (c == FILE_NAMES_INFORMATION) {
			CHECK(get32(out, 8 + 8) == want_name.size());
			continue;
		}
		CHECK(get32(out, 8 + 60) == want_name.size());
		CHECK(get32(out, 8 + 8) == 1);
		CHECK(get32(out, 8 + 16) == 2);
		CHECK(get32(out, 8 + 24) == 3);
		CHECK(get32(out, 8 + 32) == 4);
		CHECK(get32(out, 8 + 40) == 5);
		CHECK(get32(out, 8 + 48) == 4096);
		CHECK(get32(out, 8 + 56) == FILE_ATTRIBUTE_ARCHIVE);
		if (c != FILE_DIRECTORY_INFORMATION)
			CHECK(get32(out, 8 + 64) == 24);
	}
}

TEST_CASE("directory entry fields at their offsets", "[wire][dir]")
{
	uint8_t sn[24];
	struct smb_dirent e = {};
	e.name = "x";
	e.name_len = 1;
	e.attributes = FILE_ATTRIBUTE_REPARSE_POINT;
	e.ea_size = 8;
	e.reparse_tag = 0xa000000c;
	e.file_id = 77;
	e.short_len = smb_short_name("longer_name.text", 16, sn);
	e.short_name = sn;
	Bytes out(256, 0);
	struct smb_out o = { out.data(), 256 };

	SECTION("FILE_ID_BOTH_DIRECTORY_INFORMATION")
	{
		REQUIRE(smb_dirent_encode(FILE_ID_BOTH_DIRECTORY_INFORMATION, &e,
					  &o, 0) == 106);
		CHECK(get32(out, 56) == FILE_ATTRIBUTE_REPARSE_POINT);
		CHECK(get32(out, 64) == 0xa000000c);	// the tag, not EaSize
		CHECK(out[68] == e.short_len);
		CHECK(Bytes(out.begin() + 70, out.begin() + 70 + e.short_len) ==
		      Bytes(sn, sn + e.short_len));
		CHECK(get32(out, 96) == 77);
	}
	SECTION("FILE_ID_EXTD_DIRECTORY_INFORMATION")
	{
		REQUIRE(smb_dirent_encode(FILE_ID_EXTD_DIRECTORY_INFORMATION, &e,
					  &o, 0) == 90);
		CHECK(get32(out, 64) == 8);		// EaSize
		CHECK(get32(out, 68) == 0xa000000c);	// ReparsePointTag
		CHECK(get32(out, 72) == 77);		// FileId, 128 bits
		CHECK(get32(out, 80) == 0);
	}
	SECTION("FILE_ID_ALL_EXTD_BOTH_DIRECTORY_INFORMATION")
	{
		REQUIRE(smb_dirent_encode(FILE_ID_ALL_EXTD_BOTH_DIRECTORY_INFORMATION,
					  &e, &o, 0) == 124);
		CHECK(get32(out, 72) == 77);
		CHECK(get32(out, 80) == 77);
		CHECK(out[96] == e.short_len);
	}
	SECTION("an unknown class")
	{
		CHECK(smb_dirent_fixed(FILE_BASIC_INFORMATION) == 0);
		CHECK(smb_dirent_encode(FILE_BASIC_INFORMATION, &e, &o, 0) ==
		      -EINVAL);
	}
	SECTION("a name that is not UTF-8")
	{
		e.name = "a\xc0\x80";
		e.name_len = 3;
		CHECK(smb_dirent_encode(FILE_NAMES_INFORMATION, &e, &o, 0) ==
		      -EINVAL);
	}
}

TEST_CASE("directory entries are measured past the buffer", "[wire][dir]")
{
	struct smb_dirent e = {};
	e.name = "abcdef";
	e.name_len = 6;
	e.attributes = FILE_ATTRIBUTE_NORMAL;

	for (uint32_t cap = 0; cap < 90; cap++) {
		Bytes out(cap + 8, 0x55);
		struct smb_out o = { out.data(), cap };
		CHECK(smb_dirent_encode(FILE_ID_FULL_DIRECTORY_INFORMATION, &e, &o,
					0) == 92);
		for (uint32_t i = cap; i < cap + 8; i++)
			REQUIRE(out[i] == 0x55);
	}
	Bytes out(200, 0);
	struct smb_out o = { out.data(), 200 };
	smb_dirent_link(&o, 16, 96);
	CHECK(get32(out, 16) == 96);
	smb_dirent_set_name_len(FILE_ID_FULL_DIRECTORY_INFORMATION, &o, 8, 7);
	CHECK(get32(out, 8 + 60) == 6);
	smb_dirent_set_name_len(FILE_NAMES_INFORMATION, &o, 0, 10);
	CHECK(get32(out, 8) == 10);
}

TEST_CASE("UTF-8 decoding, and UTF-16 encoding of partial names",
	  "[wire][unicode]")
{
	uint32_t pos = 0;
	const std::string s = "a\u00e9\u20ac\U0001F600";

	CHECK(smb_utf8_next(s.data(), s.size(), &pos) == 'a');
	CHECK(smb_utf8_next(s.data(), s.size(), &pos) == 0xe9);
	CHECK(smb_utf8_next(s.data(), s.size(), &pos) == 0x20ac);
	CHECK(smb_utf8_next(s.data(), s.size(), &pos) == 0x1f600);
	CHECK(pos == s.size());

	const char *bad[] = { "\xc0\x80", "\xe0\x80\x80", "\xed\xa0\x80",
			      "\xf4\x90\x80\x80", "\x80", "\xe2\x82",
			      "\xf8\x88\x80\x80\x80" };
	for (const char *b : bad) {
		pos = 0;
		CHECK(smb_utf8_next(b, strlen(b), &pos) == SMB_UCS_BAD);
		CHECK(pos == 1);
	}

	uint8_t out[16];
	CHECK(smb_utf8_to_utf16le(s.data(), s.size(), out, sizeof(out),
				  SMB_UTF16_PARTIAL) == 10);
	CHECK(Bytes(out, out + 10) == utf16(u"a\u00e9\u20ac\U0001F600"));
	// A short buffer gets whole code units only; the size is the whole.
	memset(out, 0xaa, sizeof(out));
	CHECK(smb_utf8_to_utf16le(s.data(), s.size(), out, 7,
				  SMB_UTF16_PARTIAL) == 10);
	CHECK(out[6] == 0xaa);
	// Nothing after a code unit that did not fit, even if a later fits.
	memset(out, 0xaa, sizeof(out));
	CHECK(smb_utf8_to_utf16le("a\U0001F600b", 6, out, 5,
				  SMB_UTF16_PARTIAL) == 8);
	CHECK(out[2] == 0xaa);
	CHECK(smb_utf8_to_utf16le("a\U0001F600b", 6, out, 5, 0) ==
	      -ENAMETOOLONG);
	CHECK(smb_utf8_to_utf16le("\xff", 1, out, 16, SMB_UTF16_PARTIAL) ==
	      -EINVAL);
}

TEST_CASE("case folding", "[wire][unicode]")
{
	CHECK(smb_upcase('a') == 'A');
	CHECK(smb_upcase('Z') == 'Z');
	CHECK(smb_upcase(0xe9) == 0xc9);
	CHECK(smb_upcase(0xf7) == 0xf7);
	CHECK(smb_upcase(0xff) == 0x178);
	CHECK(smb_upcase(0x101) == 0x100);
	CHECK(smb_upcase(0x100) == 0x100);
	CHECK(smb_upcase(0x13a) == 0x139);
	CHECK(smb_upcase(0x3c2) == 0x3a3);
	CHECK(smb_upcase(0x3ac) == 0x386);
	CHECK(smb_upcase(0x3cd) == 0x38e);
	CHECK(smb_upcase(0x451) == 0x401);
	CHECK(smb_upcase(0x4c2) == 0x4c1);
	CHECK(smb_upcase(0x4cf) == 0x4c0);
	CHECK(smb_upcase(0x561) == 0x531);
	CHECK(smb_upcase(0x1e01) == 0x1e00);
	CHECK(smb_upcase(0xff41) == 0xff21);
	CHECK(smb_upcase(0x4e00) == 0x4e00);
	CHECK(smb_utf8_ieq("Stra\u00dfe", 7, "STRA\u00dfE", 7));
	CHECK(smb_utf8_ieq("\u00e9t\u00e9", 5, "\u00c9T\u00c9", 5));
	CHECK_FALSE(smb_utf8_ieq("abc", 3, "abcd", 4));
	CHECK_FALSE(smb_utf8_ieq("a\xff", 2, "a\xfe", 2));
	CHECK(smb_utf8_ieq("a\xff", 2, "A\xff", 2));
}
