/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "security.NTACL" xattr: a security descriptor in the NDR blob
 * Samba's acl_xattr and ksmbd keep it in (Samba's librpc/idl/xattr.idl,
 * xattr_NTACL), so that a share moved between these servers keeps its
 * ACLs.
 *
 * smbsrv writes version 4 as Samba and ksmbd do: hash type SHA-256, the
 * description "posix_acl", time 0 (as Samba writes it), the descriptor at
 * byte 160 with its offsets counted from the start of the blob (NDR's
 * relative pointers, which ksmbd reproduces by adding 160), the SHA-256
 * of the stored descriptor's bytes in "hash" (what ksmbd puts there; only
 * Samba's fallback, after a mismatch of the next one, reads it) and in
 * "sys_acl_hash" the SHA-256 of the file's POSIX ACL wrapper (below),
 * which both servers check on reading: a blob is theirs only while the
 * owner, group, mode and POSIX ACLs it was written for are unchanged.
 * Hashing itself is the caller's (the kernel's sha256()).
 *
 * Versions 1 to 4 are read.  The hashes are the reader's to judge.
 */
#ifndef _SMBSRV_WIRE_NTACL_BLOB_H
#define _SMBSRV_WIRE_NTACL_BLOB_H

#include "compat.h"
#include "secdesc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMB_NTACL_XATTR			"security.NTACL"
#define SMB_NTACL_HASH_SIZE		64
#define SMB_NTACL_HASH_NONE		0
#define SMB_NTACL_HASH_SHA256		1
/* Where version 4 as smbsrv writes it keeps its hash and descriptor. */
#define SMB_NTACL_V4_HASH		14
#define SMB_NTACL_V4_SD			160
/* An xattr holds at most 64 KiB (XATTR_SIZE_MAX). */
#define SMB_NTACL_MAX			65536

struct smb_ntacl_blob {
	u16 version;			/* 1 to 4 */
	u16 hash_type;			/* versions 3 and 4 */
	const u8 *hash;			/* 64 bytes; versions 3 and 4 */
	const u8 *sys_acl_hash;		/* 64 bytes; version 4 */
	const u8 *sd_bytes;		/* the descriptor as stored, to the */
	u32 sd_len;			/* end of the blob */
	struct smb_sd sd;		/* decoded; points into the blob */
};

/*
 * Decode a blob of @len bytes: the version's layout, a descriptor that
 * is there and well formed.  0, or -EINVAL.
 */
int smb_ntacl_blob_decode(const u8 *buf, u32 len, struct smb_ntacl_blob *b);

/*
 * Encode version 4 for @sd with @sys_acl_hash (64 bytes), "hash" zero:
 * the caller hashes the SMB_NTACL_V4_SD.. end bytes into it.  Returns the
 * size; written only when it fits @cap.
 */
u32 smb_ntacl_blob_encode(u8 *buf, u32 cap, const struct smb_sd *sd,
			  const u8 *sys_acl_hash);

/*
 * What "sys_acl_hash" hashes: Samba's smb_acl_wrapper (librpc/idl/
 * smb_acl.idl) in NDR: the access and default POSIX ACLs (NULL pointers
 * when absent), the owner, group and st_mode.  Samba reads the access ACL
 * through libacl, which makes one of three entries from the mode when the
 * file has none, and an empty default ACL for a directory without one;
 * ksmbd leaves both NULL then.  Entry tags as Samba numbers them.
 */
#define SMB_POSIX_USER			1
#define SMB_POSIX_USER_OBJ		2
#define SMB_POSIX_GROUP			3
#define SMB_POSIX_GROUP_OBJ		4
#define SMB_POSIX_OTHER			5
#define SMB_POSIX_MASK			6

struct smb_posix_ace {
	u16 tag;
	u16 perm;			/* rwx */
	u32 id;				/* uid or gid for USER and GROUP */
};

struct smb_posix_acl {
	const struct smb_posix_ace *e;
	u32 count;
};

/* Returns the size; written only when it fits @cap. */
u32 smb_sys_acl_blob_encode(u8 *buf, u32 cap, u32 uid, u32 gid, u32 mode,
			    const struct smb_posix_acl *acc,
			    const struct smb_posix_acl *def);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_NTACL_BLOB_H */
