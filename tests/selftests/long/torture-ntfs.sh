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

# user.DOSATTRIB moving between ksmbd and smbsrv is host/torture-meta's.
tt_run smb2.connect smb2.lock smb2.sharemode smb2.streams smb2.timestamps \
	smb2.dosmode smb2.charset smb2.dir
# What smbsrv passed at 5243715 (62, ksmbd 35).  Still failing:
# charset.partial_surrogate, lock.replay_* (no replay detection),
# streams.rename2, timestamps.test_close_not_attrib ("/" in a name) and
# timestamps.delayed-2write (the server's close time against the
# client's clock); see host/torture-meta.sh.
tt_must_pass \
	'smb2.charset.Testing_composite_character_(a_umlaut)' \
	'smb2.charset.Testing_naked_diacritical_(umlaut)' \
	smb2.charset.Testing_wide-a smb2.connect.connect \
	smb2.dir.file-index smb2.dir.find smb2.dir.fixed \
	smb2.dir.large-files smb2.dir.many smb2.dir.modify smb2.dir.one \
	smb2.dir.sorted smb2.dosmode.dosmode smb2.lock.async \
	smb2.lock.auto-unlock smb2.lock.cancel smb2.lock.cancel-logoff \
	smb2.lock.cancel-tdis smb2.lock.contend smb2.lock.context \
	smb2.lock.errorcode smb2.lock.lock smb2.lock.multiple-unlock \
	smb2.lock.overlap smb2.lock.range smb2.lock.rw-exclusive \
	smb2.lock.rw-shared smb2.lock.stacking smb2.lock.truncate \
	smb2.lock.unlock smb2.lock.valid-request smb2.lock.zerobytelength \
	smb2.lock.zerobyteread smb2.sharemode.access-sharemode \
	smb2.sharemode.bug14375 smb2.sharemode.sharemode-access \
	smb2.streams.attributes1 smb2.streams.attributes2 \
	smb2.streams.basefile-rename-with-open-stream \
	smb2.streams.create-disposition smb2.streams.delete \
	smb2.streams.dir smb2.streams.io smb2.streams.names \
	smb2.streams.names2 smb2.streams.names3 smb2.streams.rename \
	smb2.streams.sharemodes smb2.streams.zero-byte \
	smb2.timestamps.delayed-1write \
	smb2.timestamps.delayed-write-vs-flush \
	smb2.timestamps.delayed-write-vs-setbasic \
	smb2.timestamps.delayed-write-vs-seteof \
	smb2.timestamps.freeze-thaw smb2.timestamps.time_t_-1 \
	smb2.timestamps.time_t_-2 smb2.timestamps.time_t_0 \
	smb2.timestamps.time_t_1 smb2.timestamps.time_t_10000000000 \
	smb2.timestamps.time_t_15032385535 smb2.timestamps.time_t_1968 \
	smb2.timestamps.time_t_4294967295
tt_table
t_dmesg_clean
t_done
