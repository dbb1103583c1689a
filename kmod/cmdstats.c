// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: per-command counters and latency histograms (see cmdstats.h).
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "cmdstats.h"
#include "wire/ntstatus.h"

/* 10 µs to 10 s, the 1-2.5-5 steps Prometheus' client libraries use. */
const u64 smbsrv_lat_bounds_ns[SMBSRV_LAT_BOUNDS] = {
	10000, 25000, 50000, 100000, 250000, 500000,
	1000000, 2500000, 5000000, 10000000, 25000000, 50000000,
	100000000, 250000000, 500000000,
	1000000000, 2500000000ULL, 5000000000ULL, 10000000000ULL,
};

struct smbsrv_cstat {
	struct smbsrv_cmd_stats cmd[SMB2_NR_COMMANDS];
	u64 written;
	u64 bad_signatures;
	u64 breaks[SMBSRV_NR_BREAK_KINDS];
};

static DEFINE_PER_CPU(struct smbsrv_cstat, smbsrv_cstats);

/* The first bucket whose bound is not below @ns. */
static unsigned int smbsrv_lat_bucket(u64 ns)
{
	unsigned int lo = 0, hi = SMBSRV_LAT_BOUNDS, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (ns <= smbsrv_lat_bounds_ns[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * An error is what a client sees as one: severity error, but not the
 * session setup leg that asks for more (MORE_PROCESSING_REQUIRED), and
 * the dispatcher's own "drop the connection" (no status sent) counts.
 */
static bool smbsrv_cmdstats_is_error(u32 status)
{
	return (status >> 30) == 3 &&
	       status != STATUS_MORE_PROCESSING_REQUIRED;
}

void smbsrv_cmdstats_done(u16 cmd, u32 status, u64 start_ns)
{
	u64 now = ktime_get_ns();
	u64 ns = now > start_ns ? now - start_ns : 0;

	if (cmd >= SMB2_NR_COMMANDS)
		return;
	this_cpu_inc(smbsrv_cstats.cmd[cmd].requests);
	if (smbsrv_cmdstats_is_error(status))
		this_cpu_inc(smbsrv_cstats.cmd[cmd].errors);
	this_cpu_add(smbsrv_cstats.cmd[cmd].latency_ns, ns);
	this_cpu_inc(smbsrv_cstats.cmd[cmd].bucket[smbsrv_lat_bucket(ns)]);
}

void smbsrv_cmdstats_written(size_t bytes)
{
	this_cpu_add(smbsrv_cstats.written, bytes);
}

void smbsrv_cmdstats_bad_signature(void)
{
	this_cpu_inc(smbsrv_cstats.bad_signatures);
}

void smbsrv_cmdstats_break(enum smbsrv_break_kind kind)
{
	if (kind < SMBSRV_NR_BREAK_KINDS)
		this_cpu_inc(smbsrv_cstats.breaks[kind]);
}

void smbsrv_cmdstats_get(u16 cmd, struct smbsrv_cmd_stats *st)
{
	const struct smbsrv_cmd_stats *c;
	int cpu, i;

	memset(st, 0, sizeof(*st));
	if (cmd >= SMB2_NR_COMMANDS)
		return;
	for_each_possible_cpu(cpu) {
		c = &per_cpu_ptr(&smbsrv_cstats, cpu)->cmd[cmd];
		st->requests += READ_ONCE(c->requests);
		st->errors += READ_ONCE(c->errors);
		st->latency_ns += READ_ONCE(c->latency_ns);
		for (i = 0; i < SMBSRV_LAT_BUCKETS; i++)
			st->bucket[i] += READ_ONCE(c->bucket[i]);
	}
}

u64 smbsrv_cmdstats_written_total(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&smbsrv_cstats, cpu)->written);
	return sum;
}

u64 smbsrv_cmdstats_bad_signatures(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&smbsrv_cstats, cpu)->bad_signatures);
	return sum;
}

u64 smbsrv_cmdstats_breaks(enum smbsrv_break_kind kind)
{
	u64 sum = 0;
	int cpu;

	if (kind >= SMBSRV_NR_BREAK_KINDS)
		return 0;
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&smbsrv_cstats, cpu)->breaks[kind]);
	return sum;
}
