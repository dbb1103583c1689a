#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel's cifs client against smbsrv, part II, in the guest over
# loopback, one share on a tmpfs (it has holes) mounted several ways:
#   A  user demo                        B  user demo, nosharesock (its own
#   C  user demo, mfsymlinks               connection and SMB session)
#   F  the same directory through a share with follow symlinks = yes
# Checked: fcntl byte-range locks across A and B (F_SETLK refused, F_GETLK
# sees the holder, F_SETLKW waits for the release, a killed holder's lock
# goes, a process on the server sees the SMB lock); server-side copy (cp
# through copy_file_range becomes copychunk: the client sends no WRITE and
# no READ, the copy is right); CHANGE_NOTIFY through the client's
# CIFS_IOC_NOTIFY_INFO ioctl on A seeing creates made through B, also
# WATCH_TREE; symlinks: mfsymlinks on C, native ones made by A's ln -s,
# the server's own ones seen by A as symlinks (STATUS_STOPPED_ON_SYMLINK),
# never followed out of the share on A or F; hole punching (fallocate -p)
# and SEEK_HOLE/SEEK_DATA through the mount and on the server; and dbench, a workload no one here
# wrote, on A.  Then multichannel (server multi channel support switched
# on live): M, mounted with multichannel,max_channels=2 over 127.0.0.1,
# binds a second channel to the guest's 10.0.2.15, which the interface
# list offered; I/O goes over both, and with the second channel's server
# socket killed the session lives on and I/O stays exact.
# Timestamps and truncate through cifs are in file2.sh.  One boot.
. "$(dirname "$0")/lib.sh"

srv=/srv/c2
A=/mnt/a
B=/mnt/b
C=/mnt/c
F=/mnt/f
M=/mnt/m
P=smbsrv-fsprobe
opts="username=demo,password=demo,vers=3.1.1"

t_vm_start
t_guest_check "share c2 (and c2f, following symlinks) on a tmpfs, mounted as A, B, C and F" "
set -e
mkdir -p $srv $A $B $C $F /srv/outside
mount -t tmpfs -o size=256m tmpfs $srv
# Not tmpfs' 1777: in a sticky world-writable directory the kernel lets
# no one but their owner follow root's symlinks (fs.protected_symlinks).
chown demo:demo $srv
chmod 755 $srv
echo secret > /srv/outside/secret
cat > /etc/smbsrv/c2.conf <<EOF
[global]
	tcp port = 445
	smb2 leases = yes
[c2]
	path = $srv
	read only = no
[c2f]
	path = $srv
	read only = no
	follow symlinks = yes
EOF
echo demo | smbsrvctl -c /etc/smbsrv/c2.conf user add demo >/dev/null
smbsrvd -c /etc/smbsrv/c2.conf
mount -t cifs //127.0.0.1/c2 $A -o $opts
mount -t cifs //127.0.0.1/c2 $B -o $opts,nosharesock
mount -t cifs //127.0.0.1/c2 $C -o $opts,mfsymlinks
mount -t cifs //127.0.0.1/c2f $F -o $opts"
t_guest_check "A and B are two SMB sessions of user demo" \
	"[ \$(smbsrvctl -c /etc/smbsrv/c2.conf sessions | grep -c ' demo ') -ge 2 ]"

# --- fcntl byte-range locks across two mounts ---------------------------
# A's cifs holds a lease with write caching and keeps its lock to itself
# until B's open (or the local process's, through smbsrv's kernel lease)
# breaks the lease: A then sends the lock before it acknowledges, so that
# B and the server's processes meet it.  cifs maps STATUS_LOCK_NOT_GRANTED
# to EACCES, one of the two errors POSIX allows for F_SETLK.  The share
# has `smb2 leases = yes`: on SMB 3.x the Linux client (6.12) ignores a
# plain oplock break (smb3_downgrade_oplock acts only on a newer epoch,
# which an oplock break does not carry), so under an oplock it would keep
# caching its locks, and its writes, after the break.
t_guest_check "A holds a write lock on bytes 0-99" "
set -e
echo 'some bytes to lock' > $A/lk
rm -f /tmp/rel1
$P lock $A/lk 0 100 w nowait /tmp/rel1 > /tmp/a1.out 2>&1 &
for i in \$(seq 1 100); do grep -q locked /tmp/a1.out && exit 0; sleep 0.1; done
cat /tmp/a1.out; exit 1"
t_check_output "B: F_SETLK of a write lock on 0-99 is refused (EACCES)" "^EACCES$" \
	t_guest "$P lock $B/lk 0 100 w nowait; echo rc=\$?"
t_check_output "B: F_SETLK of a read lock inside A's range is refused too" "^EACCES$" \
	t_guest "$P lock $B/lk 50 10 r nowait"
t_check_output "B: F_SETLK of the bytes just after A's range succeeds" "^locked$" \
	t_guest "$P lock $B/lk 100 10 w nowait"
t_check_output "B: F_GETLK reports A's write lock" "^conflict w " \
	t_guest "$P getlk $B/lk 0 10 w"
t_check_output "a process on the server sees A's SMB lock as a POSIX lock (EAGAIN)" \
	"^EAGAIN$" t_guest "$P lock $srv/lk 0 1 w nowait"
t_guest_check "B: F_SETLKW waits while A holds the lock (3 s)" "
$P lock $B/lk 0 100 w wait > /tmp/b1.out 2>&1 &
echo \$! > /tmp/b1.pid
sleep 3
kill -0 \$(cat /tmp/b1.pid) && [ ! -s /tmp/b1.out ]"
t_guest_check "A unlocks: B's F_SETLKW returns with the lock, A saw its unlock succeed" "
touch /tmp/rel1
for i in \$(seq 1 300); do
	grep -q locked /tmp/b1.out && grep -q released /tmp/a1.out && exit 0
	sleep 0.1
done
cat /tmp/a1.out /tmp/b1.out; exit 1"
t_guest_check "a holder killed with SIGKILL loses its lock: B's F_SETLK then succeeds" "
rm -f /tmp/rel2 /tmp/a2.out
$P lock $A/lk 200 10 w nowait /tmp/rel2 > /tmp/a2.out 2>&1 &
pid=\$!
for i in \$(seq 1 100); do grep -q locked /tmp/a2.out && break; sleep 0.1; done
grep -q locked /tmp/a2.out || exit 1
$P lock $B/lk 200 10 w nowait >/dev/null 2>&1 && { echo 'B got it while held'; exit 1; }
kill -9 \$pid
for i in \$(seq 1 100); do
	$P lock $B/lk 200 10 w nowait >/dev/null 2>&1 && exit 0
	sleep 0.1
done
exit 1"

# --- server-side copy --------------------------------------------------
# Debian 12's cp (coreutils 9.1) copies with read/write under
# --reflink=never; the default (auto) tries FICLONE, which cifs refuses
# (no FILE_SUPPORTS_BLOCK_REFCOUNTING), then copy_file_range, which cifs
# turns into SRV_REQUEST_RESUME_KEY + SRV_COPYCHUNK_WRITE.  20 MiB + 1 is
# more than one 16 MiB copychunk request.  The client's per-command
# counters (/proc/fs/cifs/Stats, summed over its tree connects) show the
# data never crossed the connection.
t_guest_check "20 MiB + 1 random bytes written through A" "
set -e
head -c 20971521 /dev/urandom > /tmp/src
cp /tmp/src $A/src
sync
cmp /tmp/src $srv/src"
t_guest_check "cp (copy_file_range) through A: no WRITE, no READ, IOCTLs sent, same bytes" "
st() { awk -v k=\"\$1:\" '\$1 == k { s += \$2 } END { print s + 0 }' /proc/fs/cifs/Stats; }
w0=\$(st Writes); r0=\$(st Reads); i0=\$(st IOCTLs)
/usr/bin/cp $A/src $A/dst || exit 1
w1=\$(st Writes); r1=\$(st Reads); i1=\$(st IOCTLs)
echo \"writes \$w0 -> \$w1, reads \$r0 -> \$r1, ioctls \$i0 -> \$i1\"
[ \$w1 -eq \$w0 ] && [ \$r1 -eq \$r0 ] && [ \$i1 -ge \$((i0 + 2)) ] &&
cmp /tmp/src $srv/dst && cmp /tmp/src $B/dst"

# --- change notifications ----------------------------------------------
# The 6.12 cifs client never asks the server for CHANGE_NOTIFY on behalf
# of inotify (cifs registers no fsnotify hook for remote changes); only its
# CIFS_IOC_NOTIFY(_INFO) ioctl does, which smbsrv-fsprobe issues.  B
# creates a file a second until the watch, armed asynchronously, reports.
notify_check() {
	local desc=$1 tree=$2 dir=$3 re=$4
	t_check_output "$desc" "$re" t_guest "
mkdir -p $A/nd/sub
rm -f /tmp/n.out
( $P notify $A/nd 1 $tree > /tmp/n.out 2>&1; echo rc=\$? >> /tmp/n.out ) &
for i in \$(seq 1 30); do
	grep -q rc= /tmp/n.out && break
	echo x > $B/nd/$dir/new$tree-\$i
	sleep 1
done
cat /tmp/n.out"
}
notify_check "CIFS_IOC_NOTIFY_INFO on A reports a file B created (FILE_ACTION_ADDED)" \
	0 . '^1 new0-[0-9]+$'
notify_check "... and with WATCH_TREE, one B created in a subdirectory" \
	1 sub '^1 sub\\new1-[0-9]+$'

# --- symlinks ----------------------------------------------------------
t_guest_check "C (mfsymlinks): ln -s, readlink and stat -L through the link" "
set -e
echo content > $C/target
ln -s target $C/mf
[ \"\$(readlink $C/mf)\" = target ]
[ \"\$(stat -L -c %s $C/mf)\" = 8 ]
[ \"\$(cat $C/mf)\" = content ]"
t_guest_check "... kept as a Minshall-French file on the server, a plain file to A" "
set -e
[ -f $srv/mf ] && [ ! -L $srv/mf ] && [ \"\$(head -c 5 $srv/mf)\" = XSym ]
[ \"\$(stat -c %F $A/mf)\" = 'regular file' ]"
t_guest_check "the server's own symlinks" "
set -e
mkdir $srv/sub
echo subc > $srv/sub/file
ln -s sub/file $srv/nat
ln -s sub $srv/natdir
ln -s ../outside/secret $srv/esc
ln -s /srv/outside/secret $srv/escabs"
t_guest_check "A (no mfsymlinks) sees a native symlink: lstat, readlink, read through it" "
set -e
[ \"\$(stat -c %F $A/nat)\" = 'symbolic link' ]
[ \"\$(readlink $A/nat)\" = sub/file ]
[ \"\$(cat $A/nat)\" = subc ]
[ \"\$(ls $A/natdir/)\" = file ]"
t_guest_check "A: ln -s makes a native symlink (SET_REPARSE_POINT), B reads through it" "
set -e
ln -s sub/file $A/made
ln -s sub $A/madedir
ln -s /abs/nowhere $A/madeabs
[ \"\$(stat -c '%F %U' $srv/made)\" = 'symbolic link demo' ]
[ \"\$(readlink $srv/made)\" = sub/file ] && [ \"\$(readlink $srv/madedir)\" = sub ]
[ \"\$(readlink $srv/madeabs)\" = /abs/nowhere ]
[ \"\$(readlink $B/made)\" = sub/file ] && [ \"\$(cat $B/made)\" = subc ]
[ \"\$(ls $B/madedir/)\" = file ] && [ \"\$(readlink $B/madeabs)\" = /abs/nowhere ]
rm $A/made $A/madedir $A/madeabs
[ ! -e $srv/made ] && [ ! -L $srv/made ] && [ ! -L $srv/madeabs ]"
# A follows a symlink itself, from where it is mounted: ../outside from
# /mnt/a is /mnt/outside, which does not exist; had the server followed the
# link, A would have read /srv/outside/secret.
t_guest_check "A: a symlink out of the share is a symlink, not the file it names" "
[ \"\$(readlink $A/esc)\" = ../outside/secret ] &&
[ \"\$(stat -c %F $A/escabs)\" = 'symbolic link' ] &&
[ \"\$(readlink $A/escabs)\" = /srv/outside/secret ] &&
! cat $A/esc 2>/dev/null | grep -q secret &&
[ ! -e /mnt/outside ]"
t_guest_check "F (follow symlinks = yes): the server follows a link beneath the root" "
[ \"\$(stat -c %F $F/nat)\" = 'regular file' ] && [ \"\$(cat $F/nat)\" = subc ]"
t_check_output "F: ... but not out of it (both links: permission denied)" \
	"^denied denied$" t_guest "
a=ok; b=ok
cat $F/esc >/dev/null 2>&1 || a=denied
cat $F/escabs >/dev/null 2>&1 || b=denied
echo \$a \$b"

# --- sparse files and holes ----------------------------------------------
t_guest_check "fallocate -p through A punches bytes 1-3 MiB of a 4 MiB file" "
set -e
head -c 4194304 /dev/urandom > /tmp/sp
cp /tmp/sp $A/sp
sync
/usr/bin/fallocate -p -o 1048576 -l 2097152 $A/sp
dd if=/dev/zero of=/tmp/sp bs=1M seek=1 count=2 conv=notrunc 2>/dev/null
cmp /tmp/sp $srv/sp && cmp /tmp/sp $B/sp"
t_check_output "SEEK_DATA/SEEK_HOLE through A find the hole" \
	"^data 0 1048576 hole 1048576 3145728 data 3145728 4194304 $" \
	t_guest "$P seek $A/sp | tr '\n' ' '"
t_check_output "the server's file has the hole (and 2 MiB of blocks)" \
	"^data 0 1048576 hole 1048576 3145728 data 3145728 4194304 4096$" \
	t_guest "echo \$($P seek $srv/sp) \$(stat -c %b $srv/sp)"

# --- dbench ------------------------------------------------------------
# Its NetBench-derived load (the first 30,000 operations of Debian's
# client.txt and its final cleanup) from two processes for 20 s on A:
# creates, reads, writes, renames, finds, locks, flushes, unlinks, as far
# as 20 s get under TCG (the table, in the log, says how far: a loaded
# host may not reach the first lock; 20 s x VM_SLOW on a slow kernel,
# whose 20 s did not reach a read).  dbench reports every operation
# whose result differs from the recorded one.
load=$(mktemp)
(head -n 30000 /usr/share/dbench/client.txt && tail -n 1 /usr/share/dbench/client.txt) > "$load"
t_check "dbench's load file copied to the guest" \
	timeout 300 smbclient //127.0.0.1/c2 -U demo%demo -p "$T_SMB_PORT" \
	-c "put $load load.txt"
rm -f "$load"
t_guest_check "dbench: 2 clients, 20 s on A, every operation as recorded, exit 0" "
mv $srv/load.txt /tmp/load.txt
mkdir $A/db
cd /tmp
dbench -c /tmp/load.txt -D $A/db -t $((20 * VM_SLOW)) 2 > /tmp/db.out 2>&1
rc=\$?
[ \$rc -eq 0 ] || { tail -20 /tmp/db.out; exit 1; }
if grep -v 'barrier semaphore' /tmp/db.out | grep -iE 'fail|error|expected'; then exit 1; fi
for op in NTCreateX ReadX WriteX; do
	grep -qE \"^ *\$op +[1-9]\" /tmp/db.out || { echo \"no \$op\"; exit 1; }
done"
t_diag "$(t_guest "sed -n '/Operation/,/Throughput/p' /tmp/db.out")"
t_guest_check "dbench's cleanup removed every file, as the server sees it too" "
find $srv/db $A/db -type f | grep . && exit 1
[ \"\$(cd $srv/db && find . | sort)\" = \"\$(cd $A/db && find . | sort)\" ]"

# --- multichannel through the kernel client ------------------------------
ctl="smbsrvctl -c /etc/smbsrv/c2.conf"
t_guest_check "multichannel on (live); M mounts with multichannel,max_channels=2 and binds a second channel to 10.0.2.15" "
set -e
$ctl set 'server multi channel support' yes >/dev/null
mkdir -p $M
mount -t cifs //127.0.0.1/c2 $M -o $opts,nosharesock,multichannel,max_channels=2
grep -q 'Extra Channels: 1' /proc/fs/cifs/DebugData
$ctl connections | grep -qE '^[0-9]+ +10\.0\.2\.15'"
# smbsrvctl sessions lists a session's channels by connection id (ids are
# allocated cyclically, so a reconnect never takes a killed one's).
c2=$(t_guest "$ctl connections | awk '\$2 ~ /^10\.0\.2\.15/ { print \$1 }'")
t_guest_check "sessions: M's session has two channels, connection $c2 (10.0.2.15) and one from 127.0.0.1" "
set -e
$ctl sessions
chans=\$($ctl sessions | awk -v c='$c2' 'NR > 1 && (\",\" \$NF \",\") ~ (\",\" c \",\") { print \$NF }')
[ \"\$(echo \"\$chans\" | tr ',' ' ' | wc -w)\" -eq 2 ]
c1=\$(echo \"\$chans\" | tr ',' '\\n' | grep -vx '$c2')
$ctl connections | awk -v c=\"\$c1\" '\$1 == c { print \$2 }' | grep -q '^127\.0\.0\.1'"
# Requests the server counted on M's second channel (10.0.2.15).
chan2_requests() {
	t_guest "$ctl connections | awk '\$2 ~ /^10\.0\.2\.15/ { n += \$6 } END { print n + 0 }'"
}
before=$(chan2_requests)
t_guest_check "M: 16 MiB written and read back md5-exact over two channels" "
set -e
head -c 16777216 /dev/urandom > /tmp/mc.src
cp /tmp/mc.src $M/mc
cmp $srv/mc /tmp/mc.src
echo 3 > /proc/sys/vm/drop_caches
cmp $M/mc /tmp/mc.src"
after=$(chan2_requests)
t_check "M's second channel carried requests ($before before the I/O, $after after)" \
	[ "${after:-0}" -gt "${before:-0}" ]
sessions_before=$(t_guest "$ctl sessions | awk 'NR > 1 { print \$1 }' | sort | tr '\n' ' '")
t_guest_check "the server's socket of M's second channel killed (ss -K)" "
set -e
ss -tn state established '( src 10.0.2.15 and sport = :445 )' | grep -q 10.0.2.15
ss -K -tn state established '( src 10.0.2.15 and sport = :445 )' >/dev/null
sleep 1"
t_guest_check "M: the session lives on, I/O md5-exact again" "
set -e
for i in \$(seq 1 60); do ls $M >/dev/null 2>&1 && break; sleep 0.5; done
cp /tmp/mc.src $M/mc2
echo 3 > /proc/sys/vm/drop_caches
cmp $M/mc2 /tmp/mc.src
cmp $M/mc /tmp/mc.src"
sessions_after=$(t_guest "$ctl sessions | awk 'NR > 1 { print \$1 }' | sort | tr '\n' ' '")
t_guest_check "sessions: connection $c2, the killed channel, is no session's channel now" "
$ctl sessions
! $ctl sessions | awk 'NR > 1 { print \$NF }' | tr ',' '\\n' | grep -qx '$c2'"
t_check "no session ended or was set up again ($sessions_before)" \
	[ "$sessions_before" = "$sessions_after" ]
t_guest_check "umount M, multichannel off again" "
umount $M && $ctl set 'server multi channel support' no >/dev/null"

t_guest_check "umount all four" "umount $A && umount $B && umount $C && umount $F"
t_dmesg_clean
t_done
