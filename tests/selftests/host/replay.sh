#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Replays over a second channel (replay.py, raw signed SMB 3.0): the
# ChannelSequence of WRITE, SET_INFO, IOCTL and LOCK, a durable v2
# CREATE replayed on another channel while the first is blocked with it
# waiting for an oplock break, and after that channel went, and replays
# that do not match their original.  Then nothing is left open.
. "$(dirname "$0")/lib.sh"

t_vm_start
t_guest_check "users demo and alice, a share with durable handles, leases and multichannel" "
set -e
cat > /etc/smbsrv/replay.conf <<EOF2
[global]
	durable handles = yes
	smb2 leases = yes
	server multi channel support = yes
[demo]
	path = /srv/demo
	read only = no
EOF2
chmod 1777 /srv/demo
echo demopass | smbsrvctl -c /etc/smbsrv/replay.conf user add demo >/dev/null
echo alicepass | smbsrvctl -c /etc/smbsrv/replay.conf user add alice >/dev/null
smbsrvd -c /etc/smbsrv/replay.conf"

t_checks timeout 600 /usr/bin/python3 "$(dirname "$0")/replay.py" "$T_SMB_PORT"

t_guest_check "no open left once the clients went" "
for i in \$(seq 1 30); do
	[ \"\$(smbsrvctl opens | grep -vc '^SESSION')\" -eq 0 ] && exit 0
	sleep 1
done
smbsrvctl opens | head; exit 1"
t_dmesg_clean
t_done
