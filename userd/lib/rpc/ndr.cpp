// SPDX-License-Identifier: GPL-2.0-or-later
#include "rpc/ndr.hpp"

#include "unicode.hpp"

namespace smbsrv::rpc {

void NdrReader::need(size_t n) const
{
	if (remaining() < n)
		throw NdrError("stub data ends early");
}

void NdrReader::align(size_t n)
{
	size_t pad = (n - pos_ % n) % n;
	need(pad);
	pos_ += pad;
}

uint8_t NdrReader::u8()
{
	need(1);
	return b_[pos_++];
}

uint16_t NdrReader::u16()
{
	align(2);
	need(2);
	uint16_t v = get_u16(b_, pos_);
	pos_ += 2;
	return v;
}

uint32_t NdrReader::u32()
{
	align(4);
	need(4);
	uint32_t v = get_u32(b_, pos_);
	pos_ += 4;
	return v;
}

std::string NdrReader::string()
{
	uint32_t max = u32();
	uint32_t offset = u32();
	uint32_t actual = u32();
	if (offset != 0 || actual > max || actual == 0)
		throw NdrError("bad string counts");
	// Two bytes a character: compare before multiplying.
	if (actual > remaining() / 2)
		throw NdrError("string longer than the stub data");
	ByteView chars = b_.subspan(pos_, size_t{actual} * 2);
	pos_ += size_t{actual} * 2;
	if (get_u16(chars, chars.size() - 2) != 0)
		throw NdrError("string without its NUL");
	auto s = utf16le_to_utf8(chars.first(chars.size() - 2));
	if (!s)
		throw NdrError("string is not valid UTF-16");
	// A C string to the server: it ends at its first NUL (impacket pads
	// names with NULs; Windows reads them the same way).
	return s->substr(0, s->find('\0'));
}

std::string NdrReader::unique_string()
{
	return ptr() ? string() : std::string();
}

std::string NdrReader::counted_string(uint16_t length)
{
	uint32_t max = u32();
	uint32_t offset = u32();
	uint32_t actual = u32();
	if (offset != 0 || actual > max || length % 2 || actual != length / 2u)
		throw NdrError("bad counted string counts");
	need(length);
	ByteView chars = b_.subspan(pos_, length);
	pos_ += length;
	auto s = utf16le_to_utf8(chars);
	if (!s)
		throw NdrError("string is not valid UTF-16");
	return *s;
}

void NdrReader::conformance(uint32_t count)
{
	if (u32() != count)
		throw NdrError("array size is not its count");
}

Sid NdrReader::sid()
{
	uint32_t max = u32();
	need(8);
	uint8_t n = b_[pos_ + 1];
	if (max != n || n > SMB_SID_MAX_SUB)
		throw NdrError("bad SID size");
	need(8 + 4 * size_t{n});
	auto s = Sid::decode(b_.subspan(pos_, 8 + 4 * size_t{n}));
	if (!s)
		throw NdrError("bad SID");
	pos_ += 8 + 4 * size_t{n};
	return *s;
}

void NdrReader::skip(size_t n)
{
	need(n);
	pos_ += n;
}

void NdrWriter::align(size_t n)
{
	while (out_.size() % n)
		out_.push_back(0);
}

void NdrWriter::u16(uint16_t v)
{
	align(2);
	put_u16(out_, v);
}

void NdrWriter::u32(uint32_t v)
{
	align(4);
	put_u32(out_, v);
}

void NdrWriter::ptr(bool present)
{
	u32(present ? next_ref_ : 0);
	if (present)
		next_ref_ += 4;
}

void NdrWriter::string(std::string_view s)
{
	// Names and comments come from the configuration, which is UTF-8
	// checked at load; anything else would be a bug, so it is dropped
	// rather than sent malformed.
	std::u16string w = utf8_to_utf16(s).value_or(u"");
	auto n = static_cast<uint32_t>(w.size() + 1);
	u32(n);
	u32(0);
	u32(n);
	for (char16_t c : w)
		put_u16(out_, static_cast<uint16_t>(c));
	put_u16(out_, 0);
}

} // namespace smbsrv::rpc
