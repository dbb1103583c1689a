// SPDX-License-Identifier: GPL-2.0
/*
 * Apple's SMB2 extensions: the AAPL context, AfpInfo, AppleDouble,
 * ReadDirAttr, Time Machine's band size (see aapl.h).
 */
#include "aapl.h"
#include "ntstatus.h"
#include "utf16.h"

/* ---- the AAPL create context -------------------------------------------- */

u32 smb2_aapl_req_decode(const u8 *data, u32 len, struct smb2_aapl_req *q)
{
	if (!data || len != SMB2_AAPL_REQ_SIZE)
		return STATUS_INVALID_PARAMETER;
	q->command = get_unaligned_le32(data);
	q->bitmap = get_unaligned_le64(data + 8);
	q->client_caps = get_unaligned_le64(data + 16);
	if (q->command != SMB2_AAPL_SERVER_QUERY)
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

int smb2_aapl_rsp_encode(u8 *buf, u32 cap, const struct smb2_aapl_rsp *r)
{
	u32 off = 16;
	int n;

	if (cap < SMB2_AAPL_RSP_MAX || r->model_len > SMB2_AAPL_MODEL_MAX)
		return -EINVAL;
	memset(buf, 0, 16);
	put_unaligned_le32(SMB2_AAPL_SERVER_QUERY, buf);
	put_unaligned_le64(r->bitmap, buf + 8);
	if (r->bitmap & SMB2_AAPL_SERVER_CAPS) {
		put_unaligned_le64(r->server_caps, buf + off);
		off += 8;
	}
	if (r->bitmap & SMB2_AAPL_VOLUME_CAPS) {
		put_unaligned_le64(r->volume_caps, buf + off);
		off += 8;
	}
	if (r->bitmap & SMB2_AAPL_MODEL_INFO) {
		n = r->model_len ?
			smb_utf8_to_utf16le(r->model, r->model_len,
					    buf + off + 8, cap - off - 8, 0) :
			0;
		if (n < 0)
			return -EINVAL;
		put_unaligned_le32(0, buf + off);	/* Pad */
		put_unaligned_le32((u32)n, buf + off + 4);
		off += 8 + (u32)n;
	}
	return (int)off;
}

/* ---- AFP_AfpInfo and AFP_Resource --------------------------------------- */

static bool smb_afp_name_is(const char *name, u32 len, const char *want)
{
	u32 i, wlen = (u32)strlen(want);
	char a, b;

	if (len != wlen)
		return false;
	for (i = 0; i < len; i++) {
		a = name[i];
		b = want[i];
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return false;
	}
	return true;
}

enum smb_afp_stream smb_afp_stream_kind(const char *name, u32 len)
{
	/* "NAME:$DATA" names the same stream. */
	if (len > 6 && smb_afp_name_is(name + len - 6, 6, ":$DATA"))
		len -= 6;
	if (smb_afp_name_is(name, len, SMB_AFPINFO_STREAM))
		return SMB_AFP_INFO;
	if (smb_afp_name_is(name, len, SMB_AFPRESOURCE_STREAM))
		return SMB_AFP_RESOURCE;
	return SMB_AFP_NONE;
}

void smb_afpinfo_init(u8 out[SMB_AFPINFO_SIZE], const u8 *finder)
{
	memset(out, 0, SMB_AFPINFO_SIZE);
	put_unaligned_be32(SMB_AFP_SIGNATURE, out);
	put_unaligned_be32(SMB_AFP_VERSION, out + 4);
	put_unaligned_be32(SMB_AD_DATE_START, out + 12);
	if (finder)
		memcpy(out + SMB_AFPINFO_FINDER_OFF, finder,
		       SMB_AFP_FINDER_SIZE);
}

static bool smb_afpinfo_header_ok(const u8 *val)
{
	return get_unaligned_be32(val) == SMB_AFP_SIGNATURE &&
	       get_unaligned_be32(val + 4) == SMB_AFP_VERSION;
}

bool smb_afpinfo_stored_valid(const u8 *val, u32 len)
{
	if (len == SMB_AFPINFO_SIZE + 1 && val[SMB_AFPINFO_SIZE] == 0)
		len = SMB_AFPINFO_SIZE;
	return len == SMB_AFPINFO_SIZE && smb_afpinfo_header_ok(val);
}

static bool smb_all_zero(const u8 *p, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

int smb_afpinfo_write(const u8 *data, u32 len, u64 off,
		      u8 out[SMB_AFPINFO_SIZE], bool *empty)
{
	*empty = false;
	if (len < 3 || (off != 0 && len < SMB_AFPINFO_SIZE) ||
	    memcmp(data, "AFP", 3))
		return -EINVAL;
	if (len <= SMB_AFPINFO_FINDER_OFF)
		return 0;
	memset(out, 0, SMB_AFPINFO_SIZE);
	memcpy(out, data, len < SMB_AFPINFO_SIZE ? len : SMB_AFPINFO_SIZE);
	if (!smb_afpinfo_header_ok(out))
		return -EINVAL;
	*empty = smb_all_zero(out + SMB_AFPINFO_FINDER_OFF,
			      SMB_AFP_FINDER_SIZE);
	return 1;
}

u32 smb_afpinfo_read_len(u64 off, u32 len)
{
	if (off > SMB_AFPINFO_SIZE)
		return 0;
	return len < SMB_AFPINFO_SIZE ? len : SMB_AFPINFO_SIZE;
}

/* Apple's placeholder: "This resource fork intentionally left blank". */
static const u8 smb_blank_rfork_head[] = {
	0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1E,
	'T', 'h', 'i', 's', ' ', 'r', 'e', 's', 'o', 'u', 'r', 'c', 'e', ' ',
	'f', 'o', 'r', 'k', ' ', 'i', 'n', 't', 'e', 'n', 't', 'i', 'o',
	'n', 'a', 'l', 'l', 'y', ' ', 'l', 'e', 'f', 't', ' ', 'b', 'l',
	'a', 'n', 'k', ' ', ' ', ' ',
};

static const u8 smb_blank_rfork_tail[] = {
	0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1E,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x1C, 0x00, 0x1E, 0xFF, 0xFF,
};

bool smb_rfork_is_blank(const u8 *data, u32 len)
{
	u32 head = sizeof(smb_blank_rfork_head);
	u32 tail = sizeof(smb_blank_rfork_tail);

	if (len != SMB_BLANK_RFORK_SIZE)
		return false;
	return !memcmp(data, smb_blank_rfork_head, head) &&
	       smb_all_zero(data + head, len - head - tail) &&
	       !memcmp(data + len - tail, smb_blank_rfork_tail, tail);
}

/* ---- AppleDouble -------------------------------------------------------- */

/* AppleDouble's private entry IDs (netatalk's dev, inode, syn, id). */
#define SMB_AD_DEV	0x80444556u
#define SMB_AD_INO	0x80494E4Fu
#define SMB_AD_SYN	0x8053594Eu
#define SMB_AD_ID	0x8053567Eu
#define SMB_ADEID_COMMENT	4
#define SMB_ADEID_AFPFILEI	14
/* Entries in a header, at most (netatalk writes 8, macOS 2). */
#define SMB_AD_ENTRIES_MAX	32

#define SMB_AD_XATTR_MAGIC	0x41545452u	/* "ATTR" */
#define SMB_AD_XATTR_HDR_SIZE	36
#define SMB_AD_XATTR_ENT_FIXED	11

static int smb_adouble_parse_xattrs(const u8 *buf, u32 len,
				    struct smb_adouble *ad)
{
	u32 hoff, total, start, dlen, count, i, off, vlen, nlen;

	/* The "ATTR" header follows the Finder info and 2 bytes of pad. */
	hoff = ad->finder_off + SMB_AFP_FINDER_SIZE + 2;
	if (hoff + SMB_AD_XATTR_HDR_SIZE > len ||
	    hoff + SMB_AD_XATTR_HDR_SIZE > ad->finder_off + ad->finder_len)
		return -EINVAL;
	if (get_unaligned_be32(buf + hoff) != SMB_AD_XATTR_MAGIC)
		return -EINVAL;
	total = get_unaligned_be32(buf + hoff + 8);
	start = get_unaligned_be32(buf + hoff + 12);
	dlen = get_unaligned_be32(buf + hoff + 16);
	count = get_unaligned_be16(buf + hoff + 34);
	if (total > len || total > SMB_AD_HDR_MAX ||
	    (ad->rfork_off && total > ad->rfork_off) ||
	    start < hoff + SMB_AD_XATTR_HDR_SIZE || start > total ||
	    dlen > total - start || count > SMB_AD_XATTR_MAX)
		return -EINVAL;
	off = hoff + SMB_AD_XATTR_HDR_SIZE;
	ad->xattr_pos = off;
	for (i = 0; i < count; i++) {
		off = (off + 3) & ~3u;
		if (off + SMB_AD_XATTR_ENT_FIXED > start)
			return -EINVAL;
		vlen = get_unaligned_be32(buf + off + 4);
		nlen = buf[off + 10];
		if (get_unaligned_be32(buf + off) >= total ||
		    vlen > total - get_unaligned_be32(buf + off) || !nlen ||
		    nlen > start - off - SMB_AD_XATTR_ENT_FIXED)
			return -EINVAL;
		off += SMB_AD_XATTR_ENT_FIXED + nlen;
	}
	ad->xattr_count = count;
	return 0;
}

int smb_adouble_parse(const u8 *buf, u32 len, u64 size, bool xattrs,
		      struct smb_adouble *ad)
{
	u32 n, i, id, off, elen;
	const u8 *e;

	memset(ad, 0, sizeof(*ad));
	if (len < SMB_AD_HEADER_LEN || size < len ||
	    get_unaligned_be32(buf) != SMB_AD_MAGIC ||
	    get_unaligned_be32(buf + 4) != SMB_AD_VERSION2)
		return -EINVAL;
	ad->osx = !memcmp(buf + 8, SMB_AD_FILLER_OSX, 16);
	n = get_unaligned_be16(buf + 24);
	if (!n || n > SMB_AD_ENTRIES_MAX ||
	    SMB_AD_HEADER_LEN + n * SMB_AD_ENTRY_LEN > len)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		e = buf + SMB_AD_HEADER_LEN + i * SMB_AD_ENTRY_LEN;
		id = get_unaligned_be32(e);
		off = get_unaligned_be32(e + 4);
		elen = get_unaligned_be32(e + 8);
		if (!id || (id > 19 && id != SMB_AD_DEV && id != SMB_AD_INO &&
			    id != SMB_AD_SYN && id != SMB_AD_ID))
			return -EINVAL;
		if (off > size)
			return -EINVAL;
		if (id == SMB_ADEID_RFORK) {
			/* Cut to the file, as netatalk and Samba do. */
			if (elen > size - off)
				elen = (u32)(size - off);
			ad->rfork_off = off;
			ad->rfork_len = elen;
			continue;
		}
		if (off > len || elen > len - off)
			return -EINVAL;
		if (id == SMB_ADEID_FINDERI) {
			if (elen < SMB_AFP_FINDER_SIZE)
				return -EINVAL;
			ad->finder_off = off;
			ad->finder_len = elen;
		} else if (id == SMB_ADEID_FILEDATESI) {
			ad->dates_off = off;
			ad->dates_len = elen;
		}
	}
	if (xattrs && ad->finder_len > SMB_AFP_FINDER_SIZE)
		return smb_adouble_parse_xattrs(buf, len, ad);
	return 0;
}

int smb_adouble_xattr(const u8 *buf, u32 len, const struct smb_adouble *ad,
		      u32 *index, u32 *pos, struct smb_ad_xattr *x)
{
	u32 off = (*pos + 3) & ~3u, nlen;

	if (*index >= ad->xattr_count)
		return 0;
	/* smb_adouble_parse() checked every entry against the blob. */
	if (off + SMB_AD_XATTR_ENT_FIXED > len)
		return 0;
	x->off = get_unaligned_be32(buf + off);
	x->len = get_unaligned_be32(buf + off + 4);
	nlen = buf[off + 10];
	if (off + SMB_AD_XATTR_ENT_FIXED + nlen > len)
		return 0;
	x->name = (const char *)buf + off + SMB_AD_XATTR_ENT_FIXED;
	/* The length counts the NUL that ends the name. */
	x->name_len = (u32)strnlen(x->name, nlen);
	*pos = off + SMB_AD_XATTR_ENT_FIXED + nlen;
	(*index)++;
	return 1;
}

int smb_adouble_stream_name(const char *name, u32 len, char *out, u32 cap)
{
	static const char map[] = "\"*:<>?\\|";
	const char *m;
	u32 i, n = 0, cp;
	u8 c;

	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		c = (u8)name[i];
		if (!c || c == '/')
			return -EINVAL;
		m = c >= 0x20 ? strchr(map, c) : NULL;
		if (c >= 0x20 && !m) {
			if (n + 1 > cap)
				return -EINVAL;
			out[n++] = (char)c;
			continue;
		}
		cp = c < 0x20 ? 0xf000u + c : 0xf020u + (u32)(m - map);
		if (n + 3 > cap)
			return -EINVAL;
		out[n++] = (char)(0xe0 | (cp >> 12));
		out[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[n++] = (char)(0x80 | (cp & 0x3f));
	}
	return (int)n;
}

static void smb_ad_entry(u8 *hdr, u32 i, u32 id, u32 off, u32 len)
{
	u8 *e = hdr + SMB_AD_HEADER_LEN + i * SMB_AD_ENTRY_LEN;

	put_unaligned_be32(id, e);
	put_unaligned_be32(off, e + 4);
	put_unaligned_be32(len, e + 8);
}

void smb_adouble_meta_init(u8 out[SMB_AD_META_SIZE], const u8 *finder,
			   s64 now)
{
	u32 t = (u32)(now - SMB_AD_DATE_DELTA);

	memset(out, 0, SMB_AD_META_SIZE);
	put_unaligned_be32(SMB_AD_MAGIC, out);
	put_unaligned_be32(SMB_AD_VERSION2, out + 4);
	put_unaligned_be16(8, out + 24);
	/* Samba's order and offsets (entries by ID, data from 122). */
	smb_ad_entry(out, 0, SMB_ADEID_COMMENT, 154, 0);
	smb_ad_entry(out, 1, SMB_ADEID_FILEDATESI, 354, 16);
	smb_ad_entry(out, 2, SMB_ADEID_FINDERI, 122, SMB_AFP_FINDER_SIZE);
	smb_ad_entry(out, 3, SMB_ADEID_AFPFILEI, 370, 4);
	smb_ad_entry(out, 4, SMB_AD_DEV, 374, 0);
	smb_ad_entry(out, 5, SMB_AD_INO, 382, 0);
	smb_ad_entry(out, 6, SMB_AD_SYN, 390, 0);
	smb_ad_entry(out, 7, SMB_AD_ID, 398, 0);
	if (finder)
		memcpy(out + 122, finder, SMB_AFP_FINDER_SIZE);
	put_unaligned_be32(t, out + 354);		/* created */
	put_unaligned_be32(t, out + 358);		/* modified */
	put_unaligned_be32(SMB_AD_DATE_START, out + 362);	/* backup */
	put_unaligned_be32(t, out + 366);		/* accessed */
}

void smb_adouble_dot_und_init(u8 out[SMB_AD_DOT_UND_SIZE], const u8 *finder,
			      u32 rfork_len)
{
	memset(out, 0, SMB_AD_DOT_UND_SIZE);
	put_unaligned_be32(SMB_AD_MAGIC, out);
	put_unaligned_be32(SMB_AD_VERSION2, out + 4);
	memcpy(out + 8, "Netatalk        ", 16);
	put_unaligned_be16(2, out + 24);
	smb_ad_entry(out, 0, SMB_ADEID_RFORK, SMB_AD_DOT_UND_SIZE, rfork_len);
	smb_ad_entry(out, 1, SMB_ADEID_FINDERI, 50, SMB_AFP_FINDER_SIZE);
	if (finder)
		memcpy(out + 50, finder, SMB_AFP_FINDER_SIZE);
}

/* ---- ReadDirAttr -------------------------------------------------------- */

void smb_aapl_finder_compress(u8 out[16], const u8 *afpinfo, bool regular,
			      s64 btime)
{
	const u8 *fi = afpinfo ? afpinfo + SMB_AFPINFO_FINDER_OFF : NULL;

	memset(out, 0, 16);
	if (!fi) {
		put_unaligned_be32(SMB_AD_DATE_START, out + 12);
		return;
	}
	if (regular)
		memcpy(out, fi, 8);		/* type, creator */
	memcpy(out + 8, fi + 8, 2);		/* Finder flags */
	memcpy(out + 10, fi + 24, 2);		/* extended flags */
	put_unaligned_be32((u32)(btime - SMB_AD_DATE_DELTA), out + 12);
}

/* ---- Time Machine ------------------------------------------------------- */

/* The line at *@pos without its leading blanks and its end; advances. */
static const char *smb_plist_line(const char *p, u32 len, u32 *pos,
				  u32 *llen)
{
	u32 s = *pos, e;

	while (s < len && (p[s] == ' ' || p[s] == '\t'))
		s++;
	e = s;
	while (e < len && p[e] != '\n')
		e++;
	*pos = e < len ? e + 1 : e;
	*llen = e - s;
	/* A CR before the LF ends the line too. */
	if (*llen && p[e - 1] == '\r')
		(*llen)--;
	return p + s;
}

int smb_tm_band_size(const char *plist, u32 len, u64 *size)
{
	static const char key[] = "<key>band-size</key>";
	static const char open[] = "<integer>", close[] = "</integer>";
	u32 pos = 0, llen, i, o = sizeof(open) - 1, c = sizeof(close) - 1;
	const char *l;
	u64 v = 0;

	while (pos < len) {
		l = smb_plist_line(plist, len, &pos, &llen);
		if (llen != sizeof(key) - 1 || memcmp(l, key, llen))
			continue;
		if (pos >= len)
			return -EINVAL;
		l = smb_plist_line(plist, len, &pos, &llen);
		if (llen <= o + c || memcmp(l, open, o) ||
		    memcmp(l + llen - c, close, c))
			return -EINVAL;
		for (i = o; i < llen - c; i++) {
			if (l[i] < '0' || l[i] > '9' ||
			    v > (~0ULL - 9) / 10)
				return -EINVAL;
			v = v * 10 + (u64)(l[i] - '0');
		}
		*size = v;
		return 0;
	}
	return -EINVAL;
}
