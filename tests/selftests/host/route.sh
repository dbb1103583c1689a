#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Request routing, the receive placement and the per-queue statistics,
# through the kernel cifs client in the guest (cache=none, so every
# write(2) is a WRITE).  The route policy places queued WRITEs: with
# percpu no WRITE reaches the unbound queue; with unbound every WRITE
# does (none runs inline); with adaptive queue-depth-1 and 4 KiB WRITEs
# stay bound while a deep queue of 256 KiB WRITEs goes unbound; the
# policy is switched back and forth while a write stream runs; every file
# is checked byte for byte on the share; smbsrvctl stats shows both
# queues; the daemon set the unbound queue's affinity in sysfs.  The
# receive placement (smb2_recv_place()): queue-depth-1 1 MiB WRITEs are
# received and run on unbound kworkers, 4 KiB ones run per-CPU by the
# receive work, READs and WRITEs sent 16 at a time received mostly
# per-CPU.  The module has no receive-mode parameters.  One VM boot.
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

t_guest_check "one receive path: no recv_mode or inline_writes module parameter" "
for p in recv_mode inline_writes; do
	[ ! -e /sys/module/smbsrv/parameters/\$p ] || { echo \"FAIL: \$p\"; exit 1; }
done"

# In the default placement a WRITE sent at queue depth 1 is run by the
# receive work and queued nowhere (but under policy unbound), so the
# percpu and adaptive checks assert where WRITEs do not go.
t_guest_check "cifs mount with cache=none, wsize 1 MiB" \
	"mount -t cifs //127.0.0.1/r /mnt/r -o username=demo,password=demopass,uid=1000,cache=none,wsize=1048576"

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
	'[ $du -eq 0 ]'
t_route "percpu: 1 MiB WRITEs at queue depth 16 queued per-CPU, none unbound, verified" \
	"fio --name=pdeep --filename=/mnt/r/pd.bin --rw=write --bs=1M --size=16M \
		--ioengine=libaio --iodepth=16 --direct=1 --verify=md5 --do_verify=1 \
		--output=/dev/null || { echo 'FAIL: fio (or its verify)'; exit 1; }" \
	'[ $du -eq 0 ] && [ $dp -ge 1 ]'
t_route "unbound: 16 x 1 MiB WRITEs on the unbound queue (none inline), data intact" \
	"smbsrvctl set route-policy unbound >/dev/null; write_qd1 u.bin 16" \
	'[ $du -ge 16 ]'
t_route "unbound: a 4 KiB WRITE is eligible too (any size)" \
	"dd if=/tmp/src of=/mnt/r/small.bin bs=4k count=8 2>/dev/null" \
	'[ $du -ge 8 ]'
t_route "adaptive: queue depth 1, 16 x 1 MiB WRITEs stay off the unbound queue" \
	"smbsrvctl set route-policy adaptive >/dev/null; write_qd1 a1.bin 16" \
	'[ $du -eq 0 ]'
t_route "adaptive: 4 KiB WRITEs at queue depth 16 stay per-CPU" \
	"fio --name=small --filename=/mnt/r/a4k.bin --rw=write --bs=4k --size=1M \
		--ioengine=libaio --iodepth=16 --direct=1 --output=/dev/null ||
		{ echo 'FAIL: fio'; exit 1; }" \
	'[ $du -eq 0 ]'
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
# The receive placement: a kprobe on each run of either receive work;
# per-CPU kworkers are kworker/C:N, unbound ones kworker/uN:M.  One mount
# at a time, so that every run counted is the writing connection's.
runs='
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs tracefs $T
runs_start() {
	echo 0 > $T/tracing_on; echo > $T/trace
	echo "p:rt/run smbsrv_recv_work" > $T/kprobe_events
	echo "p:rt/unb smbsrv_recv_unbound_work" >> $T/kprobe_events
	echo 1 > $T/events/rt/enable; echo 1 > $T/tracing_on
}
runs_stop() { # sets $pc and $ub (runs of the per-CPU receive work on
	# per-CPU and unbound kworkers) and $bu and $bp (the same for the
	# unbound receive work)
	echo 0 > $T/tracing_on
	ub=$(grep -cE "^ *kworker/u[0-9]+:.* run: " $T/trace)
	pc=$(grep -cE "^ *kworker/[0-9]+:.* run: " $T/trace)
	bu=$(grep -cE "^ *kworker/u[0-9]+:.* unb: " $T/trace)
	bp=$(grep -cE "^ *kworker/[0-9]+:.* unb: " $T/trace)
	echo 0 > $T/events/rt/enable; echo > $T/kprobe_events
	echo "receive runs: per-CPU work $pc (+$ub unbound), unbound work $bu (+$bp per-CPU)"
}
'
t_guest_check "umount" "umount /mnt/r"
# Of 16 x 1 MiB WRITEs at queue depth 1, all but the first (the open
# before it placed the receive per-CPU; the first one completed with
# nothing in flight) are received by the unbound receive work on unbound
# kworkers, which runs them there (fewer messages queued than WRITEs,
# none unbound).  The file read back (1 MiB READs at depth 1) stays on
# per-CPU kworkers but for at most one unbound run (the CLOSE after the
# WRITEs, or the open before the READs, may find the last WRITE's answer
# sent but not freed, which decides nothing).  How many per-CPU runs
# there are is not checked beyond one: a run that finds the next request
# in the socket already carries it too, so the count depends on timing.
# 16 x 4 KiB WRITEs at depth 1 are received per-CPU (but for at most one
# run) and run there by the receive work (fewer messages queued than WRITEs, none unbound): a small
# frame is not worth the other CPU.  Then 64 KiB WRITEs submitted 16 at a
# time: most runs per-CPU (each batch's first WRITE, completed with
# nothing in flight, sends a run or two unbound until the receive sees
# two in flight), verified; repeated up to 3 times, as the adaptive
# route's, in case a loaded host lets the server answer each WRITE before
# the next arrives.  Last, route policy unbound: the QD1 WRITEs are not
# run inline but queued on smbsrv-unbound, as the policy asks.
t_guest_check "placement: QD1 1 MiB WRITEs received and run on unbound kworkers, QD1 4 KiB ones run per-CPU by the receive work, READs and WRITEs at depth 16 per-CPU, policy unbound queues them, data intact" "$helpers$runs
mount -t cifs //127.0.0.1/r /mnt/r -o username=demo,password=demopass,uid=1000,cache=none,wsize=1048576
p0=\$(queued smbsrv); u0=\$(queued smbsrv-unbound)
runs_start
write_qd1 m5.bin 16
runs_stop
dp=\$((\$(queued smbsrv) - p0)); du=\$((\$(queued smbsrv-unbound) - u0))
echo \"depth 1: per-CPU \$pc, unbound \$bu; queued per-CPU +\$dp, unbound +\$du\" | tee /tmp/place.log
[ \$ub = 0 ] && [ \$bp = 0 ] && [ \$bu -ge 15 ] && [ \$dp -lt 16 ] && [ \$du = 0 ] ||
	{ echo 'FAIL: depth 1'; exit 1; }
runs_start
dd if=/mnt/r/m5.bin bs=1M 2>/dev/null | cmp - /srv/r/m5.bin || { echo 'FAIL: read back differs'; exit 1; }
runs_stop
echo \"READs: per-CPU \$pc, unbound \$bu\" >> /tmp/place.log
[ \$ub = 0 ] && [ \$bp = 0 ] && [ \$pc -ge 1 ] && [ \$bu -le 1 ] ||
	{ echo 'FAIL: READs'; exit 1; }
p0=\$(queued smbsrv); u0=\$(queued smbsrv-unbound)
runs_start
dd if=/tmp/src of=/mnt/r/m5s.bin bs=4k count=16 2>/dev/null || { echo 'FAIL: dd 4k'; exit 1; }
head -c 65536 /tmp/src | cmp - /srv/r/m5s.bin || { echo 'FAIL: m5s.bin differs'; exit 1; }
runs_stop
dp=\$((\$(queued smbsrv) - p0)); du=\$((\$(queued smbsrv-unbound) - u0))
echo \"4 KiB at depth 1: per-CPU \$pc, unbound \$bu; queued per-CPU +\$dp, unbound +\$du\" >> /tmp/place.log
[ \$ub = 0 ] && [ \$bp = 0 ] && [ \$pc -ge 1 ] && [ \$bu -le 1 ] && [ \$dp -lt 16 ] && [ \$du = 0 ] ||
	{ echo 'FAIL: 4 KiB WRITEs at depth 1'; exit 1; }
for run in 1 2 3; do
	runs_start
	fio --name=deep5 --filename=/mnt/r/m5d.bin --rw=write --bs=64k --size=8M \
		--ioengine=libaio --iodepth=16 --iodepth_batch_submit=16 \
		--iodepth_batch_complete_min=16 --direct=1 --verify=md5 \
		--do_verify=1 --output=/dev/null ||
		{ echo 'FAIL: fio at depth 16 (or its verify)'; exit 1; }
	runs_stop
	echo \"depth 16, run \$run: per-CPU \$pc, unbound \$bu\" >> /tmp/place.log
	[ \$ub = 0 ] && [ \$bp = 0 ] || exit 1
	[ \$pc -gt \$bu ] && break
	[ \$run = 3 ] && { echo 'FAIL: depth 16 mostly unbound'; exit 1; }
done
smbsrvctl set route-policy unbound >/dev/null
u0=\$(queued smbsrv-unbound)
write_qd1 m5u.bin 16
du=\$((\$(queued smbsrv-unbound) - u0))
smbsrvctl set route-policy percpu >/dev/null
echo \"policy unbound, depth 1: queued unbound +\$du\" >> /tmp/place.log
[ \$du -ge 16 ] || { echo 'FAIL: policy unbound'; exit 1; }
umount /mnt/r"
t_diag "receive runs: $(vm_exec "$T_VM" "cat /tmp/place.log" | tr '\n' ';')"
t_dmesg_clean
t_done
