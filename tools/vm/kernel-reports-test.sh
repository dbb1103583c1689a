#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Self-test of tools/vm/kernel-reports.awk on made-up consoles, with each
# awk the harness uses (the host's, and busybox's as in the guest's
# dmesg_bad): a report in the in-tree ksmbd's code alone is listed as
# ksmbd's and left out of the guest's check; one naming smbsrv, alone or
# beside ksmbd, is counted and kept; a report's end gives the following
# lines back.  Prints what failed; exits 1 if anything did.
awk_prog=$(dirname "$0")/kernel-reports.awk
fail=0

console() {
	cat <<'CONSOLE'
[    1.000000] SMBSRV-VM-READY
[    2.000000] ==================================================================
[    2.000001] BUG: KASAN: slab-out-of-bounds in _copy_from_iter+0x8f1/0x1840
[    2.000002] Read of size 8 at addr ff11000001e7d3c0 by task kworker/0:3/294
[    2.000003] Workqueue: ksmbd-io handle_ksmbd_work [ksmbd]
[    2.000004]  ksmbd_conn_write+0x267/0x3c0 [ksmbd]
[    2.000005] Allocated by task 294:
[    2.000006]  smb2_read+0x79c/0x11f0 [ksmbd]
[    2.000007] ==================================================================
[    3.000000] smbsrv: a line between reports
[    4.000000] WARNING: CPU: 1 PID: 7 at kmod/conn.c:10 smbsrv_conn_put+0x1/0x2 [smbsrv]
[    4.000001] Call Trace:
[    4.000002]  smbsrv_conn_put+0x1/0x2 [smbsrv]
[    4.000003] ---[ end trace 0000000000000000 ]---
[    5.000000] smbsrv: after the warning
[    6.000000] ======================================================
[    6.000001] WARNING: possible circular locking dependency detected
[    6.000002]  ksmbd_vfs_write+0x1/0x2 [ksmbd]
[    6.000003]  smbsrv_vfs_write+0x1/0x2 [smbsrv]
CONSOLE
}

for a in awk "busybox awk"; do
	command -v "${a%% *}" >/dev/null || continue
	if [ "$a" = "busybox awk" ] && ! busybox awk 'BEGIN {}' 2>/dev/null; then
		continue
	fi
	got=$(console | $a -f "$awk_prog" | grep '^=== ')
	want="=== ksmbd's: BUG: KASAN: slab-out-of-bounds in _copy_from_iter+0x8f1/0x1840
=== WARNING: CPU: 1 PID: 7 at kmod/conn.c:10 smbsrv_conn_put+0x1/0x2 [smbsrv]
=== WARNING: possible circular locking dependency detected"
	if [ "$got" != "$want" ]; then
		printf '%s: reports:\n%s\nwanted:\n%s\n' "$a" "$got" "$want"
		fail=1
	fi
	got=$(console | $a -v pass=1 -f "$awk_prog")
	for line in "SMBSRV-VM-READY" "smbsrv: a line between reports" \
		"kernel-reports: one of ksmbd's reports left out" \
		"smbsrv_conn_put+0x1/0x2 [smbsrv]" "smbsrv: after the warning" \
		"WARNING: possible circular locking dependency detected" \
		"smbsrv_vfs_write+0x1/0x2 [smbsrv]"; do
		if ! grep -qF -- "$line" <<< "$got"; then
			echo "$a -v pass=1: lost \"$line\""
			fail=1
		fi
	done
	if grep -qE 'KASAN|\[ksmbd\].*$' <<< "$(grep -v circular <<< "$got" | grep -v 'ksmbd_vfs_write')"; then
		echo "$a -v pass=1: ksmbd's report not left out:"
		echo "$got"
		fail=1
	fi
done
exit $fail
