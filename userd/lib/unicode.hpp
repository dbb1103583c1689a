// SPDX-License-Identifier: GPL-2.0-or-later
//
// UTF-8 <-> UTF-16LE, as SMB and NTLM carry names and passwords, with
// strict validation: malformed input from the network is refused rather
// than guessed at.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "bytes.hpp"

namespace smbsrv {

// nullopt when s is not valid UTF-8 (overlong forms, surrogates, > U+10FFFF).
std::optional<std::u16string> utf8_to_utf16(std::string_view s);
std::optional<Bytes> utf8_to_utf16le(std::string_view s);

// nullopt on an odd length or an unpaired surrogate.
std::optional<std::string> utf16le_to_utf8(ByteView b);
std::string utf16_to_utf8(std::u16string_view s); // input already valid

Bytes utf16le_bytes(std::u16string_view s);

// Upper case of every BMP character that has a single-character upper
// case (what Windows' RtlUpcaseUnicodeString does to user names).
std::u16string utf16_upper(std::u16string_view s);

// Case-insensitive comparison of two UTF-8 strings in the same sense.
bool utf8_iequal(std::string_view a, std::string_view b);

} // namespace smbsrv
