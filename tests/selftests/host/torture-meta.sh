#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbtorture's QUERY_INFO, SET_INFO, QUERY_DIRECTORY, rename, compound,
# timestamps and dosmode suites, logged on as demo, against smbsrv and, in
# the same boot, the in-tree ksmbd (torture.bash): the side-by-side table
# goes to build/test-logs/torture-torture-meta.txt and into this log; the
# subtests smbsrv passes today are asserted so they stay passing.  Both
# shares store DOS attributes (user.DOSATTRIB, the default of both);
# files given attributes through one server keep them when the other
# serves them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/torture.bash"

TT_TIMEOUT=${TT_TIMEOUT:-240}
TT_SHARE_CONF="store dos attributes = yes"
# smb2.dosmode expects Samba's selftest share: "hide files" (ksmbd has no
# such parameter).
TT_SMBSRV_SHARE_CONF="hide files = /hidefile/"

t_vm_start
tt_servers_up

# DOS attributes are user.DOSATTRIB as ksmbd and Samba keep them: files
# given attributes through each server (smbclient setmode) are copied with
# their xattrs into the other's share, and each server reports them.
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
getfattr --absolute-names -n user.DOSATTRIB /srv/tt-smbsrv/ks-hs.txt >/dev/null
getfattr --absolute-names -n user.DOSATTRIB /srv/tt-ksmbd/ss-hs.txt >/dev/null'
attrs() { # PORT NAME: the attribute letters smbclient's allinfo shows
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
t_guest "rm -f /srv/tt-smbsrv/*.txt /srv/tt-ksmbd/*.txt" > /dev/null

tt_run smb2.getinfo smb2.setinfo smb2.dir smb2.rename smb2.scan.getinfo \
	smb2.scan.setinfo smb2.scan.find smb2.compound smb2.timestamps \
	smb2.dosmode
# Still failing on smbsrv (see the table and Documentation/testing.md;
# ksmbd fails them too): getinfo.complex needs named streams; setinfo.setinfo
# sets a security descriptor (acl_xattr); getinfo.normalized opens by an
# 8.3 name; compound.compound-padding needs named streams;
# timestamps.delayed-2write compares the server's close time with the
# client's clock (host and guest clocks).  timestamps.test_close_not_attrib
# names its file "smb2-timestamps/testfile.dat": '/' separates as Samba
# and ksmbd take it (Windows refuses it).
tt_must_pass \
	smb2.compound.compound-break smb2.compound.create-write-close \
	smb2.compound.invalid1 smb2.compound.invalid2 smb2.compound.invalid3 \
	smb2.compound.invalid4 smb2.compound.interim1 smb2.compound.interim2 \
	smb2.compound.related1 smb2.compound.related2 smb2.compound.related3 \
	smb2.compound.related4 smb2.compound.related5 smb2.compound.related6 \
	smb2.compound.related7 smb2.compound.related8 smb2.compound.related9 \
	smb2.compound.unrelated1 \
	smb2.dir.file-index smb2.dir.find smb2.dir.fixed smb2.dir.large-files \
	smb2.dir.many smb2.dir.modify smb2.dir.sorted smb2.dir.one \
	smb2.dosmode.dosmode \
	smb2.getinfo.fsinfo smb2.getinfo.getinfo_access smb2.getinfo.granted \
	smb2.getinfo.qfile_buffercheck smb2.getinfo.qfs_buffercheck \
	smb2.getinfo.qsec_buffercheck \
	smb2.rename.close-full-information smb2.rename.msword \
	smb2.rename.no_sharing smb2.rename.rename_dir_bench \
	smb2.rename.rename_dir_openfile \
	smb2.rename.share_delete_and_delete_access \
	smb2.rename.no_share_delete_but_delete_access \
	smb2.rename.no_share_delete_no_delete_access \
	smb2.rename.share_delete_no_delete_access smb2.rename.simple \
	smb2.rename.simple_nodelete smb2.scan.find.find \
	smb2.scan.getinfo.getinfo smb2.scan.setinfo.setinfo \
	smb2.timestamps.time_t_15032385535 smb2.timestamps.time_t_10000000000 \
	smb2.timestamps.time_t_4294967295 smb2.timestamps.time_t_1 \
	smb2.timestamps.time_t_0 smb2.timestamps.time_t_-1 \
	smb2.timestamps.time_t_-2 smb2.timestamps.time_t_1968 \
	smb2.timestamps.freeze-thaw smb2.timestamps.delayed-write-vs-seteof \
	smb2.timestamps.delayed-write-vs-flush \
	smb2.timestamps.delayed-write-vs-setbasic smb2.timestamps.delayed-1write \
	smb2.timestamps.test_close_not_attrib
tt_table
t_dmesg_clean
t_done
