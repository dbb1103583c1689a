// SPDX-License-Identifier: GPL-2.0
/*
 * Security descriptors and their POSIX mapping.
 */
#include "compat.h"
#include "fscc.h"
#include "secdesc.h"

/* ---- SIDs --------------------------------------------------------------- */

int smb_sid_decode(const u8 *buf, u32 len, struct smb_sid *sid)
{
	u32 i, size;

	if (len < 8)
		return -EINVAL;
	sid->revision = buf[0];
	sid->count = buf[1];
	if (sid->revision != 1 || sid->count > SMB_SID_MAX_SUB)
		return -EINVAL;
	size = 8 + 4 * sid->count;
	if (len < size)
		return -EINVAL;
	memcpy(sid->auth, buf + 2, 6);
	for (i = 0; i < sid->count; i++)
		sid->sub[i] = get_unaligned_le32(buf + 8 + 4 * i);
	return (int)size;
}

void smb_sid_encode(u8 *buf, const struct smb_sid *sid)
{
	u32 i;

	buf[0] = sid->revision;
	buf[1] = sid->count;
	memcpy(buf + 2, sid->auth, 6);
	for (i = 0; i < sid->count; i++)
		put_unaligned_le32(sid->sub[i], buf + 8 + 4 * i);
}

bool smb_sid_equal(const struct smb_sid *a, const struct smb_sid *b)
{
	u32 i;

	if (a->revision != b->revision || a->count != b->count ||
	    memcmp(a->auth, b->auth, 6))
		return false;
	for (i = 0; i < a->count; i++)
		if (a->sub[i] != b->sub[i])
			return false;
	return true;
}

int smb_sid_cmp(const struct smb_sid *a, const struct smb_sid *b)
{
	u32 i;
	int c;

	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	if (a->revision != b->revision)
		return a->revision < b->revision ? -1 : 1;
	c = memcmp(a->auth, b->auth, 6);
	if (c)
		return c < 0 ? -1 : 1;
	for (i = 0; i < a->count; i++)
		if (a->sub[i] != b->sub[i])
			return a->sub[i] < b->sub[i] ? -1 : 1;
	return 0;
}

void smb_sid_make(struct smb_sid *sid, u8 authority, u32 count, u32 s0,
		  u32 s1, u32 s2)
{
	memset(sid, 0, sizeof(*sid));
	sid->revision = 1;
	sid->count = (u8)count;
	sid->auth[5] = authority;
	sid->sub[0] = s0;
	sid->sub[1] = s1;
	sid->sub[2] = s2;
}

/* S-1-22-1-uid, S-1-22-2-gid: Samba's Unix users and groups. */
#define SMB_AUTH_UNIX		22
/* S-1-5-88-{1,2,3}-n: uid, gid, mode as NFS-style SIDs. */
#define SMB_AUTH_NT		5
#define SMB_NT_UNIX_NFS		88

void smb_sid_unix_user(struct smb_sid *sid, u32 uid)
{
	smb_sid_make(sid, SMB_AUTH_UNIX, 2, 1, uid, 0);
}

void smb_sid_unix_group(struct smb_sid *sid, u32 gid)
{
	smb_sid_make(sid, SMB_AUTH_UNIX, 2, 2, gid, 0);
}

void smb_sid_everyone(struct smb_sid *sid)
{
	smb_sid_make(sid, 1, 1, 0, 0, 0);
}

bool smb_sid_is(const struct smb_sid *sid, u8 authority, u32 count)
{
	static const u8 zero[5];

	return sid->revision == 1 && sid->count == count &&
	       !memcmp(sid->auth, zero, 5) && sid->auth[5] == authority;
}

/* The id of S-1-22-@kind-id or S-1-5-88-@kind-id. */
static bool smb_sid_unix_id(const struct smb_sid *sid, u32 kind, u32 *id)
{
	if (smb_sid_is(sid, SMB_AUTH_UNIX, 2) && sid->sub[0] == kind) {
		*id = sid->sub[1];
		return true;
	}
	if (smb_sid_is(sid, SMB_AUTH_NT, 3) && sid->sub[0] == SMB_NT_UNIX_NFS &&
	    sid->sub[1] == kind) {
		*id = sid->sub[2];
		return true;
	}
	return false;
}

bool smb_sid_to_uid(const struct smb_sid *sid, u32 *uid)
{
	return smb_sid_unix_id(sid, 1, uid);
}

bool smb_sid_to_gid(const struct smb_sid *sid, u32 *gid)
{
	return smb_sid_unix_id(sid, 2, gid);
}

/* Everyone (S-1-1-0) or Authenticated Users (S-1-5-11). */
static bool smb_sid_is_world(const struct smb_sid *sid)
{
	return (smb_sid_is(sid, 1, 1) && sid->sub[0] == 0) ||
	       (smb_sid_is(sid, SMB_AUTH_NT, 1) && sid->sub[0] == 11);
}

/* ---- ACLs --------------------------------------------------------------- */

/*
 * @pos holds the offset of the next ACE in its low 16 bits (an ACL is at
 * most 64 KiB) and how many ACEs were returned in its high 16 bits.
 */
int smb_acl_next(const u8 *acl, u32 len, u32 *pos, struct smb_ace *ace)
{
	u32 size, count, p = *pos & 0xffff, seen = *pos >> 16, asize;
	int n;

	if (len < SMB_ACL_HDR_SIZE)
		return -EINVAL;
	size = get_unaligned_le16(acl + 2);
	count = get_unaligned_le16(acl + 4);
	if (acl[0] < 2 || acl[0] > 4 || size < SMB_ACL_HDR_SIZE ||
	    size > len)
		return -EINVAL;
	if (!p)
		p = SMB_ACL_HDR_SIZE;
	if (seen >= count)
		return 0;
	if (p > size || size - p < 4)
		return -EINVAL;
	asize = get_unaligned_le16(acl + p + 2);
	if (asize < 4 || asize % 4 || asize > size - p)
		return -EINVAL;
	memset(ace, 0, sizeof(*ace));
	ace->off = (u16)p;
	ace->size = (u16)asize;
	ace->type = acl[p];
	ace->flags = acl[p + 1];
	if (ace->type <= 0x03 || (ace->type >= 0x09 && ace->type <= 0x0a) ||
	    ace->type == 0x0d || ace->type == 0x0e || ace->type == 0x11 ||
	    ace->type == 0x12 || ace->type == 0x13) {
		/* Types with a Mask and a SID right after it. */
		if (asize < 8)
			return -EINVAL;
		ace->mask = get_unaligned_le32(acl + p + 4);
		n = smb_sid_decode(acl + p + 8, asize - 8, &ace->sid);
		if (n < 0)
			return n;
		ace->has_sid = true;
	}
	*pos = (seen + 1) << 16 | (p + asize);
	return 1;
}

/* ---- security descriptors ----------------------------------------------- */

static int smb_sd_acl(const u8 *buf, u32 len, u32 min, u32 off,
		      const u8 **acl, u32 *acl_len)
{
	struct smb_ace ace;
	u32 pos = 0, size;
	int n;

	if (off < min || off > len || len - off < SMB_ACL_HDR_SIZE)
		return -EINVAL;
	size = get_unaligned_le16(buf + off + 2);
	if (size > len - off)
		return -EINVAL;
	*acl = buf + off;
	*acl_len = size;
	while ((n = smb_acl_next(*acl, size, &pos, &ace)) > 0)
		;
	return n;
}

static int smb_sd_sid(const u8 *buf, u32 len, u32 min, u32 off,
		      struct smb_sid *sid)
{
	int n;

	if (off < min || off > len)
		return -EINVAL;
	n = smb_sid_decode(buf + off, len - off, sid);
	return n < 0 ? n : 0;
}

int smb_sd_decode_at(const u8 *buf, u32 len, u32 hdr, struct smb_sd *sd)
{
	u32 off_owner, off_group, off_sacl, off_dacl, min;
	const u8 *h;
	int n;

	memset(sd, 0, sizeof(*sd));
	if (hdr > len || len - hdr < SMB_SD_HDR_SIZE)
		return -EINVAL;
	h = buf + hdr;
	if (h[0] != 1)
		return -EINVAL;
	sd->control = get_unaligned_le16(h + 2);
	if (!(sd->control & SE_SELF_RELATIVE))
		return -EINVAL;
	off_owner = get_unaligned_le32(h + 4);
	off_group = get_unaligned_le32(h + 8);
	off_sacl = get_unaligned_le32(h + 12);
	off_dacl = get_unaligned_le32(h + 16);
	/* Nothing may start inside the header. */
	min = hdr + SMB_SD_HDR_SIZE;
	if (off_owner && off_owner != hdr) {
		n = smb_sd_sid(buf, len, min, off_owner, &sd->owner);
		if (n < 0)
			return n;
		sd->has_owner = true;
	}
	if (off_group && off_group != hdr) {
		n = smb_sd_sid(buf, len, min, off_group, &sd->group);
		if (n < 0)
			return n;
		sd->has_group = true;
	}
	if ((sd->control & SE_DACL_PRESENT) && off_dacl && off_dacl != hdr) {
		n = smb_sd_acl(buf, len, min, off_dacl, &sd->dacl,
			       &sd->dacl_len);
		if (n < 0)
			return n;
	}
	if ((sd->control & SE_SACL_PRESENT) && off_sacl && off_sacl != hdr) {
		n = smb_sd_acl(buf, len, min, off_sacl, &sd->sacl,
			       &sd->sacl_len);
		if (n < 0)
			return n;
	}
	return 0;
}

int smb_sd_decode(const u8 *buf, u32 len, struct smb_sd *sd)
{
	return smb_sd_decode_at(buf, len, 0, sd);
}

/* ---- the POSIX mapping -------------------------------------------------- */

u32 smb_rwx_to_access(u32 rwx, bool dir)
{
	u32 a = 0;

	if (rwx & 4)
		a |= FILE_READ_DATA | FILE_READ_EA | FILE_READ_ATTRIBUTES |
		     READ_CONTROL | SYNCHRONIZE;
	if (rwx & 2) {
		a |= FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_WRITE_EA |
		     FILE_WRITE_ATTRIBUTES | SYNCHRONIZE;
		if (dir)
			a |= FILE_DELETE_CHILD;
	}
	if (rwx & 1)
		a |= FILE_EXECUTE | FILE_READ_ATTRIBUTES | READ_CONTROL |
		     SYNCHRONIZE;
	return a;
}

u32 smb_access_to_rwx(u32 mask)
{
	u32 rwx = 0;

	if (mask & (GENERIC_ALL | GENERIC_READ | FILE_READ_DATA))
		rwx |= 4;
	if (mask & (GENERIC_ALL | GENERIC_WRITE | FILE_WRITE_DATA |
		    FILE_APPEND_DATA))
		rwx |= 2;
	if (mask & (GENERIC_ALL | GENERIC_EXECUTE | FILE_EXECUTE))
		rwx |= 1;
	return rwx;
}

/* Rights the owner has over and above its rwx. */
#define SMB_OWNER_EXTRA		(READ_CONTROL | WRITE_DAC | WRITE_OWNER | \
				 FILE_READ_ATTRIBUTES | \
				 FILE_WRITE_ATTRIBUTES | SYNCHRONIZE)

/* Rights a deny ACE takes away for an rwx triplet: the data rights. */
static u32 smb_rwx_to_denied(u32 rwx)
{
	return (rwx & 4 ? FILE_READ_DATA : 0) |
	       (rwx & 2 ? FILE_WRITE_DATA | FILE_APPEND_DATA : 0) |
	       (rwx & 1 ? FILE_EXECUTE : 0);
}

static u32 smb_put_ace(u8 *buf, u32 cap, u32 off, u8 type, u8 flags,
		       u32 mask, const struct smb_sid *sid)
{
	u8 ace[8 + 8 + 4 * SMB_SID_MAX_SUB];
	u32 size = 8 + smb_sid_size(sid), i;

	ace[0] = type;
	ace[1] = flags;
	put_unaligned_le16((u16)size, ace + 2);
	put_unaligned_le32(mask, ace + 4);
	smb_sid_encode(ace + 8, sid);
	for (i = 0; i < size && off + i < cap; i++)
		buf[off + i] = ace[i];
	return size;
}

static u32 smb_put_sid(u8 *buf, u32 cap, u32 off, const struct smb_sid *sid)
{
	u8 b[8 + 4 * SMB_SID_MAX_SUB];
	u32 size = smb_sid_size(sid), i;

	smb_sid_encode(b, sid);
	for (i = 0; i < size && off + i < cap; i++)
		buf[off + i] = b[i];
	return size;
}

u32 smb_sd_from_posix(u8 *buf, u32 cap, u32 info,
		      const struct smb_posix_owner *po)
{
	struct smb_sid owner, group, world, nfs;
	u8 hdr[SMB_SD_HDR_SIZE] = {}, acl[SMB_ACL_HDR_SIZE] = {};
	u32 off = SMB_SD_HDR_SIZE, i, acl_off, count = 3;
	u32 control = SE_SELF_RELATIVE;
	u32 u = (po->mode >> 6) & 7, g = (po->mode >> 3) & 7, o = po->mode & 7;
	u8 flags = po->dir ? OBJECT_INHERIT_ACE | CONTAINER_INHERIT_ACE : 0;

	smb_sid_unix_user(&owner, po->uid);
	smb_sid_unix_group(&group, po->gid);
	smb_sid_everyone(&world);
	hdr[0] = 1;
	if (info & OWNER_SECURITY_INFORMATION) {
		put_unaligned_le32(off, hdr + 4);
		off += smb_put_sid(buf, cap, off, &owner);
	}
	if (info & GROUP_SECURITY_INFORMATION) {
		put_unaligned_le32(off, hdr + 8);
		off += smb_put_sid(buf, cap, off, &group);
	}
	if (info & DACL_SECURITY_INFORMATION) {
		control |= SE_DACL_PRESENT;
		put_unaligned_le32(off, hdr + 16);
		acl_off = off;
		off += SMB_ACL_HDR_SIZE;
		/*
		 * Everyone's rights reach the owner and the group as well on
		 * Windows: deny them first what their own bits lack.
		 */
		if (o & ~u) {
			off += smb_put_ace(buf, cap, off, ACCESS_DENIED_ACE_TYPE,
					   flags, smb_rwx_to_denied(o & ~u),
					   &owner);
			count++;
		}
		if (o & ~g) {
			off += smb_put_ace(buf, cap, off, ACCESS_DENIED_ACE_TYPE,
					   flags, smb_rwx_to_denied(o & ~g),
					   &group);
			count++;
		}
		off += smb_put_ace(buf, cap, off, ACCESS_ALLOWED_ACE_TYPE, flags,
				   smb_rwx_to_access(u, po->dir) |
				   SMB_OWNER_EXTRA, &owner);
		off += smb_put_ace(buf, cap, off, ACCESS_ALLOWED_ACE_TYPE, flags,
				   smb_rwx_to_access(g, po->dir), &group);
		off += smb_put_ace(buf, cap, off, ACCESS_ALLOWED_ACE_TYPE, flags,
				   smb_rwx_to_access(o, po->dir), &world);
		if (po->nfs_mode) {
			smb_sid_make(&nfs, SMB_AUTH_NT, 3, SMB_NT_UNIX_NFS, 3,
				     po->nfs_mode);
			off += smb_put_ace(buf, cap, off, ACCESS_DENIED_ACE_TYPE,
					   0, 0, &nfs);
			smb_sid_make(&nfs, SMB_AUTH_NT, 3, SMB_NT_UNIX_NFS, 1,
				     po->uid);
			off += smb_put_ace(buf, cap, off, ACCESS_DENIED_ACE_TYPE,
					   0, 0, &nfs);
			smb_sid_make(&nfs, SMB_AUTH_NT, 3, SMB_NT_UNIX_NFS, 2,
				     po->gid);
			off += smb_put_ace(buf, cap, off, ACCESS_DENIED_ACE_TYPE,
					   0, 0, &nfs);
			count += 3;
		}
		acl[0] = SMB_ACL_REVISION;
		put_unaligned_le16((u16)(off - acl_off), acl + 2);
		put_unaligned_le16((u16)count, acl + 4);
		for (i = 0; i < SMB_ACL_HDR_SIZE && acl_off + i < cap; i++)
			buf[acl_off + i] = acl[i];
	}
	put_unaligned_le16((u16)control, hdr + 2);
	for (i = 0; i < SMB_SD_HDR_SIZE && i < cap; i++)
		buf[i] = hdr[i];
	return off;
}

/*
 * Windows evaluates ACEs in order: the first ACE that allows or denies a
 * right decides it.  Done once per class (owner, group, others): each
 * class is the user who matches its SID and Everyone.
 */
int smb_sd_to_mode(const struct smb_sd *sd, const struct smb_posix_owner *po,
		   u32 *mode)
{
	struct smb_sid owner, group;
	u32 allow[3] = {}, deny[3] = {}, pos = 0, rwx, c;
	bool match[3];
	struct smb_ace ace;
	int n;

	if (!sd->dacl) {
		*mode = 0777;
		return 0;
	}
	smb_sid_unix_user(&owner, po->uid);
	smb_sid_unix_group(&group, po->gid);
	while ((n = smb_acl_next(sd->dacl, sd->dacl_len, &pos, &ace)) > 0) {
		if (!ace.has_sid || (ace.flags & INHERIT_ONLY_ACE))
			continue;
		if (ace.type != ACCESS_ALLOWED_ACE_TYPE &&
		    ace.type != ACCESS_DENIED_ACE_TYPE)
			continue;
		/* modefromsid: S-1-5-88-3-<mode> carries the mode itself. */
		if (smb_sid_is(&ace.sid, SMB_AUTH_NT, 3) &&
		    ace.sid.sub[0] == SMB_NT_UNIX_NFS && ace.sid.sub[1] == 3) {
			*mode = ace.sid.sub[2] & 07777;
			return 0;
		}
		rwx = smb_access_to_rwx(ace.mask);
		match[0] = smb_sid_equal(&ace.sid, &owner) ||
			   (smb_sid_to_uid(&ace.sid, &c) && c == po->uid);
		match[1] = smb_sid_equal(&ace.sid, &group) ||
			   (smb_sid_to_gid(&ace.sid, &c) && c == po->gid);
		match[2] = smb_sid_is_world(&ace.sid);
		for (c = 0; c < 3; c++) {
			if (!match[c] && !match[2])
				continue;
			if (ace.type == ACCESS_ALLOWED_ACE_TYPE)
				allow[c] |= rwx & ~deny[c];
			else
				deny[c] |= rwx & ~allow[c];
		}
	}
	if (n < 0)
		return n;
	*mode = allow[0] << 6 | allow[1] << 3 | allow[2];
	return 0;
}
