/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: named pipes on IPC$ (srvsvc, wkssvc ...), served by the daemon.
 *
 * The handlers of CREATE, READ, WRITE, CLOSE and IOCTL
 * (FSCTL_PIPE_TRANSCEIVE) hand requests on an IPC$ tree to these; each
 * turns into one rpc-req upcall (upcall.h) carrying the session, the
 * pipe's FileId and the bytes.  All DCE/RPC parsing is the daemon's.
 */
#ifndef _SMBSRV_SMB2_PIPE_H
#define _SMBSRV_SMB2_PIPE_H

#include <linux/types.h>

struct smbsrv_req;
struct smb2_read_req;
struct smb2_write_req;
struct smb2_ioctl_req;

/* CREATE on IPC$: open the pipe the request names. */
u32 smbsrv_pipe_create(struct smbsrv_req *req);
u32 smbsrv_pipe_read(struct smbsrv_req *req, const struct smb2_read_req *r);
u32 smbsrv_pipe_write(struct smbsrv_req *req, const struct smb2_write_req *r);
u32 smbsrv_pipe_close(struct smbsrv_req *req, const u8 *file_id);
/* FSCTL_PIPE_TRANSCEIVE: write the input, read the answer. */
u32 smbsrv_pipe_transceive(struct smbsrv_req *req,
			   const struct smb2_ioctl_req *r);

#endif /* _SMBSRV_SMB2_PIPE_H */
