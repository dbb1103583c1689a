#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# NT ACLs (vfs objects = acl_xattr) through real clients, two users: alice
# makes a directory and sets its ACL with smbcacls (from the host); demo,
# through a cifs mount in the guest, makes a subfolder and a file in it,
# which inherit that ACL (CREATOR OWNER, inheritance flags); a deny ACE
# alice adds keeps demo from writing while alice still can; the POSIX
# owner and mode the guest sees follow the DACL.  The security.NTACL
# xattr's bytes are judged by Samba's own code on the host: its NDR
# unpacks them, and smbd's acl_xattr (samba-tool ntacl --use-s3fs) takes
# the blob from a file with the same owner, group and mode; a blob smbd
# wrote is served by smbsrv the other way round.  A client's EA named
# security.NTACL never reaches the xattr.  One VM boot.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
here=$(dirname "$0")

t_vm_start
t_guest_check "share set up in the guest (root's, 0777), smbsrvd started" '
set -e
mkdir -p /srv/acl /mnt/demo /mnt/alice
chmod 0777 /srv/acl
cat > /etc/smbsrv/acl.conf <<EOF
[global]
	tcp port = 445
[acl]
	path = /srv/acl
	read only = no
	vfs objects = streams_xattr acl_xattr
	create mask = 0666
	directory mask = 0777
EOF
echo demopass | smbsrvctl -c /etc/smbsrv/acl.conf user add demo >/dev/null
echo alicepass | smbsrvctl -c /etc/smbsrv/acl.conf user add alice >/dev/null
smbsrvd -c /etc/smbsrv/acl.conf'

# smbcacls connects to port 445 only: a forwarder on a loopback address of
# this run's own.
fwd_ip=127.$(( (T_SMB_PORT >> 8) & 255 )).$(( T_SMB_PORT & 255 )).3
coproc FWD { exec "$py" "$here/tcpfwd.py" "$fwd_ip" 445 127.0.0.1 "$T_SMB_PORT"; }
fwd_pid=$FWD_PID
read -r -t 10 ready <&"${FWD[0]}"
trap 'kill "$fwd_pid" 2>/dev/null' EXIT
[ "$ready" = ready ] || t_not_ok "forwarder on $fwd_ip:445"

ALICE=S-1-22-1-1001
DEMO=S-1-22-1-1000
cacls() { # USER ARGS...: smbcacls as USER, numeric SIDs
	local u=$1
	shift
	smbcacls "//$fwd_ip/acl" -U "$u%${u}pass" --numeric "$@"
}
smb() { # USER COMMANDS
	smbclient //127.0.0.1/acl -p "$T_SMB_PORT" -U "$1%$1pass" -c "$2"
}

nacl() { # SMBCACLS-OUTPUT: how many ACEs
	printf '%s\n' "$1" | grep -c '^ACL:'
}

t_check "alice makes shared/ through smbclient" smb alice "mkdir shared"
# alice: full control, demo: modify (0x1301bf), both inherited by files
# and directories; nobody else.
t_check "alice sets its DACL through smbcacls" cacls alice shared -S \
	"REVISION:1,OWNER:$ALICE,GROUP:S-1-22-2-1001,ACL:$ALICE:0/0x3/0x001f01ff,ACL:$DEMO:0/0x3/0x001301bf"
t_check_output "smbcacls reads the DACL back" \
	"ACL:$ALICE:0/0x3/0x001f01ff" cacls alice shared
t_check_output "the guest sees alice as owner and the mode the DACL gives" \
	"^700 1001 1001$" t_guest "stat -c '%a %u %g' /srv/acl/shared"

# demo through a cifs mount in the guest: the mode (alice's, 0700) would
# keep demo out; the DACL lets it in.
t_guest_check "cifs mount as demo" "mount -t cifs //127.0.0.1/acl /mnt/demo \
	-o username=demo,password=demopass,cache=none,actimeo=0"
t_guest_check "demo makes shared/sub and shared/sub/f through the mount" '
mkdir /mnt/demo/shared/sub && echo first > /mnt/demo/shared/sub/f'
out=$(cacls alice shared/sub 2>&1)
t_diag "$out"
t_check_output "shared/sub belongs to demo" "^OWNER:$DEMO$" \
	printf '%s\n' "$out"
t_check_output "shared/sub inherited alice's ACE (OI|CI)" \
	"^ACL:$ALICE:0/0x3/0x001f01ff$" printf '%s\n' "$out"
t_check_output "shared/sub inherited demo's ACE (OI|CI)" \
	"^ACL:$DEMO:0/0x3/0x001301bf$" printf '%s\n' "$out"
t_check "shared/sub has these two ACEs only" test "$(nacl "$out")" = 2
out=$(cacls alice shared/sub/f 2>&1)
t_check_output "shared/sub/f inherited demo's ACE, as a file's (no flags)" \
	"^ACL:$DEMO:0/0x0/0x001301bf$" printf '%s\n' "$out"
t_check_output "... and alice's" "^ACL:$ALICE:0/0x0/0x001f01ff$" \
	printf '%s\n' "$out"
t_check_output "the guest sees demo's file, mode from the DACL within create mask 0666" \
	"^600 1000 1000$" t_guest "stat -c '%a %u %g' /srv/acl/shared/sub/f"

# A deny ACE really denies: alice denies demo WRITE_DATA and APPEND_DATA.
t_check "alice adds a deny ACE for demo on shared/sub/f" cacls alice \
	shared/sub/f -a "ACL:$DEMO:1/0x0/0x00000006"
out=$(cacls alice shared/sub/f 2>&1)
t_check_output "smbcacls shows it first (canonical order)" \
	"^ACL:$DEMO:1/0x0/0x00000006$" sh -c "printf '%s\n' \"\$1\" |
	grep -m1 '^ACL:'" - "$out"
t_guest_check "demo cannot write it through the mount any more" '
! sh -c "echo more >> /mnt/demo/shared/sub/f" 2>/dev/null &&
! sh -c "echo over > /mnt/demo/shared/sub/f" 2>/dev/null &&
[ "$(cat /srv/acl/shared/sub/f)" = first ]'
t_guest_check "demo still reads it" '[ "$(cat /mnt/demo/shared/sub/f)" = first ]'
t_check_fail "demo's smbclient put over it is refused too" \
	smb demo "put /etc/hostname shared/sub/f"
t_guest_check "alice (its own cifs mount) still writes it" '
mount -t cifs //127.0.0.1/acl /mnt/alice \
	-o username=alice,password=alicepass,cache=none,actimeo=0 &&
echo second >> /mnt/alice/shared/sub/f &&
[ "$(tail -n 1 /srv/acl/shared/sub/f)" = second ]'

# An ACE lets in a user the mode would not: demo's directory, 0700 in the
# guest, readable by alice, who may not add to it.
t_guest_check "demo makes demo-only/" 'mkdir /mnt/demo/demo-only'
t_check "demo gives alice read and list access through smbcacls" \
	cacls demo demo-only -S "REVISION:1,OWNER:$DEMO,GROUP:S-1-22-2-1000,ACL:$DEMO:0/0x3/0x001f01ff,ACL:$ALICE:0/0x3/0x001200a9"
t_check_output "the guest sees mode 0700 (alice is not in the POSIX owner, group or others' bits)" \
	"^700$" t_guest "stat -c %a /srv/acl/demo-only"
t_guest_check "demo puts a file in it" 'echo mine > /mnt/demo/demo-only/x'
t_guest_check "alice lists and reads it all the same" '
ls /mnt/alice/demo-only | grep -qx x && [ "$(cat /mnt/alice/demo-only/x)" = mine ]'
t_guest_check "alice cannot add to it nor change the file" '
! touch /mnt/alice/demo-only/y 2>/dev/null && [ ! -e /srv/acl/demo-only/y ] &&
! sh -c "echo theirs > /mnt/alice/demo-only/x" 2>/dev/null'
t_guest_check "umount" 'umount /mnt/demo && umount /mnt/alice'

# The bytes: Samba's NDR code unpacks smbsrv's blobs, smbd's acl_xattr
# takes them from a file and a directory with the same owner, group, mode.
ntacl() { # PATH: its security.NTACL in hex
	t_guest "getfattr -n security.NTACL --only-values $1 2>/dev/null |
		od -An -v -tx1 | tr -d ' \n'"
}
blob=$(ntacl /srv/acl/shared/sub)
t_diag "security.NTACL of shared/sub: ${blob:0:80}..."
t_checks "$py" "$here/acl.py" blob "$blob" "$DEMO" \
	"$ALICE:0/0x3/0x001f01ff" "$DEMO:0/0x3/0x001301bf"
# shellcheck disable=SC2046
t_checks "$py" "$here/acl.py" samba-reads "$blob" d \
	$(t_guest "stat -c '%u %g %a' /srv/acl/shared/sub") \
	"$ALICE:0/0x3/0x001f01ff"
blob=$(ntacl /srv/acl/shared/sub/f)
# shellcheck disable=SC2046
t_checks "$py" "$here/acl.py" samba-reads "$blob" f \
	$(t_guest "stat -c '%u %g %a' /srv/acl/shared/sub/f") \
	"$DEMO:1/0x0/0x00000006"

# The other way: a blob smbd wrote, on a file with the same owner, group
# and mode in the share, is the descriptor smbsrv serves.
read -r sblob smode < <("$py" "$here/acl.py" samba-writes 1000 1000 0640 \
	"O:${DEMO}G:S-1-22-2-1000D:(A;;0x1f01ff;;;$DEMO)(D;;0x116;;;$ALICE)")
t_check "smbd's acl_xattr wrote a blob" test -n "$sblob"
t_guest_check "that blob on a file of the share (setfattr as root)" "
cd /srv/acl && echo samba > from-samba && chown 1000:1000 from-samba &&
chmod $smode from-samba && setfattr -n security.NTACL -v 0x$sblob from-samba"
out=$(cacls demo from-samba 2>&1)
t_diag "$out"
t_check_output "smbsrv serves Samba's DACL: the deny ACE for alice" \
	"^ACL:$ALICE:1/0x0/0x00000116$" printf '%s\n' "$out"
t_check_output "... and demo's ACE" "^ACL:$DEMO:0/0x0/0x001f01ff$" \
	printf '%s\n' "$out"

# Clients set EAs as user.* xattrs: an EA named security.NTACL is no way
# to forge the descriptor.
t_checks "$py" "$here/acl.py" ea "$T_SMB_PORT" demo demopass from-samba
t_check_output "... the file's security.NTACL is still Samba's" \
	"^$sblob$" ntacl /srv/acl/from-samba

t_guest_check "a chmod in the guest makes the blob stale" \
	"chmod 0644 /srv/acl/from-samba"
t_check_output "... smbsrv then serves the mode's DACL" \
	"^ACL:S-1-1-0:0/0x0/0x00120089$" cacls demo from-samba

t_dmesg_clean
t_done
