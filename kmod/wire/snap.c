// SPDX-License-Identifier: GPL-2.0
/*
 * Previous versions: @GMT tokens, snapshot names by `shadow:format`, the
 * TWrp context and SRV_SNAPSHOT_ARRAY (see snap.h).
 */
#include "snap.h"

#define SMB_SNAP_DAY		86400ULL
/* 100 ns intervals from 1601-01-01 to 1970-01-01. */
#define SMB_SNAP_FILETIME_1970	116444736000000000ULL
#define SMB_SNAP_FILETIME_HZ	10000000ULL

static const char smb_gmt_format[] = "@GMT-%Y.%m.%d-%H.%M.%S";

/* ---- calendar ----------------------------------------------------------- */

/* Days from 1970-01-01 to @y-@m-@d of the proleptic Gregorian calendar. */
static u64 smb_snap_days(u32 y, u32 m, u32 d)
{
	/* Years start in March, so that a leap day ends its year. */
	u32 ya = m > 2 ? y : y - 1;
	u32 era = ya / 400, yoe = ya - era * 400;
	u32 mp = m > 2 ? m - 3 : m + 9;
	u32 doy = (153 * mp + 2) / 5 + d - 1;
	u32 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	/* 719468: days from 0000-03-01 to 1970-01-01; y >= 1970 here. */
	return (u64)era * 146097 + doe - 719468;
}

static bool smb_snap_leap(u32 y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

struct smb_snap_tm {
	u32 year, mon, mday, yday, hour, min, sec;
};

/* @t (at most SMB_SNAP_TIME_MAX) as a date and time. */
static void smb_snap_tm(u64 t, struct smb_snap_tm *tm)
{
	u64 days = t / SMB_SNAP_DAY;
	u32 secs = (u32)(t % SMB_SNAP_DAY);
	u32 z = (u32)(days + 719468);
	u32 era = z / 146097, doe = z - era * 146097;
	u32 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	u32 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	u32 mp = (5 * doy + 2) / 153;

	tm->mday = doy - (153 * mp + 2) / 5 + 1;
	tm->mon = mp < 10 ? mp + 3 : mp - 9;
	tm->year = yoe + era * 400 + (tm->mon <= 2);
	tm->yday = (u32)(days - smb_snap_days(tm->year, 1, 1));
	tm->hour = secs / 3600;
	tm->min = secs / 60 % 60;
	tm->sec = secs % 60;
}

/* The calendar fields by conversion letter, %s aside. */
static const char smb_snap_letters[] = "YymdjHMS";

static u32 *smb_snap_tm_slot(struct smb_snap_tm *tm, int c)
{
	u32 *slot[] = {
		&tm->year, &tm->year, &tm->mon, &tm->mday, &tm->yday,
		&tm->hour, &tm->min, &tm->sec,
	};

	return slot[strchr(smb_snap_letters, c) - smb_snap_letters];
}

/* The value %@c writes for @tm. */
static u64 smb_snap_tm_field(struct smb_snap_tm *tm, int c)
{
	u32 v = *smb_snap_tm_slot(tm, c);

	if (c == 'y')
		return v % 100;
	if (c == 'j')
		return v + 1;
	return v;
}

/* Set @tm's field from what %@c read (%y: 1969-2068, as POSIX says). */
static void smb_snap_tm_set(struct smb_snap_tm *tm, int c, u32 v)
{
	if (c == 'y')
		v = v >= 69 ? 1900 + v : 2000 + v;
	*smb_snap_tm_slot(tm, c) = v;
}

/* ---- formats ------------------------------------------------------------ */

/* The fields a format names, as bits. */
enum {
	SMB_SNAP_F_YEAR = 1 << 0,	/* %Y */
	SMB_SNAP_F_YEAR2 = 1 << 1,	/* %y */
	SMB_SNAP_F_MON = 1 << 2,	/* %m */
	SMB_SNAP_F_MDAY = 1 << 3,	/* %d */
	SMB_SNAP_F_YDAY = 1 << 4,	/* %j */
	SMB_SNAP_F_HOUR = 1 << 5,	/* %H */
	SMB_SNAP_F_MIN = 1 << 6,	/* %M */
	SMB_SNAP_F_SEC = 1 << 7,	/* %S */
	SMB_SNAP_F_EPOCH = 1 << 8,	/* %s */
};

/*
 * Walks a format: literal text one byte at a time, conversions one field
 * at a time (%F and %T as the three each stands for).
 */
struct smb_snap_walk {
	const char *p;		/* the rest of the format */
	const char *sub;	/* the rest of %F or %T, or NULL */
};

/* Next item: a field letter, or 0 with *@lit set; -1 at the end, -2 bad. */
static int smb_snap_next(struct smb_snap_walk *w, char *lit)
{
	const char **p = w->sub && *w->sub ? &w->sub : &w->p;
	char c;

	if (!**p)
		return -1;
	c = *(*p)++;
	if (c != '%') {
		*lit = c;
		return 0;
	}
	c = *(*p)++;
	switch (c) {
	case '%':
		*lit = '%';
		return 0;
	case 'F':
	case 'T':
		if (p == &w->sub)
			return -2;
		w->sub = c == 'F' ? "%Y-%m-%d" : "%H:%M:%S";
		return smb_snap_next(w, lit);
	case 'Y': case 'y': case 'm': case 'd': case 'j':
	case 'H': case 'M': case 'S': case 's':
		return c;
	default:
		/* '\0' too: a lone '%' at the end. */
		return -2;
	}
}

static u32 smb_snap_field_bit(int c)
{
	switch (c) {
	case 'Y': return SMB_SNAP_F_YEAR;
	case 'y': return SMB_SNAP_F_YEAR2;
	case 'm': return SMB_SNAP_F_MON;
	case 'd': return SMB_SNAP_F_MDAY;
	case 'j': return SMB_SNAP_F_YDAY;
	case 'H': return SMB_SNAP_F_HOUR;
	case 'M': return SMB_SNAP_F_MIN;
	case 'S': return SMB_SNAP_F_SEC;
	default: return SMB_SNAP_F_EPOCH;
	}
}

/* Digits a field is written with; 0 for %s (as many as it takes). */
static u32 smb_snap_field_width(int c)
{
	switch (c) {
	case 'Y': return 4;
	case 'j': return 3;
	case 's': return 0;
	default: return 2;
	}
}

/* The fields of a valid format as bits, or -EINVAL. */
static int smb_snap_fields(const char *fmt)
{
	struct smb_snap_walk w = { .p = fmt };
	u32 have = 0, bit, day, year;
	bool after_epoch = false;
	size_t len = 0;
	char lit;
	int c;

	while (fmt[len])
		if (++len > SMB_SNAP_FORMAT_MAX)
			return -EINVAL;
	while ((c = smb_snap_next(&w, &lit)) >= 0) {
		/* %s has no width: a digit after it would be read as its own. */
		if (after_epoch && (c || (lit >= '0' && lit <= '9')))
			return -EINVAL;
		after_epoch = c == 's';
		if (!c) {
			if (lit == '/')
				return -EINVAL;
			continue;
		}
		bit = smb_snap_field_bit(c);
		if (have & bit)
			return -EINVAL;
		have |= bit;
	}
	if (c == -2)
		return -EINVAL;
	if (have & SMB_SNAP_F_EPOCH)
		return (int)have;
	year = have & (SMB_SNAP_F_YEAR | SMB_SNAP_F_YEAR2);
	/* One year: %y beside %Y could not name years out of 1969-2068. */
	if (year == (SMB_SNAP_F_YEAR | SMB_SNAP_F_YEAR2))
		return -EINVAL;
	day = (have & SMB_SNAP_F_YDAY) ||
	      ((have & SMB_SNAP_F_MON) && (have & SMB_SNAP_F_MDAY));
	/* Hours, minutes and seconds a format leaves out are 0. */
	if (!year || !day)
		return -EINVAL;
	return (int)have;
}

int smb_snap_format_check(const char *fmt)
{
	int have = smb_snap_fields(fmt);

	return have < 0 ? have : 0;
}

/* Append @v in decimal, @width digits (0: as many as it takes). */
static bool smb_snap_put_num(char *out, u32 cap, u32 *pos, u64 v, u32 width)
{
	char digits[24];
	u32 n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n < width)
		digits[n++] = '0';
	if (*pos + n >= cap)
		return false;
	while (n)
		out[(*pos)++] = digits[--n];
	return true;
}

int smb_snap_name(const char *fmt, u64 t, char *out, u32 cap)
{
	struct smb_snap_walk w = { .p = fmt };
	struct smb_snap_tm tm;
	u32 pos = 0;
	u64 v;
	char lit;
	int c;

	int have = smb_snap_fields(fmt);

	if (!cap || have < 0 || t > SMB_SNAP_TIME_MAX)
		return -EINVAL;
	if (cap > SMB_SNAP_NAME_MAX + 1)
		cap = SMB_SNAP_NAME_MAX + 1;
	smb_snap_tm(t, &tm);
	/* %y names 1969 to 2068 (POSIX); 1969 is before any snapshot. */
	if ((have & SMB_SNAP_F_YEAR2) && tm.year > 2068)
		return -EINVAL;
	while ((c = smb_snap_next(&w, &lit)) >= 0) {
		if (!c) {
			if (pos + 1 >= cap)
				return -ENAMETOOLONG;
			out[pos++] = lit;
			continue;
		}
		v = c == 's' ? t : smb_snap_tm_field(&tm, c);
		if (!smb_snap_put_num(out, cap, &pos, v, smb_snap_field_width(c)))
			return -ENAMETOOLONG;
	}
	out[pos] = 0;
	return (int)pos;
}

/* Read a field of @c at *@pos of @name: its width in digits. */
static bool smb_snap_get_num(const char *name, u32 len, u32 *pos, int c,
			     u64 *v)
{
	u32 width = smb_snap_field_width(c), n = 0;

	*v = 0;
	while (*pos + n < len && name[*pos + n] >= '0' &&
	       name[*pos + n] <= '9' && (width ? n < width : n < 12)) {
		*v = *v * 10 + (u64)(name[*pos + n] - '0');
		n++;
	}
	if (!n || (width && n != width) ||
	    (!width && n > 1 && name[*pos] == '0'))
		return false;
	*pos += n;
	return true;
}

int smb_snap_parse(const char *fmt, const char *name, u32 len, u64 *t)
{
	struct smb_snap_walk w = { .p = fmt };
	struct smb_snap_tm tm = { .mon = 1, .mday = 1 };
	u64 v, epoch = 0, days;
	char again[SMB_SNAP_NAME_MAX + 1];
	int have, c, n;
	u32 pos = 0;
	char lit;

	have = smb_snap_fields(fmt);
	if (have < 0 || len > SMB_SNAP_NAME_MAX)
		return -EINVAL;
	while ((c = smb_snap_next(&w, &lit)) >= 0) {
		if (!c) {
			if (pos >= len || name[pos] != lit)
				return -EINVAL;
			pos++;
			continue;
		}
		if (!smb_snap_get_num(name, len, &pos, c, &v))
			return -EINVAL;
		if (c == 's')
			epoch = v;
		else
			smb_snap_tm_set(&tm, c, (u32)v);
	}
	if (pos != len)
		return -EINVAL;
	if (have & SMB_SNAP_F_EPOCH) {
		*t = epoch;
	} else {
		if (tm.year < 1970 || tm.year > 9999 || tm.mon < 1 ||
		    tm.mon > 12 || tm.mday < 1 || tm.mday > 31 ||
		    tm.hour > 23 || tm.min > 59 || tm.sec > 59)
			return -EINVAL;
		/* The day by %j unless %m and %d both name it. */
		if ((have & SMB_SNAP_F_YDAY) &&
		    (~have & (SMB_SNAP_F_MON | SMB_SNAP_F_MDAY))) {
			if (tm.yday < 1 ||
			    tm.yday > 365u + smb_snap_leap(tm.year))
				return -EINVAL;
			days = smb_snap_days(tm.year, 1, 1) + tm.yday - 1;
		} else {
			days = smb_snap_days(tm.year, tm.mon, tm.mday);
		}
		*t = days * SMB_SNAP_DAY + tm.hour * 3600u + tm.min * 60u +
		     tm.sec;
	}
	if (*t > SMB_SNAP_TIME_MAX)
		return -EINVAL;
	/* The one name of that time: 02.30, or %s disagreeing with %Y, is not. */
	n = smb_snap_name(fmt, *t, again, sizeof(again));
	if (n < 0 || (u32)n != len || memcmp(again, name, len))
		return -EINVAL;
	return 0;
}

/* ---- @GMT tokens and TWrp ---------------------------------------------- */

int smb_gmt_token_parse(const char *s, u32 len, u64 *t)
{
	if (len != SMB_GMT_TOKEN_LEN)
		return -EINVAL;
	return smb_snap_parse(smb_gmt_format, s, len, t);
}

void smb_gmt_token(u64 t, char out[SMB_GMT_TOKEN_LEN + 1])
{
	if (smb_snap_name(smb_gmt_format, t, out, SMB_GMT_TOKEN_LEN + 1) < 0)
		out[0] = 0;
}

int smb_gmt_strip(char *path, u64 *t)
{
	static const char tag[] = "@GMT-";
	char *start = NULL, *end, *p;
	size_t rest;

	/* The first "@GMT-", as Samba looks: no other is tried. */
	for (p = path; *p; p++) {
		if (!strncmp(p, tag, sizeof(tag) - 1)) {
			start = p;
			break;
		}
	}
	if (!start || (start > path && start[-1] != '/'))
		return 0;
	for (end = start; *end && *end != '/'; end++)
		;
	if (smb_gmt_token_parse(start, (u32)(end - start), t))
		return 0;
	if (*end == '/') {
		end++;
	} else if (start > path) {
		/* The last component: the separator before it goes. */
		start--;
	}
	rest = strlen(end);
	memmove(start, end, rest + 1);
	return 1;
}

int smb_twrp_decode(const u8 *data, u32 len, u64 *t)
{
	u64 ft;

	if (!data || len < 8)
		return -EINVAL;
	ft = get_unaligned_le64(data);
	if (ft < SMB_SNAP_FILETIME_1970)
		return -ERANGE;
	ft = (ft - SMB_SNAP_FILETIME_1970) / SMB_SNAP_FILETIME_HZ;
	if (ft > SMB_SNAP_TIME_MAX)
		return -ERANGE;
	*t = ft;
	return 0;
}

/* ---- SRV_SNAPSHOT_ARRAY ------------------------------------------------- */

u32 smb_snap_array_size(u32 n)
{
	return n * SMB_SNAP_ARRAY_ENTRY + 2;
}

u32 smb_snap_array_encode(u8 *out, u32 max_out, const u64 *t, u32 n)
{
	char tok[SMB_GMT_TOKEN_LEN + 1];
	u32 size, i, j;
	u8 *p;

	/* Past this many, the size would not fit in 32 bits. */
	if (n > (0xffffffffu - SMB_SNAP_ARRAY_HDR - 2) / SMB_SNAP_ARRAY_ENTRY)
		n = (0xffffffffu - SMB_SNAP_ARRAY_HDR - 2) /
		    SMB_SNAP_ARRAY_ENTRY;
	size = smb_snap_array_size(n);
	put_unaligned_le32(n, out);
	put_unaligned_le32(size, out + 8);
	if (max_out < SMB_SNAP_ARRAY_HDR + size) {
		put_unaligned_le32(0, out + 4);
		put_unaligned_le32(0, out + SMB_SNAP_ARRAY_HDR);
		return SMB_SNAP_ARRAY_MIN_OUT;
	}
	put_unaligned_le32(n, out + 4);
	p = out + SMB_SNAP_ARRAY_HDR;
	for (i = 0; i < n; i++) {
		smb_gmt_token(t[i] > SMB_SNAP_TIME_MAX ? SMB_SNAP_TIME_MAX :
			      t[i], tok);
		for (j = 0; j <= SMB_GMT_TOKEN_LEN; j++) {
			put_unaligned_le16((u8)tok[j], p);
			p += 2;
		}
	}
	put_unaligned_le16(0, p);
	return SMB_SNAP_ARRAY_HDR + size;
}
