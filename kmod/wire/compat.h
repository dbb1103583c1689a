/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv wire code: the few kernel facilities it uses, for userspace too.
 *
 * Everything under kmod/wire/ is plain C that only sees byte buffers: it
 * is built into the module, into the unit tests and into the fuzzers.
 */
#ifndef _SMBSRV_WIRE_COMPAT_H
#define _SMBSRV_WIRE_COMPAT_H

#ifdef __KERNEL__
#include <linux/array_size.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = (const u8 *)p;

	return (u16)(b[0] | b[1] << 8);
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = (const u8 *)p;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static inline u64 get_unaligned_le64(const void *p)
{
	const u8 *b = (const u8 *)p;

	return (u64)get_unaligned_le32(b) | (u64)get_unaligned_le32(b + 4) << 32;
}

static inline void put_unaligned_le16(u16 v, void *p)
{
	u8 *b = (u8 *)p;

	b[0] = (u8)v;
	b[1] = (u8)(v >> 8);
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	u8 *b = (u8 *)p;

	b[0] = (u8)v;
	b[1] = (u8)(v >> 8);
	b[2] = (u8)(v >> 16);
	b[3] = (u8)(v >> 24);
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	put_unaligned_le32((u32)v, p);
	put_unaligned_le32((u32)(v >> 32), (u8 *)p + 4);
}

/* Big-endian fields (AppleDouble, AfpInfo). */
typedef long long s64;

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = (const u8 *)p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = (const u8 *)p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | (u32)b[3];
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	u8 *b = (u8 *)p;

	b[0] = (u8)(v >> 8);
	b[1] = (u8)v;
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	u8 *b = (u8 *)p;

	b[0] = (u8)(v >> 24);
	b[1] = (u8)(v >> 16);
	b[2] = (u8)(v >> 8);
	b[3] = (u8)v;
}
#endif

#endif /* _SMBSRV_WIRE_COMPAT_H */
