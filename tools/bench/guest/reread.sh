#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark guest, one run of the lease cell: a READ and a re-READ of the
# same file through a cifs mount with cache=strict (cifs' default), where
# the client reads through its own page cache only while it holds a
# read-caching lease (or oplock).  setup.sh mounts, beside the cache=none
# mounts of the other cells, each share on a connection of its own
# (nosharesock), cache=strict:
#
#   smbsrv  share smbsrv-lease    -> /mnt/smbsrv-lease
#   ksmbd   share ksmbd-lease     -> /mnt/ksmbd-lease
#   smbsrv  share smbsrv-nolease  -> /mnt/smbsrv-nolease  (oplocks = no:
#           no oplock and no lease, the client caches nothing)
#
# both servers with `smb2 leases = yes`, and lease.bin on each (a copy of
# read.bin, its own inode: no cache=none cell opens it).  One run:
#
#   1. drop the guest's page cache (the client's copy of lease.bin; the
#      servers' tmpfs pages are their storage and stay);
#   2. a holder opens lease.bin and keeps it open (`sleep < lease.bin`),
#      so that the lease outlives fio's own opens and closes;
#   3. READ: fio reads the whole file once, buffered (psync, BS);
#   4. re-READ: fio reads it once more, buffered, without invalidating
#      the client's cache first (--invalidate=0);
#   5. the holder closes.
#
# Every READ checks the fio header in every 4 KiB it read, as in run.sh.
# Before and after each phase: the guest's CPU time (/proc/stat),
# smbsrv's counters (smbsrvctl stats) and the cifs client's own count of
# READ requests it sent on the tree connect (/proc/fs/cifs/Stats); between
# the phases, what smbsrvctl opens shows for lease.bin (smbsrv) and the
# cifs client's view of its open files (both).
#
#   reread.sh NAME BS      (NAME: smbsrv-lease, ksmbd-lease, smbsrv-nolease)
set -u
srv=$1 bs=$2
m=/mnt/$srv
f=$m/lease.bin
vfy="--verify=$(cat /tmp/bench.verify) --verify_interval=4096 --verify_fatal=1"
size=$(($(stat -c %s "$f") >> 20))
stats() { case $srv in smbsrv*) smbsrvctl stats 2>&1 ;; esac; }
# READ requests the client sent on this mount's tree connect: the section
# of /proc/fs/cifs/Stats ending in the share's name.
cifs_reads() {
	awk -v t="$srv" '
		/^[0-9]+\) / { a = ($0 ~ ("\\\\" t "$")); next }
		a && $1 == "Reads:" { print $2; exit }' /proc/fs/cifs/Stats
}
snap() {	# N
	echo "@@stat$1 $(head -n1 /proc/stat)"
	echo "@@cifs-reads$1 $(cifs_reads)"
	echo "@@stats$1"
	stats
}
phase() {	# OUT-JSON INVALIDATE
	# shellcheck disable=SC2086
	fio --name=b --filename="$f" --rw=read --bs="$bs" --ioengine=psync \
		--size="${size}M" --invalidate="$2" $vfy \
		--output-format=json --output="$1" > /tmp/rr.out 2>&1
}

sync
echo 3 > /proc/sys/vm/drop_caches
# shellcheck disable=SC2217 # the holder: an open of lease.bin, no reads
sleep 100000 < "$f" > /dev/null 2>&1 &
holder=$!
sleep 1
{
	echo "@@mount $(awk -v m="$m" '$2 == m { print $4 }' /proc/mounts)"
	snap 0
	phase /tmp/rr1.json 1
	rc1=$?
	[ $rc1 = 0 ] || sed 's/^/@@err /' /tmp/rr.out
	snap 1
	echo "@@opens"
	case $srv in smbsrv*) smbsrvctl opens 2>&1 | awk 'NR == 1 || $NF == "lease.bin"' ;; esac
	echo "@@cifs-open-files"
	cat /proc/fs/cifs/open_files 2>/dev/null
	phase /tmp/rr2.json 0
	rc2=$?
	[ $rc2 = 0 ] || sed 's/^/@@err /' /tmp/rr.out
	snap 2
	# fio checked the data of both phases itself (--verify_fatal).
	echo "@@fio-rc $((rc1 | rc2))"
	echo "@@verify-rc 0"
}
kill "$holder"
wait "$holder" 2>/dev/null
# Any kernel warning so far (this boot), with its first lines: the
# console shows only panics.
echo "@@dmesg-warnings $(dmesg | grep -c -E 'WARNING:|BUG:')"
dmesg | grep -m 2 -A 30 -E 'WARNING:|BUG:'
echo "@@fio"
cat /tmp/rr1.json
echo "@@fio2"
cat /tmp/rr2.json
echo "@@end"
