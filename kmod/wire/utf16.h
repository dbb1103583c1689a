/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UTF-16LE (as SMB2 carries names) to UTF-8 (as the rest of smbsrv uses).
 */
#ifndef _SMBSRV_WIRE_UTF16_H
#define _SMBSRV_WIRE_UTF16_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Convert @bytes bytes of UTF-16LE into NUL-terminated UTF-8 in
 * @out[@cap].  Returns the UTF-8 length without the NUL, -EINVAL for an
 * odd length, an unpaired surrogate or an embedded NUL, -ENAMETOOLONG when
 * @out is too small.
 */
int smb_utf16le_to_utf8(const u8 *in, u32 bytes, char *out, u32 cap);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_UTF16_H */
