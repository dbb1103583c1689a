// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: sending whole frames.
 *
 * One frame at a time per connection, under the send lock.  The socket is
 * blocking with a send timeout (the frame-timeout knob), so a frame is
 * either sent completely, or the send failed (timeout, reset, shutdown)
 * and the connection is closed: a client never sees half a frame followed
 * by another one.
 */
#include <linux/mutex.h>
#include <linux/net.h>
#include <linux/socket.h>

#include "conn.h"
#include "send.h"
#include "wire/pdu.h"

int smbsrv_send_frame(struct smbsrv_conn *conn, struct kvec *iov,
		      unsigned int n, u32 len)
{
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
	u8 hdr[SMB2_FRAME_HDR_SIZE];
	int sent;

	if (len > SMB2_FRAME_MAX)
		return -EMSGSIZE;
	smb2_frame_encode(hdr, len);
	iov[0].iov_base = hdr;
	iov[0].iov_len = sizeof(hdr);

	mutex_lock(&conn->send_lock);
	if (smbsrv_conn_closing(conn)) {
		mutex_unlock(&conn->send_lock);
		return -ENOTCONN;
	}
	sent = kernel_sendmsg(conn->sock, &msg, iov, n, len + sizeof(hdr));
	mutex_unlock(&conn->send_lock);

	if (sent == len + sizeof(hdr))
		return 0;
	pr_info_ratelimited("smbsrv: %s: send failed (%d of %zu bytes), disconnecting\n",
			    conn->addr, sent, len + sizeof(hdr));
	smbsrv_conn_close(conn);
	return sent < 0 ? sent : -EIO;
}
