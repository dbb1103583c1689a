#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fstests (xfstests) on a `posix,vers=3.1.1` cifs mount, smbsrv and the
# in-tree ksmbd in one VM boot (Documentation/testing.md, "fstests").
# fstests is not part of this repository: point the script at its source
# (git://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git or a copy).
#
# Usage: tools/fstests/run.sh --src PATH [--group quick] [--from N]
#            [--count N] [--chunk N] [--budget SECONDS] [TEST...]
#   --src     the fstests source tree; copied to build/fstests/src and
#             built there (again only when the source changes)
#   --group   the group to run (default quick), unless tests are named
#   --from/--count   a slice of the group's list (1-based, in order)
#   --chunk   tests per turn (default 10): smbsrv runs a chunk, then
#             ksmbd the same chunk, so both always ran the same tests
#   --budget  stop starting chunks after this many seconds (default:
#             none); what ran is reported, stated as a subset
# Results: build/fstests/results/{smbsrv,ksmbd}.txt ("test result
# seconds reason" per test), summary.md (counts and both servers'
# failures), and each server's fstests results tree (the .out.bad and
# .full files) under build/fstests/results/SERVER/.
# Environment: SMBSRV_VM_MEM (default 3072 here), FST_TEST_TIMEOUT
# (seconds per test, default 900).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
src="" group=quick from=1 count=100000 chunk=10 budget=0 tests=()
while [ $# -gt 0 ]; do
	case $1 in
	--src) src=$2; shift ;;
	--group) group=$2; shift ;;
	--from) from=$2; shift ;;
	--count) count=$2; shift ;;
	--chunk) chunk=$2; shift ;;
	--budget) budget=$2; shift ;;
	-h | --help) sed -n '3,29p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) tests+=("$1") ;;
	esac
	shift
done
if [ -z "$src" ] || [ ! -f "$src/check" ]; then
	echo "run.sh: --src PATH of an fstests source tree is required" >&2
	exit 2
fi

out=$top/build/fstests
bsrc=$out/src
mkdir -p "$out"

# --- build fstests (on the host: the guest runs the host's userland) -----
key=$( (cd "$src" && find . -path ./.git -prune -o -type f -print0 | LC_ALL=C sort -z |
	xargs -0 sha256sum) | sha256sum | cut -d' ' -f1)
if [ "$(cat "$out/src.key" 2>/dev/null)" != "$key" ]; then
	echo "fstests: building $src in $bsrc"
	rm -rf "$bsrc"
	mkdir -p "$bsrc"
	(cd "$src" && tar --exclude=.git -cf - .) | tar -xf - -C "$bsrc"
	nice make -C "$bsrc" -j"$(nproc)" > "$out/build.log" 2>&1 ||
		{ echo "fstests: build failed, see $out/build.log" >&2; exit 1; }
	echo "$key" > "$out/src.key"
fi
commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo "unknown (not a git tree)")

"$top/tools/fstests/layer.sh" "$bsrc" || exit 1

# --- boot and run -------------------------------------------------------
# shellcheck source=tools/vm/lib.sh
. "$top/tools/vm/lib.sh"
export SMBSRV_VM_INITRD=$out/initrd.cpio
export SMBSRV_VM_MEM=${SMBSRV_VM_MEM:-3072}
vm=fstests
vm_start "$vm" || exit 1
trap 'vm_stop "$vm"' EXIT
echo "fstests: VM booted in $(cat "$(vm_dir "$vm")/boot-seconds") s"
g=/usr/share/smbsrv/fstests/guest.sh
vm_exec "$vm" "modprobe smbsrv && $g setup" || { echo "fstests: guest setup failed" >&2; exit 1; }

if [ ${#tests[@]} -eq 0 ]; then
	mapfile -t tests < <(vm_exec "$vm" "$g list $group" | tail -n +"$from" | head -n "$count")
fi
[ ${#tests[@]} -gt 0 ] || { echo "fstests: no tests" >&2; exit 1; }
echo "fstests: ${#tests[@]} tests (${tests[0]} .. ${tests[-1]}), $chunk per turn, fstests $commit"

res=$out/results
rm -rf "$res"
mkdir -p "$res"
{ echo "fstests $commit"; echo "group ${group} from $from, ${#tests[@]} tests listed"; } > "$res/info"
start=$(date +%s)
export SMBSRV_VM_EXEC_TIMEOUT=$(( ${FST_TEST_TIMEOUT:-900} * chunk + 600 ))
for ((i = 0; i < ${#tests[@]}; i += chunk)); do
	if [ "$budget" -gt 0 ] && [ $(( $(date +%s) - start )) -ge "$budget" ]; then
		echo "fstests: budget of ${budget}s spent; stopping before ${tests[$i]}"
		break
	fi
	part=("${tests[@]:i:chunk}")
	for s in smbsrv ksmbd; do
		vm_exec "$vm" "FST_TEST_TIMEOUT=${FST_TEST_TIMEOUT:-900} $g run $s ${part[*]}" |
			sed -n 's/^RESULT //p' | tee -a "$res/$s.txt" | sed "s/^/$s: /"
	done
	vm_exec "$vm" 'dmesg | grep -E "BUG:|Oops|WARNING:|Kernel panic -" | tail -n 5'
done
echo "elapsed $(( $(date +%s) - start )) s" >> "$res/info"
# Each server's results tree (the .out.bad and .full files), then the
# summary.
vm_exec "$vm" 'cd /tmp/fst-results && tar -czf - . | base64 -w0' | base64 -d | tar -xzf - -C "$res" 2>/dev/null
vm_exec "$vm" 'dmesg' > "$res/dmesg.txt"
"$top/tools/fstests/summary.sh" "$res" | tee "$res/summary.md"
