#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Logons through real clients from the host (smbclient, impacket) against
# smbsrvd's user database: every dialect, signing and encryption asked by
# the client, by a share and by the server, wrong password, unknown share,
# guest where allowed, VALIDATE_NEGOTIATE_INFO; multichannel (channels.py:
# session binding right and wrong, channel keys, a channel dropped,
# LOGOFF).  One VM boot; the server settings change by reload.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/logon.py"
channels="$(dirname "$0")/channels.py"

conf() { # EXTRA-GLOBAL-LINES (the first value of a key counts)
	t_guest "cat > /etc/smbsrv/logon.conf <<'EOF2'
[global]
	$1
	server min protocol = SMB2_02
[demo]
	path = /srv/demo
[pub]
	path = /srv/demo
	guest ok = yes
[gone]
	path = /srv/nonexistent
[secret]
	path = /srv/demo
	smb3 encryption = mandatory
EOF2"
}
reload() { # EXTRA-GLOBAL-LINES KNOB-REGEX
	conf "$1"
	t_guest 'kill -HUP $(cat /run/smbsrvd.pid)' >/dev/null
	for _ in $(seq 1 50); do
		vm_exec "$T_VM" "smbsrvctl status | grep -qE '$2'" && return 0
		sleep 0.2
	done
	return 1
}

t_vm_start
conf ""
t_guest_check "user demo added to the user database" \
	"echo demopass | smbsrvctl user add demo"
t_guest_check "user alice added to the user database" \
	"echo alicepass | smbsrvctl user add alice"
t_guest_check "smbsrvd starts" "smbsrvd -c /etc/smbsrv/logon.conf"
t_checks "$py" "$checks" "$T_SMB_PORT" default
t_checks "$py" "$channels" "$T_SMB_PORT" off
t_checks "$py" "$checks" "$T_SMB_PORT" share-encryption

t_check "reload: server signing = mandatory" reload \
	"server signing = mandatory" "server signing +mandatory$"
t_checks "$py" "$checks" "$T_SMB_PORT" signing
t_check "reload: smb3 encryption = mandatory" reload \
	"smb3 encryption = mandatory" "smb3 encryption +mandatory$"
t_checks "$py" "$checks" "$T_SMB_PORT" encryption
t_check "reload: server multi channel support = yes" reload \
	"server multi channel support = yes" "server multi channel support +yes$"
t_checks "$py" "$channels" "$T_SMB_PORT" on

t_dmesg_clean
t_done
