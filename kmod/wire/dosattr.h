/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DOS attributes and creation time kept in the "user.DOSATTRIB" xattr
 * (`store dos attributes`), in the NDR layout Samba and ksmbd use
 * (xattr_DOSATTRIB), so a share moved between the servers keeps them:
 *
 *   attrib_hex  NUL-terminated string ("" or "0x20"), then 2-byte align
 *   version     u16 (1..5)
 *   level       u16, equal to version, 4-byte aligned; then 4-byte align
 *   info        v1: attrib, ea_size, size(8), alloc_size(8),
 *                   create_time(8), change_time(8)
 *               v2: flags, attrib, ea_size, size(8), alloc_size(8),
 *                   create_time(8), ... (older Samba)
 *               v3: valid_flags, attrib, ea_size, size(8),
 *                   alloc_size(8), create_time(8), change_time(8)
 *               v4: valid_flags, attrib, itime(8), create_time(8)
 *               v5: valid_flags, attrib, create_time(8)
 *
 * smbsrv writes version 4 with an empty attrib_hex, as ksmbd does (both
 * ksmbd and Samba read it); it reads versions 1 to 5.  Times are NT
 * times (100 ns since 1601).  Also here: Unix time to NT time.
 */
#ifndef _SMBSRV_WIRE_DOSATTR_H
#define _SMBSRV_WIRE_DOSATTR_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMB_DOSATTR_XATTR		"user.DOSATTRIB"
/* What smbsrv writes (version 4). */
#define SMB_DOSATTR_V4_SIZE		32
/* Longest value worth reading (version 3 with a hex string). */
#define SMB_DOSATTR_MAX			64

/* valid_flags of versions 3 to 5. */
#define SMB_DOSINFO_ATTRIB		0x00000001
#define SMB_DOSINFO_EA_SIZE		0x00000002
#define SMB_DOSINFO_SIZE		0x00000004
#define SMB_DOSINFO_ALLOC_SIZE		0x00000008
#define SMB_DOSINFO_CREATE_TIME		0x00000010
#define SMB_DOSINFO_CHANGE_TIME		0x00000020
#define SMB_DOSINFO_ITIME		0x00000040

struct smb_dosattr {
	u32 valid;		/* SMB_DOSINFO_ATTRIB, SMB_DOSINFO_CREATE_TIME */
	u32 attrib;
	u64 create_time;	/* NT time */
};

/* Decode an xattr value; 0, or -EINVAL for anything not understood. */
int smb_dosattr_decode(const u8 *buf, u32 len, struct smb_dosattr *da);
/* Encode version 4 into @buf (SMB_DOSATTR_V4_SIZE bytes); returns that. */
u32 smb_dosattr_encode(u8 *buf, const struct smb_dosattr *da);

/* NT time of a Unix time; 0 for times before 1601. */
u64 smb_nttime(long long sec, u32 nsec);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_DOSATTR_H */
