/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: what IOCTL (ioctl.c) shares with the FSCTLs it hands on: the
 * file-system ones (fsctl.c, copy.c) and FSCTL_PIPE_TRANSCEIVE (pipe.c).
 */
#ifndef _SMBSRV_SMB2_FSCTL_H
#define _SMBSRV_SMB2_FSCTL_H

#include <linux/types.h>

#include "../file.h"

struct smbsrv_req;
struct smb2_ioctl_req;

/* One FSCTL on an open file, as the FSCTL handlers get it. */
struct smbsrv_fsctl {
	struct smbsrv_req *req;
	struct smb2_ioctl_req *r;
	struct smbsrv_file *f;
};

static inline struct inode *smbsrv_fsctl_inode(struct smbsrv_fsctl *x)
{
	return file_inode(x->f->filp);
}

/* A regular file's data: not a directory, reparse point or stream. */
static inline bool smbsrv_fsctl_regular(struct smbsrv_fsctl *x)
{
	return !(x->f->flags & (SMBSRV_FILE_DIR | SMBSRV_FILE_REPARSE |
				SMBSRV_FILE_STREAM));
}

/*
 * An FSCTL the protocol core does not answer itself: sparse files,
 * allocated ranges, zeroing, server-side copy, symbolic link reparse
 * points, object ids, network interfaces.  @r may be updated (the FileId
 * a related compound request resolved).  Returns the NTSTATUS; the
 * response body is built where the status carries one.
 */
u32 smbsrv_fsctl_fs(struct smbsrv_req *req, struct smb2_ioctl_req *r);

/*
 * Server-side copy and block cloning (copy.c): FSCTL_SRV_REQUEST_RESUME_KEY,
 * FSCTL_SRV_COPYCHUNK(_WRITE), FSCTL_DUPLICATE_EXTENTS_TO_FILE.
 */
u32 smbsrv_fsctl_resume_key(struct smbsrv_fsctl *x);
u32 smbsrv_fsctl_copychunk(struct smbsrv_fsctl *x);
u32 smbsrv_fsctl_dup_extents(struct smbsrv_fsctl *x);

#endif /* _SMBSRV_SMB2_FSCTL_H */
