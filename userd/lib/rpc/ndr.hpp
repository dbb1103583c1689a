// SPDX-License-Identifier: GPL-2.0-or-later
//
// NDR (the DCE/RPC transfer syntax, C706 chapter 14) as srvsvc and wkssvc
// use it, and as a PAC's KERB_VALIDATION_INFO is serialised (MS-PAC 2.5):
// little-endian, 32-bit, with unique pointers, conformant varying UTF-16
// strings and conformant SIDs.  The reader faces the network: every count,
// length and offset is checked against the bytes that are there, and any
// violation throws NdrError (the caller answers with a fault PDU).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bytes.hpp"
#include "sid.hpp"

namespace smbsrv::rpc {

class NdrError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

class NdrReader {
public:
	explicit NdrReader(ByteView b) : b_(b) {}

	void align(size_t n); // skip padding up to a multiple of n
	uint8_t u8();
	uint16_t u16();
	uint32_t u32();
	// A unique pointer's referent id; 0 is the null pointer.
	uint32_t ptr() { return u32(); }
	// A conformant varying string of UTF-16 characters ending in NUL,
	// as UTF-8 without the NUL.
	std::string string();
	// The string a unique pointer points to, "" for a null pointer.
	std::string unique_string();
	// The deferred characters of an RPC_UNICODE_STRING whose Length is
	// @length bytes: a conformant varying array of UTF-16 units, no NUL.
	std::string counted_string(uint16_t length);
	// A conformant RPC_SID (MS-DTYP 2.4.2.3): the count, then the SID.
	Sid sid();
	// A conformant array's size, which must be @count.
	void conformance(uint32_t count);
	void skip(size_t n);
	[[nodiscard]] size_t pos() const { return pos_; }
	[[nodiscard]] size_t remaining() const { return b_.size() - pos_; }

private:
	void need(size_t n) const;
	ByteView b_;
	size_t pos_ = 0;
};

class NdrWriter {
public:
	void align(size_t n);
	void u8(uint8_t v) { out_.push_back(v); }
	void u16(uint16_t v);
	void u32(uint32_t v);
	// A unique pointer: a fresh referent id, or 0.
	void ptr(bool present);
	// A conformant varying string (UTF-8 in, UTF-16 with NUL out).
	void string(std::string_view s);
	[[nodiscard]] const Bytes &bytes() const { return out_; }
	Bytes take() { return std::move(out_); }

private:
	Bytes out_;
	uint32_t next_ref_ = 0x00020000;
};

} // namespace smbsrv::rpc
