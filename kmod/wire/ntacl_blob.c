// SPDX-License-Identifier: GPL-2.0
/*
 * The security.NTACL xattr blob (xattr_NTACL in NDR) and the POSIX ACL
 * wrapper its hash covers.
 *
 * NDR as Samba pushes these: little-endian, each scalar aligned to its
 * size (64-bit ones in hyper to 8, NTTIME to 4), a unique pointer a
 * 4-byte referent id (0x00020000, then +4 for each further non-NULL one)
 * whose data follows the structure that holds it, a union's switch a
 * 16-bit value, a conformant array's count before its structure.
 */
#include "compat.h"
#include "ntacl.h"
#include "ntacl_blob.h"

#define SMB_NDR_REFID		0x00020000

static u32 smb_align4(u32 v)
{
	return (v + 3) & ~3u;
}

/* ---- xattr_NTACL ---------------------------------------------------------- */

/*
 * Layout, for every version: u16 version, u16 union switch (the same
 * value), u32 pointer; then what it points to:
 *   1: the security_descriptor
 *   2: { u32 sd pointer, u8 hash[16] } and the descriptor
 *   3: { u32 sd pointer, u16 hash_type, u8 hash[64] } and the descriptor
 *   4: { u32 sd pointer, u16 hash_type, u8 hash[64], description (UTF-8,
 *        NUL-terminated), NTTIME time, u8 sys_acl_hash[64] } and the
 *        descriptor.
 */
int smb_ntacl_blob_decode(const u8 *buf, u32 len, struct smb_ntacl_blob *b)
{
	u32 p, end;

	memset(b, 0, sizeof(*b));
	if (len < 8)
		return -EINVAL;
	b->version = get_unaligned_le16(buf);
	if (get_unaligned_le16(buf + 2) != b->version ||
	    !get_unaligned_le32(buf + 4))
		return -EINVAL;
	p = 8;
	switch (b->version) {
	case 1:
		break;
	case 2:
		if (len - p < 4 + 16 || !get_unaligned_le32(buf + p))
			return -EINVAL;
		p += 4 + 16;
		break;
	case 3:
	case 4:
		if (len - p < 4 + 2 + SMB_NTACL_HASH_SIZE ||
		    !get_unaligned_le32(buf + p))
			return -EINVAL;
		b->hash_type = get_unaligned_le16(buf + p + 4);
		b->hash = buf + p + 6;
		p += 6 + SMB_NTACL_HASH_SIZE;
		if (b->version == 3)
			break;
		/* The description runs to its NUL. */
		for (end = p; end < len && buf[end]; end++)
			;
		if (end == len)
			return -EINVAL;
		p = smb_align4(end + 1);
		if (p > len || len - p < 8 + SMB_NTACL_HASH_SIZE)
			return -EINVAL;
		b->sys_acl_hash = buf + p + 8;
		p += 8 + SMB_NTACL_HASH_SIZE;
		break;
	default:
		return -EINVAL;
	}
	p = smb_align4(p);
	if (p > len)
		return -EINVAL;
	b->sd_bytes = buf + p;
	b->sd_len = len - p;
	return smb_sd_decode_at(buf, len, p, &b->sd);
}

static const char smb_ntacl_desc[] = "posix_acl";

u32 smb_ntacl_blob_encode(u8 *buf, u32 cap, const struct smb_sd *sd,
			  const u8 *sys_acl_hash)
{
	struct smb_sd_parts parts;
	u32 n, off, size;
	u8 *h;

	smb_sd_parts_of(sd, &parts);
	n = smb_sd_encode(NULL, 0, &parts);
	size = SMB_NTACL_V4_SD + n;
	if (!buf || size > cap)
		return size;
	memset(buf, 0, SMB_NTACL_V4_SD);
	put_unaligned_le16(4, buf);
	put_unaligned_le16(4, buf + 2);
	put_unaligned_le32(SMB_NDR_REFID, buf + 4);
	put_unaligned_le32(SMB_NDR_REFID + 4, buf + 8);
	put_unaligned_le16(SMB_NTACL_HASH_SHA256, buf + 12);
	/* hash (14..77) is the caller's; the description is at 78. */
	memcpy(buf + 78, smb_ntacl_desc, sizeof(smb_ntacl_desc));
	/* time (88..95) stays 0, as Samba writes it. */
	memcpy(buf + 96, sys_acl_hash, SMB_NTACL_HASH_SIZE);
	smb_sd_encode(buf + SMB_NTACL_V4_SD, n, &parts);
	/* NDR's relative pointers count from the start of the blob. */
	h = buf + SMB_NTACL_V4_SD;
	for (off = 4; off <= 16; off += 4)
		if (get_unaligned_le32(h + off))
			put_unaligned_le32(get_unaligned_le32(h + off) +
					   SMB_NTACL_V4_SD, h + off);
	return size;
}

/* ---- smb_acl_wrapper ------------------------------------------------------ */

struct smb_ndr {
	u8 *buf;
	u32 len;
};

static void smb_ndr_align(struct smb_ndr *n, u32 a)
{
	while (n->len % a) {
		if (n->buf)
			n->buf[n->len] = 0;
		n->len++;
	}
}

static void smb_ndr_u16(struct smb_ndr *n, u16 v)
{
	smb_ndr_align(n, 2);
	if (n->buf)
		put_unaligned_le16(v, n->buf + n->len);
	n->len += 2;
}

static void smb_ndr_u32(struct smb_ndr *n, u32 v)
{
	smb_ndr_align(n, 4);
	if (n->buf)
		put_unaligned_le32(v, n->buf + n->len);
	n->len += 4;
}

static void smb_ndr_hyper(struct smb_ndr *n, u64 v)
{
	smb_ndr_align(n, 8);
	if (n->buf)
		put_unaligned_le64(v, n->buf + n->len);
	n->len += 8;
}

/* smb_acl_t: { int count; int next (0); smb_acl_entry acl[count]; } */
static void smb_ndr_posix_acl(struct smb_ndr *n, const struct smb_posix_acl *a)
{
	const struct smb_posix_ace *e;
	u32 i;

	smb_ndr_u32(n, a->count);	/* the conformant array's size */
	smb_ndr_align(n, 8);
	smb_ndr_u32(n, a->count);
	smb_ndr_u32(n, 0);
	for (i = 0; i < a->count; i++) {
		e = &a->e[i];
		smb_ndr_align(n, 8);
		smb_ndr_u16(n, e->tag);		/* a_type */
		smb_ndr_u16(n, e->tag);		/* the union's switch */
		if (e->tag == SMB_POSIX_USER || e->tag == SMB_POSIX_GROUP)
			smb_ndr_hyper(n, e->id);
		smb_ndr_u32(n, e->perm);
	}
}

static void smb_ndr_wrapper(struct smb_ndr *n, u32 uid, u32 gid, u32 mode,
			    const struct smb_posix_acl *acc,
			    const struct smb_posix_acl *def)
{
	u32 ref = SMB_NDR_REFID;

	smb_ndr_u32(n, acc ? ref : 0);
	if (acc)
		ref += 4;
	smb_ndr_u32(n, def ? ref : 0);
	smb_ndr_hyper(n, uid);
	smb_ndr_hyper(n, gid);
	smb_ndr_u32(n, mode);
	if (acc)
		smb_ndr_posix_acl(n, acc);
	if (def)
		smb_ndr_posix_acl(n, def);
}

u32 smb_sys_acl_blob_encode(u8 *buf, u32 cap, u32 uid, u32 gid, u32 mode,
			    const struct smb_posix_acl *acc,
			    const struct smb_posix_acl *def)
{
	struct smb_ndr n = {};

	smb_ndr_wrapper(&n, uid, gid, mode, acc, def);
	if (buf && n.len <= cap) {
		n.buf = buf;
		n.len = 0;
		smb_ndr_wrapper(&n, uid, gid, mode, acc, def);
	}
	return n.len;
}
