#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench-cluster: 1 MiB READ and WRITE throughput through one cluster
# node and through two at once (Documentation/benchmarks.md).  Not part
# of make check-cluster; run as one of its suites, inside its network
# namespace with its Ceph cluster:
#
#   tools/cluster/check.sh tools/cluster/bench.sh
#
# The two nodes of nodes.bash serve one CephFS directory (cluster name
# "bench"); each node's guest mounts its own node over loopback with the
# kernel cifs client (cache=none) and runs fio there: 1 job, 1 MiB
# blocks, libaio, direct I/O, queue depth BENCH_QD (default 4), for
# BENCH_SECS seconds (default 20) per phase, on its own file (a.bin,
# b.bin; BENCH_MB MiB, default 256).  A round: node a alone WRITEs
# (verify=crc32c headers in every block), then READs back what it wrote,
# checking every block's checksum, with the guest's page cache dropped
# first (so READs reach the OSD); then both nodes at once, the same way.
# BENCH_ROUNDS rounds (default 2).  fio's figures in MiB/s go to the log
# and build/bench-cluster/results.txt with the commit and the clock (real
# time: the instruction clock does not span several guests and Ceph).
. "$(dirname "$0")/../../tests/selftests/host/lib.sh"

CL_NAME=bench
CL_DIR=bench
# shellcheck source=../../tests/selftests/cluster/nodes.bash
. "$T_TOP/tests/selftests/cluster/nodes.bash"
secs=${BENCH_SECS:-20}
qd=${BENCH_QD:-4}
mb=${BENCH_MB:-256}
rounds=${BENCH_ROUNDS:-2}
out=$T_TOP/build/bench-cluster
mkdir -p "$out"
res=$out/results.txt
M=/mnt/smb

cl_boot
for n in a b; do
	t_check "node $n: mount CephFS, join cluster $CL_NAME, serve it" node_up "$n"
	t_check "node $n's guest mounts share cl of node $n with cifs (cache=none)" \
		vm_exec "c-$n" "mkdir -p $M && mount -t cifs //127.0.0.1/cl $M \
-o username=demo,password=demo,vers=3.1.1,cache=none"
done

# fio_run NODE read|write MiB: one fio run in NODE's guest on NODE.bin
# (the READ over the first MiB MiB of it); prints "BW IO_MIB ERR".
fio_run() {
	local n=$1 rw=$2 size=$3 pre="" vfy=0
	[ "$rw" = read ] && pre="sync; echo 3 > /proc/sys/vm/drop_caches;" vfy=1
	vm_exec "c-$n" "$pre fio --name=$n --filename=$M/$n.bin --rw=$rw --bs=1M \
--ioengine=libaio --direct=1 --iodepth=$qd --size=${size}M --time_based \
--runtime=$secs --verify=crc32c --verify_fatal=1 --do_verify=$vfy \
--output-format=json" | /usr/bin/python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.index("{"):])["jobs"][0]
d = j[sys.argv[1]]
print("%.1f %d %d" % (d["bw_bytes"] / 1048576, d["io_bytes"] >> 20, j["error"]))' "$rw"
}

# phase ROUND WHAT NODES...: WRITE then READ on each node at once.
declare -A wrote
phase() {
	local round=$1 what=$2 n rw r bw io err sum pids
	shift 2
	for rw in write read; do
		# Wait for these only: the guests' QEMU are this shell's children too.
		pids=()
		for n in "$@"; do
			fio_run "$n" "$rw" "${wrote[$n]:-$mb}" > "$out/$n.$rw" 2>&1 &
			pids+=($!)
		done
		wait "${pids[@]}"
		sum=0
		for n in "$@"; do
			r=$(cat "$out/$n.$rw")
			read -r bw io err <<< "$r"
			if [ -n "$io" ] && [ "$err" = 0 ] && [ "$io" -gt 0 ]; then
				t_ok "round $round, $what: node $n $rw ${bw} MiB/s, $io MiB, data checked"
				sum=$(awk -v a="$sum" -v b="$bw" 'BEGIN { print a + b }')
				# What the READ may cover: what the WRITE wrote, up to the file.
				[ "$rw" = read ] || wrote[$n]=$((io < mb ? io : mb))
			else
				t_not_ok "round $round, $what: node $n $rw: $r"
			fi
		done
		echo "$round $what $rw $sum" >> "$res"
		t_diag "round $round, $what: $rw $sum MiB/s in all"
	done
}

{
	echo "# $(git -C "$T_TOP" rev-parse --short HEAD) $(date -u '+%F %H:%M') UTC," \
		"load $(cut -d' ' -f1-3 /proc/loadavg), 1 MiB, QD$qd, ${secs} s"
	echo "# round what rw MiB/s(sum over nodes)"
} >> "$res"
for r in $(seq 1 "$rounds"); do
	wrote=()
	phase "$r" "one node" a
	wrote=()
	phase "$r" "two nodes" a b
done
t_diag "results in ${res#"$T_TOP"/}"
for n in a b; do
	vm_exec "c-$n" "umount $M" >/dev/null 2>&1
done
for v in c-a c-b; do
	T_VM=$v t_dmesg_clean
done
vm_exec c-b 'kill $(pidof smbsrvd) 2>/dev/null; sleep 1; umount /mnt/cephfs' >/dev/null 2>&1
vm_stop c-a
T_VM="c-b"
t_done
