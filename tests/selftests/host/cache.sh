#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Client caching through the kernel's cifs client, in the guest over
# loopback, one boot: a share with `smb2 leases = yes` and `durable
# handles = yes` mounted twice (A, and B with nosharesock: its own
# connection, session and ClientGuid), both with cifs' default
# cache=strict, so each caches a file's data only under a lease.
#   1. A holds a file open and has read it: smbsrvctl opens shows its
#      read-caching lease, and a second read through A sends no READ.
#   2. B writes the file: A's lease is broken (smbsrvctl shows it gone)
#      and A then reads B's data, not its stale cache.
#   3. A process on the server writes the file directly: the kernel
#      lease smbsrv holds for A's caching makes the local open break it
#      first, and A then reads the local process's data.
#   4. `ss -K` kills A's TCP connection while a file is open for writing
#      through it: cifs reconnects, reclaims the durable handle (the same
#      persistent FileId before and after in smbsrvctl opens) and the
#      writes through the still-open descriptor land in the file.
. "$(dirname "$0")/lib.sh"

srv=/srv/cache
A=/mnt/a
B=/mnt/b
conf=/etc/smbsrv/cache.conf
opts="username=demo,password=demo,vers=3.1.1"
ctl="smbsrvctl -c $conf"

t_vm_start
t_guest_check "share cache (leases, durable handles) mounted as A and B" "
set -e
mkdir -p $srv $A $B
mount -t tmpfs -o size=64m tmpfs $srv
chown demo:demo $srv
cat > $conf <<EOF
[global]
	tcp port = 445
	smb2 leases = yes
	durable handles = yes
[cache]
	path = $srv
	read only = no
# B's own name, so that cifs' statistics tell the mounts apart.
[cacheb]
	path = $srv
	read only = no
EOF
echo demo | $ctl user add demo >/dev/null
smbsrvd -c $conf
mount -t cifs //127.0.0.1/cache $A -o $opts
mount -t cifs //127.0.0.1/cacheb $B -o $opts,nosharesock
grep -q cache=strict /proc/mounts"

# The caching smbsrvctl shows for the opens of PATH [by session SESSION].
caching() {
	t_guest "$ctl opens | awk -v p='$1' -v s='${2:-}' '\$NF == p && (s == \"\" || \$1 == s) { print \$4 }'"
}

# cifs' own count of READs sent through A (/proc/fs/cifs/Stats, A's tree
# connect section: the one ending in "cache").
reads_a() {
	t_guest "awk '/\\\\cache\$/ { a = 1; next } /^[0-9]+\\) / { a = 0 } a && /^Reads:/ { print \$2; exit }' /proc/fs/cifs/Stats"
}

# --- 1. a read-caching lease, visible and used --------------------------
t_guest_check "the file, written on the server" \
	"echo v1 > $srv/f && chown demo:demo $srv/f"
t_guest_check "A holds f open and reads it" "
set -e
sleep 600 < $A/f > /dev/null 2>&1 &
echo \$! > /tmp/holder
sleep 1
[ \"\$(cat $A/f)\" = v1 ]"
t_check_output "smbsrvctl opens: A's open of f holds a read-caching lease" \
	"^lease:RW?H?$" caching f
# A's session: the only one with f open now.
sa=$(t_guest "$ctl opens | awk '\$NF == \"f\" { print \$1 }'")
r1=$(reads_a)
t_check_output "A reads f again from its cache" "^v1$" t_guest "cat $A/f"
r2=$(reads_a)
t_check "... sending no READ (cifs Stats: $r1 then $r2)" \
	test -n "$r1" -a "$r1" = "$r2" -a "${r1:-0}" -gt 0

# --- 2. a write through B breaks A's lease ------------------------------
t_guest_check "B writes f" "echo v2-from-b > $B/f"
t_check_output "A's lease no longer caches reads" "^lease:(-|H)?$" caching f "$sa"
t_check_output "A reads B's data, not its stale cache" "^v2-from-b$" \
	t_guest "cat $A/f"

# --- 3. a process on the server breaks A's lease ------------------------
t_guest_check "A opens f anew and reads it into its cache" "
set -e
kill \$(cat /tmp/holder)
sleep 1
sleep 600 < $A/f > /dev/null 2>&1 &
echo \$! > /tmp/holder
sleep 1
[ \"\$(cat $A/f)\" = v2-from-b ]"
t_check_output "A caches reads of f again" "^lease:RW?H?$" caching f "$sa"
t_guest_check "a local process on the server writes f" "echo v3-local > $srv/f"
t_check_output "the local open broke A's lease" "^lease:(-|H)?$" caching f "$sa"
t_check_output "A reads the local process's data" "^v3-local$" \
	t_guest "cat $A/f"
t_guest_check "A's holder closes" "kill \$(cat /tmp/holder); sleep 1"

# --- 4. ss -K: the connection dies, the durable handle is reclaimed -----
t_guest_check "B unmounted: only A's connection goes to port 445" "umount $B"
t_guest_check "A opens d for writing and writes through it" "
set -e
rm -f /tmp/go /tmp/done
(exec 4>>$A/d; echo one >&4; while [ ! -f /tmp/go ]; do sleep 0.2; done
 echo two >&4; touch /tmp/done; while [ -f /tmp/go ]; do sleep 0.2; done
) > /tmp/writer.log 2>&1 &
sleep 2"
t_check_output "smbsrvctl opens: d is a durable handle" " v1 +d$" \
	t_guest "$ctl opens | grep ' d\$'"
id1=$(t_guest "$ctl opens | awk '\$NF == \"d\" { print \$3 }'")
t_guest_check "ss -K kills A's TCP connection" "
set -e
ss -tn state established '( dport = :445 )' | grep -q :445
ss -K -tn state established '( dport = :445 )' >/dev/null
sleep 1"
t_guest_check "cifs reconnects: A works again" "
for i in \$(seq 1 60); do ls $A >/dev/null 2>&1 && exit 0; sleep 0.5; done
exit 1"
t_guest_check "the writer writes through its old descriptor, and it is flushed" "
touch /tmp/go
for i in \$(seq 1 100); do [ -f /tmp/done ] && sync && exit 0; sleep 0.2; done
cat /tmp/writer.log; exit 1"
id2=$(t_guest "$ctl opens | awk '\$NF == \"d\" && \$1 != \"(disconnected)\" { print \$3 }'")
t_check "the durable handle was reclaimed: FileId $id1 before, $id2 after" \
	test -n "$id1" -a "$id1" = "$id2"
t_guest_check "the writer closes" "rm -f /tmp/go; sleep 1"
t_check_output "both writes are in the file on the server" "^one two$" \
	t_guest "tr '\\n' ' ' < $srv/d | sed 's/ \$//'"

# --- 5. unloading with a lease and a disconnected durable handle --------
t_guest_check "A holds e open with a lease; its connection dies" "
set -e
echo x > $A/e
sleep 600 < $A/e > /dev/null 2>&1 &
sleep 1
ss -K -tn state established '( dport = :445 )' >/dev/null
sleep 2"
t_check_output "smbsrvctl opens: e is kept disconnected" "^\(disconnected\) .* e$" \
	t_guest "$ctl opens | grep ' e\$'"
t_guest_check "smbsrvd stops and smbsrv.ko unloads with it outstanding" "
set -e
kill \$(cat /run/smbsrvd.pid)
sleep 1
rmmod smbsrv
umount -l $A"
t_dmesg_clean
t_done
