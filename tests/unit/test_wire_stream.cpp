// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/stream.c and the stream part of kmod/wire/name.c: named
// stream syntax and the xattr names streams are kept under.
#include <catch2/catch.hpp>

#include <string>

#include "wire_util.hpp"

extern "C" {
#include "name.h"
#include "ntstatus.h"
#include "stream.h"
}

using namespace wiretest;

namespace {

struct Parsed {
	uint32_t status;
	std::string path;
	std::string stream;	// "-" when none
};

Parsed parse(const std::u16string &name)
{
	Bytes n = utf16(name);
	std::string out(4096, '\xaa');
	const char *stream = nullptr;
	Parsed r;

	r.status = smb_name_to_path(n.data(), n.size(), out.data(), 4096,
				    &stream);
	if (!r.status)
		r.path = out.substr(0, out.find('\0'));
	r.stream = stream ? stream : "-";
	return r;
}

// The xattr name of a stream, "" with the error when there is none.
std::string xname(const std::string &s, uint32_t cap = 300, int *ret = nullptr)
{
	std::string out(cap ? cap : 1, '\xaa');
	int n = smb_stream_xattr_name(s.data(), s.size(), out.data(), cap);

	if (ret)
		*ret = n;
	if (n < 0)
		return "";
	CHECK(out[n] == '\0');
	return out.substr(0, n);
}

std::string of_xattr(const std::string &x)
{
	uint32_t len = 12345;
	const char *s = smb_stream_of_xattr(x.data(), x.size(), &len);

	if (!s)
		return "-";
	return {s, len};
}

} // namespace

TEST_CASE("stream names in CREATE names", "[wire][stream]")
{
	struct {
		std::u16string name;
		uint32_t status;
		const char *path, *stream;
	} const cases[] = {
		{ u"f:s", STATUS_SUCCESS, "f", "s" },
		{ u"f:s:$DATA", STATUS_SUCCESS, "f", "s" },
		{ u"f:s:$data", STATUS_SUCCESS, "f", "s" },
		{ u"f:s:$DaTa", STATUS_SUCCESS, "f", "s" },
		// The data stream by name: an empty stream name.
		{ u"f::$DATA", STATUS_SUCCESS, "f", "" },
		{ u"f::$Data", STATUS_SUCCESS, "f", "" },
		{ u"f", STATUS_SUCCESS, "f", "-" },
		{ u"d\\f:Stream One:$DATA", STATUS_SUCCESS, "d/f", "Stream One" },
		{ u":s", STATUS_SUCCESS, "", "s" },
		{ u"f:\u00e9t\u00e9", STATUS_SUCCESS, "f", "\xc3\xa9t\xc3\xa9" },
		{ u"f:", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f::", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f:s:", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f:s:$DATAX", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f:s:$INDEX_ALLOCATION", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f:s:$DATA:x", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f:a:b", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f:s/x", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f:s\\x", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"d:s\\f", STATUS_OBJECT_NAME_INVALID, "", "" },
		// Control characters and wildcards are fine in stream names.
		{ u"f:\x05Stream\n One", STATUS_SUCCESS, "f", "\x05Stream\n One" },
		{ u"f:?Stream*:$DATA", STATUS_SUCCESS, "f", "?Stream*" },
		{ u"f:s:?D*a", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f:s:$FOO", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f*:?Stream*", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"f*:s", STATUS_OBJECT_NAME_INVALID, "", "" },
		{ u"..:s", STATUS_OBJECT_PATH_SYNTAX_BAD, "", "" },
		{ u"f:" + std::u16string(256, u's'), STATUS_OBJECT_NAME_INVALID,
		  "", "" },
	};
	for (const auto &c : cases) {
		Parsed r = parse(c.name);
		INFO("case #" << (&c - cases) << " got " << std::hex << r.status);
		CHECK(r.status == c.status);
		if (c.status == STATUS_SUCCESS) {
			CHECK(r.path == c.path);
			CHECK(r.stream == c.stream);
		}
	}
	// The longest stream name a component may carry parses...
	Parsed r = parse(u"f:" + std::u16string(255, u's'));
	CHECK(r.status == STATUS_SUCCESS);
	CHECK(r.stream.size() == 255);
	// ...but no xattr name holds it: the server refuses it there.
	CHECK(xname(r.stream).empty());
}

TEST_CASE("stream xattr names", "[wire][stream]")
{
	int n = 0;

	CHECK(xname("s", 300, &n) == "user.DosStream.s:$DATA");
	CHECK(n == 22);
	CHECK(xname("Stream One") == "user.DosStream.Stream One:$DATA");
	CHECK(xname("\xc3\xa9") == "user.DosStream.\xc3\xa9:$DATA");
	// The longest that fits XATTR_NAME_MAX (255), and one byte more.
	std::string longest(SMB_STREAM_NAME_MAX, 'x');
	CHECK(SMB_STREAM_NAME_MAX == 234);
	CHECK(xname(longest).size() == 255);
	xname(longest + "x", 300, &n);
	CHECK(n == -EINVAL);
	// Nothing that is not a stream name.
	for (const char *bad : { "", "a:b", "a/b", "a\\b" }) {
		xname(bad, 300, &n);
		INFO(bad);
		CHECK(n == -EINVAL);
	}
	xname(std::string("a\0b", 3), 300, &n);
	CHECK(n == -EINVAL);
	// The buffer: exactly enough (with the NUL), one byte short, none.
	CHECK(xname("ab", 24) == "user.DosStream.ab:$DATA");
	xname("ab", 23, &n);
	CHECK(n == -EINVAL);
	xname("ab", 0, &n);
	CHECK(n == -EINVAL);
}

TEST_CASE("stream xattr names back to streams", "[wire][stream]")
{
	CHECK(of_xattr("user.DosStream.s:$DATA") == "s");
	CHECK(of_xattr("user.DosStream.Stream One:$DATA") == "Stream One");
	// Samba keeps the type as the client sent it.
	CHECK(of_xattr("user.DosStream.s:$data") == "s");
	// Round trip.
	CHECK(of_xattr(xname("\xc3\xa9t\xc3\xa9")) == "\xc3\xa9t\xc3\xa9");
	// Not a data stream of ours.
	for (const char *other : { "user.DOSATTRIB", "user.DosStream.",
				   "user.DosStream.:$DATA",
				   "user.DosStream.s", "user.DosStream.s:$DAT",
				   "user.DosStream.s:$INDEX_ALLOCATION",
				   "user.dosstream.s:$DATA",
				   "trusted.DosStream.s:$DATA",
				   "user.DosStream.a:b:$DATA",
				   "user.DosStream.a/b:$DATA", "user.x", "" }) {
		INFO(other);
		CHECK(of_xattr(other) == "-");
	}
}

TEST_CASE("stream names compare without case", "[wire][stream]")
{
	auto eq = [](const std::string &a, const std::string &b) {
		return smb_stream_name_eq(a.data(), a.size(), b.data(),
					  b.size());
	};
	CHECK(eq("Stream", "stream"));
	CHECK(eq("STREAM ONE", "stream one"));
	CHECK(eq("a1_[]", "A1_[]"));
	CHECK_FALSE(eq("stream", "streams"));
	CHECK_FALSE(eq("a", "b"));
	CHECK_FALSE(eq("", "a"));
	CHECK(eq("", ""));
	// Only ASCII letters fold; '@' and '`' are not letters.
	CHECK_FALSE(eq("@", "`"));
	CHECK_FALSE(eq("[", "{"));
}
