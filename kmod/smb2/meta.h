/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: what the metadata handlers share (query.c, setinfo.c, dir.c,
 * security.c): QUERY_INFO replies, names of opens relative to the share
 * root, the volume's identity.  EAs are ea.h's.
 */
#ifndef _SMBSRV_SMB2_META_H
#define _SMBSRV_SMB2_META_H

#include <linux/fs.h>
#include <linux/path.h>
#include <linux/types.h>

struct smbsrv_file;
struct smbsrv_req;
struct smbsrv_tree;
struct smb2_query_info_req;
struct smb2_set_info_req;

/* security.c: SMB2_0_INFO_SECURITY queries and sets. */
u32 smbsrv_query_security(struct smbsrv_req *req, struct smbsrv_file *f,
			  const struct smb2_query_info_req *r);
u32 smbsrv_set_security(struct smbsrv_req *req, struct smbsrv_file *f,
			const struct smb2_set_info_req *r);

#endif /* _SMBSRV_SMB2_META_H */
