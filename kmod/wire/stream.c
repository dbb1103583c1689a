// SPDX-License-Identifier: GPL-2.0
/*
 * Stream names and the xattr names that keep them (see stream.h).
 */
#include "compat.h"
#include "stream.h"

static unsigned char smb_stream_fold(unsigned char c)
{
	return c >= 'a' && c <= 'z' ? (unsigned char)(c - 'a' + 'A') : c;
}

static bool smb_stream_char_ok(unsigned char c)
{
	return c && c != ':' && c != '/' && c != '\\';
}

int smb_stream_xattr_name(const char *name, u32 len, char *out, u32 cap)
{
	u32 i, total;

	if (!len || len > SMB_STREAM_NAME_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!smb_stream_char_ok((unsigned char)name[i]))
			return -EINVAL;
	total = SMB_STREAM_XATTR_PREFIX_LEN + len + SMB_STREAM_XATTR_SUFFIX_LEN;
	if (total + 1 > cap)
		return -EINVAL;
	memcpy(out, SMB_STREAM_XATTR_PREFIX, SMB_STREAM_XATTR_PREFIX_LEN);
	memcpy(out + SMB_STREAM_XATTR_PREFIX_LEN, name, len);
	memcpy(out + SMB_STREAM_XATTR_PREFIX_LEN + len, SMB_STREAM_XATTR_SUFFIX,
	       SMB_STREAM_XATTR_SUFFIX_LEN);
	out[total] = '\0';
	return (int)total;
}

const char *smb_stream_of_xattr(const char *xattr, u32 xlen, u32 *len)
{
	const char *name = xattr + SMB_STREAM_XATTR_PREFIX_LEN, *type;
	u32 i, n;

	if (xlen <= SMB_STREAM_XATTR_PREFIX_LEN + SMB_STREAM_XATTR_SUFFIX_LEN)
		return NULL;
	if (memcmp(xattr, SMB_STREAM_XATTR_PREFIX, SMB_STREAM_XATTR_PREFIX_LEN))
		return NULL;
	n = xlen - SMB_STREAM_XATTR_PREFIX_LEN - SMB_STREAM_XATTR_SUFFIX_LEN;
	type = name + n;
	/* The type ":$DATA", in any case (Samba keeps what it was sent). */
	for (i = 0; i < SMB_STREAM_XATTR_SUFFIX_LEN; i++)
		if (smb_stream_fold((unsigned char)type[i]) !=
		    (unsigned char)SMB_STREAM_XATTR_SUFFIX[i])
			return NULL;
	for (i = 0; i < n; i++)
		if (!smb_stream_char_ok((unsigned char)name[i]))
			return NULL;
	*len = n;
	return name;
}

bool smb_stream_name_eq(const char *a, u32 alen, const char *b, u32 blen)
{
	u32 i;

	if (alen != blen)
		return false;
	for (i = 0; i < alen; i++)
		if (smb_stream_fold((unsigned char)a[i]) !=
		    smb_stream_fold((unsigned char)b[i]))
			return false;
	return true;
}
