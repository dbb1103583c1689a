// SPDX-License-Identifier: GPL-2.0-or-later
#include "unicode.hpp"

#include <clocale>
#include <cwctype>

namespace smbsrv {

namespace {

// Decode one code point; returns false on malformed input.
bool next_cp(std::string_view s, size_t &i, char32_t &cp)
{
	auto c = static_cast<unsigned char>(s[i]);
	size_t n;
	char32_t min;
	if (c < 0x80) {
		cp = c;
		i++;
		return true;
	} else if ((c & 0xe0) == 0xc0) {
		n = 1;
		cp = c & 0x1f;
		min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2;
		cp = c & 0x0f;
		min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 3;
		cp = c & 0x07;
		min = 0x10000;
	} else {
		return false;
	}
	if (s.size() - i - 1 < n)
		return false;
	for (size_t k = 1; k <= n; k++) {
		auto cc = static_cast<unsigned char>(s[i + k]);
		if ((cc & 0xc0) != 0x80)
			return false;
		cp = (cp << 6) | (cc & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return false;
	i += n + 1;
	return true;
}

void put_utf8(std::string &out, char32_t cp)
{
	if (cp < 0x80) {
		out += static_cast<char>(cp);
	} else if (cp < 0x800) {
		out += static_cast<char>(0xc0 | (cp >> 6));
		out += static_cast<char>(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		out += static_cast<char>(0xe0 | (cp >> 12));
		out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
		out += static_cast<char>(0x80 | (cp & 0x3f));
	} else {
		out += static_cast<char>(0xf0 | (cp >> 18));
		out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
		out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
		out += static_cast<char>(0x80 | (cp & 0x3f));
	}
}

// A C.UTF-8 locale object for towupper_l, independent of the process's
// global locale (which a library must not change).
locale_t utf8_locale()
{
	static locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", nullptr);
	return loc;
}

char16_t upper(char16_t c)
{
	if (c < 0x80)
		return (c >= 'a' && c <= 'z') ? static_cast<char16_t>(c - 32) : c;
	if (c >= 0xd800 && c <= 0xdfff)
		return c;
	locale_t loc = utf8_locale();
	if (!loc)
		return c;
	auto u = static_cast<wint_t>(towupper_l(static_cast<wint_t>(c), loc));
	return u <= 0xffff ? static_cast<char16_t>(u) : c;
}

} // namespace

std::optional<std::u16string> utf8_to_utf16(std::string_view s)
{
	std::u16string out;
	out.reserve(s.size());
	size_t i = 0;
	while (i < s.size()) {
		char32_t cp;
		if (!next_cp(s, i, cp))
			return std::nullopt;
		if (cp >= 0x10000) {
			cp -= 0x10000;
			out += static_cast<char16_t>(0xd800 + (cp >> 10));
			out += static_cast<char16_t>(0xdc00 + (cp & 0x3ff));
		} else {
			out += static_cast<char16_t>(cp);
		}
	}
	return out;
}

std::optional<Bytes> utf8_to_utf16le(std::string_view s)
{
	auto u = utf8_to_utf16(s);
	if (!u)
		return std::nullopt;
	return utf16le_bytes(*u);
}

Bytes utf16le_bytes(std::u16string_view s)
{
	Bytes out;
	out.reserve(s.size() * 2);
	for (char16_t c : s)
		put_u16(out, c);
	return out;
}

std::optional<std::string> utf16le_to_utf8(ByteView b)
{
	if (b.size() % 2)
		return std::nullopt;
	std::string out;
	out.reserve(b.size() / 2);
	for (size_t i = 0; i < b.size(); i += 2) {
		char32_t c = get_u16(b, i);
		if (c >= 0xdc00 && c <= 0xdfff)
			return std::nullopt;
		if (c >= 0xd800 && c <= 0xdbff) {
			if (i + 4 > b.size())
				return std::nullopt;
			char32_t lo = get_u16(b, i + 2);
			if (lo < 0xdc00 || lo > 0xdfff)
				return std::nullopt;
			c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			i += 2;
		}
		put_utf8(out, c);
	}
	return out;
}

std::string utf16_to_utf8(std::u16string_view s)
{
	return utf16le_to_utf8(utf16le_bytes(s)).value_or(std::string());
}

std::u16string utf16_upper(std::u16string_view s)
{
	std::u16string out(s);
	for (auto &c : out)
		c = upper(c);
	return out;
}

bool utf8_iequal(std::string_view a, std::string_view b)
{
	auto ua = utf8_to_utf16(a), ub = utf8_to_utf16(b);
	if (!ua || !ub)
		return a == b;
	return utf16_upper(*ua) == utf16_upper(*ub);
}

} // namespace smbsrv
