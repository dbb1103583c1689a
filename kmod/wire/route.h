/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What request routing (kmod/sched.c) needs to know of a received
 * message before any worker has looked at it, and the adaptive policy's
 * rule.
 *
 * The receiver peeks at a complete message: only a plain (not encrypted,
 * not compressed) message holding exactly one SMB2 WRITE, sent
 * synchronously and not related to anything, may leave the per-CPU
 * queue.  Such a message holding one READ instead may be run by the
 * receiver itself (inline reads), and so may an encrypted message small
 * enough to be one, once decrypted.  The peek trusts nothing: the
 * message is checked again, fully, by whoever runs it; a message the
 * peek does not understand is simply not eligible.
 */
#ifndef _SMBSRV_WIRE_ROUTE_H
#define _SMBSRV_WIRE_ROUTE_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The adaptive rule (Documentation/design.md, "Request routing"): a WRITE
 * goes to the unbound queue when its connection has at least
 * SMB2_ROUTE_DEPTH_MIN messages queued or running (this one included) and
 * it carries at least SMB2_ROUTE_LENGTH_MIN bytes.  Queue depth 1 and
 * small WRITEs stay on the CPU that received them.
 */
#define SMB2_ROUTE_DEPTH_MIN		4
#define SMB2_ROUTE_LENGTH_MIN		(64 * 1024)

/*
 * Most OriginalMessageSize of an encrypted message the receiver decrypts
 * itself to see whether it is a READ: a READ request is 113 bytes (with
 * no channel info, which inline reads do not take anyway).
 */
#define SMB2_ROUTE_SEALED_MAX		256

struct smb2_route_info {
	bool write;		/* one plain, synchronous, unrelated WRITE */
	u32 length;		/* its Length field (bytes to write) */
	bool read;		/* ... or such a READ */
	u32 read_length;	/* its Length field (bytes to read) */
	bool sealed;		/* a TRANSFORM message of at most ..._SEALED_MAX */
};

/*
 * Look at the message of @len bytes at @msg (no transport header).
 * Fills *ri; never fails: anything else is "not a WRITE" (nor a READ).
 */
void smb2_route_peek(const u8 *msg, u32 len, struct smb2_route_info *ri);

/*
 * Whether the first @got bytes of a message still being received (at
 * least its SMB2 header) start what smb2_route_peek() would call a WRITE,
 * as far as the header tells: the SMB2 protocol, command WRITE, no
 * NextCommand, not async, related or a response.  A TRANSFORM (encrypted)
 * or compressed message is not.  Trusts nothing, decides nothing but
 * where the rest is received (receive mode 4, kmod/recv.c) and where the
 * next frame is (mode 5).
 */
bool smb2_route_write_hdr(const u8 *msg, u32 got);

/* The adaptive policy's verdict for an eligible message: true = unbound. */
bool smb2_route_adaptive(const struct smb2_route_info *ri, u32 depth);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_ROUTE_H */
