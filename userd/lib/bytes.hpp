// SPDX-License-Identifier: GPL-2.0-or-later
//
// Byte buffers and a bounds-checked little-endian reader for input that
// comes from the network: every read says whether it fit, nothing reads
// past the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace smbsrv {

using Bytes = std::vector<uint8_t>;
using ByteView = std::span<const uint8_t>;

inline ByteView as_bytes(std::string_view s)
{
	return {reinterpret_cast<const uint8_t *>(s.data()), s.size()};
}

inline void append(Bytes &out, ByteView b)
{
	out.insert(out.end(), b.begin(), b.end());
}

inline void put_u16(Bytes &out, uint16_t v)
{
	out.push_back(static_cast<uint8_t>(v));
	out.push_back(static_cast<uint8_t>(v >> 8));
}

inline void put_u32(Bytes &out, uint32_t v)
{
	put_u16(out, static_cast<uint16_t>(v));
	put_u16(out, static_cast<uint16_t>(v >> 16));
}

inline void put_u64(Bytes &out, uint64_t v)
{
	put_u32(out, static_cast<uint32_t>(v));
	put_u32(out, static_cast<uint32_t>(v >> 32));
}

inline uint16_t get_u16(ByteView b, size_t off)
{
	return static_cast<uint16_t>(b[off] | (b[off + 1] << 8));
}

inline uint32_t get_u32(ByteView b, size_t off)
{
	return get_u16(b, off) | (static_cast<uint32_t>(get_u16(b, off + 2)) << 16);
}

inline uint64_t get_u64(ByteView b, size_t off)
{
	return get_u32(b, off) | (static_cast<uint64_t>(get_u32(b, off + 4)) << 32);
}

// A cursor over untrusted bytes.  Each getter returns false, and leaves
// the cursor where it was, when the buffer is too short.
class Reader {
public:
	explicit Reader(ByteView b) : b_(b) {}

	[[nodiscard]] size_t pos() const { return pos_; }
	[[nodiscard]] size_t remaining() const { return b_.size() - pos_; }

	bool u8(uint8_t &v)
	{
		if (remaining() < 1)
			return false;
		v = b_[pos_++];
		return true;
	}
	bool u16(uint16_t &v)
	{
		if (remaining() < 2)
			return false;
		v = get_u16(b_, pos_);
		pos_ += 2;
		return true;
	}
	bool u32(uint32_t &v)
	{
		if (remaining() < 4)
			return false;
		v = get_u32(b_, pos_);
		pos_ += 4;
		return true;
	}
	bool u64(uint64_t &v)
	{
		if (remaining() < 8)
			return false;
		v = get_u64(b_, pos_);
		pos_ += 8;
		return true;
	}
	bool take(size_t n, ByteView &out)
	{
		if (remaining() < n)
			return false;
		out = b_.subspan(pos_, n);
		pos_ += n;
		return true;
	}
	bool skip(size_t n)
	{
		if (remaining() < n)
			return false;
		pos_ += n;
		return true;
	}

private:
	ByteView b_;
	size_t pos_ = 0;
};

std::string to_hex(ByteView b);
// "" or an even number of hex digits (blanks ignored); false on anything else.
bool from_hex(std::string_view hex, Bytes &out);

} // namespace smbsrv
