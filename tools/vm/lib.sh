# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The smbsrv test VM, as bash functions (sourced by tools/vm/vm.sh, the
# selftests and the benchmarks).
#
#   vm_start NAME [KERNEL_ARGS...]   boot in the background, wait until ready
#   vm_exec NAME SCRIPT              run a shell script in the guest, print
#                                    its output, return its exit status
#   vm_stop NAME                     power the guest off
#   vm_run NAME SCRIPT [TIMEOUT]     boot, run a guest script, power off;
#                                    return the script's exit status
#   vm_port NAME smb|rival|samba|agent
#                                    host port forwarded to the guest
#
# Environment: SMBSRV_VM_ACCEL (tcg|kvm, default: probe), SMBSRV_VM_SMP (2),
# SMBSRV_VM_MEM (2048), SMBSRV_VM_SMB_PORT (host port forwarded to the
# guest's 445, default: a free one), SMBSRV_VM_BOOT_TIMEOUT (180),
# SMBSRV_VM_CLOCK (under TCG: "tcg", multi-threaded, the guest clock is
# real time; "icount", one host thread and a guest clock that advances
# 1 ns per guest instruction and skips idle time: the benchmark clock, see
# Documentation/benchmarks.md), SMBSRV_VM_CPU (the -cpu model under TCG,
# default "max"; "max,-erms,-fsrm" makes the kernel copy 8 bytes per
# instruction instead of one per byte), SMBSRV_VM_DISK (a raw disk image
# on the host, given to the guest as /dev/vda on virtio-blk: a real block
# device that outlives the guest, as long/crash-writes.sh needs; QEMU's
# default cache=writeback, so what the guest wrote to the device survives
# a kill of QEMU, what sits in the guest's page cache does not),
# SMBSRV_VM_SAMBA (1: boot build/vm/initrd-samba.cpio, the image with
# Samba's smbd as a third server, tools/vm/mkinitramfs.sh),
# SMBSRV_VM_INITRD (another image to boot, such as tools/fstests/run.sh's),
# SMBSRV_VM_NETDEV (more options of the guest's user network, such as the
# guestfwd= rules that let cluster guests reach Ceph, tools/cluster/).
#
# SMBSRV_VM_KERNEL=debug boots the debug kernel of tools/debug-kernel.sh
# (KASAN, lockdep, kmemleak, UBSAN) with its own modules and smbsrv.ko
# built against it, in build/vm-debug instead of build/vm; every timeout
# of these functions is multiplied by SMBSRV_VM_SLOW (default 4 there);
# at the end of every guest the kernel's reports are collected (see
# vm_debug_check).  SMBSRV_VM_KERNEL=slub: the stock kernel with what it
# can check without a rebuild (SLUB red zones and poisoning, KFENCE
# sampling every allocation it can), timeouts x2, reports collected the
# same way but for kmemleak's.  Unset: the stock kernel of .kver.

VM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VM_OUT="$VM_TOP/build/vm"
VM_KVER=${KVER:-$(cat "$VM_TOP/.kver" 2>/dev/null || true)}
VM_KERNEL_IMAGE="/boot/vmlinuz-$VM_KVER"
VM_APPEND=""
VM_SLOW=1
VM_REPORTS=""	# leaks: reports and a kmemleak scan; console: reports
if [ "${SMBSRV_VM_KERNEL:-}" = slub ]; then
	VM_APPEND="loglevel=5 slub_debug=FZPU kfence.sample_interval=1"
	VM_APPEND+=" rcupdate.rcu_cpu_stall_timeout=120 watchdog_thresh=60"
	VM_SLOW=${SMBSRV_VM_SLOW:-2}
	VM_REPORTS=console
elif [ "${SMBSRV_VM_KERNEL:-}" = debug ]; then
	VM_DEBUG_DIR=$("$VM_TOP/tools/debug-kernel.sh" --print) || return 1
	VM_OUT="$VM_TOP/build/vm-debug"
	VM_KVER=$(cat "$VM_DEBUG_DIR/release")
	VM_KERNEL_IMAGE="$VM_DEBUG_DIR/bzImage"
	# Warnings (lockdep's reports) on the console too; every KASAN
	# report, not only the first; the guest's init scans for leaks.
	# Under TCG on a shared host a vCPU can wait many seconds for the
	# host: RCU's stall and the soft lockup detectors' limits (21 and
	# 20 s) are raised to 120 s.
	VM_APPEND="loglevel=5 kasan_multi_shot vmtest.leakscan=1"
	VM_APPEND+=" rcupdate.rcu_cpu_stall_timeout=120 watchdog_thresh=60"
	VM_SLOW=${SMBSRV_VM_SLOW:-4}
	VM_REPORTS=leaks
fi
# Guest ports behind the forwards: smbsrv, the rival server (ksmbd),
# Samba's smbd, the agent.
VM_GUEST_SMB=445
VM_GUEST_RIVAL=1445
VM_GUEST_SAMBA=2445
VM_GUEST_AGENT=7000

vm_die() {
	echo "vm: $*" >&2
	return 1
}

vm_dir() { echo "$VM_OUT/run/$1"; }

# A TCP port no socket of this host uses (listening or connected: a
# connection's local port cannot be bound either).
vm_free_port() {
	local p i
	for i in $(seq 1 200); do
		p=$((20000 + RANDOM % 40000))
		if ! ss -Htan "sport = :$p" 2>/dev/null | grep -q .; then
			echo "$p"
			return 0
		fi
	done
	vm_die "no free port"
}

# tcg, or kvm when /dev/kvm really boots a guest (checked once, cached).
vm_accel() {
	if [ -n "${SMBSRV_VM_ACCEL:-}" ]; then
		echo "$SMBSRV_VM_ACCEL"
		return
	fi
	local cache="$VM_OUT/accel.$VM_KVER"
	if [ -f "$cache" ]; then
		cat "$cache"
		return
	fi
	mkdir -p "$VM_OUT"
	local accel=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		local d
		d=$(mktemp -d)
		mkdir -p "$d/root/bin"
		cp /bin/busybox "$d/root/bin/busybox"
		printf '#!/bin/busybox sh\n/bin/busybox echo KVM-PROBE-OK\n/bin/busybox poweroff -f\n' > "$d/root/init"
		chmod 755 "$d/root/init"
		(cd "$d/root" && find . | cpio --quiet -o -H newc) > "$d/probe.cpio"
		timeout 60 qemu-system-x86_64 -accel kvm -cpu host -m 256 \
			-display none -no-reboot -serial "file:$d/console" \
			-kernel "$VM_KERNEL_IMAGE" -initrd "$d/probe.cpio" \
			-append "console=ttyS0 quiet panic=-1" >/dev/null 2>&1 || true
		grep -q KVM-PROBE-OK "$d/console" 2>/dev/null && accel=kvm
		rm -rf "$d"
	fi
	echo "$accel" > "$cache"
	echo "$accel"
}

vm_initramfs() {
	if [ "${SMBSRV_VM_KERNEL:-}" = debug ]; then
		KVER=$VM_KVER SMBSRV_VM_OUT=$VM_OUT \
			SMBSRV_MODDIR="$VM_DEBUG_DIR/lib/modules/$VM_KVER" SMBSRV_MODS=tests \
			SMBSRV_KO="$VM_TOP/build/debug-kernel/kmod/smbsrv.ko" \
			"$VM_TOP/tools/vm/mkinitramfs.sh"
	else
		"$VM_TOP/tools/vm/mkinitramfs.sh"
	fi
}

vm_port() {
	local f
	f="$(vm_dir "$1")/port.$2"
	[ -f "$f" ] || vm_die "no $2 port for VM $1" || return 1
	cat "$f"
}

vm_alive() {
	local pid
	pid=$(cat "$(vm_dir "$1")/qemu.pid" 2>/dev/null) || return 1
	kill -0 "$pid" 2>/dev/null
}

# vm_boot NAME KERNEL_ARGS: start qemu in the background.
vm_boot() {
	local name=$1 extra=$2 dir accel smb rival samba agent cpu disk=()
	local initrd="$VM_OUT/initrd.cpio"
	[ "${SMBSRV_VM_SAMBA:-}" = 1 ] && initrd="$VM_OUT/initrd-samba.cpio"
	initrd=${SMBSRV_VM_INITRD:-$initrd}
	[ -n "$VM_KVER" ] || vm_die "no pinned kernel: run 'make deps'" || return 1
	[ -f "$initrd" ] || vm_die "no $initrd: run 'tools/vm/vm.sh initramfs'" || return 1
	dir=$(vm_dir "$name")
	if vm_alive "$name"; then
		vm_die "VM $name is already running" || return 1
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	accel=$(vm_accel)
	smb=${SMBSRV_VM_SMB_PORT:-$(vm_free_port)}
	rival=$(vm_free_port)
	samba=$(vm_free_port)
	agent=$(vm_free_port)
	echo "$smb" > "$dir/port.smb"
	echo "$rival" > "$dir/port.rival"
	echo "$samba" > "$dir/port.samba"
	echo "$agent" > "$dir/port.agent"
	echo "$accel" > "$dir/accel"
	if [ "$accel" = kvm ]; then
		cpu=(-accel kvm -cpu host)
	elif [ "${SMBSRV_VM_CLOCK:-tcg}" = icount ]; then
		cpu=(-accel tcg,thread=single -icount shift=0,sleep=off
			-cpu "${SMBSRV_VM_CPU:-max}")
	else
		cpu=(-accel tcg,thread=multi -cpu "${SMBSRV_VM_CPU:-max}")
	fi
	echo "${cpu[*]}" > "$dir/clock"
	if [ -n "${SMBSRV_VM_DISK:-}" ]; then
		disk=(-drive "file=$SMBSRV_VM_DISK,format=raw,if=none,id=d0"
			-device virtio-blk-pci,drive=d0)
	fi
	: > "$dir/console.log"
	date +%s.%N > "$dir/start"
	setsid qemu-system-x86_64 "${cpu[@]}" -machine q35 \
		-smp "${SMBSRV_VM_SMP:-2}" -m "${SMBSRV_VM_MEM:-2048}" \
		-display none -monitor none -no-reboot \
		-serial "file:$dir/console.log" \
		-kernel "$VM_KERNEL_IMAGE" -initrd "$initrd" \
		-append "console=ttyS0 quiet panic=-1 ${VM_APPEND:+$VM_APPEND }$extra" \
		-netdev "user,id=n0,restrict=on,hostfwd=tcp:127.0.0.1:$smb-:$VM_GUEST_SMB,hostfwd=tcp:127.0.0.1:$rival-:$VM_GUEST_RIVAL,hostfwd=tcp:127.0.0.1:$samba-:$VM_GUEST_SAMBA,hostfwd=tcp:127.0.0.1:$agent-:$VM_GUEST_AGENT${SMBSRV_VM_NETDEV:+,$SMBSRV_VM_NETDEV}" \
		-device virtio-net-pci,netdev=n0 \
		-device virtio-rng-pci "${disk[@]}" \
		>"$dir/qemu.log" 2>&1 </dev/null &
	echo $! > "$dir/qemu.pid"
}

# Wait for a line in the console; fails on timeout or if qemu exits.
# What a guest kernel that died while booting leaves on the console.
VM_BOOT_CRASH='Kernel panic|Oops:|BUG:'

vm_wait_console() {
	local name=$1 pattern=$2 timeout=$3 dir i died=""
	dir=$(vm_dir "$name")
	for ((i = 0; i < timeout * 10; i++)); do
		grep -q "$pattern" "$dir/console.log" 2>/dev/null && return 0
		vm_alive "$name" || return 1
		# A kernel that crashed before our init (vm_died_booting's
		# patterns; an empty console is only the start of a boot here)
		# gets 30 s more, not the whole boot timeout (on the debug
		# kernel that is 12 minutes of a guest looping in KASAN reports).
		if [ "$pattern" = SMBSRV-VM-READY ] && [ $((i % 50)) = 0 ]; then
			if [ -z "$died" ] && grep -qE "$VM_BOOT_CRASH" \
				"$dir/console.log" 2>/dev/null; then
				died=$i
			elif [ -n "$died" ] && [ $((i - died)) -ge 300 ]; then
				return 1
			fi
		fi
		sleep 0.1
	done
	return 1
}

vm_boot_seconds() {
	local dir
	dir=$(vm_dir "$1")
	echo "$(date +%s.%N) $(cat "$dir/start")" | awk '{ printf "%.1f", $1 - $2 }'
}

# Did the guest die before its init ran anything of ours?  Under TCG the
# stock kernel very rarely oopses while patching its own text at boot
# (seen: "Oops: int3" in sched_clock_cpu from an initcall); nothing of
# smbsrv has run then, so one more boot is the honest answer.  The same
# when the console stayed empty: QEMU itself died before the guest printed
# anything (seen once in CI: qemu-system-x86_64 segfaulted under TCG).
vm_died_booting() {
	local dir
	dir=$(vm_dir "$1")
	! grep -q SMBSRV-VM-READY "$dir/console.log" 2>/dev/null &&
		{ [ ! -s "$dir/console.log" ] ||
		  grep -qE "$VM_BOOT_CRASH" "$dir/console.log" 2>/dev/null; }
}

vm_start() {
	local name=$1 try
	shift
	for try in 1 2; do
		vm_boot "$name" "$*" || return 1
		if vm_wait_console "$name" SMBSRV-VM-READY "${SMBSRV_VM_BOOT_TIMEOUT:-$((180 * VM_SLOW))}"; then
			echo "$(vm_boot_seconds "$name")" > "$(vm_dir "$name")/boot-seconds"
			return 0
		fi
		vm_fail_log "$name" "did not boot"
		vm_kill "$name"
		[ $try = 1 ] && vm_died_booting "$name" || return 1
		echo "vm: $name: the guest kernel died before init; booting again" >&2
	done
}

# vm_exec NAME SCRIPT: run SCRIPT with sh in the guest.
vm_exec() {
	local name=$1 script=$2 port out rc timeout=${SMBSRV_VM_EXEC_TIMEOUT:-$((900 * VM_SLOW))}
	port=$(vm_port "$name" agent) || return 1
	out=$(timeout "$timeout" bash -c '
		exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 111
		printf "%s\n" "$2" >&3
		cat <&3' _ "$port" "$(printf '%s' "$script" | base64 -w0)")
	rc=$?
	if [ $rc -eq 124 ]; then
		printf '%s\n' "$out"
		echo "vm: command timed out after ${timeout}s" >&2
		return 124
	fi
	if [[ "$out" =~ (.*)$'\n'__SMBSRV_RC__=([0-9]+)$ ]]; then
		printf '%s' "${BASH_REMATCH[1]}"
		return "${BASH_REMATCH[2]}"
	fi
	printf '%s\n' "$out"
	echo "vm: lost the guest agent (rc $rc)" >&2
	return 125
}

vm_kill() {
	local pid
	pid=$(cat "$(vm_dir "$1")/qemu.pid" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null
	for _ in $(seq 1 50); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null
	return 0
}

vm_stop() {
	local name=$1 pid
	pid=$(cat "$(vm_dir "$name")/qemu.pid" 2>/dev/null) || return 0
	if [ "$VM_REPORTS" = leaks ]; then
		vm_exec "$name" /usr/sbin/vm-kmemleak > "$(vm_dir "$name")/kmemleak.log" 2>&1
	fi
	vm_stop_now "$name" "$pid"
	[ -z "$VM_REPORTS" ] || vm_debug_check "$name"
}

vm_stop_now() {
	local name=$1 pid=$2
	SMBSRV_VM_EXEC_TIMEOUT=10 vm_exec "$name" 'sync; (sleep 0.2; poweroff -f) &' >/dev/null 2>&1
	for _ in $(seq 1 300); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	vm_kill "$name"
}

# Keep a failed run's console where a reader finds it.
vm_fail_log() {
	local name=$1 why=$2 streamed=${3:-} dir keep
	dir=$(vm_dir "$name")
	mkdir -p "$VM_OUT/failed"
	keep="$VM_OUT/failed/$name-$(date +%Y%m%d-%H%M%S).log"
	cp "$dir/console.log" "$keep" 2>/dev/null
	echo "vm: $name $why; console log kept in $keep" >&2
	[ -n "$streamed" ] || tail -n 40 "$keep" >&2 2>/dev/null
}

# vm_run NAME SCRIPT [TIMEOUT]: boot, run SCRIPT (a guest path) and stream
# the console; returns the script's exit status.  A guest kernel that dies
# before init gets one more boot (see vm_died_booting).
vm_run() {
	local rc
	vm_run_once "$@"
	rc=$?
	if [ $rc = 125 ] && vm_died_booting "$1"; then
		echo "vm: $1: the guest kernel (or QEMU) died before init; booting again" >&2
		vm_run_once "$@"
		rc=$?
	fi
	return $rc
}

vm_run_once() {
	local name=$1 script=$2 timeout=$((${3:-900} * VM_SLOW)) dir pid rc=0 tailpid
	dir=$(vm_dir "$name")
	vm_boot "$name" "vmtest.script=$script" || return 1
	pid=$(cat "$dir/qemu.pid")
	tail -n +1 -f --pid="$pid" "$dir/console.log" &
	tailpid=$!
	local i
	for ((i = 0; i < timeout * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		vm_kill "$name"
		wait "$tailpid" 2>/dev/null
		vm_fail_log "$name" "timed out after ${timeout}s" streamed
		return 124
	fi
	wait "$tailpid" 2>/dev/null
	[ -z "$VM_REPORTS" ] || vm_debug_check "$name"
	rc=$(sed -n 's/^SMBSRV-VM-EXIT \([0-9]*\).*/\1/p' "$dir/console.log" | tail -n1)
	if [ -z "$rc" ]; then
		vm_fail_log "$name" "stopped without finishing its script" streamed
		return 125
	fi
	[ "$rc" = 0 ] || vm_fail_log "$name" "script failed (exit $rc)" streamed
	return "$rc"
}

# vm_debug_check NAME: the debug kernel's reports in the guest's console
# (KASAN, UBSAN, lockdep and other WARNINGs, BUGs, oopses) and in its
# final kmemleak scan (vm-kmemleak: the console for a guest script, a
# file for a guest the host stopped).  Writes them to
# $(vm_dir NAME)/reports.txt, adds them to $SMBSRV_VM_REPORTS (when set:
# tests/run-all.sh fails the suite), and fails when there is one.
vm_debug_check() {
	local name=$1 dir
	dir=$(vm_dir "$name")
	cat "$dir/console.log" "$dir/kmemleak.log" 2>/dev/null | tr -d '\r' |
		awk -f "$VM_TOP/tools/vm/kernel-reports.awk" > "$dir/reports.txt"
	# One grep over both files: a guest script's scan is on the console and
	# kmemleak.log is then missing (with pipefail, cat's error failed a
	# pipeline whose grep had matched).
	[ "$VM_REPORTS" != leaks ] ||
		grep -qas '^SMBSRV-KMEMLEAK-END' "$dir/console.log" "$dir/kmemleak.log" ||
		echo "=== no kmemleak scan at the end (see $dir)" >> "$dir/reports.txt"
	[ -s "$dir/reports.txt" ] || return 0
	# The in-tree ksmbd's own reports (its code alone in the traces) are
	# listed, not counted: it only runs here as the yardstick.
	if grep -q "^=== ksmbd's: " "$dir/reports.txt"; then
		echo "vm: $name: $(grep -c "^=== ksmbd's: " "$dir/reports.txt") of the reports are in the in-tree ksmbd's code alone (not counted):" >&2
		grep "^=== ksmbd's: " "$dir/reports.txt" | sed 's/^/vm:   /' >&2
	fi
	grep -v "^=== ksmbd's: " "$dir/reports.txt" | grep -q '^=== ' || return 0
	echo "vm: $name: the debug kernel reported $(grep '^=== ' "$dir/reports.txt" | grep -vc "^=== ksmbd's: "):" >&2
	grep '^=== ' "$dir/reports.txt" | grep -v "^=== ksmbd's: " | sed 's/^/vm:   /' >&2
	if [ -n "${SMBSRV_VM_REPORTS:-}" ]; then
		{ echo "### guest $name"; cat "$dir/reports.txt"; } >> "$SMBSRV_VM_REPORTS"
	fi
	return 1
}
