// SPDX-License-Identifier: GPL-2.0
/*
 * UTF-16LE to UTF-8.
 */
#include "compat.h"
#include "unicode.h"
#include "utf16.h"

int smb_utf16le_to_utf8(const u8 *in, u32 bytes, char *out, u32 cap)
{
	u32 i = 0, o = 0, c, lo, n;

	if (bytes % 2 || !cap)
		return -EINVAL;
	while (i < bytes) {
		c = get_unaligned_le16(in + i);
		i += 2;
		if (c >= 0xd800 && c <= 0xdbff) {
			if (i >= bytes)
				return -EINVAL;
			lo = get_unaligned_le16(in + i);
			if (lo < 0xdc00 || lo > 0xdfff)
				return -EINVAL;
			i += 2;
			c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
		} else if ((c >= 0xdc00 && c <= 0xdfff) || !c) {
			return -EINVAL;
		}
		n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
		if (cap - o <= n)
			return -ENAMETOOLONG;
		switch (n) {
		case 1:
			out[o++] = (char)c;
			break;
		case 2:
			out[o++] = (char)(0xc0 | c >> 6);
			out[o++] = (char)(0x80 | (c & 0x3f));
			break;
		case 3:
			out[o++] = (char)(0xe0 | c >> 12);
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
			break;
		default:
			out[o++] = (char)(0xf0 | c >> 18);
			out[o++] = (char)(0x80 | ((c >> 12) & 0x3f));
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
			break;
		}
	}
	out[o] = 0;
	return (int)o;
}

int smb_utf8_to_utf16le(const char *in, u32 len, u8 *out, u32 cap,
			unsigned int flags)
{
	u32 i = 0, o = 0, c, n;
	bool full = false;

	if (cap > 0x7ffffffe)
		cap = 0x7ffffffe;
	while (i < len) {
		c = smb_utf8_next(in, len, &i);
		if (c == SMB_UCS_BAD || !c)
			return -EINVAL;
		if (c == '/' && (flags & SMB_UTF16_BACKSLASH))
			c = '\\';
		n = c >= 0x10000 ? 4 : 2;
		if (o > 0x7ffffffe - n)
			return -ENAMETOOLONG;
		if (full || cap - o < n) {
			if (!(flags & SMB_UTF16_PARTIAL))
				return -ENAMETOOLONG;
			/* Measure the rest; write nothing more. */
			full = true;
			o += n;
			continue;
		}
		if (out && n == 4) {
			c -= 0x10000;
			put_unaligned_le16((u16)(0xd800 | c >> 10), out + o);
			put_unaligned_le16((u16)(0xdc00 | (c & 0x3ff)), out + o + 2);
		} else if (out) {
			put_unaligned_le16((u16)c, out + o);
		}
		o += n;
	}
	return (int)o;
}
