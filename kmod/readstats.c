// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the READ path's counters (see readstats.h).
 */
#include <linux/percpu.h>
#include <linux/string.h>

#include "readstats.h"
#include "splice.h"

struct smbsrv_rstat {
	u64 spliced;
	u64 spliced_bytes;
	u64 copied;
	u64 copied_bytes;
	u64 copy[SMBSRV_NR_COPY_REASONS];
	u64 inl[SMBSRV_NR_INLINE_EVENTS];
};

static DEFINE_PER_CPU(struct smbsrv_rstat, smbsrv_rstats);

void smbsrv_readstats_spliced(size_t bytes)
{
	this_cpu_inc(smbsrv_rstats.spliced);
	this_cpu_add(smbsrv_rstats.spliced_bytes, bytes);
}

void smbsrv_readstats_copied(enum smbsrv_copy_reason why, size_t bytes)
{
	this_cpu_inc(smbsrv_rstats.copied);
	this_cpu_add(smbsrv_rstats.copied_bytes, bytes);
	if (why < SMBSRV_NR_COPY_REASONS)
		this_cpu_inc(smbsrv_rstats.copy[why]);
}

void smbsrv_readstats_inline(enum smbsrv_inline_event e)
{
	if (e < SMBSRV_NR_INLINE_EVENTS)
		this_cpu_inc(smbsrv_rstats.inl[e]);
}

void smbsrv_readstats_get(struct smbsrv_read_stats *st)
{
	const struct smbsrv_rstat *c;
	s64 pages;
	int cpu, i;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(&smbsrv_rstats, cpu);
		st->spliced += READ_ONCE(c->spliced);
		st->spliced_bytes += READ_ONCE(c->spliced_bytes);
		st->copied += READ_ONCE(c->copied);
		st->copied_bytes += READ_ONCE(c->copied_bytes);
		for (i = 0; i < SMBSRV_NR_COPY_REASONS; i++)
			st->copy[i] += READ_ONCE(c->copy[i]);
		for (i = 0; i < SMBSRV_NR_INLINE_EVENTS; i++)
			st->inl[i] += READ_ONCE(c->inl[i]);
	}
	pages = smbsrv_pages_inflight();
	st->pages_inflight = pages > 0 ? pages : 0;
}
