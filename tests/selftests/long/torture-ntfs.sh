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
tt_table
t_dmesg_clean
t_done
