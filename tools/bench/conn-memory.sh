#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Kernel memory per idle negotiated connection, and per idle connection
# with a logged-on session and a tree connect, smbsrv vs the in-tree
# ksmbd, in one VM boot: open N connections from the host to each server
# in turn and compare the guest's /proc/meminfo before and after.  Prints
# one line per server and kind, twice.
#
#   tools/bench/conn-memory.sh [N]      (default 200)
#
# The sessions log on with SMB 2.1 ($HOLD_DIALECT): impacket's 3.0
# encryption does not work against ksmbd and its 3.1.1 signing keys are
# wrong against any server, so 2.1 is the dialect both servers serve it.
# ksmbd limits connections per share too (128 by default): [rival] says
# max connections as well.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/lib.sh"
n=${1:-200}
vm=bench-mem
py=/usr/bin/python3
export HOLD_DIALECT=${HOLD_DIALECT:-0x0210}

vm_initramfs >/dev/null
vm_start "$vm" >/dev/null
trap 'vm_stop "$vm" >/dev/null 2>&1 || true' EXIT
smb=$(vm_port "$vm" smb)
rival=$(vm_port "$vm" rival)

vm_exec "$vm" '
cat > /etc/smbsrv/bench.conf <<EOF2
[global]
	max connections = 4096
[demo]
	path = /srv/demo
EOF2
echo demopass | smbsrvctl user add demo >/dev/null
modprobe smbsrv && smbsrvd -c /etc/smbsrv/bench.conf 2>/dev/null
mkdir -p /etc/ksmbd /srv/rival
cat > /etc/ksmbd/ksmbd.conf <<EOF2
[global]
	tcp port = 1445
	max connections = 4096
[rival]
	path = /srv/rival
	read only = no
	max connections = 4096
EOF2
ksmbd.adduser -a demo -p demopass >/dev/null 2>&1 || true
modprobe ksmbd && ksmbd.mountd' >/dev/null

# Slab, KernelStack, PageTables and free memory, in KiB.
snap() {
	vm_exec "$vm" 'sync; echo 2 > /proc/sys/vm/drop_caches; sleep 2
		awk "/^(MemFree|Slab|KernelStack|PageTables|Percpu):/ { printf \"%s=%s \", \$1, \$2 }" /proc/meminfo'
}
kib() { # SNAPSHOT FIELD
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2:=//p"
}

measure() { # NAME PORT KIND [USER PASS SHARE]
	local before after fifo pid line name=$1 port=$2 kind=$3
	shift 3
	before=$(snap)
	fifo=$(mktemp -u)
	mkfifo "$fifo"
	exec 7<> "$fifo"
	"$py" "$top/tools/bench/hold-conns.py" "$port" "$n" "$@" <&7 \
		> "$fifo.out" 2>&1 &
	pid=$!
	for _ in $(seq 1 600); do
		grep -q ready "$fifo.out" 2>/dev/null && break
		kill -0 $pid 2>/dev/null || { cat "$fifo.out"; exit 1; }
		sleep 0.5
	done
	after=$(snap)
	echo >&7
	wait $pid || true
	exec 7>&-
	rm -f "$fifo" "$fifo.out"
	awk -v name="$name" -v n="$n" -v kind="$kind" \
		-v s0="$(kib "$before" Slab)" -v s1="$(kib "$after" Slab)" \
		-v k0="$(kib "$before" KernelStack)" -v k1="$(kib "$after" KernelStack)" \
		-v p0="$(kib "$before" PageTables)" -v p1="$(kib "$after" PageTables)" \
		-v f0="$(kib "$before" MemFree)" -v f1="$(kib "$after" MemFree)" \
		'BEGIN { printf "%-7s %d idle %s: per connection %.1f KiB slab, %.1f KiB kernel stack, %.1f KiB page tables; %.1f KiB less free memory\n", name, n, kind, (s1 - s0) / n, (k1 - k0) / n, (p1 - p0) / n, (f0 - f1) / n }'
	sleep 3
}

for _ in 1 2; do
	measure smbsrv "$smb" "negotiated connections"
	measure ksmbd "$rival" "negotiated connections"
	measure smbsrv "$smb" "sessions with a tree" demo demopass demo
	measure ksmbd "$rival" "sessions with a tree" demo demopass rival
done
