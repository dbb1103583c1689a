#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# File service II through real clients: QUERY_INFO, SET_INFO and
# QUERY_DIRECTORY as the Linux cifs client (mounted over loopback in the
# guest) and smbclient (from the host) use them.  Through cifs: listing,
# stat, rename (into other directories, replacing), mkdir/rmdir, unlink of
# an open file, truncate up and down, timestamps set and read back both
# ways, hard links, chmod's read-only bit, and a directory of 10,000
# entries listed completely.  From the host: smbclient ls (wildcards,
# hide dot files, veto files), allinfo, rename, mkdir, rmdir; through
# impacket (file2.py) the owner, group and DACL read and a DACL set.
# Every change is checked on the other side (the share's directory in the
# guest, or the client).  One VM boot; the logon is the user demo (1000).
. "$(dirname "$0")/lib.sh"

t_vm_start
t_guest_check "share set up in the guest, smbsrvd started" '
set -e
mkdir -p /srv/f2/big /mnt/f2
chmod 777 /srv/f2 /srv/f2/big
cat > /etc/smbsrv/file2.conf <<EOF2
[global]
	tcp port = 445
[f2]
	path = /srv/f2
	read only = no
	hide dot files = yes
	veto files = /*.veto/
EOF2
echo demopass | smbsrvctl user add demo
smbsrvd -c /etc/smbsrv/file2.conf'

# 10,000 names made in the guest; the listing is what is tested.
t_guest_check "10,000 files made in the share" '
set -e
cd /srv/f2/big
awk "BEGIN { for (i = 1; i <= 10000; i++) printf \"entry-%05d\\n\", i }" |
	xargs touch
test "$(ls | wc -l)" = 10000'

# Checks through the cifs mount, in the guest; each prints PASS or FAIL.
cifs_checks=$(cat <<'EOF'
S=/srv/f2
M=/mnt/f2
ck() { # DESCRIPTION COMMAND...
	_d=$1
	shift
	if _o=$("$@" 2>&1); then
		echo "PASS cifs: $_d"
	else
		echo "FAIL cifs: $_d: $(printf '%s' "$_o" | tail -c 400 | tr '\n' ' ')"
	fi
}
eq() { # EXPECTED ACTUAL
	[ "$1" = "$2" ] || { echo "expected '$1', got '$2'"; return 1; }
}
if ! mount -t cifs //127.0.0.1/f2 $M \
	-o username=demo,password=demopass,cache=none,actimeo=0 2>&1; then
	echo "FAIL cifs: mount //127.0.0.1/f2"
	exit 1
fi
echo "PASS cifs: mount //127.0.0.1/f2 as demo"

run() { eval "$1"; }
ck "a file written through the mount is in the share" \
	run "echo hello > $M/a.txt && eq hello \"\$(cat $S/a.txt)\""
ck "ls shows it" run "ls $M | grep -qx a.txt"
ck "stat: size 6, regular file" \
	eq "6 regular file" "$(stat -c '%s %F' $M/a.txt)"
ck "stat: the directory is a directory" \
	eq directory "$(stat -c %F $M/big)"

ck "mkdir makes a directory in the share" \
	run "mkdir $M/d1 && test -d $S/d1"
ck "rmdir of a non-empty directory fails" \
	run "touch $M/d1/f && ! rmdir $M/d1 2>/dev/null && test -d $S/d1"
ck "rmdir of the emptied directory removes it" \
	run "rm $M/d1/f && rmdir $M/d1 && test ! -e $S/d1"

ck "rename" run "mv $M/a.txt $M/b.txt && test ! -e $S/a.txt &&
	eq hello \"\$(cat $S/b.txt)\""
ck "rename into another directory" run "mkdir $M/sub &&
	mv $M/b.txt $M/sub/c.txt && test ! -e $S/b.txt &&
	eq hello \"\$(cat $S/sub/c.txt)\""
ck "rename replacing an existing file" run "echo one > $M/x &&
	echo two > $M/y && mv -f $M/y $M/x && test ! -e $S/y &&
	eq two \"\$(cat $S/x)\""
ck "rename of a directory with a file in it" run "mv $M/sub $M/sub2 &&
	test ! -e $S/sub && eq hello \"\$(cat $M/sub2/c.txt)\""

ck "truncate up to 1 MiB" run "truncate -s 1048576 $M/x &&
	eq 1048576 \"\$(stat -c %s $S/x)\" &&
	eq 1048576 \"\$(stat -c %s $M/x)\""
ck "truncate down to 3 bytes keeps the start" run "truncate -s 3 $M/x &&
	eq 3 \"\$(stat -c %s $S/x)\" && eq two \"\$(cat $M/x)\""
ck "truncate to 0" run "truncate -s 0 $M/x && eq 0 \"\$(stat -c %s $S/x)\""

# 2001-02-03 04:05:06 UTC is 981173106; 2010-01-01 00:00:00 is 1262304000.
ck "touch -d through the mount sets the share's mtime and atime" run "
	touch -d '2001-02-03 04:05:06' $M/x &&
	eq 981173106 \"\$(stat -c %Y $S/x)\" &&
	eq 981173106 \"\$(stat -c %X $S/x)\""
ck "... and stat through the mount reads them back" \
	eq 981173106 "$(stat -c %Y $M/x)"
ck "an mtime set in the share is read through the mount" run "
	touch -d '2010-01-01 00:00:00' $S/x && eq 1262304000 \"\$(stat -c %Y $M/x)\""
ck "touch -m leaves the access time" run "
	touch -d '2001-02-03 04:05:06' $M/x && touch -m -d '2010-01-01 00:00:00' $M/x &&
	eq '981173106 1262304000' \"\$(stat -c '%X %Y' $S/x)\""

ck "hard link through the mount: one inode, two links" run "
	ln $M/x $M/xlink && eq \"\$(stat -c %i $S/x)\" \"\$(stat -c %i $S/xlink)\" &&
	eq 2 \"\$(stat -c %h $S/x)\""
ck "... the link count through the mount" eq 2 "$(stat -c %h $M/x)"
ck "unlinking one name keeps the other" run "rm $M/xlink &&
	test ! -e $S/xlink && eq 1 \"\$(stat -c %h $S/x)\""

ck "unlink of an open file: it still reads, the name goes with the last close" run "
	echo open > $M/o && exec 3< $M/o && rm $M/o && eq open \"\$(cat <&3)\" &&
	exec 3<&- && test ! -e $M/o && test ! -e $S/o"

ck "chmod a-w makes the file read-only" run "chmod a-w $M/x &&
	eq 555 \"\$(stat -c %a $M/x)\""
ck "chmod u+w makes it writable again" run "chmod u+w $M/x &&
	eq 755 \"\$(stat -c %a $M/x)\" && echo w > $M/x"

ck "the 10,000-entry directory is listed completely" run "
	ls $M/big > /tmp/big.cifs && ls $S/big > /tmp/big.local &&
	eq 10000 \"\$(wc -l < /tmp/big.cifs)\" && cmp /tmp/big.cifs /tmp/big.local"
ck "stat of every entry of it through the mount (ls -l)" run "
	eq 10000 \"\$(ls -l $M/big | grep -c ' entry-')\""

umount $M
EOF
)
t_checks vm_exec "$T_VM" "$cifs_checks"

# smbclient from the host.
smb() {
	timeout 300 smbclient //127.0.0.1/f2 -U demo%demopass -p "$T_SMB_PORT" \
		-m SMB3 -c "$1"
}
t_guest "cd /srv/f2 && echo data > plain.txt && echo h > .hidden &&
	echo v > hidden.veto && touch -d '2001-02-03 04:05:06' plain.txt" >/dev/null
t_check_output "smbclient ls lists plain.txt with its size" \
	'plain\.txt +A +5 ' smb "ls"
t_check_output "smbclient ls: a dot file has the hidden attribute" \
	'\.hidden +AH +2 ' smb "ls"
t_check_fail "smbclient ls: veto files are not listed" \
	bash -c "smbclient //127.0.0.1/f2 -U demo%demopass -p $T_SMB_PORT -m SMB3 -c ls |
		grep -q hidden.veto"
t_check_output "smbclient ls with a wildcard: entry-0000? is nine names" \
	'^9$' bash -c "smbclient //127.0.0.1/f2 -U demo%demopass -p $T_SMB_PORT \
		-m SMB3 -c 'ls big/entry-0000?' | grep -c ' entry-0000'"
t_check_output "smbclient ls of the 10,000-entry directory lists them all" \
	'^10000$' bash -c "smbclient //127.0.0.1/f2 -U demo%demopass -p $T_SMB_PORT \
		-m SMB3 -c 'ls big/*' | grep -c ' entry-'"
t_check_output "smbclient ls of a missing name: NO_SUCH_FILE" \
	'NT_STATUS_NO_SUCH_FILE' smb "ls nothing-like-this*"
t_check_output "smbclient allinfo: the write time set in the share" \
	'write_time: +.*Feb +3 .*2001' \
	smb "allinfo plain.txt"
t_check_output "smbclient allinfo: the data stream and its size" \
	'stream: \[::\$DATA\], 5 bytes' smb "allinfo plain.txt"
t_check "smbclient mkdir, rename, rmdir" smb \
	"mkdir made; rename plain.txt made\\moved.txt; mkdir gone; rmdir gone"
t_guest_check "... seen in the share" '
test -d /srv/f2/made && test "$(cat /srv/f2/made/moved.txt)" = data &&
test ! -e /srv/f2/plain.txt && test ! -e /srv/f2/gone'
t_check_output "smbclient rename onto an existing name fails" \
	'NT_STATUS_OBJECT_NAME_COLLISION' smb "rename made\\moved.txt x"

t_guest "chown 1000:1100 /srv/f2/x && chmod 640 /srv/f2/x" >/dev/null
t_checks /usr/bin/python3 "$(dirname "$0")/file2.py" "$T_SMB_PORT" f2 demo \
	demopass sd
t_guest_check "... the DACL set is mode 0740 in the share" \
	'test "$(stat -c %a /srv/f2/x)" = 740'

t_dmesg_clean
t_done
