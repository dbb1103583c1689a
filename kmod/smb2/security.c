// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: security descriptors (QUERY_INFO and SET_INFO with
 * SMB2_0_INFO_SECURITY, MS-SMB2 3.3.5.20.3 and 3.3.5.21.3).
 *
 * A file's security descriptor is its POSIX owner, group and mode as
 * wire/secdesc.c maps them: owner S-1-22-1-<uid>, group S-1-22-2-<gid>,
 * a DACL of allow ACEs for owner, group and Everyone (with deny ACEs
 * where Everyone would give the owner or group more than their bits).
 * Setting one changes the owner and group (chown, as the session user:
 * the kernel decides who may) and the permission bits from the DACL.
 * Reading needs READ_CONTROL, setting the owner or group WRITE_OWNER, the
 * DACL WRITE_DAC, anything about a SACL ACCESS_SYSTEM_SECURITY (which
 * smbsrv never grants).
 *
 * On fruit shares, to clients that negotiated AAPL, the DACL also carries
 * the mode, uid and gid as MS NFS ACEs (fruit:nfs_aces, as Samba); a mode
 * ACE in a DACL that is set gives the mode.
 *
 * On shares with vfs objects = acl_xattr the descriptor is the one kept
 * in the file's security.NTACL xattr instead, read and written by acl.c.
 */
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <uapi/linux/smbsrv.h>

#include "../acl.h"
#include "../conn.h"
#include "../file.h"
#include "../fruit.h"
#include "../session.h"
#include "../status.h"
#include "../vfs.h"
#include "../wire/fscc.h"
#include "../wire/info.h"
#include "../wire/secdesc.h"
#include "meta.h"
#include "smb2.h"

/* The parts of a security descriptor smbsrv keeps. */
#define SMBSRV_SECINFO_KEPT	(OWNER_SECURITY_INFORMATION | \
				 GROUP_SECURITY_INFORMATION | \
				 DACL_SECURITY_INFORMATION)

static void smbsrv_sec_owner(struct inode *inode, struct smb_posix_owner *po)
{
	po->uid = from_kuid(&init_user_ns, inode->i_uid);
	po->gid = from_kgid(&init_user_ns, inode->i_gid);
	po->mode = inode->i_mode & 0777;
	po->dir = S_ISDIR(inode->i_mode);
	po->nfs_mode = 0;
}

u32 smbsrv_query_security(struct smbsrv_req *req, struct smbsrv_file *f,
			  const struct smb2_query_info_req *r)
{
	bool acl = req->tree->share_flags & SMBSRV_SHARE_FLAGS_ACL_XATTR;
	u32 info = r->additional & SMBSRV_SECINFO_KEPT, full, n;
	struct smb_posix_owner po;
	u8 need[4], *body, *sd = NULL;
	int err;

	if ((r->additional & SMBSRV_SECINFO_KEPT) &&
	    !(f->access & READ_CONTROL))
		return STATUS_ACCESS_DENIED;
	if ((r->additional & SACL_SECURITY_INFORMATION) &&
	    !(f->access & ACCESS_SYSTEM_SECURITY))
		return STATUS_ACCESS_DENIED;
	if (acl) {
		/* NT ACLs: the descriptor kept for the file (acl.c). */
		err = smbsrv_acl_query(req->tree, f, r->additional &
				       (SMBSRV_SECINFO_KEPT |
					SACL_SECURITY_INFORMATION), &sd, &full);
		if (err)
			return smbsrv_errno_status(err);
	} else {
		smbsrv_sec_owner(file_inode(f->filp), &po);
		/* Macs on a fruit share: the mode, uid and gid as NFS ACEs. */
		if (READ_ONCE(req->conn->aapl) &&
		    smbsrv_fruit_has(req->tree, SMBSRV_FRUIT_FLAGS_NFS_ACES))
			po.nfs_mode = file_inode(f->filp)->i_mode;
		full = smb_sd_from_posix(NULL, 0, info, &po);
	}
	if (r->out_len < full) {
		kfree(sd);
		/*
		 * Never a partial descriptor: STATUS_BUFFER_TOO_SMALL with the
		 * size it takes as error data.
		 */
		put_unaligned_le32(full, need);
		body = smbsrv_rsp_body(req, smb2_error_data_size(sizeof(need)));
		if (!body)
			return STATUS_INSUFFICIENT_RESOURCES;
		n = smb2_error_data_encode(body, req->conn->dialect ==
					   SMB2_DIALECT_311, need, sizeof(need));
		req->rsp_len = SMB2_HDR_SIZE + n;
		return STATUS_BUFFER_TOO_SMALL;
	}
	body = smbsrv_qinfo_out(req, full);
	if (body && sd)
		memcpy(body, sd, full);
	else if (body)
		smb_sd_from_posix(body, full, info, &po);
	kfree(sd);
	return body ? STATUS_SUCCESS : STATUS_INSUFFICIENT_RESOURCES;
}

/* chown and chmod in one notify_change(), as the session user. */
static int smbsrv_sec_apply(const struct path *path, struct iattr *ia)
{
	struct inode *inode = d_inode(path->dentry);
	int err;

	if (!ia->ia_valid)
		return 0;
	err = mnt_want_write(path->mnt);
	if (err)
		return err;
	inode_lock(inode);
	err = notify_change(mnt_idmap(path->mnt), path->dentry, ia, NULL);
	inode_unlock(inode);
	mnt_drop_write(path->mnt);
	return err;
}

u32 smbsrv_set_security(struct smbsrv_req *req, struct smbsrv_file *f,
			const struct smb2_set_info_req *r)
{
	const struct path *path = &f->filp->f_path;
	struct inode *inode = d_inode(path->dentry);
	struct smb_posix_owner po;
	struct iattr ia = {};
	struct smb_sd sd;
	u32 mode, id;
	int err;

	if ((r->additional & (OWNER_SECURITY_INFORMATION |
			      GROUP_SECURITY_INFORMATION)) &&
	    !(f->access & WRITE_OWNER))
		return STATUS_ACCESS_DENIED;
	if ((r->additional & DACL_SECURITY_INFORMATION) &&
	    !(f->access & WRITE_DAC))
		return STATUS_ACCESS_DENIED;
	if ((r->additional & SACL_SECURITY_INFORMATION) &&
	    !(f->access & ACCESS_SYSTEM_SECURITY))
		return STATUS_ACCESS_DENIED;
	if (req->tree->share_flags & SMBSRV_SHARE_FLAGS_ACL_XATTR)
		return smbsrv_acl_set(req->tree, f, r->additional, r->buf,
				      r->len);
	if (smb_sd_decode(r->buf, r->len, &sd))
		return STATUS_INVALID_SECURITY_DESCR;
	smbsrv_sec_owner(inode, &po);

	if ((r->additional & OWNER_SECURITY_INFORMATION) && sd.has_owner) {
		if (!smb_sid_to_uid(&sd.owner, &id) ||
		    !uid_valid(make_kuid(&init_user_ns, id)))
			return STATUS_INVALID_OWNER;
		if (id != po.uid) {
			ia.ia_valid |= ATTR_UID;
			ia.ia_uid = make_kuid(&init_user_ns, id);
			po.uid = id;
		}
	}
	if ((r->additional & GROUP_SECURITY_INFORMATION) && sd.has_group) {
		if (!smb_sid_to_gid(&sd.group, &id) ||
		    !gid_valid(make_kgid(&init_user_ns, id)))
			return STATUS_INVALID_PRIMARY_GROUP;
		if (id != po.gid) {
			ia.ia_valid |= ATTR_GID;
			ia.ia_gid = make_kgid(&init_user_ns, id);
			po.gid = id;
		}
	}
	/* A DACL that is not present changes nothing; a NULL one is 0777. */
	if ((r->additional & DACL_SECURITY_INFORMATION) &&
	    (sd.control & SE_DACL_PRESENT) && !S_ISLNK(inode->i_mode)) {
		if (smb_sd_to_mode(&sd, &po, &mode))
			return STATUS_INVALID_SECURITY_DESCR;
		/* Keep setuid, setgid and sticky unless the ACE says (07777). */
		if (!(mode & ~0777))
			mode |= inode->i_mode & ~0777 & 07777;
		if ((mode & 07777) != (inode->i_mode & 07777)) {
			ia.ia_valid |= ATTR_MODE;
			ia.ia_mode = (mode & 07777) | (inode->i_mode & S_IFMT);
		}
	}
	if (ia.ia_valid)
		ia.ia_valid |= ATTR_CTIME;
	err = smbsrv_sec_apply(path, &ia);
	if (err == -EPERM && (ia.ia_valid & ATTR_UID))
		return STATUS_INVALID_OWNER;
	return smbsrv_errno_status(err);
}
