#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbtorture's client caching suites against smbsrv and, in the same boot,
# the in-tree ksmbd (torture.bash), both with `smb2 leases = yes` and
# `durable handles = yes` (and streams_xattr): the side-by-side table goes
# to build/test-logs/torture-torture-cache.txt and into this log.
#
# In make check (smbsrv only; its cost is in Documentation/testing.md):
# smb2.durable-open and
# smb2.durable-v2-open whole, and the oplock and lease subtests below one
# by one, each asserted; smb2.oplock and smb2.lease whole take some 6
# minutes per server under TCG (a few subtests wait out the 35 s break
# timeout).  `make torture-cache` (TT_FULL=1) runs smb2.oplock, smb2.lease,
# smb2.durable-open, smb2.durable-v2-open and smb2.session whole on both
# servers and asserts every subtest smbsrv passes (Documentation/testing.md
# has the table).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/torture.bash"

TT_TIMEOUT=${TT_TIMEOUT:-900}
TT_KSMBD_CONF="smb2 leases = yes
	durable handles = yes"
# And multichannel on smbsrv (session binding, LockSequence on every open).
TT_SMBSRV_CONF="$TT_KSMBD_CONF
	server multi channel support = yes"
TT_SHARE_CONF="vfs objects = streams_xattr"

# What smbsrv passes: asserted in the full run (all) and in make check
# (those that make check runs).
oplock_pass="exclusive1 exclusive2 exclusive3 exclusive4 exclusive5
	exclusive6 exclusive9 batch1 batch2 batch3 batch4 batch5 batch6 batch7
	batch8 batch9 batch9a batch10 batch11 batch12 batch13 batch14 batch15
	batch16 batch19 batch20 batch21 batch22a batch23 batch24 batch25
	batch26 stream1 doc brl1 brl2 brl3 levelii500 levelii501 levelii502
	statopen1"
lease_pass="break_twice nobreakself statopen statopen2 statopen3
	statopen4 upgrade upgrade2 upgrade3 break oplock multibreak breaking1
	breaking2 breaking3 v2_breaking3 breaking4 breaking5 breaking6 lock1
	complex1 v2_epoch1 v2_epoch2 v2_epoch3 v2_complex1 v2_complex2 v2_rename
	timeout timeout-disconnect duplicate_create duplicate_open v1_bug15148
	v2_bug15148 request v2_request v2_request_parent"
durable_pass="open-oplock open-lease reopen1 reopen1a reopen1a-lease
	reopen2 reopen2-lease reopen2-lease-v2 reopen2a reopen3 reopen4
	delete_on_close1 delete_on_close2 file-position oplock lease lock-oplock
	lock-lease open2-lease open2-oplock alloc-size read-only stat-open"
durable_v2_pass="create-blob open-oplock open-lease reopen1 reopen1a
	reopen1a-lease reopen2 reopen2b reopen2c reopen2-lease reopen2-lease-v2
	durable-v2-setinfo persistent-open-oplock persistent-open-lease"
session_pass="reconnect1 reconnect2 reauth1 reauth2 reauth3 reauth4 reauth6
	two_logoff signing-hmac-sha-256 signing-aes-128-cmac
	signing-aes-128-gmac encryption-aes-128-ccm encryption-aes-128-gcm
	encryption-aes-256-ccm encryption-aes-256-gcm ntlmssp_bug14932
	$(for n in 210s 210d 2to3s 2to3d 3to2s 3to2d 3to3s 3to3d 3encGtoCs \
		3encGtoCd 3signCtoGs 3signCtoGd 3signHtoGs 3signHtoGd \
		3signGtoCs 3signGtoCd 3signGtoHs 3signGtoHd 3sneGtoCs \
		3sneGtoCd 3sneGtoHs 3sneGtoHd 3sneCtoGs 3sneCtoGd 3sneHtoGs \
		3sneHtoGd 3signC30toGs 3signC30toGd 3signH2XtoGs \
		3signH2XtoGd 3signGtoC30s 3signGtoC30d 3signGtoH2Xs \
		3signGtoH2Xd; do echo "bind_negative_smb$n"; done)"
# In make check: quick ones that cover grants, breaks, acknowledgments,
# upgrades, epochs, waiting, streams and byte-range locks.
oplock_quick="exclusive1 exclusive4 exclusive5 batch1 batch9 batch10
	batch19 stream1 doc brl3 levelii500 statopen1"
lease_quick="upgrade2 breaking1 breaking3 v2_epoch2
	v2_complex2 statopen3 nobreakself"

# "smb2.SUITE.a smb2.SUITE.b ..." for SUITE and the names given.
names() {
	local suite=$1 n
	shift
	for n in $*; do echo "smb2.$suite.$n"; done
}

# What smbtorture calls a subtest run alone: smb2.SUITE.a.a.
alone() {
	local suite=$1 n
	shift
	for n in $*; do echo "smb2.$suite.$n.$n"; done
}

t_vm_start
tt_servers_up
if [ -n "${TT_FULL:-}" ]; then
	tt_run smb2.oplock smb2.lease smb2.durable-open smb2.durable-v2-open \
		smb2.session
	# shellcheck disable=SC2046
	tt_must_pass $(names oplock "$oplock_pass") \
		$(names lease "$lease_pass") \
		$(names durable-open "$durable_pass") \
		$(names durable-v2-open "$durable_v2_pass") \
		$(names session "$session_pass")
else
	TT_SMBSRV_ONLY=1
	tt_run smb2.durable-open smb2.durable-v2-open
	# shellcheck disable=SC2046
	tt_run $(names oplock "$oplock_quick") $(names lease "$lease_quick")
	# shellcheck disable=SC2046
	tt_must_pass $(alone oplock "$oplock_quick") \
		$(alone lease "$lease_quick") \
		$(names durable-open "$durable_pass") \
		$(names durable-v2-open "$durable_v2_pass")
fi
# LockSequence on a durable handle (MS-SMB2 3.3.5.14): a LOCK or unlock
# repeating one that succeeded with the same index and number is answered
# success and not done again (about 2 s).
tt_run smb2.lock.replay_smb3_specification_durable
tt_must_pass \
	smb2.lock.replay_smb3_specification_durable.replay_smb3_specification_durable
# Multichannel: smbtorture binds channels (bind1, bind2: one channel's
# connection dropped, the session goes on over the others; a bind with a
# wrong password refused, the session unharmed), 33 channels of which the
# last gets STATUS_INSUFFICIENT_RESOURCES, and LockSequence on a plain
# open over a second channel (3.3.5.14).
TT_SMBSRV_ONLY=1
tt_run smb2.session.bind1 smb2.session.bind2 smb2.session.bind_invalid_auth \
	smb2.multichannel.generic.num_channels \
	smb2.lock.replay_smb3_specification_multi
tt_must_pass smb2.session.bind1.bind1 smb2.session.bind2.bind2 \
	smb2.session.bind_invalid_auth.bind_invalid_auth \
	smb2.multichannel.generic.num_channels \
	smb2.lock.replay_smb3_specification_multi.replay_smb3_specification_multi
tt_table
t_dmesg_clean
t_done
