#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The audit trail (vfs objects = full_audit) through a real client: a
# scripted impacket session from the host (a failed logon, a logon, tree
# connects, an open, writes, a rename, a refused and a missing open, a
# security descriptor set, a delete, a disconnect, a logoff) must leave
# exactly the expected records in the guest's syslog (busybox syslogd),
# with the share's facility and priority; a share without full_audit
# leaves none.  Then a flood of opens over audit rate: the records
# written plus those dropped are exactly the opens made, the drops are
# counted by the module and logged by smbsrvd.  One VM boot.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/audit.py"

t_vm_start
t_guest_check "syslogd, shares [aud] (full_audit) and [quiet], smbsrvd -F started" '
set -e
syslogd -O /tmp/messages
mkdir -p /srv/aud /srv/quiet
chmod 777 /srv/aud /srv/quiet
echo secret > /srv/aud/secret
chmod 600 /srv/aud/secret
echo flood > /srv/aud/flood.txt
chmod 666 /srv/aud/flood.txt
cat > /etc/smbsrv/smbsrv.conf <<EOF2
[global]
	vfs objects = full_audit
	full_audit:success = logon logoff
	full_audit:failure = logon
	full_audit:prefix = %u|%I|%S
[aud]
	path = /srv/aud
	read only = no
	full_audit:success = connect disconnect create_file pwrite renameat unlinkat fset_nt_acl
	full_audit:failure = all
	full_audit:prefix = %u|%I|%m|%S
	full_audit:facility = local5
	full_audit:priority = warning
[quiet]
	path = /srv/quiet
	read only = no
	vfs objects = streams_xattr
EOF2
printf "alice-pw\n" | smbsrvctl user add alice
smbsrvd -F > /tmp/smbsrvd.log 2>&1 &
for i in $(seq 1 50); do
	smbsrvctl status | grep -q "^daemon: *running" && exit 0
	sleep 0.2
done
exit 1'

t_checks "$py" "$checks" "$T_SMB_PORT" "$T_VM"

t_guest_check "the daemon logged no error" '! grep -i "error" /tmp/smbsrvd.log'
t_dmesg_clean
t_done
