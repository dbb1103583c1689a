// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/name.c: client names to share-relative paths; veto files.
#include <catch2/catch.hpp>

#include <string>

#include "wire_util.hpp"

extern "C" {
#include "name.h"
}

using namespace wiretest;

namespace {

struct Result {
	uint32_t status;
	std::string path;
	std::string stream;	// "-" when none
};

Result conv(const std::u16string &name, uint32_t cap = 4096)
{
	Bytes n = utf16(name);
	std::string out(cap, '\xaa');
	const char *stream = nullptr;
	Result r;

	r.status = smb_name_to_path(n.data(), n.size(), out.data(), cap,
				    &stream);
	if (!r.status)
		r.path = out.substr(0, out.find('\0'));
	r.stream = stream ? stream : "-";
	return r;
}

} // namespace

TEST_CASE("names become paths below the root", "[wire][name]")
{
	CHECK(conv(u"").path.empty());
	CHECK(conv(u"a").path == "a");
	CHECK(conv(u"dir\\sub\\file.txt").path == "dir/sub/file.txt");
	CHECK(conv(u"dir\\").path == "dir");	// one trailing backslash
	CHECK(conv(u"a b.").path == "a b.");	// trailing dots and spaces kept
	CHECK(conv(u"..a").path == "..a");
	CHECK(conv(u"a..").path == "a..");
	CHECK(conv(u"\u00e9t\u00e9").path == "\xc3\xa9t\xc3\xa9");
	CHECK(conv(u"\U0001F600").path == "\xf0\x9f\x98\x80");
	CHECK(conv(u"CON").path == "CON");	// a plain name over SMB
}

TEST_CASE("names that could escape or are not names are refused",
	  "[wire][name]")
{
	struct {
		std::u16string name;
		uint32_t status;
	} const bad[] = {
		{ u"\\", STATUS_INVALID_PARAMETER },
		{ u"\\etc\\passwd", STATUS_INVALID_PARAMETER },
		{ u"..", STATUS_OBJECT_PATH_SYNTAX_BAD },
		{ u"..\\x", STATUS_OBJECT_PATH_SYNTAX_BAD },
		{ u"a\\..\\..\\x", STATUS_OBJECT_PATH_SYNTAX_BAD },
		{ u"a\\..", STATUS_OBJECT_PATH_SYNTAX_BAD },
		{ u".", STATUS_OBJECT_NAME_INVALID },
		{ u"a\\.\\b", STATUS_OBJECT_NAME_INVALID },
		{ u"/", STATUS_INVALID_PARAMETER },
		{ u"/etc/passwd", STATUS_INVALID_PARAMETER },
		{ u"../x", STATUS_OBJECT_PATH_SYNTAX_BAD },
		{ u"a/../../x", STATUS_OBJECT_PATH_SYNTAX_BAD },
		{ u"a\\../x", STATUS_OBJECT_PATH_SYNTAX_BAD },
		{ u"a/..", STATUS_OBJECT_PATH_SYNTAX_BAD },
		{ u"../", STATUS_OBJECT_PATH_SYNTAX_BAD },
		{ u"a/./b", STATUS_OBJECT_NAME_INVALID },
		{ u"a//b", STATUS_OBJECT_NAME_INVALID },
		{ u"a/\\b", STATUS_OBJECT_NAME_INVALID },
		{ u"a//", STATUS_OBJECT_NAME_INVALID },
		{ u"d:s/x", STATUS_OBJECT_NAME_INVALID },
		{ u"f:a/b:$DATA", STATUS_OBJECT_NAME_INVALID },
		{ u"a\\\\b", STATUS_OBJECT_NAME_INVALID },
		{ u"a\\\\", STATUS_OBJECT_NAME_INVALID },
		{ u"*", STATUS_OBJECT_NAME_INVALID },
		{ u"a?", STATUS_OBJECT_NAME_INVALID },
		{ u"<x>", STATUS_OBJECT_NAME_INVALID },
		{ u"a\"b", STATUS_OBJECT_NAME_INVALID },
		{ u"a|b", STATUS_OBJECT_NAME_INVALID },
		{ u"a\x01", STATUS_OBJECT_NAME_INVALID },
		{ u"tab\there", STATUS_OBJECT_NAME_INVALID },
		{ std::u16string(1, u'\xd800'), STATUS_OBJECT_NAME_INVALID },
		{ std::u16string(1, u'\xdc00') + u"x", STATUS_OBJECT_NAME_INVALID },
		{ u"x" + std::u16string(1, u'\xd83d'), STATUS_OBJECT_NAME_INVALID },
		{ std::u16string(u"a\0b", 3), STATUS_OBJECT_NAME_INVALID },
		{ std::u16string(256, u'n'), STATUS_OBJECT_NAME_INVALID },
		{ u"d:s\\x", STATUS_OBJECT_NAME_INVALID },
		{ u"f:", STATUS_OBJECT_NAME_INVALID },
		{ u"f:s:$INDEX_ALLOCATION", STATUS_OBJECT_NAME_INVALID },
		{ u"f:s:$DATA:x", STATUS_OBJECT_NAME_INVALID },
	};
	for (const auto &b : bad) {
		Result r = conv(b.name);
		INFO("name #" << (&b - bad) << " got " << std::hex << r.status);
		CHECK(r.status == b.status);
	}
	// 255 bytes is the longest component.
	CHECK(conv(std::u16string(255, u'n')).status == STATUS_SUCCESS);
	CHECK(conv(std::u16string(128, u'\u00e9')).status ==
	      STATUS_OBJECT_NAME_INVALID);
	// A name that does not fit the buffer.
	CHECK(conv(u"abcdef", 4).status == STATUS_OBJECT_NAME_INVALID);
}

TEST_CASE("'/' separates components as '\\' does", "[wire][name]")
{
	// As Samba and ksmbd take it: smbtorture's smb2.timestamps opens
	// "smb2-timestamps/testfile.dat".
	CHECK(conv(u"a/b").path == "a/b");
	CHECK(conv(u"dir/sub\\file.txt").path == "dir/sub/file.txt");
	CHECK(conv(u"dir/").path == "dir");
	CHECK(conv(u"\u00e9/\U0001F600").path == "\xc3\xa9/\xf0\x9f\x98\x80");
	Result r = conv(u"dir/file:s1:$DATA");
	CHECK(r.status == STATUS_SUCCESS);
	CHECK(r.path == "dir/file");
	CHECK(r.stream == "s1");

	// Any name answers with '/' exactly what it answers with '\\' in
	// the same places (before a stream part).
	const std::u16string names[] = {
		u"a\\b", u"\\x", u"..\\x", u"a\\..\\..\\x", u"a\\.\\b",
		u"a\\\\b", u"a\\", u"a\\b:s", u"a\\*", u"x\\..",
		u"d\\e\\f\\g::$DATA", u"\\", u"..\\",
	};
	for (const auto &n : names) {
		std::u16string slash = n;
		for (auto &c : slash)
			if (c == u'\\')
				c = u'/';
		Result a = conv(n), b = conv(slash);
		INFO("name #" << (&n - names));
		CHECK(a.status == b.status);
		CHECK(a.path == b.path);
		CHECK(a.stream == b.stream);
	}
}

TEST_CASE("stream syntax", "[wire][name]")
{
	Result r = conv(u"file::$DATA");
	CHECK(r.status == STATUS_SUCCESS);
	CHECK(r.path == "file");
	CHECK(r.stream.empty());
	r = conv(u"file::$data");
	CHECK(r.path == "file");
	CHECK(r.stream.empty());
	r = conv(u"dir\\file:s1");
	CHECK(r.path == "dir/file");
	CHECK(r.stream == "s1");
	r = conv(u"file:s1:$DATA");
	CHECK(r.path == "file");
	CHECK(r.stream == "s1");
	r = conv(u":s1");
	CHECK(r.status == STATUS_SUCCESS);
	CHECK(r.path.empty());
	CHECK(r.stream == "s1");
}

TEST_CASE("veto files", "[wire][name]")
{
	const char *list = "/*.tmp/.secret/a?c/";

	CHECK(smb_veto_match(list, "x.tmp", 5));
	CHECK(smb_veto_match(list, "X.TMP", 5));
	CHECK(smb_veto_match(list, ".tmp", 4));
	CHECK_FALSE(smb_veto_match(list, "x.tmpx", 6));
	CHECK(smb_veto_match(list, ".secret", 7));
	CHECK(smb_veto_match(list, ".SECRET", 7));
	CHECK_FALSE(smb_veto_match(list, ".secrets", 8));
	CHECK(smb_veto_match(list, "abc", 3));
	CHECK(smb_veto_match(list, "a\xc3\xa9" "c", 4));	// '?' is a character
	CHECK_FALSE(smb_veto_match(list, "ac", 2));
	CHECK_FALSE(smb_veto_match(nullptr, "x", 1));
	CHECK_FALSE(smb_veto_match("", "x", 1));
	CHECK_FALSE(smb_veto_match("//", "x", 1));
	CHECK(smb_veto_match("/*/", "anything", 8));
	CHECK(smb_veto_match("/**a**/", "bbba", 4));
	// Pathological patterns stay cheap (no backtracking explosion).
	std::string pat = "/" + std::string(50, '*') + "b/";
	std::string name(4000, 'a');
	CHECK_FALSE(smb_veto_match(pat.c_str(), name.c_str(), name.size()));

	CHECK(smb_veto_path(list, "dir/x.tmp"));
	CHECK(smb_veto_path(list, ".secret/inner"));
	CHECK(smb_veto_path(list, "a/abc/b"));
	CHECK_FALSE(smb_veto_path(list, "dir/file"));
	CHECK_FALSE(smb_veto_path(list, ""));
	CHECK_FALSE(smb_veto_path(nullptr, "x.tmp"));
}
