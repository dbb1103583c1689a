#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark guest: one traced QD1 run for the per-stage breakdown
# (tools/bench/stages.sh, Documentation/benchmarks.md "Where a QD1 request
# waits").  After setup.sh, runs fio at queue depth 1 through one server's
# mount with tracing on, and prints the raw trace (clock "mono") for
# tools/bench/stages.py:
#
#   the client (both servers): cifs:smb3_{read,write}_{enter,done}, when
#       the cifs client sends a request and when its answer is processed;
#   smbsrv: its own tracepoints (kmod/trace.h) and kprobes on the start
#       of each run of its receive works (smbsrv_recv_work, per-CPU, and
#       smbsrv_recv_unbound_work);
#   ksmbd (no tracepoints of its own): kprobes on its receive loop's read
#       (ksmbd_tcp_read, entry with the length asked for and return),
#       queueing (ksmbd_queue_work), worker entry (handle_ksmbd_work), the
#       READ/WRITE handlers (smb2_read, smb2_write, entry and return) and
#       send (ksmbd_conn_write, entry and return);
#   both: sched_wakeup/sched_switch of the threads involved are left out
#       (their volume under TCG distorts the run), the CPU of each event
#       is in the trace.
#
# With "plain" last, fio runs without any tracing (the timed runs).
#
# SERVER smbsrv+OPTIONS is smbsrv through its mount /mnt/smbsrv (stages.sh
# --variants, which sets the options before the run).
#
# With "plain QDxJOBS" (8x4) fio runs at that queue depth with that many
# jobs, reported as one group.
#
#   stages.sh smbsrv[+OPTIONS]|ksmbd read|write BS SECONDS [plain [QDxJOBS]]
# shellcheck disable=SC2016  # $retval is kprobe_events syntax
set -u
srv=$1 rw=$2 bs=$3 secs=$4 mode=${5:-trace} depth=${6:-1x1}
qd=${depth%x*} jobs=${depth#*x}
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs tracefs $T

echo 0 > $T/tracing_on
echo > $T/trace
echo 0 > $T/events/enable
[ "$mode" = plain ] && echo > $T/kprobe_events
echo > $T/kprobe_events
echo mono > $T/trace_clock
echo 16384 > $T/buffer_size_kb

case $mode-$srv in
plain-*) ;;
trace-*)
	for e in smb3_read_enter smb3_read_done smb3_write_enter \
		smb3_write_done; do
		echo 1 > $T/events/cifs/$e/enable
	done
	;;
esac
case $mode-$srv in
plain-*) ;;
trace-smbsrv*)
	for e in data_ready pdu_complete queued worker_start handler_done \
		rsp_queued frame_written; do
		echo 1 > $T/events/smbsrv/smbsrv_$e/enable
	done
	echo 'p:sb/recv_run smbsrv_recv_work' >> $T/kprobe_events
	echo 'p:sb/recv_unbound smbsrv_recv_unbound_work' >> $T/kprobe_events
	echo 1 > $T/events/sb/enable
	;;
trace-ksmbd)
	{
		echo 'p:kb/read ksmbd_tcp_read len=%dx:u32'
		echo 'r:kb/read_ret ksmbd_tcp_read ret=$retval:s32'
		echo 'p:kb/queue ksmbd_queue_work'
		echo 'p:kb/worker handle_ksmbd_work'
		echo 'p:kb/h_read smb2_read'
		echo 'r:kb/h_read_ret smb2_read'
		echo 'p:kb/h_write smb2_write'
		echo 'r:kb/h_write_ret smb2_write'
		echo 'p:kb/send ksmbd_conn_write'
		echo 'r:kb/send_ret ksmbd_conn_write'
	} >> $T/kprobe_events
	echo 1 > $T/events/kb/enable
	;;
*) echo "stages.sh: smbsrv or ksmbd, not $srv" >&2; exit 2 ;;
esac

# A variant's options (smbsrv+u) are set by the host; its mount is smbsrv's.
mnt=/mnt/${srv%%+*}
case $rw in
read) f=$mnt/read.bin ;;
write) f=$mnt/write.bin ;;
*) echo "stages.sh: read or write, not $rw" >&2; exit 2 ;;
esac
[ "$mode" = plain ] || echo 1 > $T/tracing_on
fio --name=s --filename="$f" --rw="$rw" --bs="$bs" --iodepth="$qd" \
	--numjobs="$jobs" --group_reporting --ioengine=libaio --direct=1 --time_based \
	--runtime="$secs" --output-format=json --output=/tmp/stages.json \
	> /tmp/stages.out 2>&1
frc=$?
echo 0 > $T/tracing_on
echo "@@fio-rc $frc"
[ $frc = 0 ] || sed 's/^/@@err /' /tmp/stages.out
echo "@@fio"
cat /tmp/stages.json
echo "@@trace"
# Before the kprobes go: removing an event empties the buffer.
grep -v '^#' $T/trace
echo 0 > $T/events/enable
echo > $T/kprobe_events
echo > $T/trace
echo "@@end"
