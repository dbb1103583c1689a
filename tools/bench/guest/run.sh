#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark guest, one run: fio through one server's mount, with the
# guest's CPU time (/proc/stat) and smbsrv's counters (smbsrvctl stats)
# taken just before and after.  Prints sections for the host to parse
# (tools/bench/report.py).  Every run checks its data: a READ checks the
# fio header in every 4 KiB it read (setup.sh: offset and header checksum,
# or a checksum of the whole 4 KiB); a WRITE writes such headers plus a
# pattern (filled once, so the client does not pay for it per WRITE), and
# the file is checked afterwards on the server's own tmpfs, every byte.
#
#   run.sh SERVER read|write BS QD JOBS SECONDS
set -u
srv=$1 rw=$2 bs=$3 qd=$4 jobs=$5 secs=$6
pat=0x5aa5c33c
vfy="--verify=$(cat /tmp/bench.verify) --verify_interval=4096 --verify_fatal=1"
case $rw in
read)
	# 64 links of read.bin (setup.sh), read one after the other.
	f=$(seq -w 0 63 | sed "s|.*|/mnt/$srv/r&.bin|" | tr '\n' : | sed 's/:$//')
	size=$(($(stat -c %s "/mnt/$srv/read.bin") >> 20))
	vfy="$vfy --file_service_type=sequential --filesize=${size}M"
	;;
write)
	f=/mnt/$srv/write.bin
	size=$(($(stat -c %s "$f") >> 20))
	vfy="--verify=meta --verify_interval=4096 --verify_fatal=1 --verify_pattern=$pat --do_verify=0 --size=${size}M"
	;;
*) echo "run.sh: read or write, not $rw" >&2; exit 2 ;;
esac
stats() { case $srv in smbsrv*) smbsrvctl stats 2>&1 ;; esac; }

stats > /tmp/run.st0
s0=$(head -n1 /proc/stat)
# shellcheck disable=SC2086
fio --name=b --filename="$f" --rw="$rw" --bs="$bs" --iodepth="$qd" \
	--numjobs="$jobs" --ioengine=libaio --direct=1 --time_based \
	--runtime="$secs" --group_reporting $vfy --output-format=json --output=/tmp/run.json \
	> /tmp/run.out 2>&1
frc=$?
s1=$(head -n1 /proc/stat)
stats > /tmp/run.st1
vrc=0
if [ "$rw" = write ]; then
	# shellcheck disable=SC2086
	fio --name=check --filename="/srv/b-$srv/write.bin" --rw=read \
		--bs=1M --ioengine=psync $vfy --do_verify=1 \
		> /tmp/run.vfy 2>&1 || vrc=$?
fi
echo "@@stat0 $s0"
echo "@@stat1 $s1"
echo "@@fio-rc $frc"
echo "@@verify-rc $vrc"
[ $frc = 0 ] || sed 's/^/@@err /' /tmp/run.out
[ $vrc = 0 ] || sed 's/^/@@err /' /tmp/run.vfy
echo "@@fio"
cat /tmp/run.json
echo "@@stats0"
cat /tmp/run.st0
echo "@@stats1"
cat /tmp/run.st1
echo "@@end"
