/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: AFP_AfpInfo, the Finder info of a file on a fruit share
 * (vfs objects = fruit), where it is kept:
 *
 *  - fruit:metadata = stream: the stream's own xattr,
 *    "user.DosStream.AFP_AfpInfo:$DATA", 60 bytes and a NUL as Samba's
 *    streams_xattr writes it (60 bytes, as ksmbd writes streams, read
 *    too);
 *  - fruit:metadata = netatalk: the Finder info entry of netatalk's
 *    AppleDouble xattr "user.org.netatalk.Metadata" (wire/aapl.h),
 *    whose other entries are kept.
 *
 * An open of AFP_AfpInfo is a stream open (stream.h) flagged
 * SMBSRV_FILE_AFPINFO (and SMBSRV_FILE_AFP_NETATALK), whose fnode key is
 * the xattr that keeps it.  It reads as 60 bytes whether or not the
 * xattr exists (a Mac creates the stream, then writes it): nothing is
 * stored until a WRITE with Finder info, and a WRITE of all-zero Finder
 * info removes it, as on a Mac.
 */
#ifndef _SMBSRV_AFP_H
#define _SMBSRV_AFP_H

#include <linux/fs.h>
#include <linux/path.h>
#include <linux/types.h>

#include "wire/aapl.h"

#define SMBSRV_AFP_NETATALK_XATTR	"user.org.netatalk.Metadata"
/* Longest netatalk metadata xattr read (netatalk writes 402 bytes). */
#define SMBSRV_AFP_NETATALK_MAX		4096

/*
 * The AfpInfo kept in @xname of @dentry into @out: 0, or -ENOENT when
 * there is none (or none valid), or -errno.
 */
int smbsrv_afp_get(struct dentry *dentry, const char *xname, bool netatalk,
		   u8 out[SMB_AFPINFO_SIZE]);

/* Keep @val (a valid AfpInfo) in @xname of @path. */
int smbsrv_afp_put(const struct path *path, const char *xname, bool netatalk,
		   const u8 val[SMB_AFPINFO_SIZE]);

#endif /* _SMBSRV_AFP_H */
