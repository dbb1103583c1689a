// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the WRITE path's counters (see writestats.h).
 */
#include <linux/percpu.h>
#include <linux/string.h>

#include "writestats.h"

static DEFINE_PER_CPU(struct smbsrv_write_stats, smbsrv_wstats);

void smbsrv_writestats_one_copy(size_t bytes, bool signed_in, bool sealed)
{
	this_cpu_inc(smbsrv_wstats.one_copy);
	this_cpu_add(smbsrv_wstats.one_copy_bytes, bytes);
	if (signed_in)
		this_cpu_inc(smbsrv_wstats.one_copy_signed);
	if (sealed)
		this_cpu_inc(smbsrv_wstats.one_copy_sealed);
}

void smbsrv_writestats_copied(enum smbsrv_wcopy_reason why, size_t bytes)
{
	this_cpu_inc(smbsrv_wstats.copied);
	this_cpu_add(smbsrv_wstats.copied_bytes, bytes);
	if (why < SMBSRV_NR_WCOPY_REASONS)
		this_cpu_inc(smbsrv_wstats.copy[why]);
}

void smbsrv_writestats_inline(enum smbsrv_winline_event e)
{
	if (e < SMBSRV_NR_WINLINE_EVENTS)
		this_cpu_inc(smbsrv_wstats.inl[e]);
}

void smbsrv_writestats_get(struct smbsrv_write_stats *st)
{
	const struct smbsrv_write_stats *c;
	int cpu, i;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(&smbsrv_wstats, cpu);
		st->one_copy += READ_ONCE(c->one_copy);
		st->one_copy_bytes += READ_ONCE(c->one_copy_bytes);
		st->one_copy_signed += READ_ONCE(c->one_copy_signed);
		st->one_copy_sealed += READ_ONCE(c->one_copy_sealed);
		st->copied += READ_ONCE(c->copied);
		st->copied_bytes += READ_ONCE(c->copied_bytes);
		for (i = 0; i < SMBSRV_NR_WCOPY_REASONS; i++)
			st->copy[i] += READ_ONCE(c->copy[i]);
		for (i = 0; i < SMBSRV_NR_WINLINE_EVENTS; i++)
			st->inl[i] += READ_ONCE(c->inl[i]);
	}
}
