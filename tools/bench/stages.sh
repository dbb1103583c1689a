#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Where a QD1 request waits: smbsrv beside ksmbd in one VM boot, plain
# multi-threaded TCG by default (real time), cifs loopback, fio direct,
# queue depth 1, 1 job (Documentation/benchmarks.md, "Where a QD1 request
# waits").  Two phases:
#
#   timed   ROUNDS rounds of every cell, the two servers alternated cell
#           by cell (who goes first flips every cell and every round),
#           fio without any tracing: MiB/s and clat p50/p99
#   traced  TRACE_ROUNDS rounds of every cell with the client's and the
#           servers' events recorded (tools/bench/guest/stages.sh) and cut
#           into stages by tools/bench/stages.py
#
#   tools/bench/stages.sh [--rounds N] [--trace-rounds N] [--secs S]
#       [--cells "write:1m read:1m read:4k write:4k"] [--clock tcg|icount]
#       [--out DIR]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/lib.sh"

main() {
rounds=5
trounds=1
secs=5
cells="write:1m read:1m read:4k write:4k"
clock=tcg
out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift ;;
	--trace-rounds) trounds=$2; shift ;;
	--secs) secs=$2; shift ;;
	--cells) cells=$2; shift ;;
	--clock) clock=$2; shift ;;
	--out) out=$2; shift ;;
	*) sed -n '3,19s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
	shift
done
commit=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
out=${out:-$top/build/bench/stages-$(date -u +%Y%m%d-%H%M%S)-$clock}
mkdir -p "$out/timed" "$out/traced"
{
	echo "commit $commit"
	echo "date $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "clock $clock"
	echo "secs $secs"
	echo "rounds $rounds"
	echo "host_load $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/meta"
export SMBSRV_VM_CLOCK=$clock
export SMBSRV_VM_EXEC_TIMEOUT=$((secs * 60 + 600))
trap 'vm_stop "$vm" >/dev/null 2>&1 || true' EXIT
vm_initramfs >/dev/null
vm_start "$vm" >/dev/null
vm_exec "$vm" "sh /usr/share/smbsrv/bench/setup.sh 64" > "$out/setup.log" 2>&1 ||
	{ cat "$out/setup.log" >&2; exit 1; }
g=/usr/share/smbsrv/bench/stages.sh
ci=0
for r in $(seq 1 "$rounds"); do
	for c in $cells; do
		rw=${c%%:*} bs=${c#*:}
		if [ $(((r + ci) % 2)) = 0 ]; then order="smbsrv ksmbd"; else order="ksmbd smbsrv"; fi
		for s in $order; do
			vm_exec "$vm" "sh $g $s $rw $bs $secs plain" \
				> "$out/timed/$r-$s-$rw-$bs" 2>&1 || true
		done
		ci=$((ci + 1))
		echo "stages: timed round $r $c ($(date -u +%H:%M:%S))" >&2
	done
done
for r in $(seq 1 "$trounds"); do
	for c in $cells; do
		rw=${c%%:*} bs=${c#*:}
		for s in smbsrv ksmbd; do
			vm_exec "$vm" "sh $g $s $rw $bs $secs" \
				> "$out/traced/$r-$s-$rw-$bs" 2>&1 || true
		done
		echo "stages: traced round $r $c ($(date -u +%H:%M:%S))" >&2
	done
done
vm_exec "$vm" 'dmesg | grep -E "BUG|WARNING|Oops" || true' > "$out/dmesg.log" 2>&1 || true
vm_stop "$vm" >/dev/null 2>&1 || true
trap - EXIT
/usr/bin/python3 "$top/tools/bench/stages.py" --timed "$out"/timed/* > "$out/timed.txt" || true
/usr/bin/python3 "$top/tools/bench/stages.py" "$out"/traced/* > "$out/traced.txt" || true
cat "$out/timed.txt" "$out/traced.txt"
echo "stages: results in $out" >&2
}

vm=stages
main "$@"
