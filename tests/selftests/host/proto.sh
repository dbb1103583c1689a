#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The protocol core through the forwarded port, from the host: NEGOTIATE of
# every dialect and of malformed requests, the SMB1 upgrade, framing
# (frame limits, stalls, compounds, the sequence window), connection
# limits, and session setup without a daemon.  Raw PDUs (smb2raw.py) and
# impacket; one VM boot.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/proto.py"

conf() { # EXTRA-GLOBAL-LINES (the first value of a key counts)
	t_guest "cat > /etc/smbsrv/proto.conf <<'EOF2'
[global]
	tcp port = 445
	$1
	frame timeout = 2
	server min protocol = SMB2_02
[demo]
	path = /srv/demo
EOF2"
}
knob_is() { # REGEX
	vm_exec "$T_VM" "smbsrvctl status | grep -qE '$1'"
}
reload() { # EXTRA-GLOBAL-LINES KNOB-REGEX
	conf "$1"
	t_guest 'kill -HUP $(cat /run/smbsrvd.pid)' >/dev/null
	for _ in $(seq 1 50); do
		knob_is "$2" && return 0
		sleep 0.2
	done
	return 1
}

t_vm_start
conf ""
t_guest_check "smbsrvd starts" "smbsrvd -c /etc/smbsrv/proto.conf"
t_checks "$py" "$checks" "$T_SMB_PORT" negotiate
t_checks "$py" "$checks" "$T_SMB_PORT" framing

t_check "reload: server protocols SMB3_00..SMB3_02" reload \
	"server min protocol = SMB3_00
	server max protocol = SMB3_02" "server max protocol +SMB3_02$"
t_checks "$py" "$checks" "$T_SMB_PORT" bounds
t_check "reload: max connections 3" reload "max connections = 3" \
	"max connections +3$"
t_checks "$py" "$checks" "$T_SMB_PORT" limits-conns
t_check "reload: max ip connections 2" reload "max ip connections = 2" \
	"max ip connections +2$"
t_checks "$py" "$checks" "$T_SMB_PORT" limits-ip

t_guest_check "smbsrvd stops" \
	'kill $(cat /run/smbsrvd.pid); for i in $(seq 50); do [ -e /run/smbsrvd.pid ] || exit 0; sleep 0.1; done; exit 1'
t_checks "$py" "$checks" "$T_SMB_PORT" session-nodaemon
t_check_output "smbsrvctl status: no connection left behind" \
	"^connections: +[0-9]" vm_exec "$T_VM" "sleep 1; smbsrvctl status"
t_dmesg_clean
t_done
