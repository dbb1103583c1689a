#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbtorture's client caching suites (oplock, lease, durable-open,
# durable-v2-open) against smbsrv and, in the same boot, the in-tree ksmbd
# (torture.bash), both with `smb2 leases = yes` and `durable handles =
# yes`: the side-by-side table goes to
# build/test-logs/torture-torture-cache.txt and into this log; the
# subtests smbsrv passes are asserted so they stay passing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/torture.bash"

TT_TIMEOUT=${TT_TIMEOUT:-900}
TT_SMBSRV_CONF="smb2 leases = yes
	durable handles = yes"
TT_KSMBD_CONF="$TT_SMBSRV_CONF"
TT_SHARE_CONF="vfs objects = streams_xattr"

t_vm_start
tt_servers_up
tt_run ${TT_SUITES:-smb2.oplock smb2.lease smb2.durable-open smb2.durable-v2-open}
tt_table
t_dmesg_clean
t_done
