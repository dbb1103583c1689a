// SPDX-License-Identifier: GPL-2.0
/*
 * SMB3.1.1 POSIX extensions: negotiate and create contexts, the POSIX
 * information classes, NFS-style reparse points of special files.
 */
#include "compat.h"
#include "fsctl.h"
#include "posix.h"
#include "secdesc.h"

const u8 smb2_posix_tag[SMB2_POSIX_TAG_SIZE] = {
	0x93, 0xad, 0x25, 0x50, 0x9c, 0xb4, 0x11, 0xe7,
	0xb4, 0x23, 0x83, 0xde, 0x96, 0x8b, 0xcd, 0x7c,
};

int smb2_posix_neg_ctx_decode(const u8 *data, u32 len)
{
	u32 off;

	if (len % SMB2_POSIX_TAG_SIZE)
		return -EINVAL;
	for (off = 0; off < len; off += SMB2_POSIX_TAG_SIZE)
		if (!memcmp(data + off, smb2_posix_tag, SMB2_POSIX_TAG_SIZE))
			return 1;
	return 0;
}

int smb2_posix_cc_decode(const u8 *data, u32 len, u32 *perms)
{
	u32 wire;

	if (len != 4 || !data)
		return -EINVAL;
	wire = get_unaligned_le32(data);
	*perms = wire & SMB_POSIX_PERM_MASK;
	return (wire & 0xffff) != SMB_POSIX_NO_MODE;
}

/* st_mode types by wire type. */
static const u32 smb_posix_types[] = {
	[SMB_POSIX_TYPE_FILE] = SMB_S_IFREG,
	[SMB_POSIX_TYPE_DIR] = SMB_S_IFDIR,
	[SMB_POSIX_TYPE_SYMLINK] = SMB_S_IFLNK,
	[SMB_POSIX_TYPE_CHARDEV] = SMB_S_IFCHR,
	[SMB_POSIX_TYPE_BLKDEV] = SMB_S_IFBLK,
	[SMB_POSIX_TYPE_FIFO] = SMB_S_IFIFO,
	[SMB_POSIX_TYPE_SOCKET] = SMB_S_IFSOCK,
};

u32 smb_posix_mode_to_wire(u32 st_mode)
{
	u32 i, type = SMB_POSIX_TYPE_FILE;

	for (i = 0; i < ARRAY_SIZE(smb_posix_types); i++)
		if ((st_mode & SMB_S_IFMT) == smb_posix_types[i])
			type = i;
	return (st_mode & SMB_POSIX_PERM_MASK) | type << SMB_POSIX_TYPE_SHIFT;
}

u32 smb_posix_wire_to_mode(u32 wire)
{
	u32 type = (wire >> SMB_POSIX_TYPE_SHIFT) & 0xf;

	if (type >= ARRAY_SIZE(smb_posix_types))
		return 0;
	return smb_posix_types[type] | (wire & SMB_POSIX_PERM_MASK);
}

/* nlink, tag, mode, owner and group at @off of @o. */
static void smb_posix_cc_put(const struct smb_posix_info *pi,
			     const struct smb_out *o, u32 off)
{
	struct smb_sid sid;
	u8 b[8 + 4 * 2];

	smb_out_le32(o, off, pi->nlink);
	smb_out_le32(o, off + 4, pi->reparse_tag);
	smb_out_le32(o, off + 8, smb_posix_mode_to_wire(pi->mode));
	smb_sid_unix_user(&sid, pi->uid);
	smb_sid_encode(b, &sid);
	smb_out_bytes(o, off + 12, b, sizeof(b));
	smb_sid_unix_group(&sid, pi->gid);
	smb_sid_encode(b, &sid);
	smb_out_bytes(o, off + 12 + sizeof(b), b, sizeof(b));
}

u32 smb_posix_cc_encode(u8 *buf, const struct smb_posix_info *pi)
{
	struct smb_out o = { buf, SMB_POSIX_CC_SIZE };

	smb_posix_cc_put(pi, &o, 0);
	return SMB_POSIX_CC_SIZE;
}

u32 smb_posix_info_encode(const struct smb_posix_info *pi,
			  const struct smb_out *o, u32 off)
{
	smb_out_le64(o, off, pi->creation_time);
	smb_out_le64(o, off + 8, pi->access_time);
	smb_out_le64(o, off + 16, pi->write_time);
	smb_out_le64(o, off + 24, pi->change_time);
	smb_out_le64(o, off + 32, pi->eof);
	smb_out_le64(o, off + 40, pi->allocation);
	smb_out_le32(o, off + 48, pi->attributes);
	smb_out_le64(o, off + 52, pi->ino);
	smb_out_le32(o, off + 60, pi->dev);
	smb_out_le32(o, off + 64, 0);
	smb_posix_cc_put(pi, o, off + SMB_POSIX_INFO_FIXED);
	return SMB_POSIX_INFO_SIZE;
}

u32 smb_posix_fsinfo_encode(const struct smb_posix_fsinfo *fs,
			    const struct smb_out *o)
{
	smb_out_le32(o, 0, fs->optimal_transfer);
	smb_out_le32(o, 4, fs->block_size);
	smb_out_le64(o, 8, fs->total_blocks);
	smb_out_le64(o, 16, fs->free_blocks);
	smb_out_le64(o, 24, fs->avail_blocks);
	smb_out_le64(o, 32, fs->total_files);
	smb_out_le64(o, 40, fs->free_files);
	smb_out_le64(o, 48, fs->fsid);
	return SMB_POSIX_FSINFO_SIZE;
}

/* ---- NFS-style reparse points ------------------------------------------ */

static const struct {
	u64 nfs;
	u32 type;
} smb_nfs_types[] = {
	{ NFS_SPECFILE_CHR, SMB_S_IFCHR },
	{ NFS_SPECFILE_BLK, SMB_S_IFBLK },
	{ NFS_SPECFILE_FIFO, SMB_S_IFIFO },
	{ NFS_SPECFILE_SOCK, SMB_S_IFSOCK },
};

static bool smb_nfs_is_dev(u32 type)
{
	return type == SMB_S_IFCHR || type == SMB_S_IFBLK;
}

int smb_nfs_reparse_decode(const u8 *data, u32 len, struct smb_nfs_special *s)
{
	u64 nfs;
	u32 i;

	if (len < 8 || !data)
		return -EINVAL;
	nfs = get_unaligned_le64(data);
	memset(s, 0, sizeof(*s));
	for (i = 0; i < ARRAY_SIZE(smb_nfs_types); i++)
		if (smb_nfs_types[i].nfs == nfs)
			s->type = smb_nfs_types[i].type;
	if (!s->type)
		return -EOPNOTSUPP;
	if (len != (smb_nfs_is_dev(s->type) ? 16u : 8u))
		return -EINVAL;
	if (smb_nfs_is_dev(s->type)) {
		s->major = get_unaligned_le32(data + 8);
		s->minor = get_unaligned_le32(data + 12);
	}
	return 0;
}

int smb_nfs_reparse_encode(u8 *out, u32 cap, const struct smb_nfs_special *s)
{
	u32 i, dlen;
	u64 nfs = 0;

	for (i = 0; i < ARRAY_SIZE(smb_nfs_types); i++)
		if (smb_nfs_types[i].type == s->type)
			nfs = smb_nfs_types[i].nfs;
	if (!nfs)
		return -EINVAL;
	dlen = smb_nfs_is_dev(s->type) ? 16 : 8;
	if (!out)
		return (int)(8 + dlen);
	if (cap < 8 + dlen)
		return -ENOSPC;
	put_unaligned_le32(IO_REPARSE_TAG_NFS, out);
	put_unaligned_le16((u16)dlen, out + 4);
	put_unaligned_le16(0, out + 6);
	put_unaligned_le64(nfs, out + 8);
	if (dlen == 16) {
		put_unaligned_le32(s->major, out + 16);
		put_unaligned_le32(s->minor, out + 20);
	}
	return (int)(8 + dlen);
}
