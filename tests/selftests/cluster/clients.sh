#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Cluster mode through real clients (make check-cluster, through
# tools/cluster/check.sh): two nodes (nodes.bash) serve one CephFS
# directory under their own cluster name, "clients".
#
# cifs: each node's guest mounts its own node over loopback with the
# kernel cifs client (cache=strict, leases), so the two mounts reach the
# directory through different nodes: a file written and closed through
# one is read back identical (md5) through the other, both ways, the
# second time over a page cache the first mount filled (its lease must
# break); fcntl byte-range locks (smbsrv-fsprobe; cifs without nobrl or
# POSIX extensions sends them as SMB2 LOCKs) conflict across the nodes;
# an impacket client of node a holding a deny-write open makes a write
# through node b's mount fail.
#
# smbtorture: smb2.lock, smb2.sharemode, smb2.oplock and smb2.lease
# (whole or some of their subtests: CL_TORTURE below) against
# node a, then node b, with clustering on, then against node b with
# clustering off (its module reloaded, the same share on the same CephFS
# mount): each suite passes as many subtests on each node as on the
# single node; the subtests whose results differ are listed.  The table
# goes to build/test-logs/torture-clients.txt.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/../host/torture.bash"

py=/usr/bin/python3
checks="$(dirname "$0")/sharemode.py"
CL_NAME=clients
CL_DIR=clients
# smbtorture's share: streams (oplock.stream1) as in host/torture-cache.sh.
CL_SHARES="[tt]
	path = /mnt/cephfs/$CL_DIR
	read only = no
	vfs objects = streams_xattr"
. "$(dirname "$0")/nodes.bash"
cl_boot
for n in a b; do
	t_check "node $n: mount CephFS, join cluster $CL_NAME, serve it" node_up "$n"
done

# --- cifs, one mount through each node -----------------------------------
P=smbsrv-fsprobe
M=/mnt/smb
for n in a b; do
	t_check "node $n's guest mounts share lc of node $n with cifs (cache=strict)" \
		vm_exec "c-$n" "mkdir -p $M && mount -t cifs //127.0.0.1/lc $M \
-o username=demo,password=demo,vers=3.1.1,cache=strict"
done
# put NODE FILE: 4 MiB + 1 random bytes written through NODE's mount and
# closed; prints their md5.
put() {
	vm_exec "c-$1" "head -c 4194305 /dev/urandom > /tmp/put && cat /tmp/put > $M/$2 &&
md5sum < /tmp/put | cut -d' ' -f1"
}
md5() { vm_exec "c-$1" "md5sum < $M/$2 | cut -d' ' -f1"; }
m1=$(put a same.dat)
t_check_output "a file written through node a's mount reads back identical through node b's" \
	"^${m1:-none}\$" md5 b same.dat
t_check_output "node a's mount reads its own bytes back" "^${m1:-none}\$" md5 a same.dat
m2=$(put b same.dat)
t_check_output "node b overwrites it: node a's mount reads node b's bytes, not its cache" \
	"^${m2:-none}\$" md5 a same.dat
[ "$m1" != "$m2" ] || t_diag "the two writes had the same md5 ($m1)"

t_check "node a's mount holds a write lock on bytes 0-99 of lk.dat (F_SETLK)" vm_exec c-a "
echo 'some bytes to lock' > $M/lk.dat
rm -f /tmp/rel1
$P lock $M/lk.dat 0 100 w nowait /tmp/rel1 > /tmp/a1.out 2>&1 &
for i in \$(seq 1 100); do grep -q locked /tmp/a1.out && exit 0; sleep 0.1; done
cat /tmp/a1.out; exit 1"
t_check_output "node b's mount: F_SETLK of a write lock on 0-99 is refused (EACCES)" "^EACCES$" \
	vm_exec c-b "$P lock $M/lk.dat 0 100 w nowait"
t_check_output "node b's mount: F_SETLK of a read lock inside node a's range is refused" "^EACCES$" \
	vm_exec c-b "$P lock $M/lk.dat 50 10 r nowait"
t_check_output "node b's mount: F_SETLK of the bytes after node a's range succeeds" "^locked$" \
	vm_exec c-b "$P lock $M/lk.dat 100 10 w nowait"
t_check_output "node b's mount: F_GETLK reports node a's write lock" "^conflict w " \
	vm_exec c-b "$P getlk $M/lk.dat 0 10 w"
t_check_output "a process on node b sees node a's lock on CephFS (the module's POSIX mirror: EAGAIN)" \
	"^EAGAIN$" vm_exec c-b "$P lock /mnt/cephfs/$CL_DIR/lk.dat 0 1 w nowait"
t_check "node b's mount: F_SETLKW waits while node a holds the lock (3 s)" vm_exec c-b "
$P lock $M/lk.dat 0 100 w wait > /tmp/b1.out 2>&1 &
echo \$! > /tmp/b1.pid
sleep 3
kill -0 \$(cat /tmp/b1.pid) && [ ! -s /tmp/b1.out ]"
t_check "node a unlocks: its unlock succeeds" vm_exec c-a "
touch /tmp/rel1
for i in \$(seq 1 300); do grep -q released /tmp/a1.out && exit 0; sleep 0.1; done
cat /tmp/a1.out; exit 1"
t_check "node b's waiting F_SETLKW returns with the lock" vm_exec c-b "
for i in \$(seq 1 300); do grep -q locked /tmp/b1.out && exit 0; sleep 0.1; done
cat /tmp/b1.out; exit 1"
vm_exec c-b 'kill $(cat /tmp/b1.pid) 2>/dev/null' >/dev/null 2>&1

# A deny-write open through node a (impacket) against cifs through node b:
# cifs opens with every share access, so its open for writing fails
# (STATUS_SHARING_VIOLATION, -EBUSY) while the open for reading works.
vm_exec c-a "echo held > /mnt/cephfs/$CL_DIR/dw.dat && chmod 666 /mnt/cephfs/$CL_DIR/dw.dat" >/dev/null
hold=$(mktemp)
"$py" "$checks" hold "$(vm_port c-a smb)" lc dw.dat > "$hold" 2>&1 &
holder=$!
for _ in $(seq 1 60); do grep -q . "$hold" && break; sleep 1; done
if [ "$(head -n 1 "$hold")" = HELD ]; then
	t_ok "an impacket client of node a holds dw.dat open, denying writes"
	out=$(vm_exec c-b "echo more >> $M/dw.dat; echo rc=\$?" 2>&1)
	t_diag "node b's append: $out"
	if printf '%s\n' "$out" | grep -q '^rc=[1-9]'; then
		t_ok "node b's mount: an append to dw.dat fails"
	else
		t_not_ok "node b's mount: an append to dw.dat fails"
	fi
	t_check_output "node b's mount: dw.dat reads" '^rc=0$' \
		vm_exec c-b "cat $M/dw.dat; echo rc=\$?"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	t_check "node b's mount: the append works once node a's client is gone" vm_exec c-b "
for i in \$(seq 1 60); do echo more >> $M/dw.dat 2>/dev/null && exit 0; sleep 0.5; done; exit 1"
else
	t_not_ok "an impacket client of node a holds dw.dat open, denying writes: $(cat "$hold")"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
fi
rm -f "$hold"
for n in a b; do
	t_check "node $n's guest unmounts its cifs mount" vm_exec "c-$n" "umount $M"
done

# --- smbtorture ----------------------------------------------------------
TT_SHARE=tt
TT_TIMEOUT=${TT_TIMEOUT:-900}
TT_COLUMNS="node-a node-b single"
# Which subtests (CL_TORTURE): smb2.lock and smb2.sharemode whole, and
#   quick  (default) these of smb2.oplock and smb2.lease: grants, breaks
#          and their acknowledgements, upgrades, epochs, statopens,
#          streams and byte-range locks under caching (about 5 minutes a
#          node under TCG on a loaded host);
#   broad  every subtest of smb2.oplock and smb2.lease but those that
#          wait out a break timeout or a blocked transport (oplock.batch22a,
#          batch22b, lease.timeout, timeout-disconnect, rename_wait,
#          unlink) and dynamic_share (it needs Samba's dynamic shares):
#          about 8 minutes a node;
#   full   the four suites whole.
# Documentation/testing.md has the times and results.
oplock_quick="exclusive1 exclusive2 exclusive4 exclusive5 batch1 batch2
	batch9 batch10 batch19 stream1 doc brl1 brl3 levelii500 statopen1"
lease_quick="request break_twice nobreakself statopen3 upgrade2 breaking2 multibreak
	breaking1 breaking3 v2_epoch2 v2_complex2 lock1 v2_rename duplicate_open"
oplock_broad="exclusive1 exclusive2 exclusive3 exclusive4 exclusive5
	exclusive6 exclusive9 batch1 batch2 batch3 batch4 batch5 batch6 batch7
	batch8 batch9 batch9a batch10 batch11 batch12 batch13 batch14 batch15
	batch16 batch19 batch20 batch21 batch23 batch24 batch25
	batch26 stream1 doc brl1 brl2 brl3 levelii500 levelii501 levelii502
	statopen1"
lease_broad="break_twice nobreakself statopen statopen2 statopen3
	statopen4 upgrade upgrade2 upgrade3 break oplock multibreak breaking1
	breaking2 breaking3 v2_breaking3 breaking4 breaking5 breaking6 lock1
	complex1 v2_epoch1 v2_epoch2 v2_epoch3 v2_complex1 v2_complex2 v2_rename
	duplicate_create duplicate_open v1_bug15148
	v2_bug15148 request v2_request v2_request_parent"
suites="smb2.lock smb2.sharemode smb2.oplock smb2.lease"
tests=$suites o="" l=""
case ${CL_TORTURE:-quick} in
full) ;;
quick) o=$oplock_quick l=$lease_quick ;;
broad) o=$oplock_broad l=$lease_broad ;;
*) t_not_ok "CL_TORTURE is quick, broad or full, not $CL_TORTURE" ;;
esac
if [ -n "$o" ]; then
	tests="smb2.lock smb2.sharemode
		$(for s in $o; do echo "smb2.oplock.$s"; done)
		$(for s in $l; do echo "smb2.lease.$s"; done)"
fi
# cl_torture NAME NODE: every test against NODE's smbsrv, results under
# NAME.
cl_torture() {
	local t start=$SECONDS line
	for t in $tests; do
		tt_one "$1" "$(vm_port "c-$2" smb)" demo%demo "$t"
	done
	line="$1 (node $2): $((SECONDS - start)) s;"
	for t in $suites; do
		line="$line $t $(tt_passed "$1" "$t"),"
	done
	t_diag "${line%,} passed"
}
cl_torture node-a a
cl_torture node-b b
if single_up b >/dev/null 2>&1; then
	t_ok "node b serves the shares with clustering off (its smbsrvd stopped, module reloaded)"
	cl_torture single b
else
	t_not_ok "node b serves the shares with clustering off (its smbsrvd stopped, module reloaded)"
	t_diag "$(vm_exec c-b 'cat /tmp/single.log')"
fi

for s in $suites; do
	for n in node-a node-b; do
		c=$(tt_passed "$n" "$s")
		b=$(tt_passed single "$s")
		if [ "$c" -ge "$b" ] && [ "$b" -gt 0 ]; then
			t_ok "$s: $n (clustering on) passes $c, the single node $b"
		else
			t_not_ok "$s: $n (clustering on) passes $c, the single node $b"
		fi
	done
done
# The subtests whose results differ between a node and the single node.
cat "$TT_DIR"/*.res 2>/dev/null | awk '{ print $1 }' | sort -u |
	while read -r name; do
	rs=$(tt_result single "$name")
	ra=$(tt_result node-a "$name")
	rb=$(tt_result node-b "$name")
	if [ "$ra" != "$rs" ] || [ "$rb" != "$rs" ]; then
		t_diag "differs: $name: node-a $ra, node-b $rb, single $rs"
	fi
done
tt_table

for v in c-a c-b; do
	T_VM=$v t_dmesg_clean
done
vm_exec c-b 'kill $(pidof smbsrvd) 2>/dev/null; sleep 1; umount /mnt/cephfs' >/dev/null 2>&1
vm_stop c-a
T_VM="c-b"
t_done
