#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The server-wide budget of opens (budget.py): max open files 300 per
# session, max open files per user 700, server max open files 1000
# (BUDGET="300 700 1000"; long/budget: 10,000, 35,000 and 60,000); users
# demo and alice open files with leases over several sessions each until
# refused (TOO_MANY_OPENED_FILES per session, INSUFFICIENT_RESOURCES at
# the user's cap and at the server's), smbsrvctl stats counts the
# refusals, and the opens, leases and memory come back when the
# connections drop.  About a minute under TCG.
. "$(dirname "$0")/lib.sh"

read -r per_sess per_user server <<< "${BUDGET:-300 700 1000}"
t_vm_start
# SMB 2.1: impacket would encrypt 3.x; leases exist since 2.1.
t_guest_check "share bg on a tmpfs with leases and the budget, users demo and alice" "
set -e
mkdir -p /srv/bg
mount -t tmpfs -o size=64m tmpfs /srv/bg
chmod 0777 /srv/bg
cat > /etc/smbsrv/bg.conf <<EOF2
[global]
	smb2 leases = yes
	server max protocol = SMB2_10
	max open files = $per_sess
	max open files per user = $per_user
	server max open files = $server
[bg]
	path = /srv/bg
	read only = no
EOF2
echo demopass | smbsrvctl -c /etc/smbsrv/bg.conf user add demo >/dev/null
echo alicepass | smbsrvctl -c /etc/smbsrv/bg.conf user add alice >/dev/null
smbsrvd -c /etc/smbsrv/bg.conf
smbsrvctl stats | grep -q '^opens: 0$'"

agent=$(vm_port "$T_VM" agent)
t_checks timeout 1800 /usr/bin/python3 "$(dirname "$0")/budget.py" \
	"$T_SMB_PORT" bg "$agent" "$per_sess" "$per_user" "$server"
t_guest_check "the auto budget: one open per 32 KiB of memory, half per user" "
set -e
kill \$(pidof smbsrvd)
for i in \$(seq 1 50); do pidof smbsrvd >/dev/null || break; sleep 0.1; done
printf '[global]\n[bg]\n\tpath = /srv/bg\n' > /etc/smbsrv/auto.conf
smbsrvd -c /etc/smbsrv/auto.conf
mem=\$(awk '/^MemTotal:/ { print \$2 }' /proc/meminfo)
want=\$((mem / 32))
got=\$(smbsrvctl status | awk '/server max open files/ { print \$NF }')
user=\$(smbsrvctl status | awk '/max open files per user/ { print \$NF }')
echo \"MemTotal \$mem KiB: server max open files \$got (want about \$want), per user \$user\"
[ \$((got - want)) -le 64 ] && [ \$((want - got)) -le 64 ] && [ \"\$user\" -eq \$((got / 2)) ]"
t_dmesg_clean
t_done
