/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the WRITE path's counters (write-stats-get, smbsrvctl stats).
 *
 * Kept per CPU and summed when asked for; see Documentation/design.md,
 * "The WRITE path".  A WRITE whose data was received into pages and
 * written from them has its data copied once (socket buffers to the page
 * cache), a signed one too (its signature is checked over those pages
 * first, which reads but does not copy them), a sealed one too (decrypted
 * out of those pages into pages of our own, the pass that reads the
 * ciphertext writing the plaintext, then copied from them into the page
 * cache); any other WRITE is copied
 * twice (into the message buffer, then into the page cache) and counted
 * under the first reason that applied.
 */
#ifndef _SMBSRV_WRITESTATS_H
#define _SMBSRV_WRITESTATS_H

#include <linux/types.h>

enum smbsrv_wcopy_reason {
	SMBSRV_WCOPY_OFF,		/* min receivefile size = 0 */
	SMBSRV_WCOPY_SMALL,		/* below min receivefile size */
	SMBSRV_WCOPY_SEALED,		/* encrypted, received whole */
	SMBSRV_WCOPY_COMPOUND,		/* inside a compound */
	SMBSRV_WCOPY_STREAM,		/* a named stream (an xattr) */
	SMBSRV_WCOPY_OTHER,		/* anything else (see design.md) */
	SMBSRV_NR_WCOPY_REASONS,
};

/* Where a WRITE run by the receiver went (sched.h, "Inline requests"). */
enum smbsrv_winline_event {
	SMBSRV_WINLINE_ALONE,		/* written inline, alone in flight */
	SMBSRV_WINLINE_DEPTH,		/* written inline at depth */
	SMBSRV_WINLINE_DEFERRED,	/* could wait: handed to a worker */
	SMBSRV_NR_WINLINE_EVENTS,
};

struct smbsrv_write_stats {
	u64 one_copy;
	u64 one_copy_bytes;
	u64 one_copy_signed;
	u64 one_copy_sealed;
	u64 copied;
	u64 copied_bytes;
	u64 copy[SMBSRV_NR_WCOPY_REASONS];
	u64 inl[SMBSRV_NR_WINLINE_EVENTS];
};

/*
 * A WRITE of @bytes written from the pages its data was received in,
 * @signed_in if its signature was checked over them, @sealed if it was
 * decrypted out of them into pages of our own in the same pass.
 */
void smbsrv_writestats_one_copy(size_t bytes, bool signed_in, bool sealed);
/* A WRITE of @bytes written from a message buffer, for @why. */
void smbsrv_writestats_copied(enum smbsrv_wcopy_reason why, size_t bytes);
void smbsrv_writestats_inline(enum smbsrv_winline_event e);
void smbsrv_writestats_get(struct smbsrv_write_stats *st);

#endif /* _SMBSRV_WRITESTATS_H */
