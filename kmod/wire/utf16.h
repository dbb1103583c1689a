/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UTF-16LE (as SMB2 carries names) to UTF-8 (as the rest of smbsrv uses),
 * and back.
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

/* smb_utf8_to_utf16le() flags. */
#define SMB_UTF16_BACKSLASH	0x1	/* '/' becomes '\\' (paths) */
/*
 * Write the whole code units that fit in @cap and go on measuring: the
 * result is the length of all of it (replies cut short by a client's
 * buffer, STATUS_BUFFER_OVERFLOW).
 */
#define SMB_UTF16_PARTIAL	0x2

/*
 * Convert @len bytes of UTF-8 (names as the VFS has them) into UTF-16LE at
 * @out, at most @cap bytes, no NUL added; with @out NULL only count.
 * Returns the UTF-16LE length in bytes, -EINVAL when the input is not
 * UTF-8 (overlong forms, surrogates, beyond U+10FFFF, NUL), -ENAMETOOLONG
 * when it does not fit @cap (unless SMB_UTF16_PARTIAL).
 */
int smb_utf8_to_utf16le(const char *in, u32 len, u8 *out, u32 cap,
			unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_UTF16_H */
