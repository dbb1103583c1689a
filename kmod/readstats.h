/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the READ path's counters (read-stats-get, smbsrvctl stats).
 *
 * Kept per CPU and summed when asked for; see Documentation/design.md,
 * "The READ path".
 */
#ifndef _SMBSRV_READSTATS_H
#define _SMBSRV_READSTATS_H

#include <linux/types.h>

/* Why a READ's payload was copied rather than spliced. */
enum smbsrv_copy_reason {
	SMBSRV_COPY_OFF,		/* splice threshold = 0 */
	SMBSRV_COPY_SMALL,		/* below the threshold */
	SMBSRV_COPY_STREAM,		/* a named stream */
	SMBSRV_COPY_NONREG,		/* not a regular file */
	SMBSRV_COPY_COMPOUND,		/* inside a compound */
	SMBSRV_COPY_NOCACHE,		/* O_DIRECT, DAX, no splice_read */
	SMBSRV_COPY_ERROR,		/* the splice failed */
	SMBSRV_NR_COPY_REASONS,
};

enum smbsrv_inline_event {
	SMBSRV_INLINE_HIT,		/* served by the receiver */
	SMBSRV_INLINE_MISS,		/* would block: handed to a worker */
	SMBSRV_INLINE_DEFERRED,		/* the receiver's budget was spent */
	SMBSRV_NR_INLINE_EVENTS,
};

struct smbsrv_read_stats {
	u64 spliced;
	u64 spliced_bytes;
	u64 copied;
	u64 copied_bytes;
	u64 copy[SMBSRV_NR_COPY_REASONS];
	u64 inl[SMBSRV_NR_INLINE_EVENTS];
	u64 pages_inflight;		/* now */
};

/* A READ answered with @bytes of payload spliced. */
void smbsrv_readstats_spliced(size_t bytes);
/* A READ answered with @bytes of payload copied, for @why. */
void smbsrv_readstats_copied(enum smbsrv_copy_reason why, size_t bytes);
void smbsrv_readstats_inline(enum smbsrv_inline_event e);
void smbsrv_readstats_get(struct smbsrv_read_stats *st);

#endif /* _SMBSRV_READSTATS_H */
