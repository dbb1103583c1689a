/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the per-connection receiver: socket callbacks and framing.
 */
#ifndef _SMBSRV_RECV_H
#define _SMBSRV_RECV_H

struct smbsrv_conn;

/* Most messages of one connection queued or being processed at once. */
#define SMBSRV_INFLIGHT_MAX		256
/* Largest frame before a session is established (a 64 KiB blob fits). */
#define SMBSRV_FRAME_UNAUTH_MAX		(128 * 1024)
/* Room for headers, a TRANSFORM header and compounding around a payload. */
#define SMBSRV_FRAME_SLACK		(64 * 1024)

/* The frame buffers' cache, at module load and unload. */
int smbsrv_recv_cache_init(void);
void smbsrv_recv_cache_exit(void);
void smbsrv_recv_init(struct smbsrv_conn *conn);
/* Install the socket callbacks and start receiving. */
void smbsrv_recv_attach(struct smbsrv_conn *conn);
/* Restore the callbacks, shut the socket down, stop the receiver. */
void smbsrv_recv_detach(struct smbsrv_conn *conn);
/*
 * A message the receiver handed up (smbsrv_msg_queue()) is done with:
 * one less in flight, and a receiver stopped because too many were
 * resumes.
 */
void smbsrv_recv_msg_done(struct smbsrv_conn *conn);

#endif /* _SMBSRV_RECV_H */
