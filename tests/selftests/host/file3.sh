#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# File service III from the host: byte-range locks (LOCK, conflicts with
# READ and WRITE, blocking locks, CANCEL and the ways a wait ends) through
# impacket and raw PDUs (file3.py).  One VM boot.  Logons are null
# sessions mapped to the guest account.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/file3.py"

t_vm_start
t_guest_check "share set up in the guest" '
set -e
mkdir -p /srv/f3
chmod 777 /srv/f3
cat > /etc/smbsrv/file3.conf <<EOF2
[global]
	tcp port = 445
	map to guest = bad user
[f3]
	path = /srv/f3
	read only = no
	guest ok = yes
EOF2
smbsrvd -c /etc/smbsrv/file3.conf'

for g in lock lock-async; do
	t_checks timeout 300 "$py" "$checks" "$T_SMB_PORT" f3 "$g"
done

t_dmesg_clean
t_done
