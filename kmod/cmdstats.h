/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: per-command counters and latency histograms, bytes written,
 * oplock and lease breaks sent, requests refused for a bad signature
 * (stats-get, smbsrvctl stats, the Prometheus metrics).
 *
 * Kept per CPU and summed when asked for: the data path only adds to
 * its own CPU's counters.
 */
#ifndef _SMBSRV_CMDSTATS_H
#define _SMBSRV_CMDSTATS_H

#include <linux/types.h>

#include "wire/smb2.h"

/*
 * Latency buckets: a request's time from its decode to its final status
 * counts in the first bucket whose bound is not below it; the last bucket
 * (no bound) takes the rest.
 */
#define SMBSRV_LAT_BOUNDS	19
#define SMBSRV_LAT_BUCKETS	(SMBSRV_LAT_BOUNDS + 1)

extern const u64 smbsrv_lat_bounds_ns[SMBSRV_LAT_BOUNDS];

struct smbsrv_cmd_stats {
	u64 requests;			/* final statuses sent (or dropped) */
	u64 errors;			/* of them, error statuses */
	u64 latency_ns;			/* summed */
	u64 bucket[SMBSRV_LAT_BUCKETS];	/* not cumulative */
};

enum smbsrv_break_kind {
	SMBSRV_BREAK_OPLOCK,
	SMBSRV_BREAK_LEASE,
	SMBSRV_NR_BREAK_KINDS,
};

/* Command @cmd (below SMB2_NR_COMMANDS) ended with @status. */
void smbsrv_cmdstats_done(u16 cmd, u32 status, u64 start_ns);
/* A WRITE wrote @bytes. */
void smbsrv_cmdstats_written(size_t bytes);
/* A break notification of @kind was queued for a client. */
void smbsrv_cmdstats_break(enum smbsrv_break_kind kind);
/* A signed request was refused: its signature did not verify. */
void smbsrv_cmdstats_bad_signature(void);

void smbsrv_cmdstats_get(u16 cmd, struct smbsrv_cmd_stats *st);
u64 smbsrv_cmdstats_written_total(void);
u64 smbsrv_cmdstats_breaks(enum smbsrv_break_kind kind);
u64 smbsrv_cmdstats_bad_signatures(void);

#endif /* _SMBSRV_CMDSTATS_H */
