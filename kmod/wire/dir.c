// SPDX-License-Identifier: GPL-2.0
/*
 * QUERY_DIRECTORY: request, entries, search patterns, 8.3 names.
 */
#include "compat.h"
#include "dir.h"
#include "info.h"
#include "ntstatus.h"
#include "pdu.h"
#include "posix.h"
#include "unicode.h"
#include "utf16.h"

u32 smb2_query_dir_req_decode(const u8 *pdu, u32 pdu_len,
			      struct smb2_query_dir_req *r)
{
	const u8 *body;
	u32 off;

	if (pdu_len < SMB2_HDR_SIZE ||
	    smb2_body_check(pdu + SMB2_HDR_SIZE, pdu_len - SMB2_HDR_SIZE,
			    SMB2_QDIR_REQ_SIZE))
		return STATUS_INVALID_PARAMETER;
	body = pdu + SMB2_HDR_SIZE;
	r->info_class = body[SMB2_QDIR_REQ_INFO_CLASS];
	r->flags = body[SMB2_QDIR_REQ_FLAGS];
	r->file_index = get_unaligned_le32(body + SMB2_QDIR_REQ_FILE_INDEX);
	r->file_id = body + SMB2_QDIR_REQ_FILE_ID;
	off = get_unaligned_le16(body + SMB2_QDIR_REQ_NAME_OFFSET);
	r->name_len = get_unaligned_le16(body + SMB2_QDIR_REQ_NAME_LENGTH);
	r->out_len = get_unaligned_le32(body + SMB2_QDIR_REQ_OUTPUT_LENGTH);
	if (smb2_field(pdu, pdu_len, off, r->name_len,
		       SMB2_HDR_SIZE + SMB2_QDIR_REQ_BUFFER, &r->name))
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

/* ---- entries ------------------------------------------------------------ */

/* Where the fields of each class are (0: the class has no such field). */
struct smb_dirent_layout {
	u8 cls;
	u8 name_len_off;
	u8 ea_off;		/* EaSize */
	u8 reparse_off;		/* ReparsePointTag, else the tag is in EaSize */
	u8 id_off;		/* 8-byte FileId */
	u8 id128_off;		/* 16-byte FileId */
	u8 short_off;		/* ShortNameLength, Reserved, ShortName[24] */
	u8 fixed;		/* FileName */
};

static const struct smb_dirent_layout smb_dirent_layouts[] = {
	{ FILE_DIRECTORY_INFORMATION, 60, 0, 0, 0, 0, 0, 64 },
	{ FILE_FULL_DIRECTORY_INFORMATION, 60, 64, 0, 0, 0, 0, 68 },
	{ FILE_BOTH_DIRECTORY_INFORMATION, 60, 64, 0, 0, 0, 68, 94 },
	{ FILE_NAMES_INFORMATION, 8, 0, 0, 0, 0, 0, 12 },
	{ FILE_ID_BOTH_DIRECTORY_INFORMATION, 60, 64, 0, 96, 0, 68, 104 },
	{ FILE_ID_FULL_DIRECTORY_INFORMATION, 60, 64, 0, 72, 0, 0, 80 },
	{ FILE_ID_EXTD_DIRECTORY_INFORMATION, 60, 64, 68, 0, 72, 0, 88 },
	{ FILE_ID_64_EXTD_DIRECTORY_INFORMATION, 60, 64, 68, 72, 0, 0, 80 },
	{ FILE_ID_64_EXTD_BOTH_DIRECTORY_INFORMATION, 60, 64, 68, 72, 0, 80, 106 },
	{ FILE_ID_ALL_EXTD_DIRECTORY_INFORMATION, 60, 64, 68, 72, 80, 0, 96 },
	{ FILE_ID_ALL_EXTD_BOTH_DIRECTORY_INFORMATION, 60, 64, 68, 72, 80, 96, 122 },
};

static const struct smb_dirent_layout *smb_dirent_layout(u8 cls)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(smb_dirent_layouts); i++)
		if (smb_dirent_layouts[i].cls == cls)
			return &smb_dirent_layouts[i];
	return NULL;
}

u32 smb_dirent_fixed(u8 cls)
{
	const struct smb_dirent_layout *l = smb_dirent_layout(cls);

	if (cls == SMB_FIND_FILE_POSIX_INFO)
		return SMB_POSIX_DIRENT_FIXED;
	return l ? l->fixed : 0;
}

/* SMB_FIND_FILE_POSIX_INFO (posix.h). */
static int smb_posix_dirent_encode(const struct smb_dirent *e,
				   const struct smb_out *o, u32 off)
{
	u32 name_off = off + SMB_POSIX_DIRENT_FIXED, cap;
	struct smb_posix_info pi = {
		.creation_time = e->creation_time,
		.access_time = e->access_time,
		.write_time = e->write_time,
		.change_time = e->change_time,
		.eof = e->eof,
		.allocation = e->allocation,
		.attributes = e->attributes,
		.ino = e->file_id,
		.dev = e->dev,
		.nlink = e->nlink,
		.reparse_tag = e->reparse_tag,
		.mode = e->mode,
		.uid = e->uid,
		.gid = e->gid,
	};
	int n;

	cap = name_off < o->cap ? o->cap - name_off : 0;
	n = smb_utf8_to_utf16le(e->name, e->name_len,
				cap ? o->buf + name_off : NULL, cap,
				SMB_UTF16_PARTIAL);
	if (n < 0)
		return n;
	smb_out_le32(o, off, 0);
	smb_out_le32(o, off + 4, e->file_index);
	smb_posix_info_encode(&pi, o, off + 8);
	smb_out_le32(o, off + SMB_POSIX_DIRENT_NAME_LEN, (u32)n);
	return (int)(SMB_POSIX_DIRENT_FIXED + (u32)n);
}

int smb_dirent_encode(u8 cls, const struct smb_dirent *e,
		      const struct smb_out *o, u32 off)
{
	const struct smb_dirent_layout *l = smb_dirent_layout(cls);
	u32 name_off, cap;
	int n;

	if (cls == SMB_FIND_FILE_POSIX_INFO)
		return smb_posix_dirent_encode(e, o, off);
	if (!l)
		return -EINVAL;
	name_off = off + l->fixed;
	cap = name_off < o->cap ? o->cap - name_off : 0;
	n = smb_utf8_to_utf16le(e->name, e->name_len,
				cap ? o->buf + name_off : NULL, cap,
				SMB_UTF16_PARTIAL);
	if (n < 0)
		return n;
	smb_out_le32(o, off, 0);
	smb_out_le32(o, off + 4, e->file_index);
	smb_out_le32(o, off + l->name_len_off, (u32)n);
	if (cls == FILE_NAMES_INFORMATION)
		return (int)(l->fixed + (u32)n);

	smb_out_le64(o, off + 8, e->creation_time);
	smb_out_le64(o, off + 16, e->access_time);
	smb_out_le64(o, off + 24, e->write_time);
	smb_out_le64(o, off + 32, e->change_time);
	smb_out_le64(o, off + 40, e->eof);
	smb_out_le64(o, off + 48, e->allocation);
	smb_out_le32(o, off + 56, e->attributes);
	if (l->ea_off) {
		/* Without a tag field, a reparse point's tag replaces EaSize. */
		if (!l->reparse_off &&
		    (e->attributes & 0x400 /* FILE_ATTRIBUTE_REPARSE_POINT */))
			smb_out_le32(o, off + l->ea_off, e->reparse_tag);
		else
			smb_out_le32(o, off + l->ea_off, e->ea_size);
	}
	if (l->reparse_off && (e->attributes & 0x400))
		smb_out_le32(o, off + l->reparse_off, e->reparse_tag);
	if (l->id_off)
		smb_out_le64(o, off + l->id_off, e->file_id);
	if (l->id128_off)
		smb_out_le64(o, off + l->id128_off, e->file_id);
	if (e->aapl && cls == FILE_ID_BOTH_DIRECTORY_INFORMATION) {
		/* Max access, fork size and Finder info, mode (Reserved2). */
		smb_out_le32(o, off + l->ea_off, e->aapl->max_access);
		smb_out_u8(o, off + l->short_off, 24);
		smb_out_le64(o, off + l->short_off + 2, e->aapl->rfork_size);
		smb_out_bytes(o, off + l->short_off + 10, e->aapl->finder, 16);
		smb_out_le16(o, off + l->short_off + 26, e->aapl->mode);
	} else if (l->short_off && e->short_len && e->short_len <= 24) {
		smb_out_u8(o, off + l->short_off, (u8)e->short_len);
		smb_out_bytes(o, off + l->short_off + 2, e->short_name,
			      e->short_len);
	}
	return (int)(l->fixed + (u32)n);
}

void smb_dirent_link(const struct smb_out *o, u32 off, u32 next)
{
	smb_out_le32(o, off, next);
}

void smb_dirent_set_name_len(u8 cls, const struct smb_out *o, u32 off,
			     u32 len)
{
	const struct smb_dirent_layout *l = smb_dirent_layout(cls);

	if (cls == SMB_FIND_FILE_POSIX_INFO)
		smb_out_le32(o, off + SMB_POSIX_DIRENT_NAME_LEN, len & ~1u);
	else if (l)
		smb_out_le32(o, off + l->name_len_off, len & ~1u);
}

/* ---- patterns (MS-FSA 2.1.4.4) ------------------------------------------ */

#define SMB_DOS_STAR	'<'
#define SMB_DOS_QM	'>'
#define SMB_DOS_DOT	'"'

u32 smb_pattern_compile(const u8 *name, u32 bytes, struct smb_pattern *p)
{
	u32 i = 0, c, lo;

	p->len = 0;
	p->wild = false;
	if (bytes % 2)
		return STATUS_INVALID_PARAMETER;
	if (!bytes) {
		p->cp[0] = '*';
		p->len = 1;
		p->any = true;
		p->wild = true;
		return STATUS_SUCCESS;
	}
	while (i < bytes) {
		c = get_unaligned_le16(name + i);
		i += 2;
		if (c >= 0xd800 && c <= 0xdbff) {
			if (i >= bytes)
				return STATUS_OBJECT_NAME_INVALID;
			lo = get_unaligned_le16(name + i);
			if (lo < 0xdc00 || lo > 0xdfff)
				return STATUS_OBJECT_NAME_INVALID;
			i += 2;
			c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
		} else if ((c >= 0xdc00 && c <= 0xdfff) || !c || c == '\\' ||
			   c == '/') {
			return STATUS_OBJECT_NAME_INVALID;
		}
		if (p->len == SMB_PATTERN_MAX)
			return STATUS_OBJECT_NAME_INVALID;
		if (c == '*' || c == '?' || c == SMB_DOS_STAR ||
		    c == SMB_DOS_QM || c == SMB_DOS_DOT)
			p->wild = true;
		p->cp[p->len++] = smb_upcase(c);
	}
	p->any = p->len == 1 && p->cp[0] == '*';
	return STATUS_SUCCESS;
}

#define SMB_PSET_WORDS	((SMB_PATTERN_MAX + 1 + 63) / 64)

struct smb_pset {
	u64 w[SMB_PSET_WORDS];
};

static void smb_pset_add(struct smb_pset *s, u32 i)
{
	s->w[i / 64] |= 1ULL << (i % 64);
}

static bool smb_pset_has(const struct smb_pset *s, u32 i)
{
	return s->w[i / 64] & (1ULL << (i % 64));
}

static bool smb_pset_empty(const struct smb_pset *s)
{
	u32 i;

	for (i = 0; i < SMB_PSET_WORDS; i++)
		if (s->w[i])
			return false;
	return true;
}

/*
 * Add the states reachable from @s without consuming a character: '*' and
 * '<' match nothing, '>' matches nothing before a '.' or at the end, '"'
 * matches nothing at the end.  @c is the next character (0 at the end).
 * States are in increasing order and only move forward, so one pass does.
 */
static void smb_pset_close(const struct smb_pattern *p, struct smb_pset *s,
			   u32 c, bool end)
{
	u32 i, t;

	for (i = 0; i < p->len; i++) {
		if (!smb_pset_has(s, i))
			continue;
		t = p->cp[i];
		if (t == '*' || t == SMB_DOS_STAR ||
		    (t == SMB_DOS_QM && (end || c == '.')) ||
		    (t == SMB_DOS_DOT && end))
			smb_pset_add(s, i + 1);
	}
}

bool smb_pattern_match(const struct smb_pattern *p, const char *name,
		       u32 len)
{
	struct smb_pset cur = {}, next;
	u32 pos = 0, last_dot = len, i, c, t, at;
	bool final_dot;

	if (p->any)
		return true;
	for (i = 0; i < len; i++)
		if (name[i] == '.')
			last_dot = i;
	smb_pset_add(&cur, 0);
	while (pos < len) {
		at = pos;
		c = smb_utf8_next(name, len, &pos);
		if (c == SMB_UCS_BAD)
			c = 0xfffd;	/* matches only wildcards */
		c = smb_upcase(c);
		final_dot = at == last_dot;
		smb_pset_close(p, &cur, c, false);
		memset(&next, 0, sizeof(next));
		for (i = 0; i < p->len; i++) {
			if (!smb_pset_has(&cur, i))
				continue;
			t = p->cp[i];
			if (t == '*') {
				smb_pset_add(&next, i);
			} else if (t == SMB_DOS_STAR) {
				if (!final_dot)
					smb_pset_add(&next, i);
			} else if (t == SMB_DOS_QM) {
				if (c != '.')
					smb_pset_add(&next, i + 1);
			} else if (t == SMB_DOS_DOT) {
				if (c == '.')
					smb_pset_add(&next, i + 1);
			} else if (t == '?' || t == c) {
				smb_pset_add(&next, i + 1);
			}
		}
		cur = next;
		if (smb_pset_empty(&cur))
			return false;
	}
	smb_pset_close(p, &cur, 0, true);
	return smb_pset_has(&cur, p->len);
}

/* ---- 8.3 names ---------------------------------------------------------- */

static bool smb_83_char(unsigned char c)
{
	if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9'))
		return true;
	return c && strchr("!#$%&'()-@^_`{}~", c);
}

static unsigned char smb_83_upper(unsigned char c)
{
	return c >= 'a' && c <= 'z' ? (unsigned char)(c - 0x20) : c;
}

/* Already 8.3: a base of 1-8 and an optional extension of 1-3 chars. */
static bool smb_is_83(const char *name, u32 len)
{
	u32 i, dot = len;

	for (i = 0; i < len; i++) {
		if (name[i] == '.') {
			if (dot != len)
				return false;
			dot = i;
		} else if (!smb_83_char((unsigned char)name[i])) {
			return false;
		}
	}
	if (!dot || dot > 8)
		return false;
	return dot == len || (len - dot - 1 >= 1 && len - dot - 1 <= 3);
}

u32 smb_short_name(const char *name, u32 len, u8 out[24])
{
	static const char b36[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char s[12];
	u32 i, n = 0, k, dot = len, h = 2166136261u, pos = 0, c;

	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return 0;
	if (smb_is_83(name, len)) {
		for (i = 0; i < len; i++)
			put_unaligned_le16(smb_83_upper((unsigned char)name[i]),
					   out + 2 * i);
		return 2 * len;
	}
	/* FNV-1a over the name's upper-case code points. */
	while (pos < len) {
		c = smb_upcase(smb_utf8_next(name, len, &pos));
		for (k = 0; k < 4; k++) {
			h ^= (c >> (8 * k)) & 0xff;
			h *= 16777619u;
		}
	}
	for (i = 0; i < len; i++)
		if (name[i] == '.')
			dot = i;
	/* A leading dot is not an extension (".profile"). */
	if (dot == 0)
		dot = len;
	for (i = 0; i < dot && n < 4; i++)
		if (smb_83_char((unsigned char)name[i]))
			s[n++] = (char)smb_83_upper((unsigned char)name[i]);
	s[n++] = '~';
	for (k = 0; k < 3; k++) {
		s[n++] = b36[h % 36];
		h /= 36;
	}
	if (dot < len) {
		k = n;
		for (i = dot + 1; i < len && n - k < 3 + 1; i++) {
			if (!smb_83_char((unsigned char)name[i]))
				continue;
			if (n == k)
				s[n++] = '.';
			s[n++] = (char)smb_83_upper((unsigned char)name[i]);
		}
	}
	for (i = 0; i < n; i++)
		put_unaligned_le16((u8)s[i], out + 2 * i);
	return 2 * n;
}
