# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Host-side selftest helpers: TAP output, one test VM per script, and
# helpers to drive it.  A host test script looks like:
#
#   . "$(dirname "$0")/lib.sh"
#   t_vm_start                      # boot (name from the script), load smbsrv
#   t_guest 'smbsrvd -c /etc/smbsrv/smbsrv.conf'
#   t_check "smbclient lists shares" smbclient -L 127.0.0.1 -p "$T_SMB_PORT" -N
#   t_done                          # plan line, stop the VM, exit status
#
# T_SMB_PORT / T_RIVAL_PORT are the host ports forwarded to the guest's 445
# (smbsrv) and 1445 (a rival server such as ksmbd).
T_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
# shellcheck source=../../../tools/vm/lib.sh
. "$T_TOP/tools/vm/lib.sh"

T_N=0
T_FAIL=0
T_VM=""
T_NAME=$(basename "${BASH_SOURCE[1]:-$0}" .sh)

t_ok() {
	T_N=$((T_N + 1))
	echo "ok $T_N - $*"
}

t_not_ok() {
	T_N=$((T_N + 1))
	T_FAIL=$((T_FAIL + 1))
	echo "not ok $T_N - $*"
}

t_diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

# t_check DESCRIPTION COMMAND...: ok when the command succeeds.
t_check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		t_ok "$desc"
	else
		t_not_ok "$desc"
		printf '%s\n' "$out" | tail -n 30 | sed 's/^/# /'
	fi
}

# t_check_fail DESCRIPTION COMMAND...: ok when the command fails.
t_check_fail() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		t_not_ok "$desc"
		printf '%s\n' "$out" | tail -n 30 | sed 's/^/# /'
	else
		t_ok "$desc"
	fi
}

# t_check_output DESCRIPTION REGEX COMMAND...: ok when the command's
# output (stdout and stderr) matches the extended regex.
t_check_output() {
	local desc=$1 re=$2 out
	shift 2
	out=$("$@" 2>&1)
	if printf '%s\n' "$out" | grep -qE -- "$re"; then
		t_ok "$desc"
	else
		t_not_ok "$desc"
		t_diag "expected /$re/ in:"
		printf '%s\n' "$out" | tail -n 30 | sed 's/^/# /'
	fi
}

# t_checks COMMAND...: run a program that prints "PASS text" or
# "FAIL text: why" per check (such as proto.py) and record each as a test;
# a program that dies without printing anything, or fails without having
# reported a failure (it died half-way), counts as one failure more.
t_checks() {
	local out line n=0 nfail=0 rc
	out=$("$@" 2>&1)
	rc=$?
	while IFS= read -r line; do
		case "$line" in
		"PASS "*) t_ok "${line#PASS }"; n=$((n + 1)) ;;
		"FAIL "*) t_not_ok "${line#FAIL }"; n=$((n + 1))
			nfail=$((nfail + 1)) ;;
		*) [ -n "$line" ] && t_diag "$line" ;;
		esac
	done <<< "$out"
	if [ $n -eq 0 ]; then
		t_not_ok "$* reported nothing"
	elif [ $rc -ne 0 ] && [ $nfail -eq 0 ]; then
		t_not_ok "$* exited with status $rc after $n checks"
	fi
}

# Run a script in the guest; output on stdout, its exit status returned.
t_guest() {
	vm_exec "$T_VM" "$1"
}

# t_guest_check DESCRIPTION SCRIPT: ok when the guest script succeeds.
t_guest_check() {
	t_check "$1" vm_exec "$T_VM" "$2"
}

# Boot the VM for this script and load smbsrv.ko (not the daemon).
t_vm_start() {
	T_VM="h-$T_NAME"
	if ! vm_initramfs >/dev/null; then
		t_not_ok "build the VM initramfs"
		t_done
	fi
	if ! vm_start "$T_VM"; then
		t_not_ok "boot the test VM"
		t_done
	fi
	T_SMB_PORT=$(vm_port "$T_VM" smb)
	T_RIVAL_PORT=$(vm_port "$T_VM" rival)
	export T_SMB_PORT T_RIVAL_PORT
	t_diag "VM $T_VM booted in $(cat "$(vm_dir "$T_VM")/boot-seconds") s; SMB on 127.0.0.1:$T_SMB_PORT"
	t_guest_check "modprobe smbsrv" "modprobe smbsrv"
}

# Guest kernel log lines that mean a bug.
t_dmesg_clean() {
	t_check "guest dmesg has no warnings, oopses or leaks" vm_exec "$T_VM" \
		". /usr/share/smbsrv/tests/lib.sh; if dmesg_bad; then exit 1; fi"
}

t_done() {
	echo "1..$T_N"
	if [ -n "$T_VM" ]; then
		if [ $T_FAIL -ne 0 ]; then
			vm_exec "$T_VM" 'dmesg | tail -n 60' 2>/dev/null | sed 's/^/# dmesg: /'
		fi
		vm_stop "$T_VM"
	fi
	[ $T_FAIL -eq 0 ]
	exit $?
}
