#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The module's tracepoints (kmod/trace.h) through a real client: with the
# smbsrv events enabled in tracefs, a cifs mount, one 4 KiB READ and two
# 4 KiB WRITEs one after the other (fio, O_DIRECT, cache=none: exactly one
# request per block) and the unmount.  For the READ's and each WRITE's
# MessageId every stage must be traced exactly once and in order (PDU
# complete, queued, worker start, handler done, response queued, frame
# written; the READ of a cached file is served by the receiver itself,
# "inline reads", so its worker start says queue=inline and nothing was
# queued, unless it would have blocked and went to a worker after all;
# a 4 KiB WRITE sent with nothing else in flight is run by the receive
# work too (design.md, "Where a request runs"), unless the previous
# answer was not freed yet when it arrived, and then it is queued), after
# the bytes arrived (data-ready on that connection); the mount's upcalls
# are traced sent then answered; the connection is traced accepted before
# anything else and closed after the unmount.
. /usr/share/smbsrv/tests/lib.sh

T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs tracefs $T
mkdir -p /srv/trace /mnt/trace
chown demo:demo /srv/trace
head -c 4096 /dev/urandom > /srv/trace/r.bin
chown demo:demo /srv/trace/r.bin
# The 4 KiB READ is spliced (splice threshold), the WRITE's reply copied.
cat > /tmp/trace.conf <<'EOF2'
[global]
	splice threshold = 4K
	inline reads = yes
[trace]
	path = /srv/trace
	read only = no
EOF2

check "modprobe smbsrv" modprobe smbsrv
check "the smbsrv trace events exist" test -d $T/events/smbsrv/smbsrv_frame_written
echo demopass | smbsrvctl user add demo > /dev/null
smbsrvd -c /tmp/trace.conf
check "smbsrvd listens" wait_for 10 listening 445

# One clock for all CPUs: stages of one request run on different CPUs.
echo global > $T/trace_clock
echo 4096 > $T/buffer_size_kb
: > $T/trace
echo 1 > $T/events/smbsrv/enable
echo 1 > $T/tracing_on

check "cifs mount" mount -t cifs //127.0.0.1/trace /mnt/trace \
	-o username=demo,password=demopass,cache=none,vers=3.1.1
fio1() {
	fio --name=t --filename=/mnt/trace/$1 --rw=$2 --bs=4k --size=$3 \
		--ioengine=psync --direct=1 --output=/dev/null
}
check "one 4 KiB READ" fio1 r.bin read 4k
check "two 4 KiB WRITEs" fio1 w.bin write 8k
check "unmount" umount /mnt/trace
# The connection closes asynchronously after the unmount.
wait_for 10 grep -q smbsrv_conn_closed $T/trace
# Stop recording, but leave the events enabled: every enable or disable
# patches kernel text, and multi-threaded TCG rarely survives that with
# another vCPU running ("Oops: int3"); one round is enough.
echo 0 > $T/tracing_on

# "event conn=N mid=M ..." per line, in trace order.
sed -n 's/.* \(smbsrv_[a-z_]*\): /\1 /p' $T/trace > /tmp/ev
diag "$(wc -l < /tmp/ev) smbsrv events traced"
check "the trace lost nothing" not grep -q 'LOST' $T/trace

conn=$(awk '$1 == "smbsrv_conn_accepted" { sub("conn=", "", $2); print $2; exit }' /tmp/ev)
check "the connection was traced accepted" test -n "$conn"
check "accepted is the connection's first event" sh -c \
	"grep ' conn=$conn\( \|$\)' /tmp/ev | head -n1 | grep -q '^smbsrv_conn_accepted '"
check "closed once, as the connection's last event" sh -c \
	"[ \$(grep -c '^smbsrv_conn_closed conn=$conn$' /tmp/ev) = 1 ] &&
	 grep ' conn=$conn\( \|$\)' /tmp/ev | tail -n1 | grep -q '^smbsrv_conn_closed '"

# The stages of one request, in the order they were traced.
stages() {
	awk -v c="conn=$conn" -v m="mid=$1" '
		$1 != "smbsrv_data_ready" && $2 == c && $3 == m { printf "%s ", $1 }' /tmp/ev
}
want="smbsrv_pdu_complete smbsrv_queued smbsrv_worker_start smbsrv_handler_done smbsrv_rsp_queued smbsrv_frame_written "
want_inline="smbsrv_pdu_complete smbsrv_worker_start smbsrv_handler_done smbsrv_rsp_queued smbsrv_frame_written "
want_deferred="smbsrv_pdu_complete smbsrv_worker_start smbsrv_queued smbsrv_worker_start smbsrv_handler_done smbsrv_rsp_queued smbsrv_frame_written "

for cmd in READ WRITE; do
	mids=$(awk -v c="conn=$conn" -v k="cmd=$cmd" '
		$1 == "smbsrv_handler_done" && $2 == c && $4 == k { sub("mid=", "", $3); print $3 }' /tmp/ev)
	n=1
	[ $cmd = WRITE ] && n=2
	check "exactly $n $cmd handled" test "$(echo "$mids" | grep -c .)" = $n
	for mid in $mids; do
		inline=
		got=$(stages "$mid")
		if [ "$got" = "$want" ]; then
			ok "$cmd (mid $mid): every stage once, in order"
		elif [ $cmd = READ ] && [ "$got" = "$want_inline" ]; then
			ok "$cmd (mid $mid): every stage once, in order, inline"
			inline=1
		elif [ $cmd = READ ] && [ "$got" = "$want_deferred" ]; then
			ok "$cmd (mid $mid): every stage once, in order, tried inline, then a worker"
		elif [ $cmd = WRITE ] && [ "$got" = "$want_inline" ]; then
			ok "$cmd (mid $mid): every stage once, in order, run by the receive work"
			inline=1
		else
			not_ok "$cmd (mid $mid): every stage once, in order"
			diag "got:  $got" "want: $want" "or: $want_inline"
		fi
		# Bytes arrived for it: a data-ready of its connection between the
		# previous message's completion and its own.
		check "$cmd (mid $mid): its bytes arrived (data-ready) before it completed" \
			awk -v c="conn=$conn" -v m="mid=$mid" '
			$2 == c && $1 == "smbsrv_pdu_complete" {
				if ($3 == m) { found = 1; ok = seen; exit }
				seen = 0
			}
			$2 == c && $1 == "smbsrv_data_ready" { seen = 1 }
			END { exit !(found && ok) }' /tmp/ev
		if [ $cmd = READ ] || [ -n "$inline" ]; then
			check "$cmd (mid $mid): first tried inline, by the receiver" \
				grep -qE "^smbsrv_worker_start conn=$conn mid=$mid queue=inline cpu=[0-9]+ wait_ns=0$" /tmp/ev
		fi
		if [ -z "$inline" ]; then
			check "$cmd (mid $mid): queued with its queue and CPU" \
				grep -qE "^smbsrv_queued conn=$conn mid=$mid queue=(percpu|unbound) cpu=[0-9]+$" /tmp/ev
		fi
		check "$cmd (mid $mid): handled with STATUS_SUCCESS" \
			grep -q "^smbsrv_handler_done conn=$conn mid=$mid cmd=$cmd status=0x00000000$" /tmp/ev
		how=copied
		[ $cmd = READ ] && how=spliced
		check "$cmd (mid $mid): its frame written whole, $how" \
			grep -qE "^smbsrv_frame_written conn=$conn mid=$mid bytes=[0-9]+ batch=[0-9]+ $how$" /tmp/ev
	done
done
check "the READ carried 4 KiB" \
	grep -qE "^smbsrv_frame_written conn=$conn mid=[0-9]+ bytes=(4[0-9]{3}|5[0-9]{3}) " /tmp/ev
check "the WRITE's message carried 4 KiB" \
	grep -qE "^smbsrv_pdu_complete conn=$conn mid=[0-9]+ cmd=WRITE len=4[0-9]{3} recv_ns=[1-9]" /tmp/ev

# Upcalls: every one sent was answered, without error, for the request
# that asked, before that request's handler returned.
for kind in session-setup tree-connect; do
	n=$(grep -c "^smbsrv_upcall_sent conn=$conn mid=[0-9]* kind=$kind err=0$" /tmp/ev)
	check "the mount made $kind upcalls" test "$n" -ge 1
	check "each $kind upcall was answered, then its request handled" \
		awk -v c="conn=$conn" -v k="kind=$kind" '
		# ("in", not a lookup: a lookup would create the element)
		$1 == "smbsrv_upcall_sent" && $2 == c && $4 == k { sent[$3] = 1; n++ }
		$1 == "smbsrv_upcall_answered" && $2 == c && $4 == k {
			if (!($3 in sent) || $5 != "err=0") bad = 1
			delete sent[$3]; answered[$3] = 1
		}
		$1 == "smbsrv_handler_done" && $2 == c && ($3 in answered) { handled[$3] = 1 }
		END {
			for (m in sent) bad = 1
			for (m in answered) if (!(m in handled)) bad = 1
			exit bad || !n
		}' /tmp/ev
done

check "kernel log clean" dmesg_clean
done_testing
