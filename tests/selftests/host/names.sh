#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Names without case (issue 12, item 3), one boot.  Through impacket
# (names.py): every component of a path found in another case, creates,
# renames and links that never make a second name differing only in case,
# a rename respelling its own name, streams and fullwidth letters; a
# share with `case sensitive = yes` where another case is another name;
# symlinks that lead out of the share stay refused whatever the case.
# Through the kernel's cifs client mounted with `nocase`: ls and cat of
# names typed in another case.  And the cost: a 10,000-entry directory
# looked up and added to in another case is read about once, counted by
# the module (smbsrvctl stats: fold scans, fold entries), never once per
# lookup.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/names.py"
big=10000
lookups=2000

t_vm_start
t_guest_check "smbsrvd serves shares ci (without case), cs (with), links" "
set -e
mkdir -p /srv/ci/big /srv/cs /srv/links/inner /srv/links/mnt
chmod 0777 /srv/ci /srv/ci/big /srv/cs /srv/links
echo in > /srv/links/inner/inner.txt
ln -s /etc /srv/links/link-abs
ln -s ../../etc /srv/links/link-rel
cd /srv/ci/big
i=0
while [ \$i -lt $big ]; do
	printf 'Entry-%05d.Dat\n' \$i
	i=\$((i + 1))
done | xargs touch
chmod 0666 /srv/ci/big/*
cat > /etc/smbsrv/names.conf <<EOF
[global]
	tcp port = 445
	read only = no
	vfs objects = streams_xattr
[ci]
	path = /srv/ci
[cs]
	path = /srv/cs
	case sensitive = yes
[links]
	path = /srv/links
EOF
echo demo | smbsrvctl -c /etc/smbsrv/names.conf user add demo >/dev/null
smbsrvd -c /etc/smbsrv/names.conf"

t_checks "$py" "$checks" "$T_SMB_PORT" ci fold demo demo
t_guest_check "on disk: one Dir/Sub, File.TXT in it, no second spelling" '
set -e
cd /srv/ci
test "$(ls -d [Dd][Ii][Rr])" = Dir
test "$(ls Dir)" = Sub
test "$(ls Dir/Sub)" = File.TXT
getfattr --absolute-names -n "user.DosStream.strm:\$DATA" Dir/Sub/File.TXT \
	>/dev/null'
t_checks "$py" "$checks" "$T_SMB_PORT" cs exact demo demo
t_guest_check "on disk, case sensitive: Dir and DIR, File.TXT and FILE.txt" '
set -e
cd /srv/cs
test -d Dir && test -d DIR && test -f Dir/File.TXT && test -f Dir/FILE.txt'
t_checks "$py" "$checks" "$T_SMB_PORT" links confined demo demo

# The kernel's cifs client with nocase: names typed in another case.
t_guest_check "cifs nocase: ls and cat of names typed in another case" '
set -e
mkdir -p /mnt/ci
mount -t cifs //127.0.0.1/ci /mnt/ci -o username=demo,password=demo,nocase
echo "mixed case" > /srv/ci/Dir/Sub/Mixed.Txt
chown demo /srv/ci/Dir/Sub/Mixed.Txt
ls /mnt/ci/DIR/SUB/MIXED.TXT
test "$(cat /mnt/ci/dir/sub/mixed.txt)" = "mixed case"
ls -d /mnt/ci/dIr/SuB
echo written > /mnt/ci/DIR/sub/MIXED.txt
test "$(cat /srv/ci/Dir/Sub/Mixed.Txt)" = written
test ! -e /srv/ci/DIR
umount /mnt/ci'

# Counting the work: smbsrvctl stats before and after.
stat_of() { # NAME: a "NAME: N" line of smbsrvctl stats
	t_guest "smbsrvctl stats" | sed -n "s/^$1: *//p"
}
s0=$(stat_of "fold scans")
e0=$(stat_of "fold entries")
c0=$(stat_of "fold cached")
t_checks "$py" "$checks" "$T_SMB_PORT" ci big demo demo $lookups $big
s1=$(stat_of "fold scans")
e1=$(stat_of "fold entries")
c1=$(stat_of "fold cached")
scans=$((s1 - s0))
entries=$((e1 - e0))
cached=$((c1 - c0))
t_diag "$lookups lookups and $lookups creates in a $big-entry directory:" \
	"$scans directory reads, $entries entries read, $cached answered" \
	"from the cached listing"
if [ "$scans" -ge 1 ] && [ "$scans" -le 3 ]; then
	t_ok "the big directory was read $scans times (at most 3), not per lookup"
else
	t_not_ok "the big directory was read $scans times (want 1 to 3)"
fi
if [ "$entries" -le $((3 * (big + 2 * lookups) + 100)) ]; then
	t_ok "$entries entries read: linear in the directory, not in lookups"
else
	t_not_ok "$entries entries read (want at most $((3 * (big + 2 * lookups) + 100)))"
fi
if [ "$cached" -ge $((2 * lookups)) ]; then
	t_ok "$cached misses answered from the cached listing"
else
	t_not_ok "$cached misses answered from the cached listing (want $((2 * lookups)))"
fi
t_dmesg_clean
t_done
