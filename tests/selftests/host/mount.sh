#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel cifs client mounts the demo share over loopback in the guest
# with no vers= and with vers=2.1, 3.0, 3.0.2 and 3.1.1, with sign and with
# seal; on each mount a file is written, listed, read back and removed as
# the logged-on user, and smbsrvctl shows the dialect, signing and
# encryption the mount asked for.  One VM boot.  The table of results also
# goes to build/test-logs/mount-matrix.txt.
. "$(dirname "$0")/lib.sh"

table="$T_TOP/build/test-logs/mount-matrix.txt"
mkdir -p "$(dirname "$table")"
: > "$table"

t_vm_start
t_guest_check "smbsrvd serves /srv/mnt as share mnt (user demo)" "
set -e
mkdir -p /srv/mnt /mnt/m
chown demo:demo /srv/mnt
cat > /etc/smbsrv/mount.conf <<'EOF'
[global]
	server min protocol = SMB2_02
[mnt]
	path = /srv/mnt
	read only = no
EOF
echo demopass | smbsrvctl user add demo >/dev/null
smbsrvd -c /etc/smbsrv/mount.conf"

# The guest side of one matrix cell: mount with $opts, use the mount,
# check the session smbsrvctl lists against $re, unmount.  Prints what
# failed.
# shellcheck disable=SC2016
guest_cell='
fail() { echo "FAIL: $*"; umount /mnt/m 2>/dev/null; exit 1; }
mount -t cifs //127.0.0.1/mnt /mnt/m \
	-o "username=demo,password=demopass,uid=1000$opts" ||
	fail "mount: exit status $?"
grep -q " /mnt/m cifs " /proc/mounts || fail "not in /proc/mounts"
smbsrvctl sessions | grep -Eq "$re" ||
	{ smbsrvctl sessions; fail "no session matching /$re/"; }
data="mount $label $$"
echo "$data" > /mnt/m/f.txt || fail "write"
ls /mnt/m | grep -qx f.txt || fail "listing lacks f.txt"
[ "$(cat /mnt/m/f.txt)" = "$data" ] || fail "read back differs"
[ "$(stat -c %u /srv/mnt/f.txt)" = 1000 ] ||
	fail "file on the share not owned by demo"
rm /mnt/m/f.txt || fail "remove"
[ ! -e /srv/mnt/f.txt ] || fail "still on the share after rm"
umount /mnt/m || fail "umount"
for i in $(seq 50); do
	smbsrvctl sessions | grep -q " demo " || exit 0
	sleep 0.1
done
fail "session still listed 5 s after umount"
'

# A session line of smbsrvctl sessions: SESSION USER CLIENT DIALECT
# SIGNING ENCRYPTION ...
sess() { # DIALECT-REGEX SIGNING ENCRYPTION
	echo "^0x[0-9a-f]+ +demo +[^ ]+ +$1 +$2 +$3 "
}

matrix() { # LABEL OPTIONS SESSION-REGEX
	local out
	if out=$(vm_exec "$T_VM" "label='$1' opts='$2' re='$3'
$guest_cell" 2>&1); then
		t_ok "cifs mount $1: write, list, read, remove, unmount"
		printf '%-12s %s\n' "$1" pass >> "$table"
	else
		t_not_ok "cifs mount $1: write, list, read, remove, unmount"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'
		printf '%-12s %s\n' "$1" fail >> "$table"
	fi
}

matrix "default" "" "$(sess '3\.1\.1' no no)"
matrix "vers=2.1" ",vers=2.1" "$(sess '2\.1' no no)"
matrix "vers=3.0" ",vers=3.0" "$(sess '3\.0' no no)"
matrix "vers=3.0.2" ",vers=3.0.2" "$(sess '3\.0\.2' no no)"
matrix "vers=3.1.1" ",vers=3.1.1" "$(sess '3\.1\.1' no no)"
matrix "sign" ",sign" "$(sess '3\.1\.1' yes no)"
matrix "seal" ",seal" "$(sess '3\.1\.1' '[a-z]+' yes)"
t_diag "mount matrix:"
while IFS= read -r l; do t_diag "  $l"; done < "$table"
t_check_output "no session or connection left after the unmounts" \
	"^connections: +0$" vm_exec "$T_VM" "sleep 1; smbsrvctl status"
t_dmesg_clean
t_done
