#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run every test smbsrv has and print one closing line "N passed, N failed".
#
#   tests/run-all.sh [--only unit|lint|install|vm|fuzz|long] [--vm-filter REGEX]
#
# Suites:
#   unit   Catch2 unit tests of the userspace code (TAP), and real clients'
#          security code (tests/interop/) against the daemon's authenticator
#   lint   checkpatch --strict and sparse on the module and its test
#          modules, no test code in smbsrv.ko, the tests KUnit's, generated
#          netlink code up to date, clang-tidy on the C++
#   install  make install DESTDIR=...: files, man pages, unit, DKMS sources
#   fuzz   a short run of every libFuzzer target (tests/fuzz/) over its
#          seed corpus: FUZZ_SECONDS (default 5) each
#   vm     selftests in the test VM: guest-side scripts
#          (tests/selftests/guest/*.sh, run by vm_run) and host-side
#          scripts driving real clients (tests/selftests/host/*.sh)
#   long   only with --only long (make check-long), never in make check:
#          VM scripts that run for many minutes (tests/selftests/long/*.sh,
#          host-side like the above), such as the READ races for 30 s each
# Every suite speaks TAP; logs are kept in build/test-logs/.  VM suites run
# two at a time and lint beside them (SMBSRV_TEST_JOBS, default 2; 1 runs
# everything one after the other).
# SMBSRV_VM_KERNEL=debug (make check-debug) runs the VM suites on the debug
# kernel (tools/debug-kernel.sh), one at a time, their timeouts multiplied
# (tools/vm/lib.sh); a suite whose guests made the kernel report anything
# (KASAN, lockdep, UBSAN, kmemleak, WARNING, BUG) fails once more, the
# reports in build/test-logs/NAME.kreports.  SMBSRV_VM_KERNEL=slub: the
# same on the stock kernel with SLUB debugging and KFENCE.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
logs="$top/build/test-logs"
only=""
filter=""
matched=0	# suites the filter picked
while [ $# -gt 0 ]; do
	case "$1" in
	--only) only=$2; shift 2 ;;
	--vm-filter) filter=$2; shift 2 ;;
	*) echo "usage: $0 [--only SUITE] [--vm-filter REGEX]" >&2; exit 2 ;;
	esac
done
rm -rf "$logs"
mkdir -p "$logs"

passed=0
failed=0
t0=$(date +%s)

# tally NAME LOGFILE [SECONDS]: count the TAP results of one test program
# (SECONDS: how long it ran, shown beside them).  A program that died
# before its plan, or whose plan disagrees with its results, counts as one
# more failure.
tally() {
	local name=$1 log=$2 secs=${3:-} p f plan n
	p=$(grep -cE '^ok ' "$log")
	f=$(grep -cE '^not ok ' "$log")
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log" | tail -n1)
	n=$((p + f))
	if [ -z "$plan" ] || [ "$plan" != "$n" ]; then
		echo "not ok - $name: incomplete (plan '${plan:-none}', $n results)"
		f=$((f + 1))
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	printf '== %-40s %3d passed, %d failed%s\n' "$name" "$p" "$f" \
		"${secs:+ ($secs s)}"
	if [ "$f" -gt 0 ]; then
		grep -E '^not ok ' "$log" | sed 's/^/   /'
	fi
}

suite_unit() {
	local bin="$top/build/user/tests/unit/unit-tests" log="$logs/unit.tap"
	if [ ! -x "$bin" ]; then
		echo "not ok - unit tests not built" > "$log"
	else
		"$bin" -r tap > "$log" 2>&1
	fi
	tally unit "$log"
	# Real clients' security code (Samba's gensec, impacket) against the
	# daemon's authenticator.
	local s name
	for s in "$top"/tests/interop/*.py; do
		name=$(basename "$s" .py)
		[ "$name" = impacket-rpc ] && continue
		log="$logs/interop-$name.tap"
		/usr/bin/python3 "$s" "$top/build/user/tests/unit/auth-driver" > "$log" 2>&1
		tally "interop/$name" "$log"
	done
	# impacket's DCE/RPC client and srvsvc/wkssvc code against the pipes.
	log="$logs/interop-impacket-rpc.tap"
	/usr/bin/python3 "$top/tests/interop/impacket-rpc.py" \
		"$top/build/user/tests/unit/rpc-driver" \
		"$top/tests/unit/data/rpc/server.conf" > "$log" 2>&1
	tally interop/impacket-rpc "$log"
}

lint_run() {
	local log="$logs/lint.tap" n=0 kdir f out
	kdir=/lib/modules/$(cat "$top/.kver")/build
	: > "$log"
	emit() { # status description [output]
		n=$((n + 1))
		if [ "$1" = 0 ]; then
			echo "ok $n - $2" >> "$log"
		else
			echo "not ok $n - $2" >> "$log"
			printf '%s\n' "${3:-}" | sed 's/^/# /' >> "$log"
		fi
	}
	# Hand-written module sources; generated ones follow ynl-gen's style.
	for f in "$top"/kmod/*.[ch] "$top"/kmod/*/*.[ch]; do
		[ -f "$f" ] || continue
		case "$f" in *-gen.[ch] | *.mod.c) continue ;; esac
		out=$(perl "$top/.deps/linux-source/scripts/checkpatch.pl" --strict \
			--no-tree --terse --show-types -f "$f" 2>&1 |
			grep -vE '^total: 0 errors, 0 warnings, 0 checks')
		emit $([ -z "$out" ] && echo 0 || echo 1) "checkpatch --strict ${f#"$top"/}" "$out"
	done
	# sparse: C=2 runs it on every source, built already or not, and we
	# fail on any report.  In the module's own tree, with the flags of the
	# Makefile's kmod target (KCFLAGS=-Werror: a compiler warning fails
	# the build): in a full run make has just built it, so only sparse
	# runs (48 CPU-s where compiling a copy of the sources again took
	# 142) and nothing the VM suites pack beside this is rewritten; a
	# stale module (lint alone after an edit) is rebuilt as make would.
	out=$(make -s -C "$kdir" M="$top/kmod" KCFLAGS=-Werror C=2 modules 2>&1 |
		grep -E 'warning:|error:')
	emit $([ -z "$out" ] && echo 0 || echo 1) "sparse (make C=2) reports nothing" "$out"
	# The test modules the same way, then the checks that keep tests out
	# of smbsrv.ko and keep them KUnit suites (tools/test-modules.sh).
	out=$(make -s -C "$kdir" M="$top/kmod/test" KCFLAGS=-Werror C=2 \
		KBUILD_EXTRA_SYMBOLS="$top/kmod/Module.symvers" modules 2>&1 |
		grep -E 'warning:|error:')
	emit $([ -z "$out" ] && echo 0 || echo 1) "sparse on the test modules (kmod/test) reports nothing" "$out"
	out=$("$top/tools/test-modules.sh" shipped "$top/kmod/smbsrv.ko" \
		"$top"/kmod/test/*.ko 2>&1)
	emit $? "smbsrv.ko has no test code (modinfo: no test parameter; nm: no test symbol)" "$out"
	out=$("$top/tools/test-modules.sh" kunit 2>&1)
	emit $? "the test modules build against the kernel's own KUnit" "$out"
	out=$("$top/tools/ynl-regen.sh" --check 2>&1)
	emit $? "generated netlink code matches the YNL spec" "$out"
	# The module's layers (design.md, "Layers"): the checker finds what it
	# must on made-up trees, then finds nothing in kmod/.
	out=$(/usr/bin/python3 "$top/tools/layers.py" --self-test 2>&1)
	emit $? "tools/layers.py finds upward includes, upward calls and call cycles" "$out"
	out=$(/usr/bin/python3 "$top/tools/layers.py" "$top/kmod" 2>&1)
	emit $? "kmod layers: includes and calls go down, no call cycle, no exception list" "$out"
	# The debug kernel's report filter on made-up consoles.
	out=$("$top/tools/vm/kernel-reports-test.sh" 2>&1)
	emit $? "kernel-reports.awk tells ksmbd's own reports from smbsrv's" "$out"
	# Every C++ source, two at a time (the machine has two cores); files
	# whose preprocessed text was already found clean are skipped.  The
	# cache lives in the repository's common git directory, so every
	# worktree of one clone shares it (a fresh clone checks everything).
	local tidy_cache
	tidy_cache=$(git -C "$top" rev-parse --path-format=absolute \
		--git-common-dir 2>/dev/null)/smbsrv-tidy-cache
	[ "$tidy_cache" = /smbsrv-tidy-cache ] && tidy_cache=$top/build/tidy-cache
	out=$(cd "$top" && find userd tests/unit tests/tools -name '*.cpp' -print0 |
		xargs -0 tools/tidy-cached.py build/user "$tidy_cache" 2>&1 |
		grep -E 'error:|warning:')
	emit $([ -z "$out" ] && echo 0 || echo 1) "clang-tidy on the C++ sources" "$out"
	echo "1..$n" >> "$log"
}

suite_lint() {
	lint_run
	tally lint "$logs/lint.tap"
}

# lint as a job of the pool below: its TAP goes to the job's output.
lint_job() {
	lint_run > "$logs/lint.out" 2>&1
	cat "$logs/lint.tap"
}

suite_fuzz() {
	local log="$logs/fuzz.tap" n=0 t name out secs=${FUZZ_SECONDS:-5}
	: > "$log"
	if ! out=$(make -s -C "$top/tests/fuzz" 2>&1); then
		echo "not ok 1 - building the fuzz targets" >> "$log"
		printf '%s\n' "$out" | sed 's/^/# /' >> "$log"
		echo "1..1" >> "$log"
		tally fuzz "$log"
		return
	fi
	for t in "$top"/build/fuzz/fuzz_*; do
		[ -x "$t" ] || continue
		name=${t##*/fuzz_}
		n=$((n + 1))
		rm -rf "$top/build/fuzz/corpus-$name"
		mkdir -p "$top/build/fuzz/corpus-$name"
		if out=$("$t" -max_total_time="$secs" -timeout=10 \
			-rss_limit_mb=2048 -print_final_stats=1 \
			"$top/build/fuzz/corpus-$name" \
			"$top/tests/fuzz/corpus/$name" 2>&1); then
			echo "ok $n - fuzz_$name: $(printf '%s\n' "$out" |
				sed -n 's/^stat::number_of_executed_units: *//p') runs in ${secs} s, no crash" >> "$log"
		else
			echo "not ok $n - fuzz_$name" >> "$log"
			printf '%s\n' "$out" | tail -n 40 | sed 's/^/# /' >> "$log"
		fi
	done
	echo "1..$n" >> "$log"
	tally fuzz "$log"
}

# kreports NAME LOGFILE: one more failure when the suite's guests made the
# debug kernel report something (tools/vm/lib.sh vm_debug_check).
kreports() {
	local f=${2%.tap}.kreports
	[ -s "$f" ] || return 0
	# (ksmbd's own reports are kept in the file only beside smbsrv's.)
	echo "not ok - $1: $(grep '^=== ' "$f" | grep -vc "^=== ksmbd's: ") debug kernel reports in ${f#"$top"/}"
	failed=$((failed + 1))
}

# VM suites run SMBSRV_TEST_JOBS at a time (default 2), each in its own
# guest, and in a full run lint takes one of those slots from the start: a
# suite spends much of its time with the guest waiting (timeouts, sleeps,
# host-side clients); Documentation/testing.md has the measured saving.
# Results are tallied as the suites finish.  SMBSRV_TEST_JOBS=1 runs them
# one after the other.
njobs=${SMBSRV_TEST_JOBS:-2}
[ -z "${SMBSRV_VM_KERNEL:-}" ] || njobs=1
declare -A pool=()	# pid -> "name start-time log"

pool_reap() {
	local pid entry name log start
	wait -n -p pid "${!pool[@]}"
	entry=${pool[$pid]}
	unset "pool[$pid]"
	read -r name start log <<< "$entry"
	tally "$name" "$log" $(($(date +%s) - start))
	kreports "$name" "$log"
}

# pool_run NAME LOG COMMAND...: start COMMAND (output to LOG) when a slot
# is free.
pool_run() {
	local name=$1 log=$2
	shift 2
	while [ "${#pool[@]}" -ge "$njobs" ]; do pool_reap; done
	SMBSRV_VM_REPORTS=${log%.tap}.kreports "$@" > "$log" 2>&1 &
	pool[$!]="$name $(date +%s) $log"
}

pool_drain() {
	while [ "${#pool[@]}" -gt 0 ]; do pool_reap; done
}

# The slowest suites first (by their times in a full run), so that the two
# slots end close together: a long suite started last runs alone.
vm_order=(host/torture-replay host/flood host/torture-files host/torture-io
	host/torture-meta host/file2 host/cache host/cifs host/read host/write
	host/cifs2 host/storm host/torture-cache host/route host/krb
	host/mcwrite host/mount host/acl host/shares host/torture-core
	host/run-demo)

suite_vm() {
	# shellcheck source=../tools/vm/lib.sh
	. "$top/tools/vm/lib.sh"
	if ! vm_initramfs > "$logs/initramfs.log" 2>&1; then
		cat "$logs/initramfs.log"
		echo "not ok - building the VM initramfs" > "$logs/vm-initramfs.tap"
		tally vm-initramfs "$logs/vm-initramfs.tap"
		return
	fi
	local s name all=() first
	for first in "${vm_order[@]}"; do
		[ -f "$top/tests/selftests/$first.sh" ] && all+=("$first")
	done
	for s in "$top"/tests/selftests/host/*.sh "$top"/tests/selftests/guest/*.sh; do
		[ -f "$s" ] || continue
		name=$(basename "$s" .sh)
		[ "$name" = lib ] && continue
		case "$s" in */guest/*) name=vm/$name ;; *) name=host/$name ;; esac
		[[ " ${all[*]} " == *" $name "* ]] || all+=("$name")
	done
	for name in "${all[@]}"; do
		[ -n "$filter" ] && ! [[ "$name" =~ $filter ]] && continue
		matched=$((matched + 1))
		case "$name" in
		vm/*)
			# Only TAP lines count; the console also carries kernel
			# noise (boot to script: $(vm_dir t-NAME)/console.log).
			pool_run "$name" "$logs/vm-${name#vm/}.tap" \
				vm_run "t-${name#vm/}" "/usr/share/smbsrv/tests/${name#vm/}.sh" 1200 ;;
		host/*)
			pool_run "$name" "$logs/host-${name#host/}.tap" \
				timeout $((2400 * VM_SLOW)) bash "$top/tests/selftests/$name.sh" ;;
		esac
	done
	pool_drain
}

suite_long() {
	# shellcheck source=../tools/vm/lib.sh
	. "$top/tools/vm/lib.sh"
	vm_initramfs > "$logs/initramfs.log" 2>&1 || { cat "$logs/initramfs.log"; return; }
	local s name log
	for s in "$top"/tests/selftests/long/*.sh; do
		name=$(basename "$s" .sh)
		[ -n "$filter" ] && ! [[ "long/$name" =~ $filter ]] && continue
		matched=$((matched + 1))
		log="$logs/long-$name.tap"
		SMBSRV_VM_REPORTS=${log%.tap}.kreports timeout $((7200 * VM_SLOW)) bash "$s" > "$log" 2>&1
		tally "long/$name" "$log"
		kreports "long/$name" "$log"
	done
}

suite_install() {
	local log="$logs/install.tap"
	bash "$top/tests/install/install.sh" > "$log" 2>&1
	tally install "$log"
}

# In a full run lint (CPU only, a few minutes) takes a slot of the pool
# from the start, beside the other suites.
if [ -z "$only" ] && [ "$njobs" -gt 1 ]; then
	echo "== suite lint (beside the others; tallied when it ends)"
	pool_run lint "$logs/lint-job.tap" lint_job
fi
for s in unit lint install fuzz vm long; do
	[ -n "$only" ] && [ "$only" != "$s" ] && continue
	[ "$s" = long ] && [ "$only" != long ] && continue
	[ "$s" = lint ] && [ -z "$only" ] && [ "$njobs" -gt 1 ] && continue
	echo "== suite $s"
	"suite_$s"
done
pool_drain
# A filter that picks nothing is a mistake (a typo, or a Makefile that
# expanded its $), not a pass.
if [ -n "$filter" ] && [ "$matched" = 0 ]; then
	printf 'not ok 1 - --vm-filter %s matched no suite\n1..1\n' "$filter" > "$logs/vm-filter.tap"
	tally vm-filter "$logs/vm-filter.tap"
fi

echo "== $(($(date +%s) - t0)) s; logs in ${logs#"$top"/}/"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
