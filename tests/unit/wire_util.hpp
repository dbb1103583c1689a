// SPDX-License-Identifier: GPL-2.0-or-later
// Helpers to build SMB2 PDUs byte by byte for the kmod/wire/ tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include "ntstatus.h"
#include "pdu.h"
#include "smb2.h"
}

namespace wiretest {

using Bytes = std::vector<uint8_t>;

inline void put16(Bytes &b, size_t off, uint16_t v)
{
	if (b.size() < off + 2)
		b.resize(off + 2);
	b[off] = v & 0xff;
	b[off + 1] = v >> 8;
}

inline void put32(Bytes &b, size_t off, uint32_t v)
{
	put16(b, off, v & 0xffff);
	put16(b, off + 2, v >> 16);
}

inline void put64(Bytes &b, size_t off, uint64_t v)
{
	put32(b, off, v & 0xffffffffu);
	put32(b, off + 4, v >> 32);
}

inline uint16_t get16(const Bytes &b, size_t off)
{
	return b.at(off) | b.at(off + 1) << 8;
}

inline uint32_t get32(const Bytes &b, size_t off)
{
	return get16(b, off) | uint32_t(get16(b, off + 2)) << 16;
}

inline uint64_t get64(const Bytes &b, size_t off)
{
	return get32(b, off) | uint64_t(get32(b, off + 4)) << 32;
}

// A request header: command, message id, optional flags and next command.
inline Bytes header(uint16_t cmd, uint64_t mid = 0, uint32_t flags = 0,
		    uint32_t next = 0)
{
	Bytes b(SMB2_HDR_SIZE, 0);
	put32(b, SMB2_HDR_PROTOCOL, SMB2_PROTO_NUMBER);
	put16(b, SMB2_HDR_STRUCT_SIZE, SMB2_HDR_SIZE);
	put16(b, SMB2_HDR_CREDIT_CHARGE, 1);
	put16(b, SMB2_HDR_COMMAND, cmd);
	put16(b, SMB2_HDR_CREDIT, 1);
	put32(b, SMB2_HDR_FLAGS, flags);
	put32(b, SMB2_HDR_NEXT_COMMAND, next);
	put64(b, SMB2_HDR_MESSAGE_ID, mid);
	return b;
}

inline Bytes utf16(const std::u16string &s)
{
	Bytes b;
	for (char16_t c : s) {
		b.push_back(c & 0xff);
		b.push_back(c >> 8);
	}
	return b;
}

inline void append(Bytes &b, const Bytes &more)
{
	b.insert(b.end(), more.begin(), more.end());
}

} // namespace wiretest
