/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: previous versions over SMB2.  A CREATE names a snapshot with a
 * TWrp context (MS-SMB2 2.2.13.2.7) or an @GMT component anywhere in its
 * path (which comes out of the path: Samba's rule); it then works on the
 * view of the tree in that snapshot (snap.h), and the open it makes is
 * read-only the way Samba's shadow_copy2 opens are: access is granted as
 * the permissions say, but nothing is written (STATUS_MEDIA_WRITE_PROTECTED;
 * a rename or hard link out of it STATUS_NOT_SAME_DEVICE).
 * FSCTL_SRV_ENUMERATE_SNAPSHOTS lists the share's snapshots.
 */
#ifndef _SMBSRV_SMB2_SNAP_H
#define _SMBSRV_SMB2_SNAP_H

#include <linux/types.h>

struct smb2_create_req;
struct smb2_ioctl_req;
struct smbsrv_file;
struct smbsrv_req;
struct smbsrv_tree;

/*
 * The tree a CREATE of @path (share-relative, smb_name_to_path()'s) works
 * on, in *@tree: @req's, or the view of the snapshot the request asks for
 * (an @GMT component is then taken out of @path; a TWrp context wins over
 * it).  Returns STATUS_SUCCESS, STATUS_INVALID_PARAMETER for a TWrp
 * context that is not a FILETIME of 1970 to 9999, or, when the share has
 * no such snapshot (or no previous versions at all),
 * STATUS_OBJECT_NAME_NOT_FOUND for any name in it (Samba's answer).  Give
 * the tree back with smbsrv_snap_create_end().
 */
u32 smbsrv_snap_create_tree(struct smbsrv_req *req,
			    const struct smb2_create_req *r, char *path,
			    struct smbsrv_tree **tree);
void smbsrv_snap_create_end(struct smbsrv_req *req, struct smbsrv_tree *tree);

/*
 * In a snapshot, a CREATE with @disposition of a name that is not there:
 * STATUS_OBJECT_NAME_NOT_FOUND where the disposition only opens, else
 * STATUS_MEDIA_WRITE_PROTECTED (Samba's answers).
 */
u32 smbsrv_snap_create_new(u32 disposition);

/*
 * In a snapshot, a CREATE of an existing object: STATUS_SUCCESS for
 * FILE_OPEN and FILE_OPEN_IF, STATUS_MEDIA_WRITE_PROTECTED for what would
 * overwrite it or delete it on close.
 */
u32 smbsrv_snap_create_existing(u32 disposition, u32 options);

/*
 * SET_INFO of @info_type/@cls on an open @f: STATUS_SUCCESS unless @f is in
 * a snapshot and the class changes the file (then
 * STATUS_MEDIA_WRITE_PROTECTED, or STATUS_NOT_SAME_DEVICE for a rename or
 * hard link, as Samba answers).
 */
u32 smbsrv_snap_set_info(const struct smbsrv_file *f, u8 info_type, u8 cls);

/* An FSCTL @ctl_code on @f: STATUS_MEDIA_WRITE_PROTECTED if it writes a snapshot. */
u32 smbsrv_snap_fsctl_check(const struct smbsrv_file *f, u32 ctl_code);

/*
 * FSCTL_SRV_ENUMERATE_SNAPSHOTS on an open of @req's tree (3.3.5.15.1):
 * the share's snapshots as @GMT tokens, or only their number and the
 * size they need when MaxOutputResponse is too small for them.
 */
u32 smbsrv_snap_fsctl_enumerate(struct smbsrv_req *req,
				struct smb2_ioctl_req *r);

#endif /* _SMBSRV_SMB2_SNAP_H */
