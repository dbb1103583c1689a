// SPDX-License-Identifier: GPL-2.0
/*
 * UTF-8 decoding, UTF-16LE encoding, case folding of names.
 */
#include "compat.h"
#include "unicode.h"

u32 smb_utf8_next(const char *str, u32 len, u32 *pos)
{
	const unsigned char *s = (const unsigned char *)str;
	u32 i = *pos, c, n, k, min;

	c = s[i];
	if (c < 0x80) {
		*pos = i + 1;
		return c;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 1;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 2;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 3;
		c &= 0x07;
		min = 0x10000;
	} else {
		*pos = i + 1;
		return SMB_UCS_BAD;
	}
	if (len - i - 1 < n) {
		*pos = i + 1;
		return SMB_UCS_BAD;
	}
	for (k = 1; k <= n; k++) {
		if ((s[i + k] & 0xc0) != 0x80) {
			*pos = i + 1;
			return SMB_UCS_BAD;
		}
		c = c << 6 | (s[i + k] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
		*pos = i + 1;
		return SMB_UCS_BAD;
	}
	*pos = i + 1 + n;
	return c;
}

/* Pairs of capital (even) and small (odd) letters in [lo, hi]. */
static bool smb_pair_even(u32 c, u32 lo, u32 hi)
{
	return c >= lo && c <= hi && ((c - lo) & 1);
}

u32 smb_upcase(u32 c)
{
	if (c < 0x80)
		return c >= 'a' && c <= 'z' ? c - 0x20 : c;
	if (c < 0x100) {
		if (c >= 0xe0 && c <= 0xfe && c != 0xf7)
			return c - 0x20;
		return c == 0xff ? 0x178 : c;
	}
	if (c < 0x180) {
		if (smb_pair_even(c, 0x100, 0x12f) ||
		    smb_pair_even(c, 0x132, 0x137) ||
		    smb_pair_even(c, 0x14a, 0x177))
			return c - 1;
		if ((c >= 0x139 && c <= 0x148 && !(c & 1)) ||
		    (c >= 0x179 && c <= 0x17e && !(c & 1)))
			return c - 1;
		return c;
	}
	if (c >= 0x370 && c < 0x400) {
		if ((c >= 0x3b1 && c <= 0x3c1) || (c >= 0x3c3 && c <= 0x3cb))
			return c - 0x20;
		switch (c) {
		case 0x3c2:
			return 0x3a3;
		case 0x3ac:
			return 0x386;
		case 0x3ad:
		case 0x3ae:
		case 0x3af:
			return c - 0x25;
		case 0x3cc:
			return 0x38c;
		case 0x3cd:
		case 0x3ce:
			return c - 0x3f;
		default:
			return c;
		}
	}
	if (c >= 0x400 && c < 0x530) {
		if (c >= 0x430 && c <= 0x44f)
			return c - 0x20;
		if (c >= 0x450 && c <= 0x45f)
			return c - 0x50;
		if (smb_pair_even(c, 0x460, 0x481) ||
		    smb_pair_even(c, 0x48a, 0x4bf) ||
		    smb_pair_even(c, 0x4d0, 0x52f))
			return c - 1;
		if (c >= 0x4c1 && c <= 0x4ce && !(c & 1))
			return c - 1;
		return c == 0x4cf ? 0x4c0 : c;
	}
	if (c >= 0x561 && c <= 0x586)
		return c - 0x30;
	if (smb_pair_even(c, 0x1e00, 0x1e95) ||
	    smb_pair_even(c, 0x1ea0, 0x1eff))
		return c - 1;
	if (c >= 0xff41 && c <= 0xff5a)
		return c - 0x20;
	return c;
}

bool smb_utf8_ieq(const char *a, u32 alen, const char *b, u32 blen)
{
	u32 i = 0, j = 0, x, y;

	while (i < alen && j < blen) {
		x = smb_utf8_next(a, alen, &i);
		y = smb_utf8_next(b, blen, &j);
		if (x == SMB_UCS_BAD || y == SMB_UCS_BAD) {
			/* Bytes that are not UTF-8 compare as themselves. */
			if (x != y || (unsigned char)a[i - 1] !=
				      (unsigned char)b[j - 1])
				return false;
			continue;
		}
		if (smb_upcase(x) != smb_upcase(y))
			return false;
	}
	return i == alen && j == blen;
}
