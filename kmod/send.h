/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: sending whole frames.
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
 * like success.  Returns 0 or a negative errno.  Sleeps.
 */
int smbsrv_send_frame(struct smbsrv_conn *conn, struct kvec *iov,
		      unsigned int n, u32 len);

#endif /* _SMBSRV_SEND_H */
