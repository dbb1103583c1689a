// SPDX-License-Identifier: GPL-2.0
/*
 * Client file names to share-relative paths; veto patterns.
 */
#include "compat.h"
#include "name.h"
#include "ntstatus.h"
#include "utf16.h"

/* Characters Windows does not allow in a file name (MS-FSCC 2.1.5.2). */
static bool smb_name_char_bad(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '*' || c == '/' || c == '<' ||
	       c == '>' || c == '?' || c == '|';
}

static bool smb_ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a, y = *b;

		if (x >= 'a' && x <= 'z')
			x = (char)(x - 'a' + 'A');
		if (y >= 'a' && y <= 'z')
			y = (char)(y - 'a' + 'A');
		if (x != y)
			return false;
	}
	return *a == *b;
}

/*
 * The stream part after the first ':' of the last component, in place:
 * "name", "name:$DATA" or ":$DATA".  Sets *stream to the name, or to ""
 * for the default data stream named as such.
 */
static u32 smb_stream_part(char *s, const char **stream)
{
	char *type = NULL, *p;
	u32 len;

	for (p = s; *p; p++) {
		if (*p == ':') {
			type = p + 1;
			*p = '\0';
			break;
		}
	}
	if (type && !smb_ieq(type, "$DATA"))
		return STATUS_OBJECT_NAME_INVALID;
	len = (u32)strlen(s);
	if (!len) {
		/* "file::$DATA" is the file's data; "file:" names nothing. */
		if (!type)
			return STATUS_OBJECT_NAME_INVALID;
		*stream = s;
		return STATUS_SUCCESS;
	}
	if (len > SMB_NAME_COMPONENT_MAX)
		return STATUS_OBJECT_NAME_INVALID;
	/*
	 * Stream names may hold control characters and wildcards (smbtorture
	 * shows Windows taking "\x05Stream\n One" and "?Stream*"); not a
	 * slash, which would read as a path on Linux.
	 */
	for (p = s; *p; p++)
		if (*p == '/')
			return STATUS_OBJECT_NAME_INVALID;
	*stream = s;
	return STATUS_SUCCESS;
}

u32 smb_name_to_path(const u8 *name, u32 bytes, char *out, u32 cap,
		     const char **stream)
{
	char *p, *comp, *colon;
	u32 len, clen, status;
	int n;

	*stream = NULL;
	if (!cap)
		return STATUS_OBJECT_NAME_INVALID;
	out[0] = '\0';
	if (!bytes)
		return STATUS_SUCCESS;
	if (bytes % 2)
		return STATUS_INVALID_PARAMETER;
	n = smb_utf16le_to_utf8(name, bytes, out, cap);
	if (n < 0)
		return STATUS_OBJECT_NAME_INVALID;
	len = (u32)n;
	/*
	 * '/' separates components as '\\' does, as Samba and ksmbd take it
	 * (Windows answers OBJECT_NAME_INVALID: NTFS has no such separator);
	 * in the path only, a stream name still may not hold one.  The
	 * checks below then see one separator, so a name with '/' reaches
	 * exactly what the same name with '\\' does.  No byte of a UTF-8
	 * sequence but '/' itself is 0x2f.
	 */
	for (p = out; p < out + len && *p != ':'; p++)
		if (*p == '/')
			*p = '\\';
	/* 3.3.5.9: a leading separator is refused (DFS paths aside). */
	if (out[0] == '\\')
		return STATUS_INVALID_PARAMETER;
	/* One trailing separator names the same thing ("dir\"). */
	if (out[len - 1] == '\\')
		out[--len] = '\0';

	colon = memchr(out, ':', len);
	if (colon) {
		/* Streams belong to the last component only. */
		if (memchr(colon, '\\', len - (u32)(colon - out)))
			return STATUS_OBJECT_NAME_INVALID;
		*colon = '\0';
		len = (u32)(colon - out);
		status = smb_stream_part(colon + 1, stream);
		if (status)
			return status;
	}

	p = out;
	for (;;) {
		comp = p;
		while (*p && *p != '\\') {
			if (smb_name_char_bad((unsigned char)*p))
				return STATUS_OBJECT_NAME_INVALID;
			p++;
		}
		clen = (u32)(p - comp);
		if (!clen) {
			if (!len)
				break;	/* the root, with a stream part */
			return STATUS_OBJECT_NAME_INVALID;
		}
		if (clen > SMB_NAME_COMPONENT_MAX)
			return STATUS_OBJECT_NAME_INVALID;
		if (comp[0] == '.' && clen == 1)
			return STATUS_OBJECT_NAME_INVALID;
		if (comp[0] == '.' && comp[1] == '.' && clen == 2)
			return STATUS_OBJECT_PATH_SYNTAX_BAD;
		if (!*p)
			break;
		*p++ = '/';
	}
	return STATUS_SUCCESS;
}

static unsigned char smb_fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* Length of the UTF-8 sequence starting with @c (1 for stray bytes). */
static u32 smb_utf8_len(unsigned char c)
{
	if (c >= 0xf0 && c < 0xf8)
		return 4;
	if (c >= 0xe0)
		return c < 0xf0 ? 3 : 1;
	if (c >= 0xc0)
		return 2;
	return 1;
}

/*
 * Wildcard match of @name[@nlen] against @pat[@plen]: '*' matches any
 * run, '?' one character.  Iterative, remembering the last '*' only, so
 * it is linear in practice and never recurses.
 */
static bool smb_wild_match(const char *pat, u32 plen, const char *name,
			   u32 nlen)
{
	u32 p = 0, n = 0, star_p = 0, star_n = 0, step;
	bool star = false;

	while (n < nlen) {
		if (p < plen && pat[p] == '*') {
			star = true;
			star_p = ++p;
			star_n = n;
			continue;
		}
		if (p < plen && pat[p] == '?') {
			step = smb_utf8_len((unsigned char)name[n]);
			n += step < nlen - n ? step : nlen - n;
			p++;
			continue;
		}
		if (p < plen && smb_fold((unsigned char)pat[p]) ==
				smb_fold((unsigned char)name[n])) {
			p++;
			n++;
			continue;
		}
		if (!star)
			return false;
		p = star_p;
		n = ++star_n;
	}
	while (p < plen && pat[p] == '*')
		p++;
	return p == plen;
}

bool smb_veto_match(const char *list, const char *name, u32 len)
{
	const char *p = list, *end;

	if (!list || !len)
		return false;
	while (*p) {
		while (*p == '/')
			p++;
		end = p;
		while (*end && *end != '/')
			end++;
		if (end > p && smb_wild_match(p, (u32)(end - p), name, len))
			return true;
		p = end;
	}
	return false;
}

bool smb_veto_path(const char *list, const char *path)
{
	const char *p = path, *end;

	if (!list || !*list)
		return false;
	while (*p) {
		end = p;
		while (*end && *end != '/')
			end++;
		if (smb_veto_match(list, p, (u32)(end - p)))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}
