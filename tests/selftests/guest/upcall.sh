#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The module's netlink side without an SMB client: every knob and its
# default, knob validation, the NEGOTIATE blob, and the upcall mechanism
# (answers parsed into results, malformed answers refused, foreign/late/
# mismatched answers dropped, timeouts, a daemon that dies mid-upcall, many
# upcalls at once).  smbsrv-nlpeer (tests/tools/nlpeer.cpp) stands in for
# the daemon; the upcall probe (debugfs smbsrv/upcall, the test module
# smbsrv_upcall_probe, kmod/test/upcall_probe.c) starts upcalls through
# the loaded module's real code path.
. /usr/share/smbsrv/tests/lib.sh

P=/sys/kernel/debug/smbsrv/upcall
peer_pid=""

# probe COMMAND...: one upcall through the probe; prints the result line.
probe() {
	(
		exec 3<>$P || exit 1
		printf '%s\n' "$*" >&3 || exit 1
		cat <&3
	)
}

# check_probe DESCRIPTION EXPECTED COMMAND...
check_probe() {
	_d=$1
	_want=$2
	shift 2
	_got=$(probe "$@" 2>&1)
	if [ "$_got" = "$_want" ]; then
		ok "$_d"
	else
		not_ok "$_d"
		diag "want: $_want"
		diag "got:  $_got"
	fi
}

# start_peer LOG ARGS...: a stand-in daemon in the background.
start_peer() {
	_log=$1
	shift
	smbsrv-nlpeer "$@" > "$_log" 2>&1 &
	peer_pid=$!
	wait_for 10 grep -q '^attached$' "$_log"
}

stop_peer() {
	[ -n "$peer_pid" ] || return 0
	kill "$peer_pid" 2>/dev/null
	wait "$peer_pid" 2>/dev/null
	peer_pid=""
	wait_for 5 sh -c 'smbsrv-nlpeer -s | grep -q "^daemon-state 0$"'
}

log_has() { grep -qF -- "$2" "$1"; }

check "modprobe smbsrv" modprobe smbsrv
check "modprobe smbsrv_upcall_probe" modprobe smbsrv_upcall_probe
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
check "upcall probe present in debugfs" test -e $P

# --- 1. knobs: ksmbd's defaults before any daemon -----------------------
smbsrv-nlpeer -s > /tmp/status0 2>&1
for kv in "tcp-port 445" "max-connections 128" "smb2-max-read 4194304" \
	"smb2-max-write 4194304" "smb2-max-trans 1048576" \
	"smb2-max-credits 8192" "min-dialect 528" "max-dialect 785" \
	"signing 0" "encryption 1" "max-ip-connections 0" \
	"max-sessions 1024" "max-open-files 10000" "deadtime 0" \
	"upcall-timeout 10" "frame-timeout 20" "route-policy 0" \
	"splice-threshold 4096" "response-batch 16" "inline-reads 1" \
	"logon-timeout 20" "netbios-name SMBSRV"; do
	check "default knob $kv" grep -qx "knob $kv" /tmp/status0
done
check "no negotiate blob before a daemon" not grep -q '^negotiate-blob' /tmp/status0
check "no daemon attached at first" grep -qx "daemon-state 0" /tmp/status0

# --- 2. no daemon: an upcall fails at once ------------------------------
check_probe "no daemon: session setup upcall fails with ENOTCONN" \
	"ret=-107" session 1 0x311 10.0.0.1 01
check_probe "no daemon: tree connect upcall fails with ENOTCONN" \
	"ret=-107" tree 1 1001 0 10.0.0.1 alice demo
check_probe "no daemon: rpc upcall fails with ENOTCONN" \
	"ret=-107" rpc 1 1 0 100 alice srvsvc -

# --- 3. knob validation -------------------------------------------------
# refused DESCRIPTION MESSAGE PEER-ARGS...
refused() {
	_d=$1
	_m=$2
	shift 2
	_out=$(smbsrv-nlpeer "$@" 2>&1)
	if [ $? -ne 0 ] && echo "$_out" | grep -qF -- "$_m"; then
		ok "$_d"
	else
		not_ok "$_d"
		diag "$_out"
	fi
}
refused "min dialect above max dialect refused" \
	"min dialect 0x0300 is above max dialect 0x0210" \
	-k tcp-port=4450 -k min-dialect=0x300 -k max-dialect=0x210
refused "a dialect that does not exist refused" "no SMB2 dialect 0x0301" \
	-k tcp-port=4450 -k min-dialect=0x301
refused "upcall timeout 0 refused by the policy" "error 34" \
	-k tcp-port=4450 -k upcall-timeout=0
refused "response batch 257 refused by the policy" "error 34" \
	-k tcp-port=4450 -k response-batch=257
refused "signing value 3 refused by the policy" "error 34" \
	-k tcp-port=4450 -k signing=3
refused "empty netbios name refused" "empty netbios name" \
	-k tcp-port=4450 -k netbios-name=
big=$(head -c 4097 /dev/zero | xxd -p | tr -d '\n')
refused "negotiate blob above 4096 bytes refused" \
	"negotiate blob longer than 4096 bytes" -k tcp-port=4450 -b "$big"
smbsrv-nlpeer -s > /tmp/status1 2>&1
check "refused start-ups changed nothing" cmp /tmp/status0 /tmp/status1

# --- 4. every knob and the blob, as a daemon sends them -----------------
blob=604806062b0601050502a03e303ca00e300c060a2b06010401823702020aa32a3028a0261b246e6f745f646566696e65645f696e5f5246433431373840706c656173655f69676e6f7265
start_peer /tmp/peer1.log -b $blob \
	-k tcp-port=4450 -k max-connections=77 -k smb2-max-read=1048576 \
	-k smb2-max-write=2097152 -k smb2-max-trans=524288 \
	-k smb2-max-credits=512 -k min-dialect=0x202 -k max-dialect=0x302 \
	-k signing=2 -k encryption=0 -k max-ip-connections=5 \
	-k max-sessions=33 -k max-open-files=444 -k deadtime=15 \
	-k upcall-timeout=9 -k frame-timeout=30 -k route-policy=2 \
	-k splice-threshold=16384 -k response-batch=64 -k inline-reads=0 \
	-k logon-timeout=7 -k netbios-name=TESTBOX
check "stand-in daemon attached" grep -qx attached /tmp/peer1.log
smbsrv-nlpeer -s > /tmp/status2 2>&1
for kv in "tcp-port 4450" "max-connections 77" "smb2-max-read 1048576" \
	"smb2-max-write 2097152" "smb2-max-trans 524288" \
	"smb2-max-credits 512" "min-dialect 514" "max-dialect 770" \
	"signing 2" "encryption 0" "max-ip-connections 5" \
	"max-sessions 33" "max-open-files 444" "deadtime 15" \
	"upcall-timeout 9" "frame-timeout 30" "route-policy 2" \
	"splice-threshold 16384" "response-batch 64" "inline-reads 0" \
	"logon-timeout 7" "netbios-name TESTBOX"; do
	check "knob in force: $kv" grep -qx "knob $kv" /tmp/status2
	check "start-up reply has $kv" grep -qx "knob $kv" /tmp/peer1.log
done
check "status returns the daemon's negotiate blob" \
	grep -qx "negotiate-blob $blob" /tmp/status2
check "status shows the stand-in attached" \
	grep -qx "daemon-pid $peer_pid" /tmp/status2
check "listening on the tcp-port knob" listening 4450

# --- 5. upcalls answered ------------------------------------------------
check_probe "session setup: every field of the answer arrives" \
	"ret=0 status=0x00000000 blob=ccbbaa01 key=05060708090a0b0c0d0e0f1011121314 uid=1001 gid=1001 groups=27,1001,1100 flags=0x0 user=alice domain=SMBSRV-VM" \
	session 5 0x311 10.1.2.3 01aabbcc
check "session setup request carried id, address, dialect and blob" log_has \
	/tmp/peer1.log "sid=5 addr=10.1.2.3 dialect=0x0311 blob=01aabbcc"
check_probe "session setup: a MORE_PROCESSING leg has a blob and no identity" \
	"ret=0 status=0xc0000016 blob=4348414c4c454e4745 key=- uid=-1 gid=-1 groups=- flags=0x0 user=(null) domain=(null)" \
	session 6 0x202 10.1.2.3 02
check_probe "session setup: 65-byte session key refused (EPROTO)" \
	"ret=-71" session 7 0x311 10.1.2.3 03
check "daemon told why: session key too long" log_has /tmp/peer1.log \
	"err=22 msg=session key longer than 64 bytes"
check_probe "session setup: success without uid refused (EPROTO)" \
	"ret=-71" session 8 0x311 10.1.2.3 04
check_probe "session setup: invalid group id refused (EPROTO)" \
	"ret=-71" session 9 0x311 10.1.2.3 05
check "daemon told why: invalid group id" log_has /tmp/peer1.log \
	"err=22 msg=invalid group id"

check_probe "session setup: a PAC's SIDs arrive, in their order" \
	"ret=0 status=0x00000000 blob=09 key=1e1f202122232425262728292a2b2c2d uid=1001 gid=1001 groups=27,1001,1100 flags=0x0 user=alice domain=SMBSRV-VM sids=513,1104" \
	session 30 0x311 10.1.2.3 09
check_probe "session setup: SIDs out of order refused (EPROTO)" \
	"ret=-71" session 31 0x311 10.1.2.3 0a
check "daemon told why: SIDs not sorted" log_has /tmp/peer1.log \
	"err=22 msg=SIDs not sorted or repeated"
check_probe "session setup: 1025 SIDs refused (EPROTO)" \
	"ret=-71" session 32 0x311 10.1.2.3 0b
check "daemon told why: more than 1024 SIDs" log_has /tmp/peer1.log \
	"err=22 msg=more than 1024 SIDs"
check_probe "session setup: a SID attribute longer than its SID refused (EPROTO)" \
	"ret=-71" session 33 0x311 10.1.2.3 0c
check "daemon told why: not one SID" log_has /tmp/peer1.log \
	"err=22 msg=not one SID"

good="ret=0 status=0x00000000 blob=06 key=0a0b0c0d0e0f10111213141516171819 uid=1001 gid=1001 groups=27,1001,1100 flags=0x0 user=alice domain=SMBSRV-VM"
check_probe "answer from a foreign socket ignored, the daemon's taken" \
	"$good" session 10 0x311 10.1.2.3 06
check "foreign socket's answer refused with EPERM" log_has /tmp/peer1.log \
	"foreign err=1 msg=upcall answered from another socket than the daemon's"
good=$(echo "$good" | sed 's/blob=06 key=0a0b0c0d0e0f10111213141516171819/blob=07 key=0b0c0d0e0f101112131415161718191a/')
check_probe "answer with an unknown handle ignored, the right one taken" \
	"$good" session 11 0x311 10.1.2.3 07
check "unknown handle refused with ENOENT" log_has /tmp/peer1.log \
	"wrong-handle err=2 msg=no upcall"
good=$(echo "$good" | sed 's/blob=07 key=0b0c0d0e0f101112131415161718191a/blob=08 key=0c0d0e0f101112131415161718191a1b/')
check_probe "answer of the wrong kind ignored, the right one taken" \
	"$good" session 12 0x311 10.1.2.3 08
check "wrong kind refused with ENOENT" log_has /tmp/peer1.log \
	"wrong-kind err=2 msg=no upcall"

# A 60000-byte palindrome comes back (reversed) intact; one byte more than
# netlink can carry is refused before sending.
mid=$(head -c 29999 /dev/urandom | xxd -p | tr -d '\n')
rmid=$(echo "$mid" | fold -w2 | tac | tr -d '\n')
pal="01${mid}${rmid}01"
got=$(probe session 13 0x311 10.1.2.3 "$pal" | sed -n 's/.* blob=\([0-9a-f-]*\) .*/\1/p')
if [ "$got" = "$pal" ]; then
	ok "60000-byte security blob round trip"
else
	not_ok "60000-byte security blob round trip"
	diag "got ${#got} hex digits, want ${#pal}"
fi
huge=$(head -c 65532 /dev/zero | xxd -p | tr -d '\n')
check_probe "blob longer than netlink can carry refused (EMSGSIZE)" \
	"ret=-90" session 14 0x311 10.1.2.3 "$huge"

check_probe "tree connect: every field of the share arrives" \
	"ret=0 status=0x00000000 name=demo path=/srv/demo flags=0x9 force_uid=1002 force_gid=-1 create_mask=0600 directory_mask=0755 force_create_mode=0000 force_directory_mode=0000 veto=/*.tmp/ max_connections=7" \
	tree 21 1001 1 192.168.7.8 alice demo
check "tree connect request carried session, user, uid, flags, address, share" \
	log_has /tmp/peer1.log "sid=21 user=alice uid=1001 flags=0x1 addr=192.168.7.8 share=demo"
check_probe "tree connect: BAD_NETWORK_NAME passed on, no share" \
	"ret=0 status=0xc00000cc" tree 22 1001 0 192.168.7.8 alice missing
check_probe "tree connect: IPC\$ without a path" \
	"ret=0 status=0x00000000 name=IPC\$ path=(null) flags=0x2 force_uid=-1 force_gid=-1 create_mask=0744 directory_mask=0755 force_create_mode=0000 force_directory_mode=0000 veto=(null) max_connections=0" \
	tree 23 1001 0 192.168.7.8 alice 'IPC$'
check_probe "tree connect: relative share path refused (EPROTO)" \
	"ret=-71" tree 24 1001 0 192.168.7.8 alice relpath
check "daemon told why: path not absolute" log_has /tmp/peer1.log \
	"msg=share path missing or not absolute"
check_probe "tree connect: success without a share refused (EPROTO)" \
	"ret=-71" tree 25 1001 0 192.168.7.8 alice nonest

check_probe "rpc: pipe data both ways" \
	"ret=0 status=0x00000000 data=7265706c793a05000b03" \
	rpc 31 4 2 100 alice srvsvc 05000b03
check "rpc request carried session, pipe, op, user, max-out, data" \
	log_has /tmp/peer1.log "sid=31 pipe-id=4 op=2 pipe=srvsvc user=alice max-out=100 data=05000b03"
check_probe "rpc: answer above max-out refused (EPROTO)" \
	"ret=-71" rpc 32 4 4 4 alice srvsvc 05000b03
check "daemon told why: above max-out" log_has /tmp/peer1.log \
	"msg=10 bytes of pipe data, above max-out 4"
check_probe "rpc: over-long pipe name refused before sending (EINVAL)" \
	"ret=-22" rpc 33 4 2 100 alice "$(head -c 257 /dev/zero | tr '\0' p)" -

stop_peer
check "daemon gone: status says so" sh -c 'smbsrv-nlpeer -s | grep -qx "daemon-state 0"'
check_probe "daemon gone: upcalls fail at once again" \
	"ret=-107" session 40 0x311 10.1.2.3 01

# --- 6. timeouts and late answers ---------------------------------------
start_peer /tmp/peer2.log -m silent -k tcp-port=4450 -k upcall-timeout=1
check_probe "silent daemon: upcall times out (ETIMEDOUT)" \
	"ret=-110" session 41 0x311 10.1.2.3 01
stop_peer

start_peer /tmp/peer3.log -m late -d 3 -k tcp-port=4450 -k upcall-timeout=1
check_probe "slow daemon: upcall times out (ETIMEDOUT)" \
	"ret=-110" tree 42 1001 0 10.1.2.3 alice demo
check "its late answer is refused with ENOENT" \
	wait_for 10 log_has /tmp/peer3.log "err=2 msg=no upcall"
check "after a late answer the daemon is still attached" \
	sh -c 'smbsrv-nlpeer -s | grep -qx "daemon-state 1"'
stop_peer

# --- 7. many upcalls at once, answered together -------------------------
start_peer /tmp/peer4.log -m late -d 2 -k tcp-port=4450 -k upcall-timeout=30
pids=""
i=1
while [ $i -le 16 ]; do
	probe session $((100 + i)) 0x311 10.1.2.3 01 > /tmp/conc.$i 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
# shellcheck disable=SC2086
wait $pids
bad=0
i=1
while [ $i -le 16 ]; do
	k=$(printf '%02x' $((100 + i)))
	grep -q "^ret=0 status=0x00000000 blob=01 key=$k" /tmp/conc.$i || {
		bad=$((bad + 1))
		diag "upcall $i: $(cat /tmp/conc.$i)"
	}
	i=$((i + 1))
done
if [ $bad -eq 0 ]; then
	ok "16 concurrent upcalls each got their own answer"
else
	not_ok "16 concurrent upcalls each got their own answer"
fi
stop_peer

# --- 8. the daemon dies while upcalls wait ------------------------------
start_peer /tmp/peer5.log -m silent -k tcp-port=4450 -k upcall-timeout=600
pids=""
i=1
while [ $i -le 4 ]; do
	probe tree $((200 + i)) 1001 0 10.1.2.3 alice demo > /tmp/dead.$i 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
check "four upcalls reached the silent daemon" \
	wait_for 10 sh -c '[ $(grep -c "^event tree-connect" /tmp/peer5.log) -eq 4 ]'
kill -9 "$peer_pid"
wait "$peer_pid" 2>/dev/null
peer_pid=""
# Their 600 s timeout is far away: only the daemon-gone path ends them.
check "kill -9 of the daemon ends every waiting upcall" wait_for 20 sh -c \
	'for i in 1 2 3 4; do grep -qx "ret=-107" /tmp/dead.$i || exit 1; done'
# shellcheck disable=SC2086
wait $pids

start_peer /tmp/peer6.log -m exit -k tcp-port=4450 -k upcall-timeout=600
check_probe "daemon exiting on an upcall: it fails with ENOTCONN" \
	"ret=-107" rpc 50 1 0 100 alice srvsvc 00
peer_pid=""

# --- 9. unload with a daemon attached, and a clean log ------------------
start_peer /tmp/peer7.log -k tcp-port=4450
check "rmmod smbsrv_upcall_probe" rmmod smbsrv_upcall_probe
check "rmmod with a daemon attached" rmmod smbsrv
kill "$peer_pid" 2>/dev/null
wait "$peer_pid" 2>/dev/null
check "module gone" not grep -q "^smbsrv " /proc/modules
if dmesg_clean; then
	ok "dmesg has no warnings, oopses or leaks"
else
	not_ok "dmesg has no warnings, oopses or leaks"
	dmesg_bad | head -20 | sed 's/^/# /'
fi

done_testing
