#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The smbsrv test VM from the command line.
#
#   tools/vm/vm.sh initramfs            build build/vm/initrd.cpio
#   tools/vm/vm.sh start [NAME]         boot in the background (NAME: vm)
#   tools/vm/vm.sh exec NAME 'CMD'      run a shell command in the guest
#   tools/vm/vm.sh stop [NAME]          power it off
#   tools/vm/vm.sh run SCRIPT [TIMEOUT] boot, run a guest script, exit with
#                                       its status
#   tools/vm/vm.sh ports [NAME]         forwarded host ports
#   tools/vm/vm.sh accel                tcg or kvm, as probed
set -uo pipefail
. "$(dirname "$0")/lib.sh"

cmd=${1:-}
shift || true
case "$cmd" in
initramfs) vm_initramfs ;;
start)
	name=${1:-vm}
	shift || true
	vm_start "$name" "$@" || exit 1
	echo "VM $name up in $(cat "$(vm_dir "$name")/boot-seconds") s" \
		"($(cat "$(vm_dir "$name")/accel")); SMB on 127.0.0.1:$(vm_port "$name" smb)"
	;;
exec) vm_exec "$1" "$2" ;;
stop) vm_stop "${1:-vm}" ;;
run) vm_run run "$1" "${2:-900}" ;;
ports)
	for p in smb rival samba agent; do echo "$p $(vm_port "${1:-vm}" $p)"; done
	;;
accel) vm_accel ;;
*)
	sed -n '3,13s/^# \{0,1\}//p' "$0"
	exit 2
	;;
esac
