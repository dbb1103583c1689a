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
#   run.sh SERVER read|write|mixed BS QD JOBS SECONDS [CONNS [MC]]
#
# CONNS (default 1): the jobs are spread over that many TCP connections
# to the server (job i on connection i mod CONNS): for cifs, the mount
# /mnt/SERVER and setup.sh's /mnt/SERVER-x2..x4 (nosharesock: one
# connection each); for nfsd one mount with nconnect=CONNS (made here:
# the NFS client shares one connection set per server, so /mnt/nfsd is
# mounted again with that nconnect for the run).  MC=mc: one cifs mount
# with multichannel (setup.sh's /mnt/SERVER-mc, 2 channels).  mixed:
# the first half of the jobs READ, the others WRITE (with two or more
# connections every connection carries both).  @@conns: how many of the
# server's connections carried more than 1 MiB during the run (ss's byte
# counters before and after; the other mounts' connections stay idle).
set -u
srv=$1 rw=$2 bs=$3 qd=$4 jobs=$5 secs=$6 conns=${7:-1} mc=${8:-}
pat=0x5aa5c33c
rvfy="--verify=$(cat /tmp/bench.verify) --verify_interval=4096 --verify_fatal=1"
wvfy="--verify=meta --verify_interval=4096 --verify_fatal=1 --verify_pattern=$pat"
case $rw in read | write | mixed) ;; *) echo "run.sh: read, write or mixed, not $rw" >&2; exit 2 ;; esac
case $srv in
nfsd*) port=2049 ;;
ksmbd*) port=1445 ;;
*) port=445 ;;
esac

# The mount of connection K (0-based).
mnt() {
	if [ "$mc" = mc ]; then
		echo "/mnt/$srv-mc"
	elif [ "$1" = 0 ] || [ "${srv%%-*}" = nfsd ]; then
		echo "/mnt/$srv"
	else
		echo "/mnt/$srv-x$(($1 + 1))"
	fi
}
if [ "${srv%%-*}" = nfsd ] && [ "$conns" != 1 ]; then
	umount /mnt/$srv
	mount -t nfs4 -o vers=4.2,proto=tcp,rsize=1048576,wsize=1048576,nconnect=$conns \
		127.0.0.1:/srv/b-$srv /mnt/$srv
fi
size=$(($(stat -c %s "/mnt/$srv/read.bin") >> 20))
wsize=$(($(stat -c %s "/mnt/$srv/write.bin") >> 20))

# One fio job section per job: its file(s) on its connection's mount.
{
	echo "[global]"
	echo "bs=$bs"
	echo "iodepth=$qd"
	echo "ioengine=libaio"
	echo "direct=1"
	echo "time_based"
	echo "runtime=$secs"
	i=0
	while [ $i -lt "$jobs" ]; do
		m=$(mnt $((i % conns)))
		op=$rw
		[ "$rw" = mixed ] && { [ $i -lt $((jobs / 2)) ] && op=read || op=write; }
		echo "[j$i]"
		echo "rw=$op"
		if [ "$op" = read ]; then
			# 64 links of read.bin (setup.sh), read one after the other.
			echo "filename=$(seq -w 0 63 | sed "s|.*|$m/r&.bin|" | tr '\n' : | sed 's/:$//')"
			for o in $rvfy --file_service_type=sequential --filesize=${size}M; do
				echo "${o#--}"
			done
		else
			echo "filename=$m/write.bin"
			for o in $wvfy --do_verify=0 --size=${wsize}M; do echo "${o#--}"; done
		fi
		i=$((i + 1))
	done
} > /tmp/run.fio
stats() { case $srv in smbsrv*) smbsrvctl stats 2>&1 ;; esac; }

stats > /tmp/run.st0
s0=$(head -n1 /proc/stat)
# The server side's sockets, "peer bytes_acked+bytes_received" a line.
traffic() {
	ss -Htni state established "( sport = :$port )" | awk '
		!/^[[:space:]]/ { peer = $NF; next }
		{ n = 0
		  for (i = 1; i <= NF; i++)
			if ($i ~ /^bytes_(acked|received):/) { split($i, a, ":"); n += a[2] }
		  print peer, n }'
}
traffic > /tmp/run.tr0
fio --group_reporting --output-format=json --output=/tmp/run.json /tmp/run.fio \
	> /tmp/run.out 2>&1
frc=$?
traffic > /tmp/run.tr1
s1=$(head -n1 /proc/stat)
stats > /tmp/run.st1
vrc=0
if [ "$rw" != read ]; then
	# shellcheck disable=SC2086
	fio --name=check --filename="/srv/b-$srv/write.bin" --rw=read \
		--bs=1M --ioengine=psync $wvfy --size=${wsize}M --do_verify=1 \
		> /tmp/run.vfy 2>&1 || vrc=$?
fi
if [ "${srv%%-*}" = nfsd ] && [ "$conns" != 1 ]; then
	umount /mnt/$srv
	mount -t nfs4 -o vers=4.2,proto=tcp,rsize=1048576,wsize=1048576 \
		127.0.0.1:/srv/b-$srv /mnt/$srv
fi
echo "@@stat0 $s0"
echo "@@stat1 $s1"
echo "@@fio-rc $frc"
echo "@@verify-rc $vrc"
echo "@@conns $(awk 'NR == FNR { b[$1] = $2; next } $2 - b[$1] > 1048576 { n++ } END { print n + 0 }' /tmp/run.tr0 /tmp/run.tr1)"
[ $frc = 0 ] || sed 's/^/@@err /' /tmp/run.out
[ $vrc = 0 ] || sed 's/^/@@err /' /tmp/run.vfy
echo "@@fio"
cat /tmp/run.json
echo "@@stats0"
cat /tmp/run.st0
echo "@@stats1"
cat /tmp/run.st1
echo "@@end"
