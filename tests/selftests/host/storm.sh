#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Break storms stay local (storm.py): a client holding STORM_LEASES (300;
# long/storm: 4,000) read-write-handle leases never answers their breaks
# while another opens the same files at once; an unrelated client's ECHO,
# NEGOTIATE and open/close latency stays within twice the idle server's,
# and the waiting opens finish together after one break timeout.  Then
# the clients go and nothing is left.  About 2 minutes under TCG.
. "$(dirname "$0")/lib.sh"

t_vm_start
# SMB 2.1: impacket would encrypt 3.x, and storm.py reads the interim
# responses off the socket itself; leases exist since 2.1.
t_guest_check "share st on a tmpfs with leases, user demo" "
set -e
mkdir -p /srv/st
mount -t tmpfs -o size=64m,nr_inodes=100000 tmpfs /srv/st
chown demo:demo /srv/st
cat > /etc/smbsrv/st.conf <<EOF2
[global]
	smb2 leases = yes
	server max protocol = SMB2_10
[st]
	path = /srv/st
	read only = no
EOF2
echo demopass | smbsrvctl -c /etc/smbsrv/st.conf user add demo >/dev/null
smbsrvd -c /etc/smbsrv/st.conf"

agent=$(vm_port "$T_VM" agent)
t_checks timeout 1800 /usr/bin/python3 "$(dirname "$0")/storm.py" \
	"$T_SMB_PORT" st "$agent" demo demopass

t_guest_check "no connection left after the clients went" "
for i in \$(seq 1 90); do
	[ \"\$(smbsrvctl connections | wc -l)\" -le 1 ] && exit 0
	sleep 1
done
smbsrvctl connections; exit 1"
t_guest_check "no open left" "[ \"\$(smbsrvctl opens | grep -vc '^SESSION')\" -eq 0 ] || { smbsrvctl opens | head; exit 1; }"
t_dmesg_clean
t_done
