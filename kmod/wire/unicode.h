/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unicode helpers for names: UTF-8 (as names are stored) decoded one code
 * point at a time, and compared without case the way Windows file systems
 * compare names (an upcase table: here the simple one-to-one mappings of
 * Latin, Greek, Cyrillic, Armenian and fullwidth Latin letters).  UTF-16
 * conversions are in utf16.h.
 */
#ifndef _SMBSRV_WIRE_UNICODE_H
#define _SMBSRV_WIRE_UNICODE_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returned for a byte sequence that is not UTF-8. */
#define SMB_UCS_BAD		0xffffffffu

/*
 * Decode the code point at @s[*@pos] (of @len bytes) and advance *@pos.
 * A malformed or overlong sequence, a surrogate or a value above
 * U+10FFFF yields SMB_UCS_BAD and advances by one byte.
 */
u32 smb_utf8_next(const char *s, u32 len, u32 *pos);

/* The upper-case form of @c (itself when it has none). */
u32 smb_upcase(u32 c);

/* Whether two UTF-8 strings are equal without case. */
bool smb_utf8_ieq(const char *a, u32 alen, const char *b, u32 blen);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_UNICODE_H */
