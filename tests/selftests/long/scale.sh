#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scale without unbounded state (scale.py): 10,000 open files in one
# session, 10,000 blocking locks and 10,000 CHANGE_NOTIFY requests waiting
# across 100 sessions, the limits' statuses, everything given back when
# the connections drop, and a clean rmmod after.  Kernel memory per open
# and per waiter is printed (# lines).  Outside make check (about 15
# minutes under TCG): `make check-long` or directly.  SCALE_OPENS (also
# the share's max open files), SCALE_SESSIONS, SCALE_PER_SESSION and
# SCALE_CREDITS (smb2 max credits) make it smaller.
. "$(dirname "$0")/../host/lib.sh"

credits=${SCALE_CREDITS:-1024}
# impacket encrypts SMB 3 sessions and scale.py reads interim responses
# off the socket itself: the share speaks SMB 2.1 (no state it checks
# depends on the dialect).
opens=${SCALE_OPENS:-10000}
t_vm_start
t_guest_check "share sc on a tmpfs, user demo, max open files = $opens, smb2 max credits = $credits" "
set -e
mkdir -p /srv/sc
mount -t tmpfs -o size=256m,nr_inodes=100000 tmpfs /srv/sc
chown demo:demo /srv/sc
cat > /etc/smbsrv/sc.conf <<EOF2
[global]
	smb2 max credits = $credits
	max open files = $opens
	server max protocol = SMB2_10
[sc]
	path = /srv/sc
	read only = no
EOF2
echo demopass | smbsrvctl -c /etc/smbsrv/sc.conf user add demo >/dev/null
smbsrvd -c /etc/smbsrv/sc.conf"

agent=$(vm_port "$T_VM" agent)
t_checks timeout 3600 /usr/bin/python3 "$(dirname "$0")/scale.py" \
	"$T_SMB_PORT" sc "$agent" demo demopass "$credits"

t_guest_check "no connection left; smbsrvd stopped; rmmod smbsrv" "
set -e
for i in \$(seq 1 60); do
	[ \"\$(smbsrvctl connections | wc -l)\" -le 1 ] && break
	sleep 1
done
[ \"\$(smbsrvctl connections | wc -l)\" -le 1 ]
kill \$(pidof smbsrvd)
for i in \$(seq 1 50); do pidof smbsrvd >/dev/null || break; sleep 0.1; done
rmmod smbsrv
! grep -q '^smbsrv ' /proc/modules"
t_dmesg_clean
t_done
