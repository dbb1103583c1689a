/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Named streams kept in extended attributes of the base file, in the
 * layout ksmbd and Samba's vfs_streams_xattr use for names: the stream
 * "NAME" of a file is its xattr "user.DosStream.NAME:$DATA".  The value
 * is the stream's data, byte for byte (as ksmbd keeps it; Samba's
 * module appends one NUL byte to the value).
 *
 * A stream name comes from smb_name_to_path() (no ':', '/', '\\',
 * control characters); these helpers map it to its xattr name and back,
 * and compare names the way Windows does (without case; ASCII letters
 * only are folded here).
 */
#ifndef _SMBSRV_WIRE_STREAM_H
#define _SMBSRV_WIRE_STREAM_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMB_STREAM_XATTR_PREFIX		"user.DosStream."
#define SMB_STREAM_XATTR_PREFIX_LEN	15
#define SMB_STREAM_XATTR_SUFFIX		":$DATA"
#define SMB_STREAM_XATTR_SUFFIX_LEN	6
/* Longest xattr name Linux takes (XATTR_NAME_MAX). */
#define SMB_STREAM_XATTR_NAME_MAX	255
/* Longest stream name (UTF-8 bytes) whose xattr name fits. */
#define SMB_STREAM_NAME_MAX		(SMB_STREAM_XATTR_NAME_MAX - \
					 SMB_STREAM_XATTR_PREFIX_LEN - \
					 SMB_STREAM_XATTR_SUFFIX_LEN)

/*
 * Write the xattr name of stream @name (@len bytes) and its NUL into
 * @out (@cap bytes).  Returns the name's length, or -EINVAL when @name
 * is empty, holds a NUL, ':', '/' or '\\', or is longer than
 * SMB_STREAM_NAME_MAX, or the result does not fit @cap.
 */
int smb_stream_xattr_name(const char *name, u32 len, char *out, u32 cap);

/*
 * If @xattr (@xlen bytes, one name of a listxattr result) is a data
 * stream's xattr, the stream name within it and its length in *@len;
 * otherwise NULL.
 */
const char *smb_stream_of_xattr(const char *xattr, u32 xlen, u32 *len);

/* Whether two stream names are the same name (ASCII case folded). */
bool smb_stream_name_eq(const char *a, u32 alen, const char *b, u32 blen);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_STREAM_H */
