/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ChannelSequence of an open (MS-SMB2 3.3.5.2.10).
 *
 * A 3.x client that lost a channel bumps the ChannelSequence of its
 * session and sends what it had outstanding again, on another channel.
 * The open remembers the newest sequence it saw and how many requests
 * are outstanding under it (and under the sequences before it): a WRITE,
 * SET_INFO, IOCTL or LOCK carrying an older sequence than the open's, or
 * a replay of one while requests of an older sequence are still running,
 * is refused with STATUS_FILE_NOT_AVAILABLE, so that nothing the client
 * gave up on lands after what it sent again.
 */
#ifndef _SMBSRV_WIRE_CHSEQ_H
#define _SMBSRV_WIRE_CHSEQ_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

struct smb2_chseq {
	u16 seq;		/* Open.ChannelSequence */
	u32 outstanding;	/* Open.OutstandingRequestCount */
	u32 pre;		/* Open.OutstandingPreRequestCount */
};

/* What smb2_chseq_admit() decided for a request. */
enum smb2_chseq_verdict {
	SMB2_CHSEQ_COUNTED,	/* counted: smb2_chseq_done() when it ends */
	SMB2_CHSEQ_UNCOUNTED,	/* goes on, counted nowhere */
	SMB2_CHSEQ_STALE,	/* a modifying request fails; counted nowhere */
};

/* A new open: the ChannelSequence of the CREATE that made it. */
void smb2_chseq_init(struct smb2_chseq *s, u16 seq);

/*
 * A request with ChannelSequence @csn (@replay: SMB2_FLAGS_REPLAY_OPERATION)
 * names the open: update @s as 3.3.5.2.10 says and return the verdict.
 * Counts never wrap (a request past U32_MAX outstanding is not counted).
 */
enum smb2_chseq_verdict smb2_chseq_admit(struct smb2_chseq *s, u16 csn,
					 bool replay);

/* A request counted with @csn completed (its final response). */
void smb2_chseq_done(struct smb2_chseq *s, u16 csn);

/*
 * The requests that ChannelSequence guards: WRITE, SET_INFO and IOCTL
 * (3.3.5.2.10), and LOCK (its byte ranges change what other opens may
 * do as a write changes data; beyond the list of 3.3.5.2.10 and Samba's).
 */
bool smb2_chseq_guarded(u16 command);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_CHSEQ_H */
