/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: credits and the command sequence window (MS-SMB2 3.3.1.1,
 * 3.3.1.2, 3.3.5.2.3, 3.3.5.2.5), for the dispatcher and NEGOTIATE.
 *
 * Each connection has a window of the MessageIds the client may use
 * (wire/credits.c keeps it, in conn->seqwin under conn->lock): one id
 * when it connects, sized for `smb2 max credits` by NEGOTIATE.  Every
 * request but CANCEL consumes its CreditCharge ids (charge), every
 * response grants what the client asks for within the maximum (grant).
 * Handlers check CreditCharge against their payload with
 * smbsrv_req_check_charge() (smb2.h).
 */
#ifndef _SMBSRV_SMB2_CREDITS_H
#define _SMBSRV_SMB2_CREDITS_H

#include <linux/types.h>

struct smbsrv_conn;
struct smbsrv_req;

/*
 * Size the window for the negotiated credit limit.  NEGOTIATE consumed
 * the only id granted so far, so the window is empty here.  0, -ENOMEM,
 * or -EPROTO when ids were granted already (a second NEGOTIATE).
 */
int smbsrv_credits_setup(struct smbsrv_conn *conn);

/* Charge the ids @req uses; false: outside the window (disconnect). */
bool smbsrv_credits_charge(struct smbsrv_req *req);

/*
 * Credits granted by the response to @req (3.3.1.2), which gives back
 * what the request was charged.
 */
u16 smbsrv_credits_grant(struct smbsrv_req *req);

/*
 * An SMB1 NEGOTIATE upgrading to SMB2 (3.3.5.3) was MessageId 0: charge
 * it (0, or -errno when outside the window); its response grants id 1.
 */
int smbsrv_credits_smb1_charge(struct smbsrv_conn *conn);
void smbsrv_credits_smb1_grant(struct smbsrv_conn *conn);

#endif /* _SMBSRV_SMB2_CREDITS_H */
