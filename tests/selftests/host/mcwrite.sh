#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A multichannel cifs mount that loses a channel in the middle of large
# writes, in the guest over loopback: M is mounted with
# vers=3.1.1,multichannel,max_channels=2 and binds its second channel to
# the guest's 10.0.2.15 (offered by the interface list).  Two writers run
# at once, 64 MiB with O_DIRECT (each WRITE goes out as dd issues it) and
# 64 MiB through the page cache (written back from cifs' cache, then
# fsync), each from a file of known content; once both channels carried
# WRITEs and the files are partly on the server, the server's socket of
# the second channel is killed (ss -K).  Checked: the O_DIRECT writer,
# still writing at the kill, finishes without an error; the cached one
# too, or, when the client's writeback sent on the killed socket before
# cifsd saw the reset (the 6.12 client then fails the write with
# ECONNABORTED, fs/smb/client/transport.c, and does not retry it: a
# client behaviour, timing-dependent), it is written again over the
# remaining channel and must succeed; what the server stored (read on
# the share's directory with the page cache dropped) is md5-identical
# to the sources, the session is the one it was (no new session set up, the
# killed channel is none of its channels), and I/O goes on over it.
# About 2 minutes under TCG.
. "$(dirname "$0")/lib.sh"

srv=/srv/mcw
M=/mnt/mcw
ctl="smbsrvctl -c /etc/smbsrv/mcw.conf"
opts="username=demo,password=demo,vers=3.1.1"

t_vm_start
t_guest_check "share mcw on a tmpfs, multichannel on; M mounts with multichannel,max_channels=2 and binds a second channel to 10.0.2.15" "
set -e
mkdir -p $srv $M
mount -t tmpfs -o size=640m tmpfs $srv
chown demo:demo $srv
cat > /etc/smbsrv/mcw.conf <<EOF
[global]
	server multi channel support = yes
	smb2 leases = yes
	durable handles = yes
[mcw]
	path = $srv
	read only = no
EOF
echo demo | $ctl user add demo >/dev/null
smbsrvd -c /etc/smbsrv/mcw.conf
mount -t cifs //127.0.0.1/mcw $M -o $opts,multichannel,max_channels=2
for i in \$(seq 1 60); do
	grep -q 'Extra Channels: 1' /proc/fs/cifs/DebugData && break
	sleep 0.5
done
grep -q 'Extra Channels: 1' /proc/fs/cifs/DebugData
$ctl connections | grep -qE '^[0-9]+ +10\.0\.2\.15'"

# The sources: two files of 64 MiB of random bytes, on the guest's /tmp
# (not the share).  (busybox seq writing a counting pattern took minutes
# under TCG.)
t_guest_check "the sources: two files of 64 MiB of random bytes" "
set -e
head -c 67108864 /dev/urandom > /tmp/mcw.pat
head -c 67108864 /dev/urandom > /tmp/mcw.rnd
[ \$(stat -c %s /tmp/mcw.pat) -eq 67108864 ]
md5sum /tmp/mcw.pat /tmp/mcw.rnd > /tmp/mcw.md5"

c2=$(t_guest "$ctl connections | awk '\$2 ~ /^10\.0\.2\.15/ { print \$1 }'")
sessions_before=$(t_guest "$ctl sessions | awk 'NR > 1 { print \$1 }' | sort | tr '\n' ' '")
# Requests the server counted on the second channel.
chan2_requests() {
	t_guest "$ctl connections | awk '\$2 ~ /^10\.0\.2\.15/ { n += \$6 } END { print n + 0 }'"
}
before=$(chan2_requests)

# Both writers start in the background; the channel dies as soon as the
# server has 8 MiB of either (which one gets ahead depends on the
# machine's load), with the O_DIRECT one still writing.
t_guest_check "mid-WRITE: the server's socket of the second channel (connection $c2), which carried some of the writes, killed while the O_DIRECT writes run; they finish without an error, and so do the cached ones (written again if the client failed them with ECONNABORTED)" "
set -e
rm -f /tmp/mcw.rc.*
( set +e; dd if=/tmp/mcw.pat of=$M/direct bs=1M oflag=direct 2>/tmp/mcw.err.d; echo \$? > /tmp/mcw.rc.d ) &
( set +e; dd if=/tmp/mcw.rnd of=$M/cached bs=1M conv=fsync 2>/tmp/mcw.err.c; echo \$? > /tmp/mcw.rc.c ) &
for i in \$(seq 1 1200); do
	d=\$(stat -c %s $srv/direct 2>/dev/null || echo 0)
	c=\$(stat -c %s $srv/cached 2>/dev/null || echo 0)
	{ [ \$d -ge 8388608 ] || [ \$c -ge 8388608 ]; } && break
	sleep 0.1
done
n=\$($ctl connections | awk '\$1 == \"$c2\" { print \$6 }')
echo \"at the kill the server had \$d and \$c bytes; connection $c2 had carried \$n requests ($before before the writes)\" | tee /tmp/mcw.kill
[ \$d -lt 67108864 ] || { echo 'the O_DIRECT writes finished before the kill'; exit 1; }
[ \"\${n:-0}\" -gt $before ] || { echo 'the second channel carried none of the writes'; exit 1; }
ss -K -tn state established '( src 10.0.2.15 and sport = :445 )' >/dev/null
wait
echo \"dd O_DIRECT: exit \$(cat /tmp/mcw.rc.d), \$(tail -1 /tmp/mcw.err.d)\" | tee -a /tmp/mcw.kill
echo \"dd cached: exit \$(cat /tmp/mcw.rc.c), \$(tail -1 /tmp/mcw.err.c)\" | tee -a /tmp/mcw.kill
[ \$(cat /tmp/mcw.rc.d) -eq 0 ]
if [ \$(cat /tmp/mcw.rc.c) -ne 0 ]; then
	grep -q 'Software caused connection abort' /tmp/mcw.err.c
	dd if=/tmp/mcw.rnd of=$M/cached bs=1M conv=fsync 2>/tmp/mcw.err.c2 ||
		{ echo \"dd cached again: \$(tail -1 /tmp/mcw.err.c2)\" | tee -a /tmp/mcw.kill; exit 1; }
	echo 'dd cached: written again, exit 0' | tee -a /tmp/mcw.kill
fi"
t_diag "$(t_guest 'cat /tmp/mcw.kill')"
t_guest_check "what the server stored is md5-identical to the sources (read on the share's directory, page cache dropped)" "
set -e
sync
echo 3 > /proc/sys/vm/drop_caches
sed -e 's|/tmp/mcw.pat|$srv/direct|' -e 's|/tmp/mcw.rnd|$srv/cached|' /tmp/mcw.md5 | md5sum -c -"
t_guest_check "connection $c2, the killed channel, is no session's channel now" "
$ctl sessions
! $ctl sessions | awk 'NR > 1 { print \$NF }' | tr ',' '\\n' | grep -qx '$c2'"
sessions_after=$(t_guest "$ctl sessions | awk 'NR > 1 { print \$1 }' | sort | tr '\n' ' '")
t_check "no session ended or was set up again ($sessions_before)" \
	[ "$sessions_before" = "$sessions_after" ]
t_guest_check "M lives on: a file written and read back through it, page cache dropped" "
set -e
head -c 4194304 /tmp/mcw.rnd > $M/after
echo 3 > /proc/sys/vm/drop_caches
cmp $M/after $srv/after
cmp $M/direct /tmp/mcw.pat
umount $M"
t_dmesg_clean
t_done
