#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make run`: boot the test VM with smbsrv serving the demo share, show a
# client using it and print how to connect from this host.
#
# Environment: SMBSRV_VM_SMB_PORT (host port for SMB, default 4445 or a
# free one), SMBSRV_RUN_KEEP=1 (leave the VM running when not on a
# terminal; stop it with tools/vm/vm.sh stop demo).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tools/vm/lib.sh"

port=${SMBSRV_VM_SMB_PORT:-4445}
if ss -Htln "sport = :$port" 2>/dev/null | grep -q .; then
	port=$(vm_free_port)
fi
export SMBSRV_VM_SMB_PORT=$port

echo "== building the VM image"
vm_initramfs || exit 1
vm_alive demo && vm_stop demo
echo "== booting Debian $VM_KVER ($(vm_accel))"
vm_start demo || exit 1
echo "   booted in $(cat "$(vm_dir demo)/boot-seconds") s"

echo "== starting smbsrv in the guest"
if ! vm_exec demo '
	set -e
	modprobe smbsrv
	smbsrvd -c /etc/smbsrv/smbsrv.conf
	echo "\$ smbsrvctl status"
	smbsrvctl status
	echo
	echo "\$ ls -l /srv/demo    # the demo share: a tmpfs"
	ls -l /srv/demo
'; then
	echo "run: smbsrv did not start; console log: $(vm_dir demo)/console.log" >&2
	vm_stop demo
	exit 1
fi

echo
echo "== a client on this host connects to 127.0.0.1:$port (forwarded to the guest's 445)"
if timeout 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null; then
	echo "   TCP connection to smbsrv established"
else
	echo "   could not connect to 127.0.0.1:$port" >&2
	vm_stop demo
	exit 1
fi

cat <<EOF

smbsrv is running in the VM "demo" and serves the share 'demo' (/srv/demo, a
tmpfs) for the user 'demo'.

  From this host:   smbclient //127.0.0.1/demo -p $port -U demo%demo
  In the guest:     tools/vm/vm.sh exec demo 'smbsrvctl status'
  Console log:      $(vm_dir demo)/console.log
  Stop the VM:      tools/vm/vm.sh stop demo

(The SMB2/3 protocol core is the next piece of work: today the module
listens and the daemon pushes its configuration; SMB requests are not
answered yet.)
EOF

if [ -t 0 ]; then
	read -r -p "Press Enter to stop the VM... " _
	vm_stop demo
elif [ "${SMBSRV_RUN_KEEP:-0}" != 1 ]; then
	vm_stop demo
	echo "VM stopped (SMBSRV_RUN_KEEP=1 leaves it running)."
fi
