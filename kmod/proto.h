/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: what the protocol layer (smb2/) does for the layers below it.
 *
 * smb2/ is the top of the data path (Documentation/design.md, "Layers"):
 * it calls down into the objects (sessions, opens, the VFS), the
 * connection and the transport, and none of those calls up.  Where they
 * must reach it - a connection starts, hands up a received message or
 * ends; an open closes; a directory becomes pending deletion - they go
 * through these ops, which smb2/ registers at its init
 * (smbsrv_server.proto, set before the listener starts) and clears at its
 * exit, when no connection or open is left.  tools/layers.py (make lint)
 * checks that no call goes up.
 */
#ifndef _SMBSRV_PROTO_H
#define _SMBSRV_PROTO_H

#include <linux/types.h>

struct inode;
struct smb2_route_info;
struct smbsrv_conn;
struct smbsrv_dirscan;
struct smbsrv_file;
struct smbsrv_rxpages;

struct smbsrv_proto_ops {
	/*
	 * A connection starts (conn.c, before anything is read from it):
	 * its credits allow the first NEGOTIATE.  0 or -ENOMEM.  Whatever
	 * that set up goes with conn_free(), once the connection is freed
	 * (also when conn_init() failed or was never called).
	 */
	int (*conn_init)(struct smbsrv_conn *conn);
	void (*conn_free)(struct smbsrv_conn *conn);
	/*
	 * The connection is being torn down (conn.c, after the receiver
	 * stopped): its pending async requests are cancelled, then its
	 * sessions end.
	 */
	void (*conn_teardown)(struct smbsrv_conn *conn);
	/*
	 * Hand a received message (kvmalloc()ed, now owned by the callee;
	 * @ri what smb2_route_peek() saw of it) to a worker, or run it
	 * inline (recv.c).  With @rx, @buf holds the head of one WRITE and
	 * @rx its data, received into pages (rxpages.h), owned by the callee
	 * too.  0, or -ENOMEM (the caller frees @buf and @rx).  When it is
	 * done with, smb2/ calls smbsrv_recv_msg_done() (recv.h).
	 */
	int (*msg_queue)(struct smbsrv_conn *conn, u8 *buf, u32 len,
			 struct smbsrv_rxpages *rx,
			 const struct smb2_route_info *ri);
	/*
	 * The close of @f (CLOSE, tree disconnect, logoff, teardown;
	 * file.c): its watch goes and its waiting CHANGE_NOTIFY requests
	 * end with STATUS_NOTIFY_CLEANUP; its directory enumeration is
	 * freed at its release (dirscan_free).
	 */
	void (*file_close)(struct smbsrv_file *f);
	void (*dirscan_free)(struct smbsrv_dirscan *scan);
	/*
	 * Directory @inode became pending deletion (file.c): CHANGE_NOTIFY
	 * requests waiting on it end with STATUS_DELETE_PENDING.
	 */
	void (*delete_pending)(struct inode *inode);
};

#endif /* _SMBSRV_PROTO_H */
