#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Kernel memory per idle negotiated connection, smbsrv vs the in-tree
# ksmbd, in one VM boot: open N connections from the host to each server
# in turn (NEGOTIATE 3.1.1 on each, then idle) and compare the guest's
# /proc/meminfo before and after.  Prints one line per server.
#
#   tools/bench/conn-memory.sh [N]      (default 200)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/lib.sh"
n=${1:-200}
vm=bench-mem
py=/usr/bin/python3

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
modprobe smbsrv && smbsrvd -c /etc/smbsrv/bench.conf 2>/dev/null
mkdir -p /etc/ksmbd /srv/rival
cat > /etc/ksmbd/ksmbd.conf <<EOF2
[global]
	tcp port = 1445
	max connections = 4096
[rival]
	path = /srv/rival
	read only = no
EOF2
ksmbd.adduser -a demo -p demo >/dev/null 2>&1 || true
modprobe ksmbd && ksmbd.mountd' >/dev/null

# Slab, KernelStack, PageTables and free memory, in KiB.
snap() {
	vm_exec "$vm" 'sync; echo 2 > /proc/sys/vm/drop_caches; sleep 2
		awk "/^(MemFree|Slab|KernelStack|PageTables|Percpu):/ { printf \"%s=%s \", \$1, \$2 }" /proc/meminfo'
}
kib() { # SNAPSHOT FIELD
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2:=//p"
}

measure() { # NAME PORT
	local before after fifo pid line
	before=$(snap)
	fifo=$(mktemp -u)
	mkfifo "$fifo"
	exec 7<> "$fifo"
	"$py" "$top/tools/bench/hold-conns.py" "$2" "$n" <&7 > "$fifo.out" &
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
	awk -v name="$1" -v n="$n" \
		-v s0="$(kib "$before" Slab)" -v s1="$(kib "$after" Slab)" \
		-v k0="$(kib "$before" KernelStack)" -v k1="$(kib "$after" KernelStack)" \
		-v p0="$(kib "$before" PageTables)" -v p1="$(kib "$after" PageTables)" \
		-v f0="$(kib "$before" MemFree)" -v f1="$(kib "$after" MemFree)" \
		'BEGIN { printf "%-7s %d idle negotiated connections: per connection %.1f KiB slab, %.1f KiB kernel stack, %.1f KiB page tables; %.1f KiB less free memory\n", name, n, (s1 - s0) / n, (k1 - k0) / n, (p1 - p0) / n, (f0 - f1) / n }'
	sleep 3
}

measure smbsrv "$smb"
measure ksmbd "$rival"
measure smbsrv "$smb"
measure ksmbd "$rival"
