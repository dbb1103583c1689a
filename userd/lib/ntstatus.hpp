// SPDX-License-Identifier: GPL-2.0-or-later
//
// The NTSTATUS values the daemon answers the module with (MS-ERREF 2.3).
#pragma once

#include <cstdint>

namespace smbsrv::nt {

constexpr uint32_t SUCCESS = 0x00000000;
constexpr uint32_t PENDING = 0x00000103;
constexpr uint32_t BUFFER_OVERFLOW = 0x80000005;
constexpr uint32_t INVALID_HANDLE = 0xC0000008;
constexpr uint32_t MORE_PROCESSING_REQUIRED = 0xC0000016;
constexpr uint32_t INVALID_PARAMETER = 0xC000000D;
constexpr uint32_t ACCESS_DENIED = 0xC0000022;
constexpr uint32_t OBJECT_NAME_NOT_FOUND = 0xC0000034;
constexpr uint32_t SHARING_VIOLATION = 0xC0000043;
constexpr uint32_t LOCK_NOT_GRANTED = 0xC0000055;
constexpr uint32_t DELETE_PENDING = 0xC0000056;
constexpr uint32_t LOGON_FAILURE = 0xC000006D;
constexpr uint32_t INSUFFICIENT_RESOURCES = 0xC000009A;
constexpr uint32_t NOT_SUPPORTED = 0xC00000BB;
constexpr uint32_t BAD_NETWORK_NAME = 0xC00000CC;
constexpr uint32_t INTERNAL_ERROR = 0xC00000E5;
constexpr uint32_t NTLM_BLOCKED = 0xC0000418;

} // namespace smbsrv::nt
