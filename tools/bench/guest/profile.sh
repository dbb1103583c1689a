#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark guest: where one fio cell's instructions go.  After setup.sh,
# runs fio through SERVER's mount and samples every CPU of the guest with
# perf's cpu-clock event meanwhile (under the instruction clock the
# guest's clock counts instructions, so the samples weigh instructions),
# then prints the I/O rate and the profile by module and by symbol.
#
#   profile.sh SERVER read|write BS QD JOBS SECONDS [SORT]
set -u
srv=$1 rw=$2 bs=$3 qd=$4 jobs=$5 secs=$6 sort=${7:-sym}
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid
f=/mnt/$srv/write.bin
[ "$rw" = read ] && f=/mnt/$srv/read.bin
cd /tmp || exit 1
fio --name=p --filename="$f" --rw="$rw" --bs="$bs" --iodepth="$qd" \
	--numjobs="$jobs" --ioengine=libaio --direct=1 --time_based \
	--runtime=$((secs + 2)) --group_reporting --size=32M > /tmp/prof.fio 2>&1 &
sleep 1
perf record -a -e cpu-clock -F 1000 -g -o /tmp/perf.data -- sleep "$secs" \
	> /tmp/prof.rec 2>&1
wait
grep -E "IOPS" /tmp/prof.fio
# Idle CPUs are sampled too (the clock jumps to the sampling timer when
# every CPU idles): leave them out.
echo "@@self"
perf report -i /tmp/perf.data --no-children --sort comm,dso,sym --stdio -g none \
	2>/dev/null | grep -v '^#' | grep -v '^$' | head -n 400
echo "@@children"
perf report -i /tmp/perf.data --children --sort sym --stdio -g none \
	2>/dev/null | grep -v '^#' | grep -v '^$' | head -n 400
