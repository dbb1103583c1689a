#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Cluster mode across two nodes (make check-cluster, through
# tools/cluster/check.sh, which runs it inside a network namespace with
# the test Ceph cluster on 10.0.2.100): two guests mount the same CephFS
# directory with the kernel client and export it as share "cl", each
# with clustering = yes under its own node name; sharemode.py opens
# through both and checks the share-mode matrix both ways, locks.py the
# byte-range locks, then the nodes' objects and records in RADOS are
# checked from the host; leases.py the leases and oplocks, through share
# "lc" (the same directory, with oplocks and leases); delete.py delete on
# close and rename; dirleases.py the directory leases, through "lc" too.
. "$(dirname "$0")/../host/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/sharemode.py"
. "$(dirname "$0")/nodes.bash"
cl_boot

for n in a b; do
	t_check "node $n: mount CephFS, join the cluster, serve it" node_up "$n"
done
t_guest_ab() {
	vm_exec c-a 'echo from-a > /mnt/cephfs/share/seen.txt && sync' &&
		vm_exec c-b 'cat /mnt/cephfs/share/seen.txt' | grep -q from-a
}
t_check "both nodes see one directory (a file written on node a is read on node b)" t_guest_ab

t_check "the MDS's session timeout is 30 s (its minimum)" timeout 60 \
	ceph -c "$CEPH_DIR/ceph.conf" fs set cephfs session_timeout 30

rados_ns() { timeout 60 rados -c "$CEPH_DIR/ceph.conf" -p smbsrv -N check "$@"; }
t_check_output "each node holds its lock alive" 'node-a.*node-b|node-b.*node-a' \
	sh -c "for n in a b; do rados -c '$CEPH_DIR/ceph.conf' -p smbsrv -N check lock info node.node-\$n alive | grep -q '\"cookie\"' && echo node-\$n; done | tr '\n' ' '"

t_checks "$py" "$checks" "$(vm_port c-a smb)" "$(vm_port c-b smb)" cl
lchecks="$(dirname "$0")/locks.py"
t_checks "$py" "$lchecks" "$(vm_port c-a smb)" "$(vm_port c-b smb)" cl
cchecks="$(dirname "$0")/leases.py"
t_checks "$py" "$cchecks" "$(vm_port c-a smb)" "$(vm_port c-b smb)" lc
dchecks="$(dirname "$0")/delete.py"
t_checks "$py" "$dchecks" "$(vm_port c-a smb)" "$(vm_port c-b smb)" cl lc
dlchecks="$(dirname "$0")/dirleases.py"
t_checks "$py" "$dlchecks" "$(vm_port c-a smb)" "$(vm_port c-b smb)" lc
t_check_output "no node records a directory lease once every lease went" '^none$' \
	sh -c "k=\$($(declare -f rados_ns); rados_ns listomapkeys dirleases); [ -z \"\$k\" ] && echo none || echo \"\$k\""

# After every close, no node keeps a key in any file's record.
left_keys() {
	local o
	for o in $(rados_ns ls | grep '^f\.'); do
		rados_ns listomapkeys "$o"
	done
}
t_check_output "no o.NODE, b.NODE or dp keys are left once every open closed" '^none$' \
	sh -c "k=\$($(declare -f rados_ns left_keys); left_keys); [ -z \"\$k\" ] && echo none || echo \"\$k\""

for v in c-a c-b; do
	T_VM=$v t_dmesg_clean
done

# hold_start FD NODE FILE [CHECKER [SHARE]]: a client of node NODE holds
# FILE of SHARE (cl by default) (CHECKER's hold: sharemode.py, the
# default, opens it denying writes; locks.py locks bytes 0-9; leases.py
# takes an RWH lease and answers no break) with its output on fd FD; 0
# once it said HELD.  hold_stop FD ends it.
declare -A holders
hold_start() {
	local fd=$1 fifo line
	fifo=$(mktemp -u)
	mkfifo "$fifo"
	"$py" "${4:-$checks}" hold "$(vm_port "c-$2" smb)" "${5:-cl}" "$3" > "$fifo" 2>&1 &
	holders[$fd]=$!
	eval "exec $fd< \"\$fifo\""
	rm -f "$fifo"
	read -r -t 60 -u "$fd" line && [ "$line" = HELD ] && return 0
	t_diag "holder of $3: ${line:-no answer}"
	return 1
}
hold_stop() {
	kill "${holders[$1]}" 2>/dev/null
	eval "exec $1<&-"
	wait "${holders[$1]}" 2>/dev/null
}
attached() { vm_exec "c-$1" 'grep -c "attached to smbsrv" /tmp/smbsrvd.log'; }

# A daemon restarted within the module's deadline (12 s after its last
# renewal) resumes its incarnation: the module keeps serving, the
# records stay, nothing is fenced.
if hold_start 7 a kept.txt; then
	t_ok "a client of node a holds kept.txt open, denying writes"
	n=$(attached a)
	vm_exec c-a 'kill -9 $(pidof smbsrvd)'
	t_check "node a: smbsrvd killed and started again" vm_exec c-a \
		"set -- $n; $daemon_up"
	sleep 15
	t_check_output "node a's daemon resumed its incarnation" 'resumes incarnation' \
		vm_exec c-a 'cat /tmp/smbsrvd.log'
	t_check_fail "node a was not fenced" vm_exec c-a 'dmesg | grep -q "smbsrv: cluster: .* fenced"'
	if read -r -t 1 line <&7; then
		t_not_ok "the client's connection to node a survived the restart: $line"
	else
		t_ok "the client's connection to node a survived the restart"
	fi
	t_checks "$py" "$checks" probe "$(vm_port c-b smb)" cl kept.txt
else
	t_not_ok "a client of node a holds kept.txt open, denying writes"
fi
hold_stop 7

# Node a stops renewing (its daemon stopped): its module fences at the
# deadline (at most 12 s after the last renewal, renewals every 3 s),
# closing its client's connection and refusing the share; node b reaps
# node a (its lock expired), blocklisting its Ceph clients, and can open
# what a's client held.  What node a acknowledged just before (written
# and closed, never flushed by a client) must be in the file system when
# node b reads it after the blocklist.  CephFS may write it back on its
# own before then (it did here without the sync); the module syncs the
# mount as it fences, so that nothing still dirty is lost.
if hold_start 7 a fence.txt; then
	t_ok "a client of node a holds fence.txt open, denying writes"
	t_checks "$py" "$checks" probe "$(vm_port c-b smb)" cl fence.txt
	t_checks "$py" "$checks" put "$(vm_port c-a smb)" cl acked.dat 4
	vm_exec c-a 'kill -STOP $(pidof smbsrvd)'
	t0=$(date +%s.%N)
	if read -r -t 40 line <&7 && [ "${line%% *}" = DROPPED ]; then
		took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
		t_diag "node a's client was dropped ${took} s after its daemon stopped"
		if awk -v t="$took" 'BEGIN { exit !(t <= 15) }'; then
			t_ok "node a fenced: its client's connection dropped within the deadline (${took} s <= 15 s)"
		else
			t_not_ok "node a fenced: its client's connection dropped within the deadline (${took} s > 15 s)"
		fi
	else
		t_not_ok "node a fenced: its client's connection dropped within the deadline: ${line:-nothing in 40 s}"
	fi
	t_check_output "node a's kernel log says it fenced itself" 'smbsrv: cluster: .* fenced' \
		vm_exec c-a 'dmesg'
	t_checks "$py" "$checks" refused "$(vm_port c-a smb)" cl
	t_checks "$py" "$checks" wait "$(vm_port c-b smb)" cl fence.txt 60
	t_checks "$py" "$checks" same "$(vm_port c-b smb)" cl acked.dat 4
	t_check_output "node a's kernel log says it synced its file system as it fenced" \
		'smbsrv: cluster: fenced: .* synced' vm_exec c-a 'dmesg'
	t_diag "node b: $(vm_exec c-b 'grep "node-a fenced" /tmp/smbsrvd.log | tail -n 1')"
	t_check_output "node b blocklisted node a's librados and CephFS clients" \
		'node-a fenced: ([2-9]) of \1 Ceph clients' \
		vm_exec c-b 'grep "node-a fenced" /tmp/smbsrvd.log | tail -n 1'
	n=$(attached a)
	vm_exec c-a 'kill -CONT $(pidof smbsrvd)'
	t_check "node a's daemon, woken, finds its lease lost and stops" vm_exec c-a '
for i in $(seq 1 40); do pidof smbsrvd >/dev/null || exit 0; sleep 0.5; done; exit 1'
	t_check_output "node a's daemon said why" 'lost its lease' vm_exec c-a 'cat /tmp/smbsrvd.log'
	t_check "node a: smbsrvd joins again as a new incarnation" vm_exec c-a \
		"set -- $n; $daemon_up"
	t_check_output "node a's module serves again" 'serving again' vm_exec c-a 'dmesg'
	t_checks "$py" "$checks" serves "$(vm_port c-a smb)" cl again.txt
else
	t_not_ok "a client of node a holds fence.txt open, denying writes"
fi
hold_stop 7

# Node loss: a client of node a holds an open denying writes; node a's
# VM is killed; node b's reaper removes a's records once a's lock
# expired (15 s) and a sweep (every 5 s) noticed: the documented bound
# is 2 x 15 s + 5 s, 35 s.  The reaper first blocklists a's Ceph
# clients, so the MDS drops a's CephFS capabilities at once instead of
# when its session goes stale (session_timeout, 30 s here), which node
# b's CREATE would wait for.  The check allows 60 s.
# Its byte-range locks go the same way: another client of node a holds
# bytes 0-9 of deadlock.txt locked (through a read-only handle: no POSIX
# mirror on CephFS, so only the cluster's records say so); and its
# caching: a third holds a read-write-handle lease of deadlease.txt and
# never answers a break; and its deletions: a fourth set the disposition
# of deadpend.txt, open nowhere else (the deletion goes with its node's
# last open, the name stays, as after a crash of one server); and a fifth
# a directory lease of deaddir (made by that client), whose record goes
# too.
if hold_start 7 a dead.txt && hold_start 8 a deadlock.txt "$lchecks" &&
	hold_start 9 a deadlease.txt "$cchecks" lc &&
	hold_start 10 a deadpend.txt "$dchecks" &&
	hold_start 6 a deaddir "$dlchecks" lc; then
	t_ok "clients of node a hold dead.txt open denying writes, bytes 0-9 of deadlock.txt locked, an RWH lease of deadlease.txt, deadpend.txt pending deletion and a lease of deaddir"
	t_checks "$py" "$checks" probe "$(vm_port c-b smb)" cl dead.txt
	t_checks "$py" "$lchecks" probe "$(vm_port c-b smb)" cl deadlock.txt
	t_checks "$py" "$dchecks" pending "$(vm_port c-b smb)" cl deadpend.txt
	t_check_output "node a's directory lease of deaddir is recorded" '\.node-a$' \
		rados_ns listomapkeys dirleases
	vm_kill c-a
	hold_stop 6
	hold_stop 8
	hold_stop 9
	hold_stop 10
	t_checks "$py" "$checks" wait "$(vm_port c-b smb)" cl dead.txt 60
	t_checks "$py" "$lchecks" wait "$(vm_port c-b smb)" cl deadlock.txt 60
	t_checks "$py" "$cchecks" wait "$(vm_port c-b smb)" lc deadlease.txt 60
	t_checks "$py" "$dchecks" wait "$(vm_port c-b smb)" cl deadpend.txt 60
	t_check_output "node b's log says it reaped node a" 'node node-a is gone' \
		vm_exec c-b 'cat /tmp/smbsrvd.log'
	t_check_output "no b.node-a keys are left after the reap" '^none$' \
		sh -c "k=\$($(declare -f rados_ns left_keys); left_keys | grep '^b\.node-a\.'); [ -z \"\$k\" ] && echo none || echo \"\$k\""
	t_check_output "no directory lease of node a is left after the reap" '^none$' \
		sh -c "k=\$($(declare -f rados_ns); rados_ns listomapkeys dirleases | grep 'node-a'); [ -z \"\$k\" ] && echo none || echo \"\$k\""
	t_checks "$py" "$dlchecks" probe "$(vm_port c-b smb)" lc deaddir
	t_diag "node b: $(vm_exec c-b 'grep "node-a fenced" /tmp/smbsrvd.log | tail -n 1')"
else
	t_not_ok "clients of node a hold dead.txt open, deadlock.txt locked, deadlease.txt leased, deadpend.txt pending deletion and deaddir leased"
fi
hold_stop 6
hold_stop 7
hold_stop 8
hold_stop 9
hold_stop 10

# What cluster mode costs through one node, in one boot: CREATE + CLOSE
# and LOCK + UNLOCK through node b, now alone in the cluster, here and
# again with clustering off at the end (benchmarks.md).
t_checks "$py" "$checks" latency "$(vm_port c-b smb)" cl
t_checks "$py" "$lchecks" latency "$(vm_port c-b smb)" cl

# The cluster's file system: the first node to join names it in meta; a
# node with a share elsewhere, or whose CephFS is another file system,
# does not join.
t_check_output "meta names the file system the cluster serves" '1 [0-9a-f]{8} [0-9]+' \
	rados_ns getomapval meta fs /dev/stdout
t0=$(date +%s)
t_check "node b's smbsrvd stops when asked to (SIGTERM)" vm_exec c-b '
kill $(pidof smbsrvd)
for i in $(seq 1 120); do pidof smbsrvd >/dev/null || exit 0; sleep 0.5; done
tail -n 5 /tmp/smbsrvd.log; kill -9 $(pidof smbsrvd); sleep 1; exit 1'
t_diag "node b's smbsrvd stopped in $(($(date +%s) - t0)) s"
t_check_output "node b's module fenced itself as its daemon left" 'smbsrv: cluster: .* fenced' \
	vm_exec c-b 'dmesg'
refuses_join() {
	vm_exec c-b "
out=\$(timeout 120 smbsrvd -F -c $1 2>&1); rc=\$?
echo \"\$out\" | tail -n 5
[ \$rc -ne 0 ] && echo \"\$out\" | grep -q '$2'"
}
vm_exec c-b '{ cat /etc/smbsrv/cluster.conf; printf "[t]\n\tpath = /tmp\n\tguest ok = yes\n"; } > /etc/smbsrv/cluster-tmp.conf'
t_check "a node with a share outside CephFS does not join" \
	refuses_join /etc/smbsrv/cluster-tmp.conf 'is not on CephFS'
rados_ns setomapval meta fs "1 00000000 99" >/dev/null 2>&1
t_check "a node whose CephFS is not the cluster's file system does not join" \
	refuses_join /etc/smbsrv/cluster.conf 'the cluster serves file system'

# Clustering off in the same guest (single_up): the module reloaded,
# the same share on the same CephFS mount.
t_check "node b serves cl with clustering off (module reloaded)" single_up b
t_checks "$py" "$checks" latency "$(vm_port c-b smb)" cl
t_checks "$py" "$lchecks" latency "$(vm_port c-b smb)" cl

vm_exec c-b 'kill $(pidof smbsrvd) 2>/dev/null; sleep 1; umount /mnt/cephfs' >/dev/null 2>&1
vm_stop c-a
T_VM=c-b
t_done
