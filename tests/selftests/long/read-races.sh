#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The READ path's races for 30 s each (RACE_SECONDS), outside make check
# (make check runs them for 5 s in host/read.sh): READs of files being
# truncated and hole-punched on tmpfs and on ext4, READs while
# drop_caches runs in a loop, a client that stops reading its socket
# while others read on; then the module unloads cleanly.  Before them,
# every file of 0 B to 64 MiB through plain, signed, sealed and SMB 2.1
# mounts.  One boot; run with `make check-long` or directly.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/../host/read.bash"

secs=${RACE_SECONDS:-30}

t_vm_start
rd_setup
tmp=$(mktemp -d)
$RD_PY -c "import sys; sys.stdout.buffer.write(bytes((i * 7) % 251 for i in range((1 << 20) + 3)))" \
	> "$tmp/pattern"
t_check "pattern file put through smbclient" \
	smbclient //127.0.0.1/t -p "$T_SMB_PORT" -U demo%demo -c "put $tmp/pattern pattern"
rm -rf "$tmp"
rd_files
for o in "" sign seal vers=2.1; do
	rd_read_all e "$o" 64
done
rd_mount t ""
rd_mount e ""
rd_race_truncate "$secs" t
rd_race_truncate "$secs" e
rd_race_evict "$secs" e
rd_race_stall "$secs"
t_diag "$(t_guest 'smbsrvctl stats | tail -n 5')"
rd_unload
t_done
