#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The host reaches smbsrv in the guest through the forwarded port, and the
# guest agent drives the daemon.
. "$(dirname "$0")/lib.sh"

t_vm_start
t_guest_check "smbsrvd starts with the VM's configuration" \
	"smbsrvd -c /etc/smbsrv/smbsrv.conf"
t_check_output "smbsrvctl status shows the daemon running" \
	"^daemon: +running" vm_exec "$T_VM" "smbsrvctl status"
t_check "host connects to 127.0.0.1:$T_SMB_PORT (forwarded to smbsrv)" \
	timeout 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$T_SMB_PORT"
t_dmesg_clean
t_done
