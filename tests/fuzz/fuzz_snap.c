// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: previous versions (kmod/wire/snap.c).  The input is
 * a shadow:format, a NUL, then bytes the module meets from the outside:
 * a snapshot directory's entry names (written by whoever may write the
 * snapshot directory), a CREATE's path with an @GMT component, a TWrp
 * context.  Whatever parses must come back the same way: a name parses to
 * the time it is the name of, a time's name parses back to a time with
 * that name, a stripped path is shorter and has no
 * token left where one was taken out, an answer fits what was asked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "snap.h"

static char *dup_str(const uint8_t *p, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		abort();
	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

/* Central European time in 2024: +1, +2 from 31 March, +1 from 27 October. */
static const struct smb_snap_zone zone[] = {
	{ 0, 3600, 0 },
	{ 1711846800, 7200, 0 },
	{ 1729990800, 3600, 0 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	char name[SMB_SNAP_NAME_MAX + 1], tok[SMB_GMT_TOKEN_LEN + 1];
	char tok2[SMB_SNAP_NAME_MAX + 1];
	size_t flen = nul ? (size_t)(nul - data) : size;
	const uint8_t *rest = nul ? nul + 1 : data + size;
	size_t rlen = size - (size_t)(rest - data);
	u64 t, t2, times[4];
	char *fmt, *path;
	u8 out[512];
	int n, i;
	u32 len;

	fmt = dup_str(data, flen);
	if (smb_snap_format_check(fmt) == 0 && rlen <= SMB_SNAP_NAME_MAX &&
	    smb_snap_parse(fmt, (const char *)rest, (u32)rlen, &t) == 0) {
		n = smb_snap_name(fmt, t, name, sizeof(name));
		if (n != (int)rlen || memcmp(name, rest, rlen))
			abort();
	}
	/* The same in local time (a zone with summer time). */
	if (smb_snap_format_check(fmt) == 0 && rlen <= SMB_SNAP_NAME_MAX &&
	    smb_snap_parse_in(fmt, zone, ARRAY_SIZE(zone), (const char *)rest,
			      (u32)rlen, &t) == 0) {
		n = smb_snap_name_in(fmt, zone, ARRAY_SIZE(zone), t, name,
				     sizeof(name));
		if (n != (int)rlen || memcmp(name, rest, rlen))
			abort();
	}
	if (smb_snap_format_check(fmt) == 0 && rlen >= 8) {
		t = get_unaligned_le64(rest) % (SMB_SNAP_TIME_MAX + 1);
		n = smb_snap_name(fmt, t, name, sizeof(name));
		/* The name parses, to a time with that name (a format
		 * without seconds names a whole minute). */
		if (n >= 0 &&
		    (smb_snap_parse(fmt, name, (u32)n, &t2) || t2 > t ||
		     smb_snap_name(fmt, t2, tok2, sizeof(tok2)) != n ||
		     memcmp(tok2, name, (size_t)n)))
			abort();
	}
	free(fmt);

	path = dup_str(rest, rlen);
	len = (u32)strlen(path);
	if (smb_gmt_strip(path, &t)) {
		if (strlen(path) + SMB_GMT_TOKEN_LEN > len)
			abort();
		smb_gmt_token(t, tok);
		if (smb_gmt_token_parse(tok, SMB_GMT_TOKEN_LEN, &t2) || t2 != t)
			abort();
	}
	free(path);

	if (smb_twrp_decode(rest, (u32)rlen, &t) == 0 && t > SMB_SNAP_TIME_MAX)
		abort();
	for (i = 0; i < 4; i++)
		times[i] = rlen > (size_t)i ? (u64)rest[i] << (8 * i) : 0;
	len = SMB_SNAP_ARRAY_MIN_OUT + (rlen ? rest[0] : 0) * 2;
	n = (int)smb_snap_array_encode(out, len, times, 4);
	if ((u32)n > len)
		abort();
	return 0;
}
