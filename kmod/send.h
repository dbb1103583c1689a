/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: sending whole frames, several in one go when they queue up.
 */
#ifndef _SMBSRV_SEND_H
#define _SMBSRV_SEND_H

#include <linux/types.h>
#include <linux/uio.h>

struct smbsrv_conn;

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

#endif /* _SMBSRV_SEND_H */
