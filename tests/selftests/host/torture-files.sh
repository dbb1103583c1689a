#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbtorture's CREATE, READ/WRITE, sharing, delete-on-close, name and
# open-file-limit suites, logged on as demo, against smbsrv and, in the
# same boot, the in-tree ksmbd (torture.bash):
# the side-by-side table goes to build/test-logs/torture-torture-files.txt
# and into this log; the subtests smbsrv passes today are asserted so
# they stay passing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/torture.bash"

TT_SMBSRV_CONF="max open files = 1000"
TT_KSMBD_CONF="max open files = 1000"
TT_OPTIONS="--option=torture:maxopenfiles=1100"

t_vm_start
tt_servers_up
tt_run smb2.create smb2.read smb2.rw smb2.sharemode smb2.maxfid smb2.deny \
	smb2.delete-on-close-perms smb2.maximum_allowed smb2.mkdir smb2.fileid \
	smb2.twrp smb2.charset smb2.openattr
# Still failing on smbsrv, with reasons in Documentation/testing.md:
# create.gentest (smbsrv refuses the single access bits Windows 7 refuses,
# 0x0de0fe00; the test expects later Windows' 0x0df0fe00), quota-fake-file,
# acl*, nulldacl, maximum_allowed and delete-on-close-perms.*_Existing
# (NT ACLs beyond the POSIX mode), fileid.fileid* (named streams),
# rw.invalid (wants STATUS_DISK_FULL at 16 TiB), two charset cases and
# twrp.listdir (snapshots).
tt_must_pass \
	smb2.create.open smb2.create.multi smb2.create.blob \
	smb2.create.brlocked \
	smb2.create.delete \
	smb2.create.leading-slash smb2.create.impersonation \
	smb2.create.mkdir-dup smb2.create.dir-alloc-size \
	smb2.create.dosattr_tmp_dir smb2.create.bench-path-contention-shared \
	smb2.read.eof smb2.read.dir smb2.read.access smb2.read.position \
	smb2.rw.rw1 smb2.rw.rw2 \
	smb2.sharemode.sharemode-access smb2.sharemode.access-sharemode \
	smb2.sharemode.bug14375 smb2.maxfid.maxfid \
	smb2.deny.deny1 smb2.deny.deny2 smb2.mkdir.mkdir \
	smb2.delete-on-close-perms.BUG14427 \
	smb2.delete-on-close-perms.CREATE \
	smb2.delete-on-close-perms.CREATE_Existing \
	smb2.delete-on-close-perms.CREATE_IF \
	smb2.delete-on-close-perms.OVERWRITE_IF \
	smb2.delete-on-close-perms.FIND_and_set_DOC \
	smb2.delete-on-close-perms.READONLY \
	smb2.fileid.unique smb2.fileid.unique-dir smb2.openattr.openattr \
	"smb2.charset.Testing_composite_character_(a_umlaut)" \
	"smb2.charset.Testing_naked_diacritical_(umlaut)"
tt_table
t_dmesg_clean
t_done
