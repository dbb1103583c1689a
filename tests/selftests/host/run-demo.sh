#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make run` as a newcomer meets it, run non-interactively so the demo
# never goes stale: it must exit 0 and show each step (the user added the
# documented way, smbclient's share list, a put/get with equal checksums,
# the guest's cifs mount copying a file in and out with equal checksums,
# that mount in `smbsrvctl sessions`, `smbsrvctl stats`).  Then every
# command it prints for the reader to try is run exactly as printed (the
# interactive smbclient gets "ls" on its standard input), and so is the
# printed command that stops the VM.  Last, a run that cannot boot must
# fail with a non-zero status and name a console log that exists.
. "$(dirname "$0")/lib.sh"

vm=t-run-demo
out=$(mktemp)
trap 'rm -f "$out"' EXIT
port=$(vm_free_port)

SMBSRV_RUN_VM=$vm SMBSRV_RUN_KEEP=1 SMBSRV_VM_SMB_PORT=$port \
	make -s -C "$T_TOP" run < /dev/null > "$out" 2>&1
rc=$?
t_diag "make run exited with $rc after $(grep -c . "$out") lines of output"
if [ $rc = 0 ]; then
	t_ok "make run exits 0"
else
	t_not_ok "make run exits 0"
	tail -n 60 "$out" | sed 's/^/# /'
fi

# expect DESCRIPTION REGEX: the output of make run matches (grep -E).
expect() {
	if grep -qE -- "$2" "$out"; then
		t_ok "make run shows $1"
	else
		t_not_ok "make run shows $1"
		t_diag "no line matches /$2/"
	fi
}
expect "the boot time" '^ +booted in [0-9.]+ s'
expect "numbered steps up to the last" '^\[8/8\] '
expect "the demo user added with smbsrvctl user add" '^ +\$ echo demo \| smbsrvctl user add demo$'
expect "smbsrvctl status with the daemon running" '^ +daemon: +running'
expect "the share list from smbclient -L" '^[[:space:]]+demo[[:space:]]+Disk'
expect "put/get with the same md5 three times" \
	'md5 sent ([0-9a-f]{32}), on the server \1, got back \1$'
expect "the cifs copy with the same md5 three times" \
	'md5 copied in ([0-9a-f]{32}), on the server \1, copied out \1$'
expect "the mount's session: user demo, 3.1.1, encrypted" \
	'^ +0x[0-9a-f]{16} demo +127\.0\.0\.1[^ ]* +3\.1\.1 +(yes|no) +yes '
expect "smbsrvctl stats with a per-CPU request queue" '^ +smbsrv +percpu +[0-9]+'
expect "the console log path" "^Console log: .*/build/vm(-debug)?/run/$vm/console.log$"
if grep -qE 'FAILED|not answered' "$out"; then
	t_not_ok "make run reports no failure"
	grep -E 'FAILED|not answered' "$out" | sed 's/^/# /'
else
	t_ok "make run reports no failure"
fi

# The commands it prints to try, as printed.
mapfile -t cmds < <(sed -n '/^smbsrv works:/,/^Console log:/s/^  \$ //p' "$out")
if [ ${#cmds[@]} -ge 5 ]; then
	t_ok "make run prints ${#cmds[@]} commands to try"
else
	t_not_ok "make run prints commands to try (found ${#cmds[@]})"
fi
for c in "${cmds[@]}"; do
	t_check "printed command works: $c" bash -c "printf 'ls\nquit\n' | timeout 120 $c"
done
t_check_output "the interactive smbclient lists README.txt" 'README\.txt' \
	bash -c "printf 'ls\nquit\n' | timeout 120 $(grep -m1 -E '^  \$ smbclient //[^ ]+ -p [0-9]+ -U [^ ]+$' "$out" | sed 's/^  \$ //')"
t_check_output "the printed put/get prints the share's README.txt" \
	'^Hello from smbsrv' bash -c "$(grep -m1 "put /etc/os-release" "$out" | sed 's/^  \$ //') 2>/dev/null"
t_check_output "the guest still has the cifs mount and the session" \
	' demo .* 3\.1\.1 ' vm_exec "$vm" 'grep -q " /mnt/demo cifs " /proc/mounts && smbsrvctl sessions'
t_check "the guest kernel logged nothing bad" vm_exec "$vm" \
	". /usr/share/smbsrv/tests/lib.sh; ! dmesg_bad"
stop=$(sed -n 's/^Stop it: *//p' "$out")
t_check "the printed stop command works: $stop" bash -c "$stop"
t_check_fail "the VM is stopped" vm_alive "$vm"

# A run that fails: the VM cannot boot in 1 s.
SMBSRV_RUN_VM=$vm SMBSRV_VM_BOOT_TIMEOUT=1 \
	"$T_TOP/tools/run-demo.sh" < /dev/null > "$out" 2>&1
rc=$?
if [ $rc != 0 ]; then
	t_ok "a run whose VM cannot boot exits non-zero ($rc)"
else
	t_not_ok "a run whose VM cannot boot exits non-zero"
fi
log=$(sed -n 's/^run: guest console log: //p' "$out")
if [ -n "$log" ] && [ -f "$log" ] && grep -q "run: FAILED at step 2/8" "$out"; then
	t_ok "it names the failed step and a console log that exists ($log)"
else
	t_not_ok "it names the failed step and a console log that exists"
	sed 's/^/# /' "$out"
fi
t_check_fail "and leaves no VM behind" vm_alive "$vm"
t_done
