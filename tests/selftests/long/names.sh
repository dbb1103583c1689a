#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Names without case (issue 12, item 3) at scale, one boot: a
# 10,000-entry directory looked up (2,000 names) and added to (2,000
# creates, each checked for a name differing only in case) in another
# case through impacket (names.py big) is read about once, counted by
# the module (smbsrvctl stats: fold scans, fold entries, fold cached),
# never once per lookup: linear in the directory, not quadratic.  The
# other names checks (every component in another case, creates and
# renames, streams, case sensitive = yes, confinement, cifs nocase) are
# host/files.sh's.  Run with `make check-long` or directly.
. "$(dirname "$0")/../host/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/../host/names.py"
big=${NAMES_BIG:-10000}
lookups=${NAMES_LOOKUPS:-2000}

t_vm_start
t_guest_check "smbsrvd serves share ci (without case), $big entries in big" "
set -e
mkdir -p /srv/ci/big
chmod 0777 /srv/ci /srv/ci/big
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
[ci]
	path = /srv/ci
EOF
echo demo | smbsrvctl -c /etc/smbsrv/names.conf user add demo >/dev/null
smbsrvd -c /etc/smbsrv/names.conf"

# Counting the work: smbsrvctl stats before and after.
stat_of() { # NAME: a "NAME: N" line of smbsrvctl stats
	t_guest "smbsrvctl stats" | sed -n "s/^$1: *//p"
}
s0=$(stat_of "fold scans")
e0=$(stat_of "fold entries")
c0=$(stat_of "fold cached")
start=$SECONDS
t_checks "$py" "$checks" "$T_SMB_PORT" ci big demo demo "$lookups" "$big"
secs=$((SECONDS - start))
s1=$(stat_of "fold scans")
e1=$(stat_of "fold entries")
c1=$(stat_of "fold cached")
scans=$((s1 - s0))
entries=$((e1 - e0))
cached=$((c1 - c0))
t_diag "$lookups lookups and $lookups creates in a $big-entry directory" \
	"in $secs s: $scans directory reads, $entries entries read, $cached" \
	"answered from the cached listing"
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
