#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The READ path (Documentation/design.md, "The READ path") through real
# clients, splice threshold 4 KiB, one boot (read.bash does the work):
# cifs mounts (plain, sign, seal, vers=2.1) read files of 0 B to 64 MiB
# and sparse files back md5-exact after dropping caches, from tmpfs and
# from ext4 on a loop device (where drop_caches really evicts); impacket
# and raw PDUs (read.py) check what a spliced READ answers, that READs
# in a compound and of a named stream are copied (the counters say so,
# by reason) and FILE_NO_INTERMEDIATE_BUFFERING; splice threshold and
# inline reads switched live, seen in the counters; smbtorture smb2.read
# and smb2.rw; the races of long/read-races.sh as a short smoke (5 s
# each); smbsrvd stopped and rmmod clean.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/read.bash"

t_vm_start
rd_setup

# Files the python checks read (made on the host, sent through smbclient).
tmp=$(mktemp -d)
$RD_PY -c "import sys; sys.stdout.buffer.write(bytes((i * 7) % 251 for i in range((1 << 20) + 3)))" \
	> "$tmp/pattern"
head -c 40000 "$tmp/pattern" > "$tmp/s40k"
t_check "pattern file and a 40000-byte stream put through smbclient" \
	smbclient //127.0.0.1/t -p "$T_SMB_PORT" -U demo%demo -c "put $tmp/pattern pattern"
t_check "... and a named stream of 40000 bytes" \
	smbclient //127.0.0.1/st -p "$T_SMB_PORT" -U demo%demo \
	-c "put $tmp/s40k s; put $tmp/s40k s:data"
rm -rf "$tmp"

rd_files
t_guest_check "counters at rest: nothing spliced, no pages held" "
. /tmp/rd.sh; test \$(rs spliced) = 0 && test \$(rs pages) = 0"
# 0 B to 8 MiB and the sparse files through every kind of mount; 64 MiB
# through plain and sealed ones (long/read-races.sh: through all four).
rd_read_all e "" 64
rd_read_all e sign 8
rd_read_all e seal 64
rd_read_all e vers=2.1 8
t_guest_check "the mounts' READs were spliced (>= 2 x 64 MiB), no splice failed, no page held" "
set -e
. /tmp/rd.sh
smbsrvctl stats | tail -n 5
test \$(rs spliced_bytes) -ge 134217728
test \$(rs copy_error) = 0
test \$(rs copy_nocache) = 0
test \$(rs pages) = 0"
t_guest_check "READs below the threshold (1000 bytes) are copied (reason small), the file's bytes" "
set -e
. /tmp/rd.sh
c=\$(rs copy_small) p=\$(rs spliced)
dd if=/mnt/e/f65537 of=/tmp/small bs=1000 count=5 2>/dev/null
head -c 5000 /srv/e/f65537 | cmp - /tmp/small
test \$(rs copy_small) = \$((c + 5))
test \$(rs spliced) = \$p"
t_guest_check "inline reads served cached READs and handed uncached ones (after drop_caches) to workers" "
. /tmp/rd.sh; test \$(rs inline_hits) -gt 0 && test \$(rs inline_misses) -gt 0"

t_checks $RD_PY "$RD_CHECKS" "$T_SMB_PORT" t splice demo demo

t_guest_check "note the counters" ". /tmp/rd.sh; rs copy_compound > /tmp/c0; rs copy_stream > /tmp/s0; rs spliced > /tmp/p0"
t_checks $RD_PY "$RD_CHECKS" "$T_SMB_PORT" t compound demo demo
t_guest_check "the 4 READs inside compounds were copied (reason compound), none spliced" "
. /tmp/rd.sh
test \$(rs copy_compound) = \$((\$(cat /tmp/c0) + 4)) && test \$(rs spliced) = \$(cat /tmp/p0)"
t_checks $RD_PY "$RD_CHECKS" "$T_SMB_PORT" st stream demo demo
t_guest_check "the 2 READs of a named stream were copied (reason stream)" "
. /tmp/rd.sh; test \$(rs copy_stream) = \$((\$(cat /tmp/s0) + 2))"

# Both knobs switched live; the counters show each READ's way.
rd_mount t ""
t_guest_check "splice-threshold 0 live: a 1 MiB READ is copied (reason off), then 4K: spliced again" "
set -e
. /tmp/rd.sh
smbsrvctl set splice-threshold 0 >/dev/null
smbsrvctl status | grep -E 'splice threshold +0( |\$)'
p=\$(rs spliced) o=\$(rs copy_off)
test \$(rmd5 /mnt/t/f1048579) = \$(lmd5 /srv/t/f1048579)
test \$(rs spliced) = \$p
test \$(rs copy_off) -ge \$((o + 2))
smbsrvctl set splice-threshold 4K >/dev/null
test \$(rmd5 /mnt/t/f1048579) = \$(lmd5 /srv/t/f1048579)
test \$(rs spliced) -ge \$((p + 2))"
t_guest_check "inline-reads no live: cached READs go to workers; yes: served inline again" "
set -e
. /tmp/rd.sh
smbsrvctl set inline-reads no >/dev/null
smbsrvctl status | grep -E 'inline reads +no( |\$)'
h=\$(rs inline_hits) m=\$(rs inline_misses)
rmd5 /mnt/t/f8388613 >/dev/null
test \$(rs inline_hits) = \$h
test \$(rs inline_misses) = \$m
smbsrvctl set inline-reads yes >/dev/null
rmd5 /mnt/t/f8388613 >/dev/null
test \$(rs inline_hits) -ge \$((h + 8))"

# smbtorture's READ and READ/WRITE suites against the splice path.
tt_log=$(mktemp)
timeout 600 smbtorture //127.0.0.1/t -p "$T_SMB_PORT" -U demo%demo smb2.read smb2.rw \
	> "$tt_log" 2>&1
for t in eof position dir access rw1 rw2; do
	if grep -qE "^success: $t\$" "$tt_log"; then
		t_ok "smbtorture smb2.read/rw $t passes with splice threshold 4K"
	else
		t_not_ok "smbtorture smb2.read/rw $t passes with splice threshold 4K"
		grep -A3 -E "^(failure|error): $t" "$tt_log" | head -n 6 | sed 's/^/# /'
	fi
done
rm -f "$tt_log"
t_guest_check "smbtorture's READs were spliced too" ". /tmp/rd.sh; test \$(rs spliced) -gt \$(cat /tmp/p0)"

# The races of long/read-races.sh, 5 s each.
rd_race_truncate 5 t
rd_race_truncate 5 e
rd_race_evict 5 e
# The stall must outlast the frame timeout (5 s) after the server filled
# every buffer on the way, which a slow kernel (VM_SLOW: the debug one)
# takes longer to do: there 8 s of stall ended before the server had
# waited 5 s, and it answered every READ.
rd_race_stall $((8 * VM_SLOW))
# A client stalling mid-frame while its receive waits in the socket for
# the rest of a large frame (design.md, "Where a request runs"): after a
# WRITE answered alone, the receive runs unbound (a kprobe shows it on an
# unbound kworker) and waits there.
T=/sys/kernel/tracing
t_guest_check "a kprobe on the unbound receive work" "
[ -d $T/events ] || mount -t tracefs tracefs $T
echo 0 > $T/tracing_on; echo > $T/trace
echo 'p:rs/unbound smbsrv_recv_unbound_work' > $T/kprobe_events
echo 1 > $T/events/rs/enable; echo 1 > $T/tracing_on"
t_checks $RD_PY "$RD_CHECKS" "$T_SMB_PORT" t wait_stall demo demo
t_check_output "the stalled WRITE frame was waited for on an unbound kworker" \
	"^unbound runs: [1-9]" vm_exec "$T_VM" \
	"echo unbound runs: \$(grep -cE '^ *kworker/u[0-9]+:.* unbound: ' $T/trace)"
t_guest_check "kprobe removed" "
echo 0 > $T/tracing_on; echo 0 > $T/events/rs/enable; echo > $T/kprobe_events"
rd_unload
t_done
