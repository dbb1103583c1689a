#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Windows file semantics (issue 12) under smbtorture, on the share the
# issue describes, set up the way many existing ksmbd.conf files are:
# `create mask = 0666`, `directory mask = 0777`, `store dos attributes =
# yes`, `vfs objects = streams_xattr acl_xattr`, the share root owned by
# root with mode 0777, logged on as the unprivileged user demo; smbsrv
# and, in the same boot, the in-tree ksmbd and Samba's smbd (torture.bash,
# the VM image with Samba).  The side-by-side table goes to
# build/test-logs/torture-torture-ntfs.txt and into this log; the
# subtests smbsrv passes are asserted so they stay passing, and per suite
# that smbsrv passes at least as many as ksmbd (but in maximum_allowed)
# and as Samba.  4 to 6 minutes on a quiet host, 17 to 22 under load:
# run with `make check-long` or directly.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/../host/torture.bash"

export SMBSRV_VM_SAMBA=1
TT_SAMBA=1
# Samba's smb2.dir takes about 4 minutes of TCG guest by itself.
TT_TIMEOUT=900
TT_ROOT="root:root 0777"
# What Samba 4.17 does by default and ksmbd.conf sets with three global
# lines (ksmbd's defaults are no): leases, durable handles, multichannel.
# Both ksmbd-style servers get them, so the three are compared alike
# (lock.replay_smb3_specification_durable asks for a lease and a durable
# handle, _multi for the multichannel capability and a lease).
TT_SMBSRV_CONF="smb2 leases = yes
	durable handles = yes
	server multi channel support = yes"
TT_KSMBD_CONF=$TT_SMBSRV_CONF
TT_SHARE_CONF="create mask = 0666
	directory mask = 0777
	store dos attributes = yes
	vfs objects = streams_xattr acl_xattr"
# smb2.dosmode expects Samba's selftest share: "hide files" (ksmbd has no
# such parameter).
TT_SMBSRV_SHARE_CONF="hide files = /hidefile/"
TT_SAMBA_SHARE_CONF="hide files = /hidefile/"
# acls.ACCESSBASED lists a directory on a share named hideunread.
TT_MORE_CONF="[hideunread]
	path = /srv/tt-hide
	read only = no
	hide unreadable = yes
	$TT_SHARE_CONF"

t_vm_start
t_guest_check "the hideunread share's directory, root's, mode 0777" '
mkdir -p /srv/tt-hide && chown root:root /srv/tt-hide && chmod 0777 /srv/tt-hide'
tt_servers_up
# timestamps.delayed-2write wants the server's close time later than the
# client's clock when it sent the CLOSE, as on a network whose clocks
# agree.  The guest boots from the RTC, to the second: up to a second
# behind the host (measured 0.3-0.4 s), which fails it on every server;
# set 2 s ahead, smbsrv and Samba pass it (Documentation/testing.md).
t_guest_check "the guest clock 2 s ahead of the host's" \
	"date -s @$(($(date +%s) + 2)) >/dev/null"

suites="smb2.connect smb2.lock smb2.sharemode smb2.streams smb2.timestamps
	smb2.dosmode smb2.create.aclfile smb2.create.acldir smb2.create.nulldacl
	smb2.acls smb2.maximum_allowed smb2.charset smb2.dir"
# shellcheck disable=SC2086
tt_run $suites
# user.DOSATTRIB moving between ksmbd and smbsrv is host/torture-meta's.
# What smbsrv passes (83 with leases, durable handles and multichannel on;
# ksmbd 33, Samba 4.17 81).  Still failing, with reasons in
# Documentation/testing.md: charset.partial_surrogate, lock.replay_broken_
# windows (resilient handles; skipped), maximum_allowed (GENERIC_EXECUTE)
# and streams.rename2.
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
	smb2.lock.overlap smb2.lock.range \
	smb2.lock.replay_smb3_specification_durable \
	smb2.lock.replay_smb3_specification_multi smb2.lock.rw-exclusive \
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
	smb2.timestamps.delayed-1write smb2.timestamps.delayed-2write \
	smb2.timestamps.delayed-write-vs-flush \
	smb2.timestamps.delayed-write-vs-setbasic \
	smb2.timestamps.delayed-write-vs-seteof \
	smb2.timestamps.freeze-thaw smb2.timestamps.time_t_-1 \
	smb2.timestamps.time_t_-2 smb2.timestamps.time_t_0 \
	smb2.timestamps.time_t_1 smb2.timestamps.time_t_10000000000 \
	smb2.timestamps.time_t_15032385535 smb2.timestamps.time_t_1968 \
	smb2.timestamps.time_t_4294967295 smb2.timestamps.test_close_not_attrib \
	smb2.acls.ACCESSBASED smb2.acls.CREATOR smb2.acls.DENY1 \
	smb2.acls.DYNAMIC smb2.acls.GENERIC smb2.acls.INHERITANCE \
	smb2.acls.INHERITFLAGS smb2.acls.MXAC-NOT-GRANTED \
	smb2.acls.OVERWRITE_READ_ONLY_FILE smb2.acls.OWNER \
	smb2.acls.OWNER-RIGHTS smb2.acls.OWNER-RIGHTS-DENY \
	smb2.acls.OWNER-RIGHTS-DENY1 smb2.acls.SDFLAGSVSCHOWN \
	smb2.create.acldir.acldir smb2.create.aclfile.aclfile \
	smb2.create.nulldacl.nulldacl
# Per suite, at least as many as ksmbd, but for maximum_allowed (ksmbd
# grants MAXIMUM_ALLOWED | GENERIC_EXECUTE on a DACL without FILE_EXECUTE;
# Samba fails it too) ...
# shellcheck disable=SC2046,SC2086
tt_not_behind ksmbd $(echo $suites | tr ' ' '\n' | grep -vx smb2.maximum_allowed)
# ... and as Samba, in every suite.
# shellcheck disable=SC2086
tt_not_behind samba $suites
tt_table
t_dmesg_clean
t_done
