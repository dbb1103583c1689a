/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: what IOCTL (ioctl.c) shares with the FSCTLs it hands on: the
 * file-system ones (fsctl.c) and FSCTL_PIPE_TRANSCEIVE (pipe.c).
 */
#ifndef _SMBSRV_SMB2_FSCTL_H
#define _SMBSRV_SMB2_FSCTL_H

#include <linux/types.h>

struct smbsrv_req;
struct smb2_ioctl_req;

/*
 * An FSCTL the protocol core does not answer itself: sparse files,
 * allocated ranges, zeroing, server-side copy, symbolic link reparse
 * points, object ids, network interfaces.  @r may be updated (the FileId
 * a related compound request resolved).  Returns the NTSTATUS; the
 * response body is built where the status carries one.
 */
u32 smbsrv_fsctl(struct smbsrv_req *req, struct smb2_ioctl_req *r);

#endif /* _SMBSRV_SMB2_FSCTL_H */
