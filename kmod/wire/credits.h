/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command sequence window of a connection (MS-SMB2 3.3.1.1, 3.3.1.2,
 * 3.3.5.2.3).
 *
 * The window holds the MessageIds a client may use: [low, low + size).
 * A request consumes CreditCharge consecutive ids; an id can be used once.
 * Ids consumed above 'low' are remembered in a bitmap of 'cap' bits (bit
 * id % cap) until 'low' catches up with them, so the window never spans
 * more than 'cap' ids.  Responses grant credits, which extend the window
 * upwards.
 */
#ifndef _SMBSRV_WIRE_CREDITS_H
#define _SMBSRV_WIRE_CREDITS_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

struct smb2_seqwin {
	u64 low;	/* lowest id not yet consumed */
	u32 size;	/* ids in the window, consumed holes included */
	u32 avail;	/* ids in the window not consumed: the client's credits */
	u32 cap;	/* bits in 'bits'; the window never exceeds it */
	u8 *bits;	/* cap bits, (cap + 7) / 8 bytes, zeroed */
};

/* A new connection's window: the single id 0 (3.3.1.1). */
void smb2_seqwin_init(struct smb2_seqwin *w, u8 *bits, u32 cap);

/*
 * Consume ids [mid, mid + charge): all inside the window and unused.
 * Returns 0, or -EINVAL (the server then drops the connection).
 */
int smb2_seqwin_consume(struct smb2_seqwin *w, u64 mid, u32 charge);

/* Extend the window by up to @n ids; returns how many were granted. */
u32 smb2_seqwin_grant(struct smb2_seqwin *w, u32 n);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_CREDITS_H */
