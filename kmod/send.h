/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: sending whole frames, several in one go when they queue up.
 */
#ifndef _SMBSRV_SEND_H
#define _SMBSRV_SEND_H

#include <linux/bvec.h>
#include <linux/types.h>
#include <linux/uio.h>

struct smbsrv_conn;

/*
 * Or'ed into @queue below: the sender reads and answers more requests
 * before it calls smbsrv_send_push(), so its frame may wait in the socket
 * (MSG_MORE) to go out with theirs.  Only a receive run running requests
 * inline sends so (sched.h).
 */
#define SMBSRV_SEND_MORE	0x80

/*
 * Send one frame: the 4-byte transport header, then the message in
 * iov[1..n-1] (@len bytes; iov[0] is filled in here).  The frame goes out
 * whole or the connection is closed: a short or failed send never looks
 * like success.  @queue (enum smbsrv_queue) is the queue whose worker
 * sends it, for the statistics.  Returns 0 or a negative errno once the
 * frame is on the socket.  Sleeps.
 */
int smbsrv_send_frame(struct smbsrv_conn *conn, u8 queue, struct kvec *iov,
		      unsigned int n, u32 len);

/*
 * The same for a frame of pages, spliced into the socket
 * (MSG_SPLICE_PAGES): bv[0] starts with 4 bytes for the transport header
 * (filled in here) and the message (@len bytes) follows it through
 * bv[0..n-1].  Every page must be page-allocator memory (no slab, no
 * vmalloc, no stack); the caller keeps its references until this
 * returns, by when the socket holds its own.  Sleeps.
 */
int smbsrv_send_pages(struct smbsrv_conn *conn, u8 queue, struct bio_vec *bv,
		      unsigned int n, u32 len);

/* Push what frames sent with SMBSRV_SEND_MORE left in the socket.  Sleeps. */
void smbsrv_send_push(struct smbsrv_conn *conn);

#endif /* _SMBSRV_SEND_H */
