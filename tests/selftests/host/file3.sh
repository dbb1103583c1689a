#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# File service III from the host: byte-range locks (LOCK, conflicts with
# READ and WRITE, blocking locks, CANCEL and the ways a wait ends, the
# locks a session may hold),
# IOCTL (sparse files, server-side copy, symlink reparse points) and
# CHANGE_NOTIFY (changes made in the guest, WATCH_TREE, CANCEL, close) through
# impacket and raw PDUs (file3.py), checked from the guest where the
# result is on disk.  One VM boot.  Logons are null sessions mapped to
# the guest account.  The share is a tmpfs: it has holes.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/file3.py"

t_vm_start
t_guest_check "share set up in the guest" '
set -e
mkdir -p /srv/f3
mount -t tmpfs -o size=64m tmpfs /srv/f3
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

agent=$(vm_port "$T_VM" agent)
for g in lock lock-async lock-budget ioctl notify; do
	t_checks timeout 300 "$py" "$checks" "$T_SMB_PORT" f3 "$g" "$agent"
done

t_guest_check "symlinks made through SET_REPARSE_POINT, as the guest sees them" '
cd /srv/f3
[ "$(readlink link1)" = target.txt ] && [ "$(readlink link2)" = sub/dir/f ] &&
[ "$(readlink link3)" = /abs/path ]'
# src.bin's first 1100 bytes were rewritten by a copy inside it since.
t_guest_check "the copy holds the source's bytes, on the guest's disk" '
cd /srv/f3
[ "$(stat -c %s src.bin)" = "$(stat -c %s dst.bin)" ] &&
cmp src.bin dst.bin 1100 1100'

t_dmesg_clean
t_done
