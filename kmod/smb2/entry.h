/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: what the layers below smb2/ may call in it.
 *
 * smb2/ is the top of the data path (Documentation/design.md, "Layers"):
 * it calls down into the objects (sessions, opens, the VFS), the
 * connection and the transport, and nothing below it sees the handler
 * API (smb2.h).  Calls upward go through this header only: module init
 * and exit, a received message handed up for processing, and the hooks
 * by which ending (or changing) an object below ends what smb2/ keeps
 * for it.  tools/layers.py (make lint) checks that this stays so.
 */
#ifndef _SMBSRV_SMB2_ENTRY_H
#define _SMBSRV_SMB2_ENTRY_H

#include <linux/types.h>

struct inode;
struct smb2_route_info;
struct smbsrv_conn;
struct smbsrv_dirscan;
struct smbsrv_file;

/* Module init and exit (main.c). */
int smbsrv_smb2_init(void);
void smbsrv_smb2_exit(void);

/*
 * A connection starts (conn.c, before anything is read from it): its
 * credits allow the first NEGOTIATE.  0 or -ENOMEM.  Whatever that set up
 * goes with smbsrv_smb2_conn_free(), once the connection is freed (also
 * when this failed or was never called).
 */
int smbsrv_smb2_conn_init(struct smbsrv_conn *conn);
void smbsrv_smb2_conn_free(struct smbsrv_conn *conn);

/*
 * Hand a received message (kvmalloc()ed, now owned by the callee; @ri
 * what smb2_route_peek() saw of it) to a worker, or run it inline
 * (recv.c).  Returns 0, or -ENOMEM (the caller frees @buf).  When it is
 * done with, smb2/ calls smbsrv_recv_msg_done() (recv.h).
 */
int smbsrv_msg_queue(struct smbsrv_conn *conn, u8 *buf, u32 len,
		     const struct smb2_route_info *ri);

/* ---- hooks: an object below ends or changes ----------------------------- */

/*
 * The connection is being torn down (conn.c, after the receiver stopped):
 * its pending async requests are cancelled, then its sessions end.
 */
void smbsrv_smb2_conn_teardown(struct smbsrv_conn *conn);

/*
 * The close of @f (CLOSE, tree disconnect, logoff, teardown; file.c): its
 * watch goes and its waiting CHANGE_NOTIFY requests end with
 * STATUS_NOTIFY_CLEANUP (notify.c).
 */
void smbsrv_notify_close(struct smbsrv_file *f);

/*
 * Directory @inode became pending deletion (file.c): CHANGE_NOTIFY
 * requests waiting on it end with STATUS_DELETE_PENDING (as on Windows).
 */
void smbsrv_notify_delete_pending(struct inode *inode);

/* Free an open's directory enumeration (dir.c), at its release (file.c). */
void smbsrv_dirscan_free(struct smbsrv_dirscan *scan);

#endif /* _SMBSRV_SMB2_ENTRY_H */
