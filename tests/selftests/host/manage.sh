#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Administering a running server through real clients from the host:
# smbclient -L lists the shares with their comments (srvsvc over IPC$,
# module pipe path to the daemon's RPC library); then, with impacket
# sessions held open (manage.py): smbsrvctl sessions, a share added with
# smbsrvctl and used at once, a user deleted, hosts deny, kill -9 of the
# daemon and a restart.  One VM boot.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/manage.py"

t_vm_start
t_guest_check "configuration, users, smbsrvd -F started" '
set -e
mkdir -p /srv/demo /srv/hidden /srv/team
chmod 777 /srv/demo
cat > /etc/smbsrv/smbsrv.conf <<EOF2
; manage.sh
[global]
	server string = smbsrv manage test
	workgroup = TESTGROUP
[demo]
	path = /srv/demo
	comment = Demo share
	read only = no
[hidden]
	path = /srv/hidden
	comment = not listed
	browseable = no
[team]
	path = /srv/team
	admin users = @family
	read only = no
EOF2
printf "alice-pw\n" | smbsrvctl user add alice
printf "bob-pw\n" | smbsrvctl user add bob
smbsrvd -F > /tmp/smbsrvd.log 2>&1 &
for i in $(seq 1 50); do
	smbsrvctl status | grep -q "^daemon: *running" && exit 0
	sleep 0.2
done
exit 1'

list() { timeout 120 smbclient -L //127.0.0.1 -p "$T_SMB_PORT" -m SMB3 "$@"; }
t_check_output "smbclient -L: [demo] with its comment" \
	$'\tdemo +Disk +Demo share$' list -U alice%alice-pw
t_check_output "smbclient -L: IPC\$ with its comment" \
	$'\tIPC\\$ +IPC +IPC share$' list -U alice%alice-pw
t_check_fail "smbclient -L: [hidden] (browseable = no) is not listed" \
	bash -c "smbclient -L //127.0.0.1 -p $T_SMB_PORT -m SMB3 -U alice%alice-pw | grep -q hidden"
t_check_output "smbclient -L as an anonymous user" \
	$'\tdemo +Disk +Demo share$' list -N
t_check_output "rpcclient srvinfo: server string through srvsvc NetSrvGetInfo" \
	"smbsrv manage test" timeout 120 rpcclient -p "$T_SMB_PORT" \
	-U alice%alice-pw -c srvinfo 127.0.0.1

# check-config names each unsupported parameter set to a non-default
# value, with file:line; deadtime and logon timeout are in effect.
t_check_output "smbsrvd --check-config: deadtime and logon timeout draw no warning" \
	"^no warning$" \
	vm_exec "$T_VM" "printf '[global]\n\tsmbd max io size = 16M\n\tdeadtime = 5\n\tlogon timeout = 9\n' \
		> /tmp/knobs.conf; smbsrvd --check-config /tmp/knobs.conf 2>&1 |
		grep -E \"warning: '(deadtime|logon timeout)'\" || echo no warning"
t_check_output "smbsrvd --check-config: an unsupported parameter, with file:line" \
	"^/tmp/knobs.conf:2: warning: 'smbd max io size' is accepted but not supported yet" \
	vm_exec "$T_VM" "smbsrvd --check-config /tmp/knobs.conf 2>&1"

t_checks "$py" "$checks" "$T_SMB_PORT" "$T_VM"

t_guest_check "the daemon logged no error" '! grep -i "error" /tmp/smbsrvd.log'
t_dmesg_clean
t_done
