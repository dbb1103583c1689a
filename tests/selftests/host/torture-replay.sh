#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbtorture's replay and async-compound suites against smbsrv and, in the
# same boot, the in-tree ksmbd and Samba's smbd (torture.bash), all three
# with leases and durable handles (smbsrv and Samba with multichannel):
# smb2.replay (durable v2 CREATE replays, pending replays, ChannelSequence
# on WRITE, SET_INFO, IOCTL and LOCK), smb2.compound_async and
# smb2.compound_find.  The side-by-side table goes to
# build/test-logs/torture-torture-replay.txt and into this log; the
# subtests smbsrv passes are asserted.  make check runs smbsrv alone (the
# rivals' runs take most of the time); TT_FULL=1 (`make torture-replay`)
# runs all three for the table in testing.md.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/torture.bash"

TT_TIMEOUT=${TT_TIMEOUT:-900}
if [ -n "${TT_FULL:-}" ]; then
	TT_SAMBA=1
	SMBSRV_VM_SAMBA=1
	export SMBSRV_VM_SAMBA
else
	TT_SMBSRV_ONLY=1
fi
TT_KSMBD_CONF="smb2 leases = yes
	durable handles = yes"
# smb2 max trans 8M: compound_find_close lists 5,000 names in one
# 8 MiB QUERY_DIRECTORY (Samba's default maximum; above it MS-SMB2 wants
# STATUS_INVALID_PARAMETER).
TT_SMBSRV_CONF="$TT_KSMBD_CONF
	server multi channel support = yes
	smb2 max trans = 8M"
# Samba keeps durable handles only without kernel share modes, kernel
# oplocks and POSIX locking.
TT_SAMBA_SHARE_CONF="kernel share modes = no
	kernel oplocks = no
	posix locking = no"

t_vm_start
tt_servers_up
tt_run smb2.compound_async smb2.compound_find smb2.replay
# Passing on smbsrv (Documentation/testing.md has the table): the async
# compounds, the directory ones, the durable v2 replays (CreateAction,
# caching as it is now, mismatches refused), the replays of a CREATE
# still waiting for a break, on one channel (pending1) and on another
# after the first went (pending2), in the answer Samba gives
# (STATUS_FILE_NOT_AVAILABLE: the "sane" ones; Windows' "windows" ones
# cannot pass with them), and ChannelSequence.  pending3 blocks the
# client's transport in a way smbtorture cannot here (as on Samba).
tt_must_pass \
	smb2.compound_async.flush_close smb2.compound_async.flush_flush \
	smb2.compound_find.compound_find_related \
	smb2.compound_find.compound_find_unrelated \
	smb2.compound_find.compound_find_close \
	smb2.replay.replay-commands smb2.replay.replay-regular \
	smb2.replay.replay-dhv2-oplock1 smb2.replay.replay-dhv2-oplock2 \
	smb2.replay.replay-dhv2-oplock3 \
	smb2.replay.replay-dhv2-oplock-lease smb2.replay.replay-dhv2-lease1 \
	smb2.replay.replay-dhv2-lease2 smb2.replay.replay-dhv2-lease3 \
	smb2.replay.replay-dhv2-lease-oplock \
	smb2.replay.dhv2-pending1n-vs-violation-lease-close-sane \
	smb2.replay.dhv2-pending1n-vs-violation-lease-ack-sane \
	smb2.replay.dhv2-pending1n-vs-oplock-sane \
	smb2.replay.dhv2-pending1n-vs-lease-sane \
	smb2.replay.dhv2-pending1l-vs-oplock-sane \
	smb2.replay.dhv2-pending1l-vs-lease-sane \
	smb2.replay.dhv2-pending1o-vs-oplock-sane \
	smb2.replay.dhv2-pending1o-vs-lease-sane \
	smb2.replay.dhv2-pending2n-vs-oplock-sane \
	smb2.replay.dhv2-pending2n-vs-lease-sane \
	smb2.replay.dhv2-pending2l-vs-oplock-sane \
	smb2.replay.dhv2-pending2l-vs-lease-sane \
	smb2.replay.dhv2-pending2o-vs-oplock-sane \
	smb2.replay.dhv2-pending2o-vs-lease-sane \
	smb2.replay.channel-sequence smb2.replay.replay3 \
	smb2.replay.replay4 smb2.replay.replay6 smb2.replay.replay7
tt_table
t_dmesg_clean
t_done
