#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The SMB3.1.1 POSIX extensions through the kernel's cifs client
# (mount -t cifs -o posix,vers=3.1.1, user alice, loopback in the guest),
# one boot.  Without `smb3 unix extensions` in [global] a posix mount is
# refused (the server offers no POSIX negotiate context); with it:
# stat through the mount shows the server's own mode, owner, group, link
# count and inode number (and the listing's, SMB_FIND_FILE_POSIX_INFO);
# new files and directories get the client's mode; chmod, chgrp and touch
# round-trip, chown and chgrp beyond the user's rights are refused by the
# server; ln -s makes a real symlink on the server and a server-side
# symlink reads as one on the client, never followed by the server (the
# share has `follow symlinks = yes`, which POSIX opens do not use), so a
# link leading out of the share gives the client nothing of what is
# there; mkfifo makes a FIFO on the server, the server's FIFOs and device
# nodes read as such, a device node the user may not make is refused;
# hard links; two names differing only in case on a share that is
# otherwise without case; statfs.
. "$(dirname "$0")/lib.sh"

mnt=/mnt/p
srv=/srv/p
out=/srv/outside
opts="username=alice,password=alice,vers=3.1.1,posix,idsfromsid"

conf() { # EXTRA-GLOBAL-LINE
	cat <<EOF
[global]
	tcp port = 445
	$1
[p]
	path = $srv
	read only = no
	follow symlinks = yes
EOF
}

t_vm_start
t_guest_check "setup: share p (case-insensitive, follow symlinks) and a secret outside it" "
set -e
mkdir -p $srv $mnt $out
chown alice:alice $srv
chmod 0755 $srv
echo secret > $out/secret
chmod 0644 $out/secret
cat > /etc/smbsrv/p.conf <<'EOF2'
$(conf "")
EOF2
echo alice | smbsrvctl -c /etc/smbsrv/p.conf user add alice >/dev/null
smbsrvd -c /etc/smbsrv/p.conf"

t_guest_check "without smb3 unix extensions a posix mount is refused" "
! mount -t cifs //127.0.0.1/p $mnt -o $opts 2>/dev/null || exit 1
! grep -q ' $mnt ' /proc/mounts"
t_guest_check "reload with smb3 unix extensions = yes in [global]" "
set -e
cat > /etc/smbsrv/p.conf <<'EOF2'
$(conf "smb3 unix extensions = yes")
EOF2
kill -HUP \$(cat /run/smbsrvd.pid)
for i in \$(seq 1 50); do
	smbsrvctl status | grep -qE 'smb3 unix extensions +yes\$' && exit 0
	sleep 0.2
done
exit 1"
t_guest_check "the posix mount works, /proc/mounts says posix" "
set -e
mount -t cifs //127.0.0.1/p $mnt -o $opts
grep ' $mnt ' /proc/mounts | grep -q posix"

# stat's view of one path, on the server and through the mount.
st='%a %u %g %h %i %F'
same_stat() {
	t_guest_check "$1" "
set -e
a=\$(stat -c '$st' $srv/$2)
b=\$(stat -c '$st' $mnt/$2)
echo \"server: \$a / client: \$b\"
test \"\$a\" = \"\$b\""
}

t_guest_check "server-side file 0640 alice:family, directory 0710" "
set -e
echo data > $srv/own
chown alice:family $srv/own
chmod 0640 $srv/own
mkdir $srv/dir
chown alice:alice $srv/dir
chmod 0710 $srv/dir"
same_stat "stat: the server's mode, uid, gid, nlink, inode of a file" own
same_stat "stat: the same of a directory" dir
t_guest_check "ls -ln (the listing's POSIX entries) shows the server's mode and owners" "
set -e
ls -ln $mnt | grep ' own\$' | grep -q '^-rw-r----- *1 1001 *1100 '
ls -ln $mnt | grep ' dir\$' | grep -q '^drwx--x--- .* 1001 *1001 '"

t_guest_check "new file and directory get the client's modes, alice as owner" "
set -e
umask 022
echo x > $mnt/new
mkdir -m 0751 $mnt/newdir
test \"\$(stat -c '%a %U %G' $srv/new)\" = '644 alice alice'
test \"\$(stat -c '%a %U %G' $srv/newdir)\" = '751 alice alice'"
t_guest_check "chmod round-trips (0751, 0600, 4755)" "
set -e
for m in 751 600 4755; do
	chmod \$m $mnt/new
	test \"\$(stat -c %a $srv/new)\" = \$m
	test \"\$(stat -c %a $mnt/new)\" = \$m
done
chmod 1777 $mnt/newdir
test \"\$(stat -c %a $srv/newdir)\" = 1777"
# Linux 6.12's cifs client fills in a file it has just created from the
# CREATE's FILE_ALL_INFORMATION, not the POSIX context (cifs_do_create:
# "TODO: Add support for calling POSIX query info here"), so for up to
# its attribute cache time (actimeo, 1 s) it shows the mount's uid and
# gid (0), and chown(1), which passes the owner it stats, would ask the
# server to give the file to root.  Wait until the client shows the
# server's owner (the POSIX query info), as stat checks above.
t_guest_check "chgrp to a group alice is in round-trips" "
set -e
i=0
until [ \"\$(stat -c %u $mnt/new)\" = 1001 ]; do
	[ \$i -lt 50 ] || { stat $mnt/new; exit 1; }
	sleep 0.1
	i=\$((i + 1))
done
chown :family $mnt/new
test \"\$(stat -c %G $srv/new)\" = family
test \"\$(stat -c %g $mnt/new)\" = 1100"
t_guest_check "chown to bob and chgrp to bob's group are refused, nothing changes" "
! chown bob $mnt/new 2>/dev/null || exit 1
! chown :bob $mnt/new 2>/dev/null || exit 1
test \"\$(stat -c '%U %G' $srv/new)\" = 'alice family'"
t_guest_check "chmod of a file alice does not own is refused" "
set -e
touch $srv/roots
chmod 0644 $srv/roots
! chmod 0666 $mnt/roots 2>/dev/null || exit 1
test \"\$(stat -c %a $srv/roots)\" = 644"
t_guest_check "touch -d sets the server's mtime and atime" "
set -e
touch -d '2001-02-03 04:05:06' $mnt/new
test \"\$(stat -c %Y $srv/new)\" = \"\$(date -d '2001-02-03 04:05:06' +%s)\"
test \"\$(stat -c %X $srv/new)\" = \"\$(date -d '2001-02-03 04:05:06' +%s)\"
test \"\$(stat -c %Y $mnt/new)\" = \"\$(stat -c %Y $srv/new)\""

t_guest_check "ln -s from the client makes real symlinks on the server" "
set -e
ln -s new $mnt/ln-rel
ln -s newdir/../new $mnt/ln-dots
ln -s /some/where/else $mnt/ln-abs
test -L $srv/ln-rel
test \"\$(readlink $srv/ln-rel)\" = new
test -L $srv/ln-dots
test \"\$(readlink $srv/ln-dots)\" = newdir/../new
test -L $srv/ln-abs
test \"\$(readlink $srv/ln-abs)\" = /some/where/else
test \"\$(cat $mnt/ln-rel)\" = x"
t_guest_check "server-side symlinks read as symlinks, followed by the client only" "
set -e
ln -s own $srv/sl
ln -s dir $srv/sldir
test -L $mnt/sl
test \"\$(readlink $mnt/sl)\" = own
test -L $mnt/sldir
test \"\$(readlink $mnt/sldir)\" = dir
test \"\$(cat $mnt/sl)\" = data"
t_guest_check "symlinks out of the share: the client gets nothing of what is there" "
set -e
ln -s ../outside/secret $srv/esc
ln -s ../outside $srv/escdir
ln -s $out/secret $srv/escabs
test -L $mnt/esc
test \"\$(readlink $mnt/esc)\" = ../outside/secret
! cat $mnt/esc 2>/dev/null || exit 1
! cat $mnt/escdir/secret 2>/dev/null || exit 1
test -L $mnt/escabs
! ls $mnt/escdir/ 2>/dev/null | grep -q secret || exit 1
cat $srv/esc >/dev/null"

# The cifs client sends no mode for the file it turns into a FIFO: the
# share's create mask (0744) applies, as for a file made without one.
t_guest_check "mkfifo through the mount makes a FIFO on the server" "
set -e
mkfifo $mnt/fifo
test -p $srv/fifo
test \"\$(stat -c '%a %U' $srv/fifo)\" = '744 alice'
test -p $mnt/fifo"
t_guest_check "server-side FIFO and device node read as such, the server opens neither" "
set -e
mkfifo $srv/sfifo
mknod $srv/snull c 1 3
test -p $mnt/sfifo
test -c $mnt/snull
test \"\$(stat -c '%t %T' $mnt/snull)\" = '1 3'"
t_guest_check "mknod of a device node beyond alice's rights is refused" "
! mknod $mnt/dev c 1 3 2>/dev/null || exit 1
! test -e $srv/dev"

t_guest_check "hard link through the mount: one inode, two links on both sides" "
set -e
ln $mnt/new $mnt/hard
test \"\$(stat -c %i $srv/hard)\" = \"\$(stat -c %i $srv/new)\"
test \"\$(stat -c %h $srv/new)\" = 2
test \"\$(stat -c %h $mnt/hard)\" = 2"

t_guest_check "two names differing only in case, on a share without case" "
set -e
echo upper > $mnt/Case
echo lower > $mnt/case
test \"\$(cat $srv/Case)\" = upper
test \"\$(cat $srv/case)\" = lower
test \"\$(cat $mnt/Case)\" = upper
test \"\$(cat $mnt/case)\" = lower
mv $mnt/case $mnt/CASE
test -e $srv/Case
test -e $srv/CASE
! test -e $srv/case"

t_guest_check "statfs (FS_POSIX_INFORMATION) gives the server file system's numbers" "
set -e
a=\$(stat -f -c '%S %b' $srv)
b=\$(stat -f -c '%S %b' $mnt)
echo \"server: \$a / client: \$b\"
test \"\$a\" = \"\$b\""

t_guest_check "umount" "umount $mnt"
t_dmesg_clean
t_done
