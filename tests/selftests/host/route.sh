#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Request routing and the per-queue statistics, through the kernel cifs
# client in the guest (cache=none, so every write(2) is a WRITE), on a
# connection accepted in receive mode 0 (every WRITE queued): with
# route policy percpu no WRITE reaches the unbound queue; with unbound the
# 1 MiB WRITEs do; with adaptive queue-depth-1 and 4 KiB WRITEs stay
# bound while a deep queue of 256 KiB WRITEs goes unbound; the policy is
# switched back and forth while a write stream runs; every file is checked
# byte for byte on the share; smbsrvctl stats shows both queues; the
# daemon set the unbound queue's affinity in sysfs; a connection accepted
# in receive mode 1 or 2 (recv_mode) receives on unbound kworkers, one in
# mode 0 on per-CPU ones, one in mode 3 on per-CPU ones but for the rest of
# a large WRITE, one in mode 4 on per-CPU ones but every WRITE's frame on
# unbound ones (its READs all per-CPU); with inline_writes the receive
# work runs queue-depth-1 WRITEs itself (none reaches a queue); one in
# mode 5 (the default) receives and runs queue-depth-1 1 MiB WRITEs on
# unbound kworkers (under route policy unbound they are queued there
# instead) and runs 4 KiB ones in its per-CPU receive work, its READs and
# WRITEs sent 16 at a time mostly on per-CPU ones.  One VM
# boot.
# shellcheck disable=SC2016  # guest scripts expand in the guest
. "$(dirname "$0")/lib.sh"

t_vm_start
t_guest_check "smbsrvd serves /srv/r as share r (user demo)" "
set -e
mkdir -p /srv/r /mnt/r
chown demo:demo /srv/r
cat > /etc/smbsrv/route.conf <<'EOF'
[r]
	path = /srv/r
	read only = no
EOF
echo demopass | smbsrvctl user add demo >/dev/null
dd if=/dev/urandom of=/tmp/src bs=1M count=48 2>/dev/null
smbsrvd -c /etc/smbsrv/route.conf"

wq=/sys/devices/virtual/workqueue/smbsrv-unbound
t_check_output "the unbound queue is in sysfs with affinity scope cpu (set by smbsrvd)" \
	"^cpu$" vm_exec "$T_VM" "cat $wq/affinity_scope"
t_check_output "... and not strict" \
	"^0$" vm_exec "$T_VM" "cat $wq/affinity_strict"
t_check_output "the per-CPU queue is not in sysfs (no WQ_SYSFS)" \
	"^absent$" vm_exec "$T_VM" \
	"[ -e /sys/devices/virtual/workqueue/smbsrv ] || echo absent"

# Receive modes (module parameter recv_mode, design.md "Receive modes"):
# the default, read when a connection is accepted.
rm_p=/sys/module/smbsrv/parameters/recv_mode
iw_p=/sys/module/smbsrv/parameters/inline_writes
t_guest_check "recv_mode is 5 by default and refuses 6; inline_writes is off" "
[ \$(cat $rm_p) = 5 ] || { echo 'FAIL: recv_mode not 5'; exit 1; }
if echo 6 > $rm_p; then echo 'FAIL: 6 accepted'; exit 1; fi
[ \$(cat $rm_p) = 5 ] || exit 1
[ \$(cat $iw_p) = N ] || { echo 'FAIL: inline_writes not N'; exit 1; }"

# The route policy places queued WRITEs: in the default receive mode a
# WRITE sent at queue depth 1 is run by the receive work and queued
# nowhere (but under policy unbound: checked with mode 5 below), so these
# checks use a connection accepted in mode 0, where every WRITE is queued.
t_guest_check "cifs mount with cache=none, wsize 1 MiB, accepted in recv_mode 0" \
	"echo 0 > $rm_p
mount -t cifs //127.0.0.1/r /mnt/r -o username=demo,password=demopass,uid=1000,cache=none,wsize=1048576
r=\$?
echo 5 > $rm_p
exit \$r"

# Guest helpers: queued count of a queue; write N MiB with dd (queue
# depth 1) and check the file on the share.
helpers='
queued() { smbsrvctl stats | awk -v q="$1" "\$1 == q { print \$3 }"; }
check_file() { # NAME MIB
	head -c $(($2 * 1048576)) /tmp/src | cmp - "/srv/r/$1" ||
		{ echo "FAIL: /srv/r/$1 differs from what was written"; exit 1; }
}
write_qd1() { # NAME MIB
	dd if=/tmp/src of="/mnt/r/$1" bs=1M count=$2 2>/dev/null ||
		{ echo "FAIL: dd to /mnt/r/$1"; exit 1; }
	check_file "$1" "$2"
}
'

# t_route DESCRIPTION SETUP-AND-WRITE EXPECT: run the guest script between
# two snapshots of the queued counters; EXPECT is a shell test on
# $dp (per-CPU delta) and $du (unbound delta).
t_route() {
	t_guest_check "$1" "$helpers
p0=\$(queued smbsrv); u0=\$(queued smbsrv-unbound)
$2
dp=\$((\$(queued smbsrv) - p0)); du=\$((\$(queued smbsrv-unbound) - u0))
echo \"per-CPU +\$dp, unbound +\$du\"
if $3; then exit 0; fi
echo \"FAIL: expected $3\"; smbsrvctl stats; exit 1"
}

t_route "percpu: 16 x 1 MiB WRITEs, none on the unbound queue, data intact" \
	"smbsrvctl set route-policy percpu >/dev/null; write_qd1 p.bin 16" \
	'[ $du -eq 0 ] && [ $dp -ge 16 ]'
t_route "unbound: 16 x 1 MiB WRITEs on the unbound queue, data intact" \
	"smbsrvctl set route-policy unbound >/dev/null; write_qd1 u.bin 16" \
	'[ $du -ge 16 ]'
t_route "unbound: a 4 KiB WRITE is eligible too (any size)" \
	"dd if=/tmp/src of=/mnt/r/small.bin bs=4k count=8 2>/dev/null" \
	'[ $du -ge 8 ]'
t_route "adaptive: queue depth 1, 16 x 1 MiB WRITEs stay per-CPU" \
	"smbsrvctl set route-policy adaptive >/dev/null; write_qd1 a1.bin 16" \
	'[ $du -eq 0 ] && [ $dp -ge 16 ]'
t_route "adaptive: 4 KiB WRITEs at queue depth 16 stay per-CPU" \
	"fio --name=small --filename=/mnt/r/a4k.bin --rw=write --bs=4k --size=1M \
		--ioengine=libaio --iodepth=16 --direct=1 --output=/dev/null ||
		{ echo 'FAIL: fio'; exit 1; }" \
	'[ $du -eq 0 ] && [ $dp -ge 256 ]'
# The depth the server sees depends on how fast the client submits
# against how fast the workers finish: fio submits and reaps in batches
# of 16 (one io_submit of 16 WRITEs), and a run in which the server still
# never saw 4 at once (a loaded host can do that) is repeated, up to 3
# runs, each checked byte for byte.  Routing itself is asserted every run.
t_route "adaptive: 256 KiB WRITEs at queue depth 16 go unbound, read back verified" \
	"for run in 1 2 3; do
		u=\$(queued smbsrv-unbound)
		fio --name=deep --filename=/mnt/r/a16.bin --rw=write --bs=256k \
			--size=16M --ioengine=libaio --iodepth=16 \
			--iodepth_batch_submit=16 --iodepth_batch_complete_min=16 \
			--direct=1 --verify=md5 --do_verify=1 --output=/dev/null ||
			{ echo 'FAIL: fio (or its verify)'; exit 1; }
		echo \"run \$run: unbound +\$((\$(queued smbsrv-unbound) - u))\"
		[ \$((\$(queued smbsrv-unbound) - u)) -ge 1 ] && break
	done" \
	'[ $du -ge 1 ]'

t_guest_check "policy switched 12 times while a 48 MiB write stream runs; data intact" "$helpers
dd if=/tmp/src of=/mnt/r/stream.bin bs=1M oflag=direct 2>/dev/null &
pid=\$!
for i in 1 2 3 4; do
	for p in unbound adaptive percpu; do
		smbsrvctl set route-policy \$p >/dev/null ||
			{ echo \"FAIL: set route-policy \$p\"; exit 1; }
		sleep 0.2
	done
done
wait \$pid || { echo 'FAIL: dd'; exit 1; }
check_file stream.bin 48"

t_check_output "smbsrvctl stats: both queues, nothing left in flight" \
	"^smbsrv-unbound +unbound +[0-9]+ +[0-9]+ +0 " vm_exec "$T_VM" \
	"sleep 1; smbsrvctl stats"
t_guest_check "queued equals completed on both queues once idle" "
smbsrvctl stats | awk '
	\$2 == \"percpu\" || \$2 == \"unbound\" { n++; if (\$3 != \$4) bad = 1 }
	END { exit !(n == 2 && !bad) }'"
t_guest_check "send statistics add up: responses >= sends >= batched, batch <= 16" "
smbsrvctl stats | awk '
	\$2 == \"percpu\" || \$2 == \"unbound\" {
		if (\$9 < \$8 || \$8 < \$10 || \$11 > 16) bad = 1 }
	END { exit bad }'"
t_diag "$(vm_exec "$T_VM" "smbsrvctl stats")"
t_check_output "smbsrvctl stats shows the policy in force" \
	"^route policy: percpu$" vm_exec "$T_VM" "smbsrvctl stats"
# Receive modes: a kprobe on each run of the receive work tells per-CPU
# kworkers (kworker/C:N) from unbound ones (kworker/uN:M).  One mount at a
# time, so that every run counted is the writing connection's; the first
# is the mode-0 mount above.
runs='
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs tracefs $T
runs_start() {
	echo 0 > $T/tracing_on; echo > $T/trace
	echo "p:rt/run smbsrv_recv_work" > $T/kprobe_events
	echo "p:rt/big smbsrv_recv_big_work" >> $T/kprobe_events
	echo 1 > $T/events/rt/enable; echo 1 > $T/tracing_on
}
runs_stop() { # sets $pc and $ub (receive work runs on per-CPU and on
	# unbound kworkers) and $bu and $bp (the same for recv_big_work)
	echo 0 > $T/tracing_on
	ub=$(grep -cE "^ *kworker/u[0-9]+:.* run: " $T/trace)
	pc=$(grep -cE "^ *kworker/[0-9]+:.* run: " $T/trace)
	bu=$(grep -cE "^ *kworker/u[0-9]+:.* big: " $T/trace)
	bp=$(grep -cE "^ *kworker/[0-9]+:.* big: " $T/trace)
	echo 0 > $T/events/rt/enable; echo > $T/kprobe_events
	echo "receive work runs: per-CPU $pc, unbound $ub; big: per-CPU $bp, unbound $bu"
}
'
t_guest_check "recv_mode 0: the receive work of 16 x 1 MiB WRITEs runs on per-CPU kworkers only" "$helpers$runs
runs_start
write_qd1 m0.bin 16
runs_stop
[ \$ub = 0 ] && [ \$pc -ge 16 ] && [ \$((bu + bp)) = 0 ]"
t_guest_check "umount" "umount /mnt/r"
# Mode 1 runs with inline_writes on: the 16 WRITEs at queue depth 1 are
# run by the receive work, so fewer than 16 messages (the open, close
# and queries around them) reach the per-CPU queue and none the unbound.
for m in 1 2 3; do
	iw=0 inl=""
	case $m in
	1)	iw=1 inl=", run inline (inline_writes) so fewer than 16 messages are queued"
		want='[ $ub -ge 16 ] && [ $((bu + bp)) = 0 ] && [ $dp -lt 16 ] && [ $du = 0 ]' ;;
	3)	want='[ $ub = 0 ] && [ $pc -ge 16 ] && [ $bu -ge 16 ] && [ $bp = 0 ]' ;;
	*)	want='[ $ub -ge 16 ] && [ $((bu + bp)) = 0 ]' ;;
	esac
	case $m in
	3) what="on per-CPU kworkers, the rest of each WRITE on unbound ones" ;;
	*) what="on unbound kworkers" ;;
	esac
	t_guest_check "recv_mode $m: a connection accepted in it receives 16 x 1 MiB WRITEs $what$inl, data intact" "$helpers$runs
echo $m > $rm_p
mount -t cifs //127.0.0.1/r /mnt/r -o username=demo,password=demopass,uid=1000,cache=none,wsize=1048576
echo 5 > $rm_p
echo $iw > $iw_p
p0=\$(queued smbsrv); u0=\$(queued smbsrv-unbound)
runs_start
write_qd1 m$m.bin 16
runs_stop
echo 0 > $iw_p
dp=\$((\$(queued smbsrv) - p0)); du=\$((\$(queued smbsrv-unbound) - u0))
echo \"queued: per-CPU +\$dp, unbound +\$du\"
umount /mnt/r
$want"
done
# Mode 4 with inline_writes: every WRITE frame (1 MiB and 4 KiB) is handed
# to recv_big_work on an unbound kworker, which runs it there (fewer
# messages queued than WRITEs sent, none unbound); reading the file back
# (READs of 1 MiB, compared with what was written) never leaves the
# per-CPU receive work.  Then WRITEs at queue depth 16, whose frames
# arrive while recv_big_work owns the socket (it must queue the receive
# work for them), verified by reading back.
t_guest_check "recv_mode 4: 16 x 1 MiB and 8 x 4 KiB WRITEs received and run (inline_writes) on unbound kworkers, READs per-CPU, 64 KiB WRITEs at depth 16, data intact" "$helpers$runs
echo 4 > $rm_p
mount -t cifs //127.0.0.1/r /mnt/r -o username=demo,password=demopass,uid=1000,cache=none,wsize=1048576
echo 5 > $rm_p
echo 1 > $iw_p
p0=\$(queued smbsrv); u0=\$(queued smbsrv-unbound)
runs_start
write_qd1 m4.bin 16
dd if=/tmp/src of=/mnt/r/m4s.bin bs=4k count=8 2>/dev/null || { echo 'FAIL: dd 4k'; exit 1; }
head -c 32768 /tmp/src | cmp - /srv/r/m4s.bin || { echo 'FAIL: m4s.bin differs'; exit 1; }
runs_stop
echo 0 > $iw_p
dp=\$((\$(queued smbsrv) - p0)); du=\$((\$(queued smbsrv-unbound) - u0))
echo \"queued: per-CPU +\$dp, unbound +\$du\"
[ \$ub = 0 ] && [ \$bu -ge 24 ] && [ \$bp = 0 ] && [ \$dp -lt 24 ] && [ \$du = 0 ] || exit 1
runs_start
dd if=/mnt/r/m4.bin bs=1M 2>/dev/null | cmp - /srv/r/m4.bin || { echo 'FAIL: read back differs'; exit 1; }
runs_stop
[ \$ub = 0 ] && [ \$pc -ge 16 ] && [ \$((bu + bp)) = 0 ] || exit 1
fio --name=deep4 --filename=/mnt/r/m4d.bin --rw=write --bs=64k --size=8M \
	--ioengine=libaio --iodepth=16 --direct=1 --verify=md5 --do_verify=1 \
	--output=/dev/null || { echo 'FAIL: fio at depth 16 (or its verify)'; exit 1; }
umount /mnt/r"
# Mode 5 (by depth; the default, so a plain mount), inline_writes off: of
# 16 x 1 MiB WRITEs at queue depth 1, all but the first (the open before
# it placed the receive per-CPU; the first one completed with nothing in
# flight) are received by recv_big_work on unbound kworkers, which runs them there (fewer
# messages queued than WRITEs, none unbound).  The file read back (1 MiB
# READs at depth 1) stays on per-CPU kworkers but for at most one unbound
# run (the CLOSE after the WRITEs, or the open before the READs, may find
# the last WRITE's answer sent but not freed, which decides nothing).
# 16 x 4 KiB WRITEs at depth 1 are received per-CPU (but for at most one
# run) and run there by the receive work (fewer messages queued than
# WRITEs, none unbound): a small frame is not worth the other CPU.
# Then 64 KiB WRITEs submitted 16 at a time: most runs per-CPU (each
# batch's first WRITE, completed with nothing in flight, sends a run or
# two unbound until the receive sees two in flight), verified; repeated
# up to 3 times, as the adaptive route's, in case a loaded host lets the
# server answer each WRITE before the next arrives.  Last, route policy
# unbound: the QD1 WRITEs are not run inline but queued on smbsrv-unbound,
# as the policy asks.
t_guest_check "recv_mode 5 (default): QD1 1 MiB WRITEs received and run on unbound kworkers, QD1 4 KiB ones run per-CPU by the receive work, READs and WRITEs at depth 16 per-CPU, policy unbound queues them, data intact" "$helpers$runs
mount -t cifs //127.0.0.1/r /mnt/r -o username=demo,password=demopass,uid=1000,cache=none,wsize=1048576
p0=\$(queued smbsrv); u0=\$(queued smbsrv-unbound)
runs_start
write_qd1 m5.bin 16
runs_stop
dp=\$((\$(queued smbsrv) - p0)); du=\$((\$(queued smbsrv-unbound) - u0))
echo \"depth 1: per-CPU \$pc, unbound \$bu; queued per-CPU +\$dp, unbound +\$du\" | tee /tmp/m5.log
[ \$ub = 0 ] && [ \$bp = 0 ] && [ \$bu -ge 15 ] && [ \$dp -lt 16 ] && [ \$du = 0 ] ||
	{ echo 'FAIL: depth 1'; exit 1; }
runs_start
dd if=/mnt/r/m5.bin bs=1M 2>/dev/null | cmp - /srv/r/m5.bin || { echo 'FAIL: read back differs'; exit 1; }
runs_stop
echo \"READs: per-CPU \$pc, unbound \$bu\" >> /tmp/m5.log
[ \$ub = 0 ] && [ \$bp = 0 ] && [ \$pc -ge 16 ] && [ \$bu -le 1 ] ||
	{ echo 'FAIL: READs'; exit 1; }
p0=\$(queued smbsrv); u0=\$(queued smbsrv-unbound)
runs_start
dd if=/tmp/src of=/mnt/r/m5s.bin bs=4k count=16 2>/dev/null || { echo 'FAIL: dd 4k'; exit 1; }
head -c 65536 /tmp/src | cmp - /srv/r/m5s.bin || { echo 'FAIL: m5s.bin differs'; exit 1; }
runs_stop
dp=\$((\$(queued smbsrv) - p0)); du=\$((\$(queued smbsrv-unbound) - u0))
echo \"4 KiB at depth 1: per-CPU \$pc, unbound \$bu; queued per-CPU +\$dp, unbound +\$du\" >> /tmp/m5.log
[ \$ub = 0 ] && [ \$bp = 0 ] && [ \$pc -ge 16 ] && [ \$bu -le 1 ] && [ \$dp -lt 16 ] && [ \$du = 0 ] ||
	{ echo 'FAIL: 4 KiB WRITEs at depth 1'; exit 1; }
for run in 1 2 3; do
	runs_start
	fio --name=deep5 --filename=/mnt/r/m5d.bin --rw=write --bs=64k --size=8M \
		--ioengine=libaio --iodepth=16 --iodepth_batch_submit=16 \
		--iodepth_batch_complete_min=16 --direct=1 --verify=md5 \
		--do_verify=1 --output=/dev/null ||
		{ echo 'FAIL: fio at depth 16 (or its verify)'; exit 1; }
	runs_stop
	echo \"depth 16, run \$run: per-CPU \$pc, unbound \$bu\" >> /tmp/m5.log
	[ \$ub = 0 ] && [ \$bp = 0 ] || exit 1
	[ \$pc -gt \$bu ] && break
	[ \$run = 3 ] && { echo 'FAIL: depth 16 mostly unbound'; exit 1; }
done
smbsrvctl set route-policy unbound >/dev/null
u0=\$(queued smbsrv-unbound)
write_qd1 m5u.bin 16
du=\$((\$(queued smbsrv-unbound) - u0))
smbsrvctl set route-policy percpu >/dev/null
echo \"policy unbound, depth 1: queued unbound +\$du\" >> /tmp/m5.log
[ \$du -ge 16 ] || { echo 'FAIL: policy unbound'; exit 1; }
umount /mnt/r"
t_diag "mode 5 receive runs: $(vm_exec "$T_VM" "cat /tmp/m5.log" | tr '\n' ';')"
t_dmesg_clean
t_done
