// SPDX-License-Identifier: GPL-2.0
/*
 * UTF-16LE to UTF-8.
 */
#include "compat.h"
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

/* Decode one UTF-8 sequence at @in[@i..@len); 0 when it is not valid. */
static u32 utf8_next(const u8 *in, u32 len, u32 *i)
{
	u32 c = in[*i], n, min, k;

	if (c < 0x80) {
		*i += 1;
		return c;
	}
	if ((c & 0xe0) == 0xc0) {
		n = 1;
		min = 0x80;
		c &= 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2;
		min = 0x800;
		c &= 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		n = 3;
		min = 0x10000;
		c &= 0x07;
	} else {
		return 0;
	}
	if (len - *i <= n)
		return 0;
	for (k = 1; k <= n; k++) {
		if ((in[*i + k] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (in[*i + k] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*i += n + 1;
	return c;
}

int smb_utf8_to_utf16le(const char *in, u32 len, u8 *out, u32 cap,
			unsigned int flags)
{
	const u8 *s = (const u8 *)in;
	u32 i = 0, o = 0, c;

	if (cap > 0x7ffffffe)
		cap = 0x7ffffffe;
	while (i < len) {
		c = utf8_next(s, len, &i);
		if (!c)
			return -EINVAL;
		if (c == '/' && (flags & SMB_UTF16_BACKSLASH))
			c = '\\';
		if (c >= 0x10000) {
			if (cap - o < 4)
				return -ENAMETOOLONG;
			if (out) {
				c -= 0x10000;
				put_unaligned_le16((u16)(0xd800 | c >> 10), out + o);
				put_unaligned_le16((u16)(0xdc00 | (c & 0x3ff)),
						   out + o + 2);
			}
			o += 4;
		} else {
			if (cap - o < 2)
				return -ENAMETOOLONG;
			if (out)
				put_unaligned_le16((u16)c, out + o);
			o += 2;
		}
	}
	return (int)o;
}
