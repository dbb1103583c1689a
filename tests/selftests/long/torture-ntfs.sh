#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Windows file semantics (issue 12) under smbtorture, on a share set up
# the way many existing ksmbd.conf files are: `create mask = 0666`,
# `directory mask = 0777`, `store dos attributes = yes`, `vfs objects =
# streams_xattr`, the share root owned by root with mode 0777, logged on
# as the unprivileged user demo; smbsrv and, in the same boot, the
# in-tree ksmbd (torture.bash).  The side-by-side table goes to
# build/test-logs/torture-torture-ntfs.txt and into this log; the
# subtests smbsrv passes are asserted so they stay passing.  Many
# minutes under load: run with `make check-long` or directly.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/../host/torture.bash"

TT_ROOT="root:root 0777"
TT_SHARE_CONF="create mask = 0666
	directory mask = 0777
	store dos attributes = yes
	vfs objects = streams_xattr"
# smb2.dosmode expects Samba's selftest share: "hide files" (ksmbd has no
# such parameter).
TT_SMBSRV_SHARE_CONF="hide files = /hidefile/"

t_vm_start
tt_servers_up

# DOS attributes are user.DOSATTRIB as ksmbd and Samba keep them: files
# given attributes through one server keep them when the other serves
# them (the xattrs copied as they are).
smbc() { # PORT COMMANDS
	smbclient //127.0.0.1/torture -p "$1" -U demo%demo -c "$2" 2>&1
}
up=$(mktemp)
echo data > "$up"
smbc "$T_RIVAL_PORT" "put $up ks-hs.txt; setmode ks-hs.txt +hs;
	put $up ks-r.txt; setmode ks-r.txt +r" > /dev/null
smbc "$T_SMB_PORT" "put $up ss-hs.txt; setmode ss-hs.txt +hs;
	put $up ss-r.txt; setmode ss-r.txt +r" > /dev/null
rm -f "$up"
t_guest_check "the attributed files change servers, xattrs and all" '
set -e
/usr/bin/cp --preserve=mode,ownership,xattr /srv/tt-ksmbd/ks-hs.txt /srv/tt-ksmbd/ks-r.txt /srv/tt-smbsrv/
/usr/bin/cp --preserve=mode,ownership,xattr /srv/tt-smbsrv/ss-hs.txt /srv/tt-smbsrv/ss-r.txt /srv/tt-ksmbd/
getfattr --absolute-names -n user.DOSATTRIB /srv/tt-smbsrv/ks-hs.txt >/dev/null'
attrs() { # PORT NAME: the attributes letters smbclient's allinfo shows
	smbc "$1" "allinfo $2" | sed -n 's/^attributes: \([A-Za-z]*\) .*/\1/p'
}
for f in ks-hs.txt ss-hs.txt; do
	t_check_output "smbsrv reports $f hidden and system" \
		"H[A-Z]*S|S[A-Z]*H" attrs "$T_SMB_PORT" "$f"
	t_check_output "... and so does ksmbd" \
		"H[A-Z]*S|S[A-Z]*H" attrs "$T_RIVAL_PORT" "$f"
done
for f in ks-r.txt ss-r.txt; do
	t_check_output "smbsrv reports $f read-only" "R" attrs "$T_SMB_PORT" "$f"
	t_check_output "... and so does ksmbd" "R" attrs "$T_RIVAL_PORT" "$f"
done
tt_run smb2.connect smb2.lock smb2.sharemode smb2.streams smb2.timestamps \
	smb2.dosmode smb2.charset smb2.dir
tt_table
t_dmesg_clean
t_done
