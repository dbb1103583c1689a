#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make bench`: READ (and QD1/QD4 latency) benchmark of smbsrv beside the
# in-tree ksmbd and nfsd (NFSv4.2), in one VM boot, under the
# instruction-count clock by default (Documentation/benchmarks.md, "The
# READ benchmark").  Each server serves its own tmpfs; the guest's kernel
# clients mount them over loopback with client caching bypassed (cifs
# cache=none, fio --direct=1, libaio).  Sections:
#
#   matrix   sequential READ, 4K/64K/1M x QD1/QD8 x 1/4 jobs, every server
#   sweep    sequential READ 4K..1M at QD8, 1 job: smbsrv splicing every
#            READ (splice threshold 4K) and never (copy), ksmbd, nfsd
#   latency  READ and WRITE, 4K and 1M, QD1 and QD4, 1 job: fio clat
#            p50/p99 for smbsrv, ksmbd, nfsd
#
# Every run checks its data (tools/bench/guest/run.sh).  smbsrv's
# variants (default knobs, copy only, no inline reads) are switched live
# with smbsrvctl set.  Raw results go to build/bench/RUN/ (one file per
# run), the tables and the plot are written by tools/bench/report.py.
#
#   tools/bench/bench.sh [--quick] [--secs S] [--clock icount|tcg]
#       [--cpu MODEL] [--rounds N] [--sections "matrix sweep latency"]
#       [--servers "smbsrv ksmbd ..."] [--sweep-servers "..."]
#       [--verify meta|crc32c] [--out DIR]
#
# --quick: 4K and 1M READ at QD1 and QD8 (1 job) and the latency cells at
# 4K/1M QD1, smbsrv vs ksmbd vs nfsd, 3 s runs: a few minutes.
# Environment: SMBSRV_VM_SMP, SMBSRV_VM_MEM as for tools/vm/lib.sh.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/lib.sh"

quick=0
secs=""
clock=icount
cpu=max
rounds=1
sections="matrix sweep latency"
servers=""
sweep_servers=""
out=""
verify=meta
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--secs) secs=$2; shift ;;
	--clock) clock=$2; shift ;;
	--cpu) cpu=$2; shift ;;
	--rounds) rounds=$2; shift ;;
	--sections) sections=$2; shift ;;
	--servers) servers=$2; shift ;;
	--sweep-servers) sweep_servers=$2; shift ;;
	--out) out=$2; shift ;;
	--verify) verify=$2; shift ;;
	*) sed -n '3,30s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
	shift
done

file_mb=128
if [ $quick = 1 ]; then
	secs=${secs:-3}
	sizes_matrix="4k 1m"
	qds_matrix="1 8"
	jobs_matrix="1"
	sections_q=""
	for s in $sections; do
		[ "$s" = sweep ] || sections_q="$sections_q $s"
	done
	sections=$sections_q
	servers=${servers:-"smbsrv ksmbd nfsd"}
	lat_sizes="4k 1m"
	lat_qds="1"
else
	secs=${secs:-4}
	sizes_matrix="4k 64k 1m"
	qds_matrix="1 8"
	jobs_matrix="1 4"
	servers=${servers:-"smbsrv smbsrv-copy smbsrv-noinline ksmbd nfsd"}
	lat_sizes="4k 1m"
	lat_qds="1 4"
fi
sweep_sizes="4k 8k 16k 32k 64k 128k 256k 512k 1m"
sweep_servers=${sweep_servers:-"smbsrv-splice smbsrv-copy ksmbd nfsd"}

commit=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
stamp=$(date -u +%Y%m%d-%H%M%S)
out=${out:-$top/build/bench/$stamp-$clock}
mkdir -p "$out/runs"

# The run plan: unique (server rw bs qd jobs) keys, cells in order, the
# servers of a cell rotated so that no server always runs first.
plan=$out/plan
: > "$plan"
add_cell() {	# SERVERS RW BS QD JOBS
	local s
	for s in $1; do
		grep -qx "$s $2 $3 $4 $5" "$plan" || echo "$s $2 $3 $4 $5" >> "$plan"
	done
}
for sec in $sections; do
	case $sec in
	matrix)
		for bs in $sizes_matrix; do for qd in $qds_matrix; do
			for j in $jobs_matrix; do
				add_cell "$servers" read "$bs" "$qd" "$j"
			done
		done; done ;;
	sweep)
		for bs in $sweep_sizes; do
			add_cell "$sweep_servers" read "$bs" 8 1
		done ;;
	latency)
		for rw in read write; do for bs in $lat_sizes; do
			for qd in $lat_qds; do
				add_cell "smbsrv ksmbd nfsd" "$rw" "$bs" "$qd" 1
			done
		done; done ;;
	*) echo "bench: unknown section $sec" >&2; exit 2 ;;
	esac
done

vm=bench
export SMBSRV_VM_CLOCK=$clock SMBSRV_VM_CPU=$cpu
export SMBSRV_VM_EXEC_TIMEOUT=$((secs * 60 + 600))
trap 'vm_stop "$vm" >/dev/null 2>&1 || true' EXIT

{
	echo "commit $commit"
	echo "date $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "clock $clock"
	echo "cpu $cpu"
	echo "smp ${SMBSRV_VM_SMP:-2}"
	echo "kernel $VM_KVER"
	echo "secs $secs"
	echo "rounds $rounds"
	echo "file_mb $file_mb"
	echo "verify $verify"
	echo "host_load $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/meta"

vm_initramfs >/dev/null
vm_start "$vm" >/dev/null
echo "qemu $(cat "$(vm_dir "$vm")/clock")" >> "$out/meta"
vm_exec "$vm" "sh /usr/share/smbsrv/bench/setup.sh $file_mb $verify" > "$out/setup.log" 2>&1 || {
	cat "$out/setup.log" >&2
	echo "bench: guest setup failed" >&2
	exit 1
}

# The knob settings of an smbsrv variant, applied before each of its runs.
variant() {
	case $1 in
	smbsrv) echo "smbsrvctl set splice-threshold 64K && smbsrvctl set inline-reads yes" ;;
	smbsrv-copy) echo "smbsrvctl set splice-threshold 0 && smbsrvctl set inline-reads yes" ;;
	smbsrv-splice) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads yes" ;;
	smbsrv-noinline) echo "smbsrvctl set splice-threshold 64K && smbsrvctl set inline-reads no" ;;
	*) echo : ;;
	esac
}

mount_of() {
	case $1 in smbsrv*) echo smbsrv ;; *) echo "$1" ;; esac
}

total=$(($(wc -l < "$plan") * rounds))
n=0
failed=0
t0=$(date +%s)
mapfile -t cells < <(awk '{ print $2, $3, $4, $5 }' "$plan" | awk '!seen[$0]++')
for r in $(seq 1 "$rounds"); do
	ci=0
	for cell in "${cells[@]}"; do
		read -r rw bs qd jobs <<< "$cell"
		mapfile -t who < <(awk -v c="$cell" '$2" "$3" "$4" "$5 == c { print $1 }' "$plan")
		k=${#who[@]}
		for ((i = 0; i < k; i++)); do
			s=${who[$(((i + ci + r) % k))]}
			n=$((n + 1))
			f="$out/runs/$r-$s-$rw-$bs-$qd-$jobs"
			if ! vm_exec "$vm" "$(variant "$s") >/dev/null &&
				sh /usr/share/smbsrv/bench/run.sh $(mount_of "$s") $rw $bs $qd $jobs $secs" \
				> "$f" 2>&1; then
				echo "bench: run $s $rw $bs QD$qd x$jobs failed:" >&2
				tail -n 20 "$f" >&2
				failed=$((failed + 1))
			fi
			grep -q '^@@fio-rc 0$' "$f" && grep -q '^@@verify-rc 0$' "$f" ||
				{ echo "bench: $f: fio or its data check failed" >&2; failed=$((failed + 1)); }
			printf 'bench: %d/%d %s %s %s QD%s x%s (%ds)\n' "$n" "$total" \
				"$s" "$rw" "$bs" "$qd" "$jobs" $(($(date +%s) - t0)) >&2
		done
		ci=$((ci + 1))
	done
done
# The whole file once more, byte for byte, through every mount.
vm_exec "$vm" 'for s in smbsrv ksmbd nfsd; do
	[ "$(md5sum /mnt/$s/read.bin | cut -d" " -f1)" = "$(cat /tmp/read.md5)" ] ||
		{ echo "read.bin differs through /mnt/$s"; exit 1; }
done; dmesg | grep -E "BUG|WARNING|Oops" || true' > "$out/final.log" 2>&1 ||
	{ cat "$out/final.log" >&2; failed=$((failed + 1)); }
vm_stop "$vm" >/dev/null 2>&1 || true
trap - EXIT

/usr/bin/python3 "$top/tools/bench/report.py" "$out"
echo "bench: results in $out (${failed} failed runs)" >&2
[ "$failed" = 0 ]
