#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel's cifs client mounts smbsrv over loopback in the guest (user
# demo, SMB 3.1.1): files from 0 bytes to 64 MiB written through the
# mount land intact on the server and read back intact after a remount
# (md5 on both sides); a file unlinked while open stays usable through
# the open descriptor and is gone once closed; and a workload no one here
# wrote: tar extracts a real source tree (the host's kernel UAPI headers,
# /usr/include/linux) onto the mount, diff -r compares it with a local
# extraction through the mount and on the server, tar archives it back
# from the mount and the re-extracted copy is compared again.  One boot.
# The share is case sensitive, as one serving Linux clients must be: the
# headers have names that differ only in case (xt_MARK.h, xt_mark.h).
. "$(dirname "$0")/lib.sh"

mnt=/mnt/cifs
srv=/srv/cifs
opts="username=demo,password=demo,vers=3.1.1"

t_vm_start
t_guest_check "smbsrvd serves share cifs, cifs mounts it over loopback" "
set -e
mkdir -p $srv $mnt
chown demo:demo $srv
cat > /etc/smbsrv/cifs.conf <<EOF
[global]
	tcp port = 445
[cifs]
	path = $srv
	read only = no
	case sensitive = yes
EOF
echo demo | smbsrvctl -c /etc/smbsrv/cifs.conf user add demo >/dev/null
smbsrvd -c /etc/smbsrv/cifs.conf
mount -t cifs //127.0.0.1/cifs $mnt -o $opts"

remount() {
	t_guest_check "$1" "set -e; umount $mnt; mount -t cifs //127.0.0.1/cifs $mnt -o $opts"
}

# Sizes around page, 64 KiB, 1 MiB (the client's usual I/O unit) and the
# largest: all written, then all read back, so nothing is served from the
# client's page cache.
sizes="0 1 4095 4096 4097 65537 1048579 8388613 67108864"
t_guest_check "64 MiB of random data in the guest" \
	"head -c 67108864 /dev/urandom > /tmp/src"
for n in $sizes; do
	t_guest_check "cifs: $n bytes written through the mount, same md5 on the server" "
set -e
head -c $n /tmp/src > /tmp/want
cp /tmp/want $mnt/f$n
sync
want=\$(md5sum < /tmp/want | cut -d' ' -f1)
test \"\$(md5sum < $srv/f$n | cut -d' ' -f1)\" = \"\$want\"
test \"\$(stat -c %s $srv/f$n)\" = $n"
done
remount "cifs: remount (nothing cached on the client)"
for n in $sizes; do
	t_guest_check "cifs: $n bytes read back through the mount, same md5 and size" "
set -e
want=\$(head -c $n /tmp/src | md5sum | cut -d' ' -f1)
test \"\$(stat -c %s $mnt/f$n)\" = $n
test \"\$(md5sum < $mnt/f$n | cut -d' ' -f1)\" = \"\$want\""
done
t_guest_check "cifs: 3 bytes overwritten across a page boundary, same md5 on the server" "
set -e
head -c 65537 /tmp/src > /tmp/want
printf XYZ | dd of=/tmp/want bs=1 seek=4094 conv=notrunc 2>/dev/null
printf XYZ | dd of=$mnt/f65537 bs=1 seek=4094 conv=notrunc 2>/dev/null
sync
cmp /tmp/want $srv/f65537"
t_guest_check "cifs: rm of every file leaves the share empty" "
set -e
rm $mnt/f*
sync
test -z \"\$(ls -A $srv)\" && test -z \"\$(ls -A $mnt)\""

# Unlink of an open file: the descriptor keeps working, the name goes with
# the last close (the client may send CLOSE from a worker: wait for it).
t_guest_check "cifs: a file unlinked while open stays readable and writable" "
set -e
echo before > $mnt/held
exec 3<>$mnt/held
rm $mnt/held
test \"\$(cat <&3)\" = before
echo after >&3
exec 3>&-"
t_guest_check "cifs: ... and is gone from the server and the mount after close" "
for i in \$(seq 1 50); do
	if [ ! -e $srv/held ] && [ ! -e $mnt/held ]; then
		exit 0
	fi
	sleep 0.1
done
ls -la $srv $mnt
exit 1"
t_guest_check "cifs: the name is free for a new file" "
set -e
echo new > $mnt/held
test \"\$(cat $srv/held)\" = new
rm $mnt/held"

# tar/untar/diff round trip of a real source tree.
tmp=$(mktemp -d)
tar -C /usr/include -cf "$tmp/tree.tar" linux
files=$(tar -tf "$tmp/tree.tar" | grep -vc '/$')
t_check "the tree ($files files, $(du -k "$tmp/tree.tar" | cut -f1) KiB tar) copied to the guest" \
	timeout 300 smbclient "//127.0.0.1/cifs" -U demo%demo -p "$T_SMB_PORT" \
	-c "put $tmp/tree.tar tree.tar"
rm -rf "$tmp"
t_guest_check "tar extracts the tree onto the mount" "
set -e
mv $srv/tree.tar /tmp/tree.tar
mkdir /tmp/ref $mnt/tree
tar -C /tmp/ref -xf /tmp/tree.tar
tar -C $mnt/tree -xof /tmp/tree.tar
sync"
t_guest_check "diff -r: the server's copy equals a local extraction" \
	"diff -r /tmp/ref $srv/tree"
remount "cifs: remount before reading the tree back"
t_guest_check "diff -r: the tree read back through the mount equals it" \
	"diff -r /tmp/ref $mnt/tree"
t_guest_check "tar archives the tree from the mount, re-extracted it is the same" "
set -e
tar -C $mnt/tree -cf /tmp/back.tar linux
mkdir /tmp/back
tar -C /tmp/back -xf /tmp/back.tar
diff -r /tmp/ref /tmp/back
test \"\$(find $mnt/tree -type f | wc -l)\" -eq $files"
t_guest_check "rm -rf of the tree through the mount empties the share" "
set -e
rm -rf $mnt/tree
test -z \"\$(ls -A $srv)\""
t_guest_check "umount" "umount $mnt"

t_dmesg_clean
t_done
