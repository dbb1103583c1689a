/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NT ACLs (shares with vfs objects = acl_xattr): access checks (MS-DTYP
 * 2.5.3.2), inheritance on create (2.5.3.4), descriptors set and queried
 * part by part, and the descriptor of an object that has none stored.
 *
 * Descriptors stay in their self-relative wire form (secdesc.h decodes
 * them); what is built here is written into a caller's buffer, and every
 * builder returns the size it needs, writing nothing unless that fits.
 *
 * Who is asking is a token: a Unix user (S-1-22-1-uid, and S-1-5-88-1-uid)
 * with its groups (S-1-22-2-gid), Everyone, NETWORK, and Authenticated
 * Users and BUILTIN\Users unless a guest or an anonymous logon; root is
 * BUILTIN\Administrators and is granted everything (as Samba grants
 * root), including ACCESS_SYSTEM_SECURITY.  A Kerberos logon whose ticket
 * carried a PAC adds the SIDs it lists: the domain user, its groups, extra
 * SIDs and resource groups.
 */
#ifndef _SMBSRV_WIRE_NTACL_H
#define _SMBSRV_WIRE_NTACL_H

#include "compat.h"
#include "secdesc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SECURITY_DESCRIPTOR Control bits beyond secdesc.h's. */
#define SE_DACL_AUTO_INHERIT_REQ	0x0100
#define SE_SACL_AUTO_INHERIT_REQ	0x0200
#define SE_SACL_AUTO_INHERITED		0x0800
#define SE_SACL_PROTECTED		0x2000

#define SYSTEM_AUDIT_ACE_TYPE		0x02

/* What the data rights stand for on a directory. */
#define FILE_ADD_FILE			0x00000002	/* FILE_WRITE_DATA */
#define FILE_ADD_SUBDIRECTORY		0x00000004	/* FILE_APPEND_DATA */
#define VALID_INHERIT_FLAGS		0x1f

/* An ACL's size is a 16-bit field. */
#define SMB_ACL_MAX			0xfffc

#define SMB_TOKEN_AUTHENTICATED		0x1	/* not guest, not anonymous */
#define SMB_TOKEN_GUEST			0x2
#define SMB_TOKEN_ANONYMOUS		0x4
#define SMB_TOKEN_ADMIN			0x8	/* root: everything */

struct smb_token {
	u32 uid;
	u32 gid;			/* primary group */
	u32 flags;			/* SMB_TOKEN_* */
	/* Whether the user is in group @gid (besides the primary one). */
	bool (*in_group)(const void *ctx, u32 gid);
	const void *ctx;
	/* More SIDs (a PAC's), sorted by smb_sid_cmp() and distinct. */
	const struct smb_sid *sids;
	u32 nsids;
};

/*
 * At most this many SIDs in a token's list (Windows' limit on a token's
 * groups is 1024 too); a logon with more is refused by the daemon.
 */
#define SMB_TOKEN_SIDS_MAX		1024

/* Whether @sids[0..@n) is sorted by smb_sid_cmp() without duplicates. */
bool smb_sids_sorted(const struct smb_sid *sids, u32 n);
/* Whether @sid is in the sorted list @sids[0..@n). */
bool smb_sids_find(const struct smb_sid *sids, u32 n,
		   const struct smb_sid *sid);

/* Well-known SIDs. */
void smb_sid_creator_owner(struct smb_sid *sid);	/* S-1-3-0 */
void smb_sid_creator_group(struct smb_sid *sid);	/* S-1-3-1 */
void smb_sid_system(struct smb_sid *sid);		/* S-1-5-18 */

bool smb_token_has_sid(const struct smb_token *tok, const struct smb_sid *sid);

/* Generic rights mapped to the file rights they stand for. */
u32 smb_access_map_generic(u32 mask);

/*
 * The rights @tok has to an object with descriptor @sd: what the DACL's
 * ACEs give in order (the first ACE to allow or deny a right decides it),
 * READ_CONTROL and WRITE_DAC for the owner unless an OWNER RIGHTS ACE
 * says what the owner gets, everything (FILE_ALL_ACCESS) without a DACL
 * or with a NULL one.  ACE masks are mapped as generic rights; inherit-only
 * ACEs and ACE types other than allow and deny do not count.  A token
 * with SMB_TOKEN_ADMIN gets FILE_ALL_ACCESS | ACCESS_SYSTEM_SECURITY.
 * Whether a desired mask is granted is whether it is within these.
 */
u32 smb_sd_maximal(const struct smb_sd *sd, const struct smb_token *tok);

/*
 * A self-relative descriptor from its parts.  @control's SE_DACL_PRESENT
 * with @dacl NULL is a NULL DACL; the same for the SACL.  Owner, group,
 * SACL and DACL are laid out in that order, as Samba does.
 */
struct smb_sd_parts {
	u16 control;
	const struct smb_sid *owner;	/* NULL: none */
	const struct smb_sid *group;
	const u8 *dacl;			/* a whole ACL (header included) */
	u32 dacl_len;
	const u8 *sacl;
	u32 sacl_len;
	/* Copy the ACL with generic rights mapped (but in inherit-only ACEs). */
	bool map_dacl;
	bool map_sacl;
};

/* Returns the size; @buf is written only when it is at most @cap. */
u32 smb_sd_encode(u8 *buf, u32 cap, const struct smb_sd_parts *p);

/* The parts of a decoded @sd (pointing into what it was decoded from). */
void smb_sd_parts_of(const struct smb_sd *sd, struct smb_sd_parts *p);

/*
 * What QUERY_INFO returns for @info (OWNER/GROUP/DACL/SACL_SECURITY_
 * INFORMATION): those parts of @sd, with the control bits of the ACLs
 * returned.  Returns the size; written only when it fits @cap.
 */
u32 smb_sd_select(u8 *buf, u32 cap, const struct smb_sd *sd, u32 info);

/*
 * SET_INFO: @cur with the parts @info names replaced by those of @req,
 * as Windows keeps them: a DACL (SACL) sent without SE_DACL_PRESENT is a
 * NULL one; generic rights in ACEs that are not inherit-only are mapped;
 * SE_DACL_PROTECTED is kept as sent, SE_DACL_AUTO_INHERITED only when
 * sent with SE_DACL_AUTO_INHERIT_REQ, which itself is never kept; an
 * owner or group not sent stays.  Returns the size (written when it fits
 * @cap).
 */
u32 smb_sd_merge(u8 *buf, u32 cap, const struct smb_sd *cur,
		 const struct smb_sd *req, u32 info);

/*
 * The descriptor of a new object (MS-DTYP 2.5.3.4, the way Windows and
 * Samba apply it to files): owner and group are @creator's when it has
 * them, else @owner and @group; the DACL is @creator's when it has one
 * (generic rights mapped), else what @parent's DACL passes on (see
 * smb_acl_inherit()), else the default one: full control for the owner
 * and SYSTEM.  A SACL only from @creator.  @parent and @creator may be
 * NULL.  Returns the size (written when it fits @cap) or -EINVAL.
 */
int smb_sd_create(u8 *buf, u32 cap, const struct smb_sd *parent,
		  const struct smb_sd *creator, bool container,
		  const struct smb_sid *owner, const struct smb_sid *group);

/*
 * The ACL a new object inherits from its parent's DACL @acl (@len bytes):
 * for a file the OBJECT_INHERIT ACEs, for a directory the CONTAINER_INHERIT
 * ones and (inherit-only, to pass on) the OBJECT_INHERIT ones without
 * NO_PROPAGATE_INHERIT.  CREATOR OWNER and CREATOR GROUP become @owner and
 * @group, generic rights are mapped, and where a directory's ACE needs
 * either and is passed on further it is split into the effective ACE and
 * an inherit-only copy of the original.  NO_PROPAGATE_INHERIT stops at the
 * child.  With @auto_inherited (the parent's SE_DACL_AUTO_INHERITED) the
 * ACEs carry INHERITED_ACE.  Returns the number of ACEs (0: nothing to
 * inherit) with the ACL's size in *size (written when it fits @cap), or
 * -EINVAL when it would outgrow 64 KiB.
 */
int smb_acl_inherit(u8 *buf, u32 cap, u32 *size, const u8 *acl, u32 len,
		    bool container, bool auto_inherited,
		    const struct smb_sid *owner, const struct smb_sid *group);

/*
 * The descriptor of an object on an acl_xattr share that has none stored:
 * its POSIX owner and group, and a DACL giving owner, group and Everyone
 * what their rwx bits stand for (rwx: full control; r: FILE_GENERIC_READ,
 * w: FILE_GENERIC_WRITE and, on directories, FILE_DELETE_CHILD, x:
 * FILE_GENERIC_EXECUTE); a directory adds the same for CREATOR OWNER,
 * CREATOR GROUP and Everyone as inheritable, inherit-only ACEs (what
 * Samba's acl_xattr adds), so that what is created in it belongs to its
 * creator.  Returns the size; written when it fits @cap.
 */
u32 smb_sd_from_mode(u8 *buf, u32 cap, const struct smb_posix_owner *po);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_NTACL_H */
