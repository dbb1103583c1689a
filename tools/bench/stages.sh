#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Where a QD1 request waits: smbsrv beside ksmbd in one VM boot, plain
# multi-threaded TCG by default (real time), cifs loopback, fio direct,
# queue depth 1, 1 job (Documentation/benchmarks.md, "Where a QD1 request
# waits").  Two phases:
#
#   timed   ROUNDS rounds of every cell, the servers alternated cell by
#           cell (the order rotates every cell and every round), fio
#           without any tracing: MiB/s and clat p50/p99
#   traced  TRACE_ROUNDS rounds of every cell with the client's and the
#           servers' events recorded (tools/bench/guest/stages.sh) and cut
#           into stages by tools/bench/stages.py
#
# --variants "- +u +a +u+c" runs smbsrv once per WRITE placement in the
# same boot, through the one mount: "-" the defaults, "+u" route policy
# unbound (+a adaptive; else percpu), "+c" affinity scope cache for
# smbsrv-unbound (else the daemon's cpu).  These are global settings, so
# they are set before every run of the variant (and reset to percpu and
# cpu before every other smbsrv run).  None of them changes how a READ
# runs, so a READ cell runs once, through the first variant.  A variant's
# runs are named smbsrv+OPTIONS ("smbsrv+u+c" for +u+c; "smbsrv" for -).
#
#   tools/bench/stages.sh [--rounds N] [--trace-rounds N] [--secs S]
#       [--cells "write:1m read:1m read:4k write:4k"] [--clock tcg|icount]
#       [--variants "- +u ..."] [--out DIR]
#       [--depth QDxJOBS]
#
# Every smbsrv run records smbsrvctl stats (the module's counters) before
# (lines "@@stats0 ...") and after it ("@@stats1 ...") in its output.
#
# --depth 8x4 runs the timed phase at queue depth 8 with 4 fio jobs
# (group reporting) instead of 1x1, to see that a placement that helps
# QD1 costs nothing under load; the traced phase is QD1 only and is
# skipped then.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/lib.sh"

main() {
rounds=5
trounds=1
secs=5
cells="write:1m read:1m read:4k write:4k"
clock=tcg
depth=1x1
variants=-
out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift ;;
	--trace-rounds) trounds=$2; shift ;;
	--secs) secs=$2; shift ;;
	--cells) cells=$2; shift ;;
	--clock) clock=$2; shift ;;
	--variants) variants=$2; shift ;;
	--out) out=$2; shift ;;
	--depth) depth=$2; shift ;;
	*) sed -n '3,/^set /s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
	shift
done
[[ $depth =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] ||
	{ echo "stages: --depth is QDxJOBS (8x4), not $depth" >&2; exit 2; }
[ "$depth" = 1x1 ] || trounds=0
servers=()
for v in $variants; do
	[ "$v" = - ] && v=""
	[[ $v =~ ^(\+[uac])*$ ]] ||
		{ echo "stages: unknown options in $v (+u +a +c)" >&2; exit 2; }
	servers+=("smbsrv$v")
done
servers+=(ksmbd)
commit=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
out=${out:-$top/build/bench/stages-$(date -u +%Y%m%d-%H%M%S)-$clock}
# A second run into one directory would mix its runs with the first's.
if [ -n "$(ls -A "$out/timed" "$out/traced" 2>/dev/null)" ]; then
	echo "stages: $out holds runs already" >&2
	exit 2
fi
mkdir -p "$out/timed" "$out/traced"
{
	echo "commit $commit"
	echo "date $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "clock $clock cpu ${SMBSRV_VM_CPU:-max} smp ${SMBSRV_VM_SMP:-2}"
	echo "secs $secs"
	echo "rounds $rounds"
	echo "depth $depth"
	echo "variants $variants"
	echo "servers ${servers[*]}"
	echo "host_load $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/meta"
export SMBSRV_VM_CLOCK=$clock
export SMBSRV_VM_EXEC_TIMEOUT=$((secs * 60 + 600))
trap 'vm_stop "$vm" >/dev/null 2>&1 || true' EXIT
vm_initramfs >/dev/null
vm_start "$vm" >/dev/null
vm_exec "$vm" "sh /usr/share/smbsrv/bench/setup.sh 64" > "$out/setup.log" 2>&1 ||
	{ cat "$out/setup.log" >&2; exit 1; }
# shellcheck disable=SC2016  # expands in the guest
vm_exec "$vm" 'w=/sys/devices/virtual/workqueue
echo "smbsrv-recv scope $(cat $w/smbsrv-recv/affinity_scope) strict $(cat $w/smbsrv-recv/affinity_strict)"
echo "smbsrv-unbound scope $(cat $w/smbsrv-unbound/affinity_scope)"
echo "L3 shared by CPUs $(cat /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list 2>/dev/null)"
grep -c "^processor" /proc/cpuinfo' >> "$out/meta" 2>&1 || true
g=/usr/share/smbsrv/bench/stages.sh
ci=0
for r in $(seq 1 "$rounds"); do
	for c in $cells; do
		rw=${c%%:*} bs=${c#*:}
		read -ra cs <<< "$(cell_servers "$rw")"
		for s in $(rotate $((r + ci)) "${cs[@]}"); do
			vm_exec "$vm" "$(placement "$s")
sh $g $s $rw $bs $secs plain $depth
$(stats "$s" 1)" \
				> "$out/timed/$r-$s-$rw-$bs" 2>&1 || true
		done
		ci=$((ci + 1))
		echo "stages: timed round $r $c ($(date -u +%H:%M:%S))" >&2
		echo "host_load round $r $c $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/meta"
	done
done
for r in $(seq 1 "$trounds"); do
	for c in $cells; do
		rw=${c%%:*} bs=${c#*:}
		for s in $(cell_servers "$rw"); do
			vm_exec "$vm" "$(placement "$s")
sh $g $s $rw $bs $secs" \
				> "$out/traced/$r-$s-$rw-$bs" 2>&1 || true
		done
		echo "stages: traced round $r $c ($(date -u +%H:%M:%S))" >&2
		echo "host_load traced $r $c $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/meta"
	done
done
vm_exec "$vm" 'dmesg | grep -E "BUG|WARNING|Oops" || true' > "$out/dmesg.log" 2>&1 || true
vm_stop "$vm" >/dev/null 2>&1 || true
trap - EXIT
# The guest's console (a crash, the emulator's or the module's, is there).
cp "$(vm_dir "$vm")/console.log" "$out/console.log" 2>/dev/null || true
/usr/bin/python3 "$top/tools/bench/stages.py" --timed --depth "$depth" "$out"/timed/* > "$out/timed.txt" || true
/usr/bin/python3 "$top/tools/bench/stages.py" "$out"/traced/* > "$out/traced.txt" || true
/usr/bin/python3 "$top/tools/bench/stages.py" --stats "$out"/timed/* > "$out/stats.txt" || true
cat "$out/timed.txt" "$out/traced.txt" "$out/stats.txt"
echo "stages: results in $out" >&2
}

# The servers that run a cell: a READ cell through ksmbd and the first
# smbsrv variant only.
cell_servers() {
	if [ "$1" = read ]; then
		printf '%s ksmbd' "${servers[0]}"
	else
		printf '%s ' "${servers[@]}"
	fi
}

# Guest commands setting the WRITE placement of server $1 (a line of
# "@@placement ..." for the record; nothing for ksmbd).
placement() {
	local o route=percpu scope=cpu
	case $1 in smbsrv*) ;; *) return 0 ;; esac
	o=${1#smbsrv}
	case $o in *+u*) route=unbound ;; *+a*) route=adaptive ;; esac
	case $o in *+c*) scope=cache ;; esac
	# shellcheck disable=SC2016  # expands in the guest
	printf '%s\n' "w=/sys/devices/virtual/workqueue/smbsrv-unbound
smbsrvctl set route-policy $route >/dev/null
echo $scope > \$w/affinity_scope
echo \"@@placement route \$(smbsrvctl stats | sed -n 's/^route policy: //p') scope \$(cat \$w/affinity_scope)\"
$(stats "$1" 0)"
}

# A guest command recording smbsrvctl stats (the module's counters)
# before (@@stats0, with the placement) and after (@@stats1, past the
# run's @@end) each smbsrv run, lines stages.py leaves alone.
stats() {
	case $1 in smbsrv*) ;; *) return 0 ;; esac
	printf '%s\n' "smbsrvctl stats 2>&1 | sed 's/^/@@stats$2 /'"
}

# The words after the first, rotated left by $1 places.
rotate() {
	local k=$1
	shift
	local n=$#
	local a=("$@")
	local i
	for i in $(seq 0 $((n - 1))); do
		printf '%s ' "${a[$(((i + k) % n))]}"
	done
}

vm=stages-$$
main "$@"
