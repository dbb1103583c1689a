// SPDX-License-Identifier: GPL-2.0
/*
 * The DOS attribute xattr; NT times.
 */
#include "compat.h"
#include "dosattr.h"

static u32 align_up(u32 v, u32 a)
{
	return (v + a - 1) & ~(a - 1);
}

int smb_dosattr_decode(const u8 *buf, u32 len, struct smb_dosattr *da)
{
	const u8 *nul, *info;
	u32 off, version, need, attrib_off, time_off;

	memset(da, 0, sizeof(*da));
	nul = memchr(buf, 0, len);
	if (!nul)
		return -EINVAL;
	off = align_up((u32)(nul - buf) + 1, 2);
	if (off > len || len - off < 2)
		return -EINVAL;
	version = get_unaligned_le16(buf + off);
	off = align_up(off + 2, 4);
	if (off > len || len - off < 4 ||
	    get_unaligned_le16(buf + off) != version)
		return -EINVAL;
	off += 4;	/* the level and the padding to 4 bytes */
	info = buf + off;

	switch (version) {
	case 1:		/* attrib, ea_size, size, alloc_size, create_time */
		attrib_off = 0;
		time_off = 24;
		need = 40;
		break;
	case 2:		/* flags, attrib, ea_size, size, alloc, create_time */
		attrib_off = 4;
		time_off = 28;
		need = 36;
		break;
	case 3:		/* valid, attrib, ea_size, size, alloc, create, change */
		attrib_off = 4;
		time_off = 28;
		need = 44;
		break;
	case 4:		/* valid, attrib, itime, create_time */
		attrib_off = 4;
		time_off = 16;
		need = 24;
		break;
	case 5:		/* valid, attrib, create_time */
		attrib_off = 4;
		time_off = 8;
		need = 16;
		break;
	default:
		return -EINVAL;
	}
	if (len - off < need)
		return -EINVAL;
	if (version <= 2)
		da->valid = SMB_DOSINFO_ATTRIB | SMB_DOSINFO_CREATE_TIME;
	else
		da->valid = get_unaligned_le32(info) &
			    (SMB_DOSINFO_ATTRIB | SMB_DOSINFO_CREATE_TIME);
	if (da->valid & SMB_DOSINFO_ATTRIB)
		da->attrib = get_unaligned_le32(info + attrib_off);
	if (da->valid & SMB_DOSINFO_CREATE_TIME)
		da->create_time = get_unaligned_le64(info + time_off);
	return 0;
}

u32 smb_dosattr_encode(u8 *buf, const struct smb_dosattr *da)
{
	memset(buf, 0, SMB_DOSATTR_V4_SIZE);
	/* "" and its padding, version, level and its padding. */
	put_unaligned_le16(4, buf + 2);
	put_unaligned_le16(4, buf + 4);
	put_unaligned_le32((da->valid & (SMB_DOSINFO_ATTRIB |
					 SMB_DOSINFO_CREATE_TIME)) |
			   SMB_DOSINFO_ITIME, buf + 8);
	put_unaligned_le32(da->attrib, buf + 12);
	/* itime: the creation time, as ksmbd writes it. */
	put_unaligned_le64(da->create_time, buf + 16);
	put_unaligned_le64(da->create_time, buf + 24);
	return SMB_DOSATTR_V4_SIZE;
}

/* Seconds from 1601-01-01 to 1970-01-01. */
#define SMB_NTTIME_EPOCH	11644473600LL

u64 smb_nttime(long long sec, u32 nsec)
{
	if (sec < -SMB_NTTIME_EPOCH)
		return 0;
	return (u64)(sec + SMB_NTTIME_EPOCH) * 10000000ULL + nsec / 100;
}
