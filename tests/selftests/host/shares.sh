#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The create-mask matrix on shares without NT ACLs (issue 12, item 1), two
# users, one boot.  Shares with `create mask` / `force create mode` /
# `directory mask` / `force directory mode` as real ksmbd.conf files set
# them (0666/0777 as many do; 0640+0004/0750+0005; 0600/0700; ksmbd's
# defaults 0744/0755) and with `inherit permissions` (modes from the
# parent, setgid directories kept), all with streams_xattr, the share
# roots owned by root with mode 0777.  In each, alice (the owner) makes a
# file, a directory and a stream through impacket and reopens them as
# smbtorture and Windows do (SEC_RIGHTS_FILE_ALL, GENERIC_ALL,
# GENERIC_EXECUTE, MAXIMUM_ALLOWED: shares.py); the guest checks the modes
# and owners on disk; then bob (another user) gets exactly what his
# permission bits give.  The same matrix through real clients: cifs
# mounts as alice and as bob in the guest, smbclient as both from the
# host.  Then a share's `max connections` (issue 12, item 6): tree
# connects beyond it refused with STATUS_REQUEST_NOT_ACCEPTED, room again
# after a tree disconnect or a logoff, the server log saying why.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/shares.py"

t_vm_start
t_guest_check "smbsrvd serves the mask shares, users alice and bob" '
set -e
for s in m0666 m0640 m0600 mdef inherit; do
	mkdir -p /srv/$s
	chmod 0777 /srv/$s
done
# Under inherit permissions: a group directory of alice and family, setgid.
mkdir /srv/inherit/team
chown alice:family /srv/inherit/team
chmod 2750 /srv/inherit/team
cat > /etc/smbsrv/shares.conf <<EOF
[global]
	tcp port = 445
	vfs objects = streams_xattr
	read only = no
[m0666]
	path = /srv/m0666
	create mask = 0666
	directory mask = 0777
[m0640]
	path = /srv/m0640
	create mask = 0640
	force create mode = 0004
	directory mask = 0750
	force directory mode = 0005
[m0600]
	path = /srv/m0600
	create mask = 0600
	directory mask = 0700
[mdef]
	path = /srv/mdef
[limited]
	path = /srv/m0666
	max connections = 3
[inherit]
	path = /srv/inherit
	inherit permissions = yes
	create mask = 0600
	force create mode = 0001
EOF
echo alicepw | smbsrvctl -c /etc/smbsrv/shares.conf user add alice >/dev/null
echo bobpw | smbsrvctl -c /etc/smbsrv/shares.conf user add bob >/dev/null
smbsrvd -c /etc/smbsrv/shares.conf'

# owner: SHARE; modes of f and d/ on disk; bob may read f, write f,
# create in d/.
matrix() {
	local share=$1 fmode=$2 dmode=$3 r=$4 w=$5 dw=$6 dir=${7:-}
	t_diag "share $share${dir:+, in $dir/}: files $fmode, directories $dmode"
	t_checks "$py" "$checks" "$T_SMB_PORT" "$share" owner alice alicepw "$dir"
	t_guest_check "$share: f is alice's, mode $fmode; d/ mode $dmode" "
set -e
cd /srv/$share/$dir
test \"\$(stat -c '%U %a' f)\" = 'alice $fmode'
test \"\$(stat -c '%U %a' d)\" = 'alice $dmode'
test \"\$(stat -c %a g)\" = $fmode
getfattr --absolute-names -n 'user.DosStream.s:\$DATA' --only-values f |
	grep -qx 'data of f:s'"
	t_checks "$py" "$checks" "$T_SMB_PORT" "$share" other bob bobpw \
		"$dir" "$r" "$w" "$dw"
}

matrix m0666 666 777 1 1 1
matrix m0640 644 755 1 0 0
matrix m0600 600 700 0 0 0
matrix mdef 744 755 1 0 0
# Parent 0777: files 0666, directories 0777 (create mask and force create
# mode do not apply); in team/ (2750 alice:family): files 0640 and
# directories 2750, bob in family reads but cannot write.
matrix inherit 666 777 1 1 1
matrix inherit 640 2750 1 0 0 team
t_guest_check "inherit/team: new entries keep group family" '
test "$(stat -c %G /srv/inherit/team/f)" = family &&
test "$(stat -c %G /srv/inherit/team/d)" = family'

# Real clients: cifs mounts as alice and as bob, in the guest.
mnt_opts() {
	echo "username=$1,password=$2,vers=3.1.1,cache=none"
}
for s in m0666 m0640; do
	t_guest_check "cifs: $s mounted as alice and as bob" "
set -e
mkdir -p /mnt/$s-a /mnt/$s-b
mount -t cifs //127.0.0.1/$s /mnt/$s-a -o $(mnt_opts alice alicepw)
mount -t cifs //127.0.0.1/$s /mnt/$s-b -o $(mnt_opts bob bobpw)"
done
t_guest_check "cifs m0666: alice writes c.txt (0666 on disk), bob reads and appends" '
set -e
echo alice > /mnt/m0666-a/c.txt
test "$(stat -c "%U %a" /srv/m0666/c.txt)" = "alice 666"
test "$(cat /mnt/m0666-b/c.txt)" = alice
echo bob >> /mnt/m0666-b/c.txt
test "$(cat /srv/m0666/c.txt)" = "$(printf "alice\nbob")"
mkdir /mnt/m0666-a/cd
test "$(stat -c "%U %a" /srv/m0666/cd)" = "alice 777"
echo bob > /mnt/m0666-b/cd/b.txt
test "$(stat -c "%U %a" /srv/m0666/cd/b.txt)" = "bob 666"'
t_guest_check "cifs m0640: alice writes c.txt (0644), bob reads it" '
set -e
echo alice > /mnt/m0640-a/c.txt
test "$(stat -c "%U %a" /srv/m0640/c.txt)" = "alice 644"
test "$(cat /mnt/m0640-b/c.txt)" = alice
mkdir /mnt/m0640-a/cd
test "$(stat -c "%U %a" /srv/m0640/cd)" = "alice 755"'
guest_fails() {
	t_check_fail "$1" vm_exec "$T_VM" "$2"
}
guest_fails "cifs m0640: bob cannot append to alice's c.txt" \
	'echo bob >> /mnt/m0640-b/c.txt'
guest_fails "cifs m0640: bob cannot create in alice's cd/" \
	'echo bob > /mnt/m0640-b/cd/b.txt'
t_guest_check "cifs m0640: c.txt unchanged" \
	'test "$(cat /srv/m0640/c.txt)" = alice'

# smbclient from the host as both users.
tmp=$(mktemp -d)
echo "put by alice" > "$tmp/up.txt"
smbc() {
	smbclient "//127.0.0.1/$1" -p "$T_SMB_PORT" -U "$2" -c "$3" 2>&1
}
t_check "smbclient m0640: alice puts s.txt" \
	smbc m0640 alice%alicepw "put $tmp/up.txt s.txt"
t_guest_check "... 0644 and alice's on disk" \
	'test "$(stat -c "%U %a" /srv/m0640/s.txt)" = "alice 644"'
t_check "smbclient m0640: bob gets s.txt" \
	smbc m0640 bob%bobpw "get s.txt $tmp/down.txt"
t_check "... with alice's data" cmp "$tmp/up.txt" "$tmp/down.txt"
t_check_output "smbclient m0640: bob may not overwrite s.txt" \
	"NT_STATUS_ACCESS_DENIED" smbc m0640 bob%bobpw "put $tmp/up.txt s.txt"
t_check "smbclient m0666: alice puts s.txt, bob overwrites it" \
	smbc m0666 alice%alicepw "put $tmp/up.txt s.txt"
echo "put by bob" > "$tmp/up2.txt"
t_check "... bob overwrites it" \
	smbc m0666 bob%bobpw "put $tmp/up2.txt s.txt"
t_guest_check "... bob's data, still alice's file, mode 0666" '
test "$(cat /srv/m0666/s.txt)" = "put by bob" &&
test "$(stat -c "%U %a" /srv/m0666/s.txt)" = "alice 666"'
t_check "smbclient m0600: alice puts s.txt" \
	smbc m0600 alice%alicepw "put $tmp/up.txt s.txt"
t_check_output "smbclient m0600: bob may not get it" \
	"NT_STATUS_ACCESS_DENIED" smbc m0600 bob%bobpw "get s.txt $tmp/x"
rm -rf "$tmp"

t_checks "$py" "$checks" "$T_SMB_PORT" limited limit alice alicepw 3
t_guest_check "the kernel log says why a tree connect was refused" \
	'dmesg | grep -q "share limited: 3 connections (max connections)"'
t_guest_check "smbsrvctl status and share show: limited's tree connects, enforced" '
set -e
mkdir -p /mnt/limited
mount -t cifs //127.0.0.1/limited /mnt/limited -o username=alice,password=alicepw
st=$(smbsrvctl status)
echo "$st" | grep "^share "
echo "$st" | grep -q "^share limited: *1 tree connect (max connections 3, enforced)$"
if echo "$st" | grep "^share m0666:.*enforced"; then exit 1; fi
sh=$(smbsrvctl -c /etc/smbsrv/shares.conf share show limited)
echo "$sh" | tail -n1
echo "$sh" | grep -q "^; 1 tree connect now (max connections 3, enforced)$"
sh=$(smbsrvctl -c /etc/smbsrv/shares.conf share show mdef)
echo "$sh" | tail -n1
echo "$sh" | tail -n1 | grep -q "^; 0 tree connects now$"
umount /mnt/limited'

t_guest "umount /mnt/m0666-a /mnt/m0666-b /mnt/m0640-a /mnt/m0640-b" \
	>/dev/null
t_dmesg_clean
t_done
