// SPDX-License-Identifier: GPL-2.0
/*
 * File-system IOCTL payloads.
 */
#include "compat.h"
#include "fsctl.h"
#include "utf16.h"

int smb2_copychunk_decode(const u8 *in, u32 len, struct smb2_copychunk_req *r)
{
	if (len < SMB2_COPYCHUNK_HDR)
		return -EINVAL;
	r->key = in;
	r->count = get_unaligned_le32(in + SMB2_COPYCHUNK_COUNT);
	r->chunks = in + SMB2_COPYCHUNK_HDR;
	/* Compared in 64 bits: ChunkCount is whatever the client sent. */
	if ((u64)r->count * SMB2_COPYCHUNK_CHUNK_SIZE >
	    len - SMB2_COPYCHUNK_HDR)
		return -EINVAL;
	return 0;
}

void smb2_copychunk_get(const struct smb2_copychunk_req *r, u32 i,
			struct smb2_copychunk *c)
{
	const u8 *p = r->chunks + (u64)i * SMB2_COPYCHUNK_CHUNK_SIZE;

	c->source = get_unaligned_le64(p);
	c->target = get_unaligned_le64(p + 8);
	c->length = get_unaligned_le32(p + 16);
}

void smb2_copychunk_rsp_encode(u8 *out, u32 chunks, u32 chunk_bytes,
			       u32 total)
{
	put_unaligned_le32(chunks, out);
	put_unaligned_le32(chunk_bytes, out + 4);
	put_unaligned_le32(total, out + 8);
}

void smb2_resume_key_decode(const u8 *key, struct smb2_resume_key *k)
{
	k->fid_persistent = get_unaligned_le64(key + SMB2_RESUME_KEY_FILE_ID);
	k->fid_volatile = get_unaligned_le64(key + SMB2_RESUME_KEY_FILE_ID + 8);
	k->tag = get_unaligned_le64(key + SMB2_RESUME_KEY_TAG);
}

void smb2_resume_key_rsp_encode(u8 *out, const struct smb2_resume_key *k)
{
	memset(out, 0, SMB2_RESUME_KEY_RSP_SIZE);
	put_unaligned_le64(k->fid_persistent, out + SMB2_RESUME_KEY_FILE_ID);
	put_unaligned_le64(k->fid_volatile, out + SMB2_RESUME_KEY_FILE_ID + 8);
	put_unaligned_le64(k->tag, out + SMB2_RESUME_KEY_TAG);
}

int smb_dup_extents_decode(const u8 *in, u32 len, struct smb_dup_extents *d)
{
	if (len < SMB_DUP_EXTENTS_SIZE)
		return -EINVAL;
	d->fid_persistent = get_unaligned_le64(in + SMB_DUP_EXTENTS_FILE_ID);
	d->fid_volatile = get_unaligned_le64(in + SMB_DUP_EXTENTS_FILE_ID + 8);
	d->source_offset = get_unaligned_le64(in + SMB_DUP_EXTENTS_SOURCE);
	d->target_offset = get_unaligned_le64(in + SMB_DUP_EXTENTS_TARGET);
	d->length = get_unaligned_le64(in + SMB_DUP_EXTENTS_COUNT);
	return 0;
}

int smb_compression_decode(const u8 *in, u32 len, u16 *format)
{
	if (len < SMB_COMPRESSION_SIZE)
		return -EINVAL;
	*format = get_unaligned_le16(in);
	return 0;
}

void smb_compression_encode(u8 *out, u16 format)
{
	put_unaligned_le16(format, out);
}

void smb_object_id_encode(u8 *out, u64 ino, u32 generation, u32 dev,
			  const u8 *volume)
{
	put_unaligned_le64(ino, out);
	put_unaligned_le32(generation, out + 8);
	put_unaligned_le32(dev, out + 12);
	memcpy(out + SMB_OBJECT_ID_BIRTH_VOLUME, volume, 16);
	memcpy(out + SMB_OBJECT_ID_BIRTH_OBJECT, out, 16);
	memset(out + SMB_OBJECT_ID_DOMAIN, 0, 16);
}

int smb_range_decode(const u8 *in, u32 len, u64 *a, u64 *b)
{
	if (len < SMB_RANGE_SIZE)
		return -EINVAL;
	*a = get_unaligned_le64(in);
	*b = get_unaligned_le64(in + 8);
	if ((*a | *b) >> 63)
		return -EINVAL;
	return 0;
}

void smb_range_encode(u8 *out, u64 offset, u64 length)
{
	put_unaligned_le64(offset, out);
	put_unaligned_le64(length, out + 8);
}

int smb_reparse_decode(const u8 *in, u32 len, struct smb_reparse *r)
{
	if (len < SMB_REPARSE_HDR)
		return -EINVAL;
	r->tag = get_unaligned_le32(in);
	r->data_len = get_unaligned_le16(in + 4);
	r->data = in + SMB_REPARSE_HDR;
	if ((u32)r->data_len + SMB_REPARSE_HDR != len)
		return -EINVAL;
	return 0;
}

int smb_symlink_reparse_decode(const struct smb_reparse *r,
			       struct smb_symlink_reparse *s)
{
	const u8 *d = r->data;
	u32 buf_len, so, sl, po, pl;

	if (r->tag != IO_REPARSE_TAG_SYMLINK ||
	    r->data_len < SMB_REPARSE_SYMLINK_HDR)
		return -EINVAL;
	buf_len = r->data_len - SMB_REPARSE_SYMLINK_HDR;
	so = get_unaligned_le16(d);
	sl = get_unaligned_le16(d + 2);
	po = get_unaligned_le16(d + 4);
	pl = get_unaligned_le16(d + 6);
	s->flags = get_unaligned_le32(d + 8);
	if (!sl || (sl | pl) % 2 || so + sl > buf_len || po + pl > buf_len)
		return -EINVAL;
	s->subst = d + SMB_REPARSE_SYMLINK_HDR + so;
	s->subst_len = (u16)sl;
	s->print = d + SMB_REPARSE_SYMLINK_HDR + po;
	s->print_len = (u16)pl;
	return 0;
}

/*
 * The symbolic link data of a reparse buffer or error response at @p:
 * names at the start of the path buffer, print name first (as Windows
 * writes them).  @n is the UTF-16LE length of the target.
 */
static void smb_symlink_names(u8 *p, const char *target, u32 len, u32 n,
			      bool relative, unsigned int conv)
{
	put_unaligned_le16((u16)n, p);		/* SubstituteNameOffset */
	put_unaligned_le16((u16)n, p + 2);	/* SubstituteNameLength */
	put_unaligned_le16(0, p + 4);		/* PrintNameOffset */
	put_unaligned_le16((u16)n, p + 6);	/* PrintNameLength */
	put_unaligned_le32(relative ? SYMLINK_FLAG_RELATIVE : 0, p + 8);
	smb_utf8_to_utf16le(target, len, p + 12, n, conv);
	smb_utf8_to_utf16le(target, len, p + 12 + n, n, conv);
}

int smb_symlink_reparse_encode(u8 *out, u32 cap, const char *target, u32 len,
			       bool relative, bool verbatim)
{
	unsigned int conv = verbatim ? 0 : SMB_UTF16_BACKSLASH;
	int n = smb_utf8_to_utf16le(target, len, NULL, SMB_REPARSE_MAX, conv);
	u32 size;

	if (n < 0)
		return n == -ENAMETOOLONG ? -ENOSPC : n;
	if (!n)
		return -EINVAL;
	size = SMB_REPARSE_HDR + SMB_REPARSE_SYMLINK_HDR + 2 * (u32)n;
	if (size > SMB_REPARSE_MAX)
		return -ENOSPC;
	if (!out)
		return (int)size;
	if (size > cap)
		return -ENOSPC;
	put_unaligned_le32(IO_REPARSE_TAG_SYMLINK, out);
	put_unaligned_le16((u16)(size - SMB_REPARSE_HDR), out + 4);
	put_unaligned_le16(0, out + 6);
	smb_symlink_names(out + SMB_REPARSE_HDR, target, len, (u32)n,
			  relative, conv);
	return (int)size;
}

/* SymLinkLength, SymLinkErrorTag, ReparseTag, ReparseDataLength, Unparsed. */
#define SMB_SYMLINK_ERR_HDR	16
#define SMB_SYMLINK_ERROR_TAG	0x4c4d5953	/* "SYML" */

int smb_symlink_error_encode(u8 *out, u32 cap, const char *target, u32 len,
			     bool relative, bool verbatim, u16 unparsed)
{
	unsigned int conv = verbatim ? 0 : SMB_UTF16_BACKSLASH;
	int n = smb_utf8_to_utf16le(target, len, NULL, SMB_REPARSE_MAX, conv);
	u32 size;

	if (n < 0)
		return n == -ENAMETOOLONG ? -ENOSPC : n;
	if (!n)
		return -EINVAL;
	size = SMB_SYMLINK_ERR_HDR + SMB_REPARSE_SYMLINK_HDR + 2 * (u32)n;
	if (size > cap)
		return -ENOSPC;
	put_unaligned_le32(size - 4, out);
	put_unaligned_le32(SMB_SYMLINK_ERROR_TAG, out + 4);
	put_unaligned_le32(IO_REPARSE_TAG_SYMLINK, out + 8);
	put_unaligned_le16((u16)(SMB_REPARSE_SYMLINK_HDR + 2 * (u32)n),
			   out + 12);
	put_unaligned_le16(unparsed, out + 14);
	smb_symlink_names(out + SMB_SYMLINK_ERR_HDR, target, len, (u32)n,
			  relative, conv);
	return (int)size;
}

void smb2_netif_chain(u8 *out, u32 n)
{
	u32 i;

	for (i = 0; i + 1 < n; i++)
		put_unaligned_le32(SMB2_NETIF_INFO_SIZE,
				   out + i * SMB2_NETIF_INFO_SIZE);
}

void smb2_netif_encode(u8 *out, u32 ifindex, u32 caps, u64 speed,
		       const u8 *addr, u32 addr_len, u32 scope_id)
{
	u8 *sa = out + 24;

	memset(out, 0, SMB2_NETIF_INFO_SIZE);
	put_unaligned_le32(ifindex, out + 4);
	put_unaligned_le32(caps, out + 8);
	put_unaligned_le64(speed, out + 16);
	if (addr_len == 4) {
		put_unaligned_le16(SMB2_NETIF_AF_INET, sa);
		memcpy(sa + 4, addr, 4);
	} else {
		put_unaligned_le16(SMB2_NETIF_AF_INET6, sa);
		memcpy(sa + 8, addr, 16);
		put_unaligned_le32(scope_id, sa + 24);
	}
}

