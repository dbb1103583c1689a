/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a received frame is received and run, decided before any worker
 * has looked at it: the receive placement (smb2_recv_place(), below) and
 * what request routing (kmod/sched.c) needs to know of a message, with
 * the adaptive policy's rule.
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
 * Where a connection's receive runs (kmod/recv.c), decided as each frame
 * is complete, before it is counted in flight.  Two placements: the
 * per-CPU receive work, which reads what is there without blocking (on
 * the CPU whose softirq saw the bytes), and the unbound one, which waits
 * in the socket for the rest of a frame of SMB2_RECV_WAIT_MIN bytes or
 * more.  A client that sends plain WRITEs that large one at a time (none
 * of its messages in flight, no bytes behind the frame) gets the unbound
 * receive: the next WRITE is then received beside the client still
 * sending it, with one wait rather than a run per segment.  Anything
 * else, two or more in flight, or bytes behind, is received per-CPU.
 * One in flight and nothing behind decides nothing: at queue depth 1 it
 * may be the previous request, answered but not freed yet.
 *
 * A plain WRITE sent alone may also be run by the receive that got it,
 * with no hop to a worker: a small one in either run (a small frame has
 * nothing to overlap with the client's sending), a large one in the
 * unbound run.  The bytes behind matter here too: a WRITE run inline is
 * freed before the next frame is read, so a deep queue counted by
 * messages in flight alone would find none every time.
 * Documentation/decisions/2026-12-03-receive-placement.md has the
 * measurements behind both rules.
 *
 * A small plain WRITE (below SMB2_RECV_WAIT_MIN) that is not alone, with
 * messages in flight or bytes behind it, may run in a per-CPU run too
 * (inline_depth), but only if it cannot wait: the handler checks that
 * before it writes anything (kmod/smb2/rw.c), and hands it to a worker
 * otherwise.  Documentation/decisions/2026-12-07-small-writes-inline.md.
 */
#define SMB2_RECV_WAIT_MIN		(64u * 1024)

/* What the receive knows as a frame completes, this frame not in flight. */
struct smb2_recv_facts {
	u32 inflight;		/* the connection's messages in flight */
	bool behind;		/* bytes wait behind the frame in the socket */
	bool write;		/* the frame is one plain WRITE (route_peek) */
	u32 frame_len;		/* its length */
	bool unbound;		/* the receive is placed unbound now */
	bool run_unbound;	/* the run that completed it is the unbound one */
};

struct smb2_recv_placement {
	bool unbound;		/* where the receive runs from the next run on */
	bool inline_write;	/* the WRITE may run in the run that got it */
	bool inline_depth;	/* ... if it cannot wait (not alone, small) */
};

void smb2_recv_place(const struct smb2_recv_facts *f,
		     struct smb2_recv_placement *p);

/*
 * A WRITE whose data the receiver may take in pages, with no copy into a
 * message buffer (kmod/recv.c): the receiver reads the first
 * SMB2_WRITE_HEAD_SIZE bytes of a frame of @frame_len bytes, and this
 * says whether they are the header and fixed part of one plain WRITE
 * (as smb2_route_peek() means it), signed or not (the dispatcher checks
 * a signature over the pages), with no channel info, whose data is
 * exactly the rest of the frame.  True: *ri is filled as
 * smb2_route_peek() would.  The handler checks the PDU again.
 */
#define SMB2_WRITE_HEAD_SIZE		(SMB2_HDR_SIZE + 48)

bool smb2_route_write_head(const u8 *head, u32 frame_len,
			   struct smb2_route_info *ri);

/*
 * An encrypted message whose data the receiver may take in pages: the
 * first SMB2_SEALED_HEAD_SIZE bytes of a frame of @frame_len bytes are a
 * TRANSFORM header (encrypted, OriginalMessageSize the rest of the
 * frame) and the ciphertext of what may be a WRITE's header and fixed
 * part; more than that follows.  Only decryption tells what it is: the
 * plaintext's first SMB2_WRITE_HEAD_SIZE bytes are then checked with
 * smb2_route_write_head() against OriginalMessageSize.
 */
#define SMB2_SEALED_HEAD_SIZE		(SMB2_TRANSFORM_HDR_SIZE + \
					 SMB2_WRITE_HEAD_SIZE)

bool smb2_route_sealed_head(const u8 *head, u32 frame_len);

/* The adaptive policy's verdict for an eligible message: true = unbound. */
bool smb2_route_adaptive(const struct smb2_route_info *ri, u32 depth);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_ROUTE_H */
