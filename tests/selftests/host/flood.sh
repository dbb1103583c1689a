#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Admission under a connection flood, one boot.  The host holds FLOOD_N
# (200 in make check; make check-long: 5000) idle connections that negotiated and never log on
# (tests/tools/connflood.c, through the forwarded port), and meanwhile:
#   - with the default max connections (derived from memory) every one
#     of them is held, a cifs mount in the guest copies a file in and out
#     and smbclient logs on from the host, its logon time measured against
#     the same logon without the flood; kernel memory per idle connection
#     comes from the guest's /proc/meminfo;
#   - with max connections below the flood, new connections evict the
#     oldest ones that have no session: smbclient still logs on, the
#     cifs mount keeps working, the evicted counter moves, nothing is
#     refused;
#   - max ip connections applies first: over it the host's address is
#     refused (the flood and smbclient share it), the guest's own cifs
#     mount is not;
#   - with a short logon timeout every flood connection (half as many,
#     at most 1000, this time) is closed and counted;
#   - deadtime (beside the logon-timeout flood): an idle session without
#     open files is closed after a minute, one holding an open file is not;
#   - the kernel memory the flood took comes back.
# Figures go to build/test-logs/flood.txt.
. "$(dirname "$0")/lib.sh"

n=${FLOOD_N:-200}
# The logon-timeout flood: half as many, at most 1000 (QEMU forwards a
# few connections a second under TCG; what it checks does not need more).
n2=$(( n < 2000 ? n / 2 : 1000 ))
flood_bin="$T_TOP/build/user/tests/tools/smbsrv-connflood"
report=${FLOOD_REPORT:-$T_TOP/build/test-logs/flood.txt}
mkdir -p "$(dirname "$report")"
: > "$report"
# qemu holds one host socket per forwarded connection.
ulimit -n $((n * 2 + 1024)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"

t_vm_start
t_guest_check "smbsrvd serves share fl with user demo; cifs mounts it" "
set -e
mkdir -p /srv/fl /mnt/fl
chown demo:demo /srv/fl
cat > /etc/smbsrv/fl.conf <<EOF
[global]
	server signing = auto
[fl]
	path = /srv/fl
	read only = no
EOF
echo demopass | smbsrvctl -c /etc/smbsrv/fl.conf user add demo >/dev/null
smbsrvd -c /etc/smbsrv/fl.conf
mount -t cifs //127.0.0.1/fl /mnt/fl -o username=demo,password=demopass,vers=3.1.1,cache=none"

max=$(vm_exec "$T_VM" "smbsrvctl status" | awk '/^  max connections/ { print $3 }')
mem=$(vm_exec "$T_VM" "awk '/^MemTotal:/ { print \$2 }' /proc/meminfo")
t_diag "max connections by default: $max (MemTotal $mem KiB)"
echo "guest MemTotal $mem KiB; default max connections $max" >> "$report"
# The default: one connection per 256 KiB of memory, 128 to 65536.
want=$(( mem * 1024 / 262144 ))
[ $want -lt 128 ] && want=128
[ $want -gt 65536 ] && want=65536
# MemTotal is what the kernel kept of the RAM sysinfo counts: within 3%.
if [ -n "$max" ] && [ $(( max * 100 / want )) -ge 97 ] && [ $(( max * 100 / want )) -le 103 ]; then
	t_ok "default max connections $max is derived from memory (~$want)"
else
	t_not_ok "default max connections '$max' is derived from memory (~$want)"
fi

# smbclient logon plus a directory listing from the host; prints seconds.
logon() {
	local t0 t1
	t0=$(date +%s.%N)
	timeout 120 smbclient //127.0.0.1/fl -p "$T_SMB_PORT" -U demo%demopass \
		-m SMB3 -c 'ls' > /tmp/flood-logon.$$ 2>&1 || { cat /tmp/flood-logon.$$; return 1; }
	t1=$(date +%s.%N)
	echo "$t1 $t0" | awk '{ printf "%.2f", $1 - $2 }'
}
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

cifs_copy() { # a file in and out of the guest's cifs mount, md5 compared
	vm_exec "$T_VM" "
set -e
head -c 1048576 /dev/urandom > /tmp/c.in
cp /tmp/c.in /mnt/fl/c.bin
cp /mnt/fl/c.bin /tmp/c.out
test \"\$(md5sum < /tmp/c.in)\" = \"\$(md5sum < /srv/fl/c.bin)\"
test \"\$(md5sum < /tmp/c.in)\" = \"\$(md5sum < /tmp/c.out)\""
}

# Slab, kernel stacks, page tables: what connections cost the kernel, KiB
# (reclaimable caches dropped, empty slabs given back first).
kmem() {
	vm_exec "$T_VM" 'sync; echo 2 > /proc/sys/vm/drop_caches
		for f in /sys/kernel/slab/*/shrink; do echo 1 > "$f"; done 2>/dev/null; sleep 1
		awk "/^(Slab|KernelStack|PageTables):/ { s += \$2 } END { print s }" /proc/meminfo'
}
stat_of() { # FIELD: a counter from smbsrvctl stats
	vm_exec "$T_VM" "smbsrvctl stats" |
		sed -n "s/.*$1: \([0-9]*\).*/\1/p" | head -n1
}
conns() { vm_exec "$T_VM" "smbsrvctl stats" | sed -n 's/^connections: *//p'; }

b1=$(logon) && b2=$(logon) && b3=$(logon)
base=$(median3 "$b1" "$b2" "$b3")
t_check "smbclient logs on before the flood (${base:-?} s)" test -n "$base"

# The flood: a coprocess answering status requests on its stdin.  Bash
# keeps a coprocess's descriptors out of subshells, so these set FLOOD_ST
# instead of printing (no $(...) around them).
flood_start() { # ARGS...
	coproc FLOOD { exec "$flood_bin" "$@" 2>&1; }
	FLOOD_IN=${FLOOD[1]}
	FLOOD_OUT=${FLOOD[0]}
	read -r -t 1200 FLOOD_ST <&"$FLOOD_OUT" || FLOOD_ST="no answer"
}
flood_status() {
	echo >&"$FLOOD_IN"
	read -r -t 120 FLOOD_ST <&"$FLOOD_OUT" || FLOOD_ST="no answer"
}
flood_stop() {
	exec {FLOOD_IN}>&-
	wait "$FLOOD_PID" 2>/dev/null
}
open_of() { sed -n 's/.*open=\([0-9]*\).*/\1/p' <<< "$1"; }

# --- 1: the default limit holds the whole flood -----------------------
vm_exec "$T_VM" "smbsrvctl set logon-timeout 3600" >/dev/null
before=$(kmem)
t0=$(date +%s)
flood_start -n 127.0.0.1 "$T_SMB_PORT" "$n"
st=$FLOOD_ST
t_diag "flood: $st after $(( $(date +%s) - t0 )) s"
# The module's table catches up with what connflood holds (the cifs
# mount is one more).
held=""
for _ in $(seq 1 60); do
	held=$(conns)
	[ "${held:-0}" -gt "$(open_of "$st")" ] && break
	sleep 2
done
flood_status; st=$FLOOD_ST
if [ "$(open_of "$st")" = "$n" ] && [ "${held:-0}" -ge "$n" ]; then
	t_ok "$n idle negotiated connections are held ($st; module: $held)"
else
	t_not_ok "$n idle negotiated connections are held ($st; module: ${held:-?})"
fi
after=$(kmem)
held_n=$(open_of "$st")
per=$(echo "$after $before ${held_n:-0}" | awk '{ printf "%.1f", $3 ? ($1 - $2) / $3 : 0 }')
t_diag "kernel memory: $before KiB before, $after KiB with ${held_n:-?} connections: $per KiB each"
echo "idle negotiated connections held: $(open_of "$st") of $n; kernel memory (Slab+KernelStack+PageTables) $before -> $after KiB: $per KiB per connection" >> "$report"
t_check_output "each idle connection costs under 32 KiB of kernel memory ($per KiB)" \
	'^yes$' awk -v p="$per" 'BEGIN { print (p > 0 && p < 32) ? "yes" : "no" }'

l1=$(logon) && l2=$(logon) && l3=$(logon)
during=$(median3 "$l1" "$l2" "$l3")
t_check "smbclient logs on from the host during the flood (${during:-?} s, ${base:-?} s without)" \
	test -n "$during"
echo "smbclient logon + ls from the host: ${base:-?} s before, ${during:-?} s during the flood (median of 3)" >> "$report"
t_check "cifs mount in the guest copies 1 MiB in and out during the flood" cifs_copy
t_check "a new cifs mount logs on during the flood" vm_exec "$T_VM" "
set -e; mkdir -p /mnt/fl2
mount -t cifs //127.0.0.1/fl /mnt/fl2 -o username=demo,password=demopass,vers=3.0
ls /mnt/fl2 >/dev/null; umount /mnt/fl2"

# --- 2: a full table evicts connections without a session -------------
lim=$(( n / 2 ))
vm_exec "$T_VM" "smbsrvctl set max-connections $lim" >/dev/null
ev0=$(stat_of evicted)
ref0=$(stat_of refused)
flood_status; st=$FLOOD_ST
# Every new connection evicts one of the flood's.
e1=$(logon) && e2=$(logon)
t_check "smbclient logs on with the table full ($lim) of idle connections (${e1:-?} s, ${e2:-?} s)" \
	test -n "$e2"
t_check "cifs mount keeps working with the table full" cifs_copy
ev1=$(stat_of evicted)
ref1=$(stat_of refused)
t_check "the evicted counter moved (${ev0:-?} -> ${ev1:-?}), nothing refused (${ref0:-?} -> ${ref1:-?})" \
	test "${ev1:-0}" -gt "${ev0:-0}" -a "${ref1:-x}" = "${ref0:-y}"
flood_status; st=$FLOOD_ST
t_diag "flood after the logons: $st"
echo "max connections $lim with the flood: smbclient logon ${e1:-?} s, ${e2:-?} s; evicted ${ev0:-?} -> ${ev1:-?}" >> "$report"

# --- 3: max ip connections applies first -------------------------------
vm_exec "$T_VM" "smbsrvctl set max-ip-connections 100" >/dev/null
t_check_fail "over max ip connections the host's address is refused (smbclient)" logon
ref2=$(stat_of refused)
t_check "the refused counter moved (${ref1:-?} -> ${ref2:-?})" test "${ref2:-0}" -gt "${ref1:-0}"
t_check "a cifs mount from the guest's own address still logs on" vm_exec "$T_VM" "
set -e
mount -t cifs //127.0.0.1/fl /mnt/fl2 -o username=demo,password=demopass,vers=3.1.1
ls /mnt/fl2 >/dev/null; umount /mnt/fl2"
vm_exec "$T_VM" "smbsrvctl set max-ip-connections 0; smbsrvctl set max-connections $max" >/dev/null
flood_stop

# --- 5 (runs beside 4): deadtime -------------------------------------
# Two impacket sessions go idle for 100 s (deadtime 1 minute, scanned
# every 15 s) while the logon-timeout flood of part 4 runs; the flood's
# connections never log on, so deadtime does not concern them.
vm_exec "$T_VM" "smbsrvctl set deadtime 1" >/dev/null
idle0=$(stat_of "idle closed")
deadtime_py=$(mktemp); deadtime_out=$(mktemp)
cat > "$deadtime_py" <<'EOF'
import sys, time
from impacket.smbconnection import SMBConnection
port = int(sys.argv[1])
def conn():
    c = SMBConnection("127.0.0.1", "127.0.0.1", sess_port=port)
    c.login("demo", "demopass")
    return c
idle, busy = conn(), conn()
tid = busy.connectTree("fl")
fid = busy.createFile(tid, "held.txt")
time.sleep(100)
def alive(c):
    try:
        c.listPath("fl", "*")
        return True
    except Exception as e:
        return str(e)
a = alive(idle)
print("PASS an idle session without open files is closed after deadtime" if a is not True
      else "FAIL an idle session without open files is closed after deadtime: still alive")
b = alive(busy)
print("PASS an idle session holding an open file stays" if b is True
      else "FAIL an idle session holding an open file stays: %s" % b)
EOF
/usr/bin/python3 "$deadtime_py" "$T_SMB_PORT" > "$deadtime_out" 2>&1 &
deadtime_pid=$!

# --- 4: the logon timeout closes what never logs on --------------------
vm_exec "$T_VM" "smbsrvctl set logon-timeout 5" >/dev/null
to0=$(stat_of "logon timeouts")
flood_start -n 127.0.0.1 "$T_SMB_PORT" "$n2"
t_diag "second flood: $FLOOD_ST"
st=""
for _ in $(seq 1 90); do
	sleep 2
	flood_status; st=$FLOOD_ST
	[ "$(open_of "$st")" = 0 ] && break
done
to1=$(stat_of "logon timeouts")
t_check "with logon timeout = 5 every flood connection is closed ($st)" test "$(open_of "$st")" = 0
t_check "the logon-timeout counter counts them (${to0:-?} -> ${to1:-?})" \
	test $(( ${to1:-0} - ${to0:-0} )) -ge $(( n2 * 9 / 10 ))
flood_stop
t_check "cifs mount still works after the flood" cifs_copy

wait "$deadtime_pid"
t_checks cat "$deadtime_out"
rm -f "$deadtime_py" "$deadtime_out"

idle1=$(stat_of "idle closed")
t_check "the idle-closed counter moved (${idle0:-?} -> ${idle1:-?})" test "${idle1:-0}" -gt "${idle0:-0}"
# (After the deadtime wait: the closed sockets' TIME_WAIT is over.)
gone=$(kmem)
t_diag "kernel memory after the floods: $gone KiB (before: $before KiB)"
echo "kernel memory after the floods: $gone KiB" >> "$report"
t_check_output "the memory comes back ($before -> $after -> $gone KiB)" '^yes$' \
	awk -v b="$before" -v a="$after" -v g="$gone" 'BEGIN { print (g - b < (a - b) / 2) ? "yes" : "no" }'
vm_exec "$T_VM" "smbsrvctl stats" | sed 's/^/# /'
vm_exec "$T_VM" "smbsrvctl stats" | head -n 3 >> "$report"
t_check "cifs mount unmounts cleanly" vm_exec "$T_VM" "umount /mnt/fl"
t_dmesg_clean
t_done
