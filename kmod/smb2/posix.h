/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the SMB3.1.1 POSIX extensions (wire/posix.h), as Samba serves
 * them: offered at NEGOTIATE when `smb3 unix extensions` is on in
 * [global]; a CREATE on a share where it is on (the share's value) that
 * carries the POSIX create context is a POSIX open: its name is looked up
 * exactly as spelt, it never follows a symlink on the server, a new
 * object gets the mode the client asked for, and the response carries
 * the object's POSIX context.  On a POSIX open the POSIX information
 * classes are answered; FIFOs, sockets and device nodes are reported as
 * NFS-style reparse points and opened, like symlinks, only as themselves
 * (O_PATH), never as devices.
 */
#ifndef _SMBSRV_SMB2_POSIX_H
#define _SMBSRV_SMB2_POSIX_H

#include <linux/fs.h>
#include <linux/path.h>
#include <linux/types.h>

struct smb2_neg_ctxs;
struct smb_posix_info;
struct smb_dirent;
struct smbsrv_conn;
struct smbsrv_fattr;
struct smbsrv_file;
struct smbsrv_req;
struct smbsrv_tree;

/* NEGOTIATE: whether @conn answers the client's POSIX context. */
u32 smbsrv_posix_negotiate(struct smbsrv_conn *conn,
			   const struct smb2_neg_ctxs *c);

/* Whether opens on @req's tree may be POSIX opens. */
bool smbsrv_posix_tree(const struct smbsrv_req *req);

/* The reparse tag POSIX clients see on an object of @mode (0: none). */
u32 smbsrv_posix_reparse_tag(umode_t mode);

/* Whether @mode is a FIFO, socket or device node. */
static inline bool smbsrv_posix_special(umode_t mode)
{
	return S_ISFIFO(mode) || S_ISSOCK(mode) || S_ISCHR(mode) ||
	       S_ISBLK(mode);
}

/* The POSIX view of what @fa says of an object. */
void smbsrv_posix_from_fattr(const struct smbsrv_fattr *fa,
			     struct smb_posix_info *pi);

/* The same for a directory entry (SMB_FIND_FILE_POSIX_INFO). */
void smbsrv_posix_dirent(const struct smbsrv_fattr *fa, struct smb_dirent *e);

/*
 * The path the POSIX information of @f describes: the object an
 * FSCTL_SET_REPARSE_POINT put in the place of the one opened, or the
 * open's own.
 */
const struct path *smbsrv_posix_path(const struct smbsrv_file *f);

/* QUERY_INFO FILE_POSIX_INFORMATION and FS_POSIX_INFORMATION. */
u32 smbsrv_posix_query_file(struct smbsrv_req *req, struct smbsrv_file *f,
			    u32 out_len);
u32 smbsrv_posix_query_fs(struct smbsrv_req *req, struct smbsrv_file *f,
			  u32 out_len);

#endif /* _SMBSRV_SMB2_POSIX_H */
