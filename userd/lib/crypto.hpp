// SPDX-License-Identifier: GPL-2.0-or-later
//
// The few primitives NTLM needs, as thin wrappers over nettle: MD4 (the NT
// hash), MD5, HMAC-MD5 and RC4.  Plus random bytes from the kernel, a
// constant-time comparison and base64 (the user database's hash encoding).
#pragma once

#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nettle/arcfour.h>

#include "bytes.hpp"

namespace smbsrv::crypto {

using Digest16 = std::array<uint8_t, 16>;

Digest16 md4(ByteView data);
// MD5 of the concatenation of parts.
Digest16 md5(std::initializer_list<ByteView> parts);
// HMAC-MD5 keyed with key over the concatenation of parts.
Digest16 hmac_md5(ByteView key, std::initializer_list<ByteView> parts);

// An RC4 key stream whose state carries over from one call to the next
// (NTLM's sealing handles); rc4_once() is a fresh stream per call.
class Rc4 {
public:
	Rc4() = default;
	explicit Rc4(ByteView key);
	void crypt(std::span<uint8_t> data);

private:
	arcfour_ctx ctx_{};
};

Bytes rc4_once(ByteView key, ByteView data);

// Fills out from getrandom(2); throws std::system_error if that fails.
void random_bytes(std::span<uint8_t> out);

// Equal length and content, in time independent of where they differ.
bool equal_ct(ByteView a, ByteView b);

std::string base64_encode(ByteView data);
// Strict: canonical padding, no stray characters.
std::optional<Bytes> base64_decode(std::string_view text);

} // namespace smbsrv::crypto
