/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Security descriptors (MS-DTYP 2.4.2 SID, 2.4.4 ACE, 2.4.5 ACL, 2.4.6
 * SECURITY_DESCRIPTOR in self-relative form) and their mapping to POSIX
 * owners and permission bits.
 *
 * Unix users and groups are the SIDs Samba uses for them and the Linux
 * cifs client understands (mount option idsfromsid): S-1-22-1-<uid> and
 * S-1-22-2-<gid>; S-1-5-88-1-<uid>, S-1-5-88-2-<gid> (the NFS-style
 * ones) are accepted too, and an S-1-5-88-3-<mode> ACE (modefromsid)
 * sets the mode as is.  A DACL built from a mode allows the owner, the
 * group and Everyone (S-1-1-0), in that order, the rights of their rwx
 * triplets, after ACEs that deny the owner and the group what Everyone
 * may and they may not (Everyone includes them on Windows).  A DACL set
 * by a client is mapped back to the bits each of the three classes
 * (the owner's SID and Everyone, the group's and Everyone, Everyone)
 * would be granted when the ACEs are evaluated in order, the first ACE
 * to allow or deny a right deciding it, as Windows does.
 */
#ifndef _SMBSRV_WIRE_SECDESC_H
#define _SMBSRV_WIRE_SECDESC_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* AdditionalInformation / SecurityInformation bits (MS-SMB2 2.2.37). */
#define OWNER_SECURITY_INFORMATION	0x00000001
#define GROUP_SECURITY_INFORMATION	0x00000002
#define DACL_SECURITY_INFORMATION	0x00000004
#define SACL_SECURITY_INFORMATION	0x00000008
#define LABEL_SECURITY_INFORMATION	0x00000010
#define ATTRIBUTE_SECURITY_INFORMATION	0x00000020
#define SCOPE_SECURITY_INFORMATION	0x00000040
#define BACKUP_SECURITY_INFORMATION	0x00010000

/* SECURITY_DESCRIPTOR Control (MS-DTYP 2.4.6). */
#define SE_OWNER_DEFAULTED		0x0001
#define SE_GROUP_DEFAULTED		0x0002
#define SE_DACL_PRESENT			0x0004
#define SE_DACL_DEFAULTED		0x0008
#define SE_SACL_PRESENT			0x0010
#define SE_DACL_AUTO_INHERITED		0x0400
#define SE_DACL_PROTECTED		0x1000
#define SE_SELF_RELATIVE		0x8000

#define SMB_SD_HDR_SIZE			20

/* ACE types and flags (MS-DTYP 2.4.4.1). */
#define ACCESS_ALLOWED_ACE_TYPE		0x00
#define ACCESS_DENIED_ACE_TYPE		0x01
#define OBJECT_INHERIT_ACE		0x01
#define CONTAINER_INHERIT_ACE		0x02
#define NO_PROPAGATE_INHERIT_ACE	0x04
#define INHERIT_ONLY_ACE		0x08
#define INHERITED_ACE			0x10

#define SMB_ACL_HDR_SIZE		8
#define SMB_ACL_REVISION		2

#define SMB_SID_MAX_SUB			15

struct smb_sid {
	u8 revision;
	u8 count;			/* SubAuthorityCount */
	u8 auth[6];			/* IdentifierAuthority, big-endian */
	u32 sub[SMB_SID_MAX_SUB];
};

static inline u32 smb_sid_size(const struct smb_sid *sid)
{
	return 8 + 4 * sid->count;
}

/* Decode a SID at @buf; its size, or -EINVAL when it does not fit. */
int smb_sid_decode(const u8 *buf, u32 len, struct smb_sid *sid);
/* Encode (smb_sid_size() bytes). */
void smb_sid_encode(u8 *buf, const struct smb_sid *sid);
bool smb_sid_equal(const struct smb_sid *a, const struct smb_sid *b);
/*
 * A total order of SIDs (<0, 0, >0): by sub-authority count, revision,
 * authority, then the sub-authorities as numbers.  Token SID lists are
 * sorted by it.
 */
int smb_sid_cmp(const struct smb_sid *a, const struct smb_sid *b);
/* S-1-@authority-@s0[-@s1[-@s2]] with @count sub-authorities (1 to 3). */
void smb_sid_make(struct smb_sid *sid, u8 authority, u32 count, u32 s0,
		  u32 s1, u32 s2);
/* Whether @sid is S-1-@authority-... with @count sub-authorities. */
bool smb_sid_is(const struct smb_sid *sid, u8 authority, u32 count);

/* The SIDs of Unix users and groups, and the well-known ones used here. */
void smb_sid_unix_user(struct smb_sid *sid, u32 uid);
void smb_sid_unix_group(struct smb_sid *sid, u32 gid);
void smb_sid_everyone(struct smb_sid *sid);
/* A Unix user's or group's SID back to its id; false for other SIDs. */
bool smb_sid_to_uid(const struct smb_sid *sid, u32 *uid);
bool smb_sid_to_gid(const struct smb_sid *sid, u32 *gid);

struct smb_ace {
	u8 type;
	u8 flags;
	u32 mask;
	struct smb_sid sid;		/* for the types that have one */
	bool has_sid;
	u16 off;			/* where the ACE is in its ACL */
	u16 size;			/* AceSize */
};

/*
 * Walk the ACEs of an ACL (@acl, @len bytes from its header): @pos
 * starts at 0 and the header is checked on the first call.  Returns 1
 * with *ace, 0 after AceCount ACEs, -EINVAL for anything that does not
 * fit (an ACE past AclSize or the buffer, AceSize not a multiple of 4 or
 * shorter than its type needs, a bad SID).
 */
int smb_acl_next(const u8 *acl, u32 len, u32 *pos, struct smb_ace *ace);

/* A self-relative security descriptor, decoded. */
struct smb_sd {
	u16 control;
	bool has_owner;
	bool has_group;
	struct smb_sid owner;
	struct smb_sid group;
	const u8 *dacl;			/* NULL: no DACL (or a NULL DACL) */
	u32 dacl_len;
	const u8 *sacl;
	u32 sacl_len;
};

/*
 * Decode a self-relative security descriptor of @len bytes: revision 1,
 * SE_SELF_RELATIVE, owner and group SIDs and both ACLs inside the buffer
 * and well formed.  0, or -EINVAL.
 */
int smb_sd_decode(const u8 *buf, u32 len, struct smb_sd *sd);
/*
 * The same for a descriptor whose header is at @hdr in @buf and whose
 * offsets count from the start of @buf, as the NDR blobs of Samba and
 * ksmbd keep it (kmod/wire/ntacl_blob.c).  An offset that points at the
 * header itself counts as absent (ksmbd shifts a zero offset too).
 */
int smb_sd_decode_at(const u8 *buf, u32 len, u32 hdr, struct smb_sd *sd);

/* What a POSIX object looks like to the mapping below. */
struct smb_posix_owner {
	u32 uid;
	u32 gid;
	u32 mode;		/* permission bits (0777) */
	bool dir;
	/*
	 * Non-zero: the whole st_mode, and the DACL ends with the MS NFS
	 * ACEs Samba's vfs_fruit gives Macs (fruit:nfs_aces): access denied,
	 * no rights, for S-1-5-88-3-<st_mode>, S-1-5-88-1-<uid> and
	 * S-1-5-88-2-<gid>.
	 */
	u32 nfs_mode;
};

/*
 * Encode the parts of a security descriptor @info asks for
 * (OWNER/GROUP/DACL_SECURITY_INFORMATION; a SACL is given empty) for @po
 * into @buf, writing at most @cap bytes.  Returns the full length.
 */
u32 smb_sd_from_posix(u8 *buf, u32 cap, u32 info,
		      const struct smb_posix_owner *po);

/*
 * The permission bits the DACL of @sd grants to @po's owner, group and
 * others (see above), or the mode an S-1-5-88-3 ACE carries.  @sd->dacl
 * NULL (a NULL DACL) grants everything: 0777.  0, or -EINVAL for a
 * malformed DACL.
 */
int smb_sd_to_mode(const struct smb_sd *sd, const struct smb_posix_owner *po,
		   u32 *mode);

/* Access rights an rwx triplet maps to, and back (MS-DTYP 2.4.3). */
u32 smb_rwx_to_access(u32 rwx, bool dir);
u32 smb_access_to_rwx(u32 mask);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_SECDESC_H */
