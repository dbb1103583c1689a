/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bounded output buffer for the variable-length replies (QUERY_INFO,
 * QUERY_DIRECTORY, security descriptors): fields are written at absolute
 * offsets, and whatever falls beyond the capacity is dropped, so one
 * encoder both measures a reply (capacity 0) and writes as much of it as
 * the client's buffer takes.
 */
#ifndef _SMBSRV_WIRE_OUT_H
#define _SMBSRV_WIRE_OUT_H

#include "compat.h"

struct smb_out {
	u8 *buf;
	u32 cap;	/* bytes of buf that may be written */
};

static inline void smb_out_bytes(const struct smb_out *o, u32 off,
				 const void *src, u32 len)
{
	if (off < o->cap)
		memcpy(o->buf + off, src, len < o->cap - off ? len :
			o->cap - off);
}

static inline void smb_out_u8(const struct smb_out *o, u32 off, u8 v)
{
	if (off < o->cap)
		o->buf[off] = v;
}

static inline void smb_out_le16(const struct smb_out *o, u32 off, u16 v)
{
	u8 b[2];

	put_unaligned_le16(v, b);
	smb_out_bytes(o, off, b, 2);
}

static inline void smb_out_le32(const struct smb_out *o, u32 off, u32 v)
{
	u8 b[4];

	put_unaligned_le32(v, b);
	smb_out_bytes(o, off, b, 4);
}

static inline void smb_out_le64(const struct smb_out *o, u32 off, u64 v)
{
	u8 b[8];

	put_unaligned_le64(v, b);
	smb_out_bytes(o, off, b, 8);
}

#endif /* _SMBSRV_WIRE_OUT_H */
