/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: NT ACLs on shares with vfs objects = acl_xattr.
 *
 * Each file and directory may keep a security descriptor in its
 * "security.NTACL" xattr, in the NDR blob Samba and ksmbd use
 * (wire/ntacl_blob.c).  A blob counts while the file's owner, group, mode
 * and POSIX ACLs are what it was written for (its sys_acl_hash, as Samba
 * or ksmbd computes it); otherwise, or without one, the descriptor is the
 * one the mode gives (wire/ntacl.c, smb_sd_from_mode()).  The descriptor
 * decides access, as MS-DTYP 2.5.3.2 says, for the tree's user as a token
 * of Unix SIDs (S-1-22-1-uid, S-1-22-2-gid).
 *
 * On these shares the NT ACL is the authority, not the POSIX mode: the
 * tree's credentials carry CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and
 * CAP_FOWNER, so that what a DACL grants the kernel allows, and every
 * operation is checked here first (CREATE against the object's and its
 * parent's descriptor, a rename's or link's new name as a create in the
 * new parent).  The mode follows the DACL (what it grants the owner, the
 * group and Everyone: smb_sd_to_mode()) so that local processes see
 * something sensible; a local chmod or chown makes the stored descriptor
 * stale, and the mode's descriptor takes over, as with Samba and ksmbd.
 *
 * Writing a security.* xattr needs CAP_SYS_ADMIN: the module raises it for
 * that one setxattr, after its own checks.  Clients never reach it any
 * other way: EAs are user.* xattrs.
 */
#ifndef _SMBSRV_ACL_H
#define _SMBSRV_ACL_H

#include <linux/cred.h>
#include <linux/path.h>
#include <linux/types.h>

struct smbsrv_file;
struct smbsrv_tree;

/* The tree credentials of an acl_xattr share (see above); NULL: no memory. */
struct cred *smbsrv_acl_cred(const struct cred *base);
void smbsrv_acl_cred_caps(struct cred *c);

/*
 * The rights the tree's user has to the object at @path: what its
 * descriptor grants, FILE_READ_ATTRIBUTES always, DELETE also when the
 * parent grants FILE_DELETE_CHILD; nothing that modifies on a read-only
 * tree.  Runs with the tree's credentials.
 */
u32 smbsrv_acl_maximal_access(const struct smbsrv_tree *tree,
			      const struct path *path);

/*
 * hide unreadable: does @path's descriptor itself grant the tree's user
 * FILE_READ_DATA, FILE_READ_EA, FILE_READ_ATTRIBUTES and READ_CONTROL
 * (Samba's access-based enumeration: not the FILE_READ_ATTRIBUTES a
 * parent's FILE_LIST_DIRECTORY implies)?  Root sees everything.
 */
bool smbsrv_acl_may_see(const struct smbsrv_tree *tree,
			const struct path *path);

/*
 * May the tree's user add a file (@dir: a directory) to @parent?
 * STATUS_SUCCESS or STATUS_ACCESS_DENIED.
 */
u32 smbsrv_acl_may_create(const struct smbsrv_tree *tree,
			  const struct path *parent, bool dir);

/*
 * Whether @secd (a CREATE's SecD context, @len bytes) may be given to a
 * new object by the tree's user: STATUS_SUCCESS, or the status Windows
 * answers (INVALID_SECURITY_DESCR, INVALID_OWNER, PRIVILEGE_NOT_HELD).
 */
u32 smbsrv_acl_check_secd(const struct smbsrv_tree *tree, const u8 *secd,
			  u32 len);

/*
 * Give the new object at @obj (in @parent) its descriptor: @secd's parts
 * (checked by smbsrv_acl_check_secd()), the rest inherited from the
 * parent; its owner and group, and its mode from the DACL within @mask
 * plus @force (the share's create or directory mask and force mode).
 */
u32 smbsrv_acl_new_object(const struct smbsrv_tree *tree,
			  const struct path *parent, const struct path *obj,
			  bool dir, const u8 *secd, u32 len, umode_t mask,
			  umode_t force);

/*
 * QUERY_INFO: the parts @info asks for of @f's descriptor, in a
 * kmalloc()ed buffer (*@buf, *@len).  0 or -errno.
 */
int smbsrv_acl_query(const struct smbsrv_tree *tree, struct smbsrv_file *f,
		     u32 info, u8 **buf, u32 *len);

/* SET_INFO: the parts @info names, from @sd (@len bytes).  An NTSTATUS. */
u32 smbsrv_acl_set(const struct smbsrv_tree *tree, struct smbsrv_file *f,
		   u32 info, const u8 *sd, u32 len);

#endif /* _SMBSRV_ACL_H */
