#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# WRITE throughput by request routing policy, smbsrv (percpu, unbound,
# adaptive) beside the in-tree ksmbd, in one VM boot: fio through kernel
# cifs mounts (cache=none, O_DIRECT, libaio) in the guest, 4 KiB and 1 MiB
# sequential writes at queue depth 1 and 16.  Servers and policies are
# interleaved within each round; the table shows the median MiB/s per cell
# over the rounds (each round starts each cell with another server), the ratio of each smbsrv policy to percpu and to ksmbd,
# and how many of the cell's messages the unbound queue ran (from
# smbsrvctl stats), so a number explains itself.  Under TCG absolute
# numbers mean nothing: read the ratios.
#
#   tools/bench/route.sh [ROUNDS] [SECONDS]     (default 3 rounds, 8 s per run)
# shellcheck disable=SC2016  # guest scripts expand in the guest
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/lib.sh"
rounds=${1:-3}
secs=${2:-8}
vm=bench-route
py=/usr/bin/python3
out=$(mktemp -d)
trap 'vm_stop "$vm" >/dev/null 2>&1 || true; rm -rf "$out"' EXIT

vm_initramfs >/dev/null
vm_start "$vm" >/dev/null
vm_exec "$vm" '
set -e
mkdir -p /srv/s /srv/k /mnt/s /mnt/k /etc/ksmbd
chown demo:demo /srv/s /srv/k
cat > /etc/smbsrv/bench.conf <<EOF2
[s]
	path = /srv/s
	read only = no
EOF2
echo demopass | smbsrvctl user add demo >/dev/null
modprobe smbsrv && smbsrvd -c /etc/smbsrv/bench.conf
cat > /etc/ksmbd/ksmbd.conf <<EOF2
[global]
	tcp port = 1445
[k]
	path = /srv/k
	read only = no
EOF2
ksmbd.adduser -a demo -p demopass >/dev/null 2>&1 || true
modprobe ksmbd && ksmbd.mountd
sleep 1
o=username=demo,password=demopass,uid=1000,cache=none
mount -t cifs //127.0.0.1/s /mnt/s -o $o
mount -t cifs //127.0.0.1/k /mnt/k -o $o,port=1445' >/dev/null

# One run: SERVER (smbsrv|ksmbd) POLICY BS QD -> "MiB/s unbound-delta total-delta"
run() {
	local server=$1 policy=$2 bs=$3 qd=$4 dir
	dir=/mnt/k
	[ "$server" = smbsrv ] && dir=/mnt/s
	vm_exec "$vm" "
q() { smbsrvctl stats | awk -v q=\$1 '\$1 == q { print \$3 }'; }
[ $server = smbsrv ] && smbsrvctl set route-policy $policy >/dev/null
u0=\$(q smbsrv-unbound); p0=\$(q smbsrv)
fio --name=w --filename=$dir/bench.bin --rw=write --bs=$bs --size=64M \
	--ioengine=libaio --iodepth=$qd --direct=1 --time_based \
	--runtime=$secs --output-format=json --output=/tmp/fio.json >/dev/null
rm -f $dir/bench.bin
u1=\$(q smbsrv-unbound); p1=\$(q smbsrv)
bw=\$(sed -n 's/^ *\"bw\" : \\([0-9]*\\),*\$/\\1/p' /tmp/fio.json | sed -n 2p)
echo \"\$bw \$((u1 - u0)) \$((u1 - u0 + p1 - p0))\""
}

cells=()
for bs in 4k 1M; do
	for qd in 1 16; do
		cells+=("$bs $qd")
	done
done
servers=("smbsrv percpu" "ksmbd -" "smbsrv unbound" "smbsrv adaptive")
for r in $(seq 1 "$rounds"); do
	for c in "${cells[@]}"; do
		read -r bs qd <<< "$c"
		# Each round starts the cell with another server: no one always
		# runs first (or right after the same neighbour).
		for i in 0 1 2 3; do
			read -r server policy <<< "${servers[$(((i + r) % 4))]}"
			res=$(run "$server" "$policy" "$bs" "$qd")
			echo "$r $bs $qd $server $policy $res" | tee -a "$out/raw" >&2
		done
	done
done
vm_exec "$vm" 'umount /mnt/s /mnt/k; smbsrvctl stats' > "$out/stats"

"$py" - "$out/raw" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    r, bs, qd, server, policy, bw, du, dt = line.split()
    key = (bs, int(qd))
    name = 'ksmbd' if server == 'ksmbd' else policy
    rows.setdefault(key, {}).setdefault(name, []).append((int(bw) / 1024, int(du), int(dt)))
print('| block | QD | ksmbd | percpu | unbound | adaptive | unbound/percpu | adaptive/percpu | percpu/ksmbd | best smbsrv/ksmbd | unbound share (unbound, adaptive) |')
print('|---|---|---|---|---|---|---|---|---|---|---|')
for (bs, qd) in sorted(rows, key=lambda k: (k[0] != '4k', k[1])):
    c = rows[(bs, qd)]
    med = {n: statistics.median(x[0] for x in v) for n, v in c.items()}
    def share(n):
        du = sum(x[1] for x in c[n]); dt = sum(x[2] for x in c[n])
        return f'{100 * du / dt:.0f}%' if dt else '-'
    best = max(med['percpu'], med['unbound'], med['adaptive'])
    print(f"| {bs} | {qd} | {med['ksmbd']:.1f} | {med['percpu']:.1f} | {med['unbound']:.1f} | "
          f"{med['adaptive']:.1f} | {med['unbound'] / med['percpu']:.2f} | "
          f"{med['adaptive'] / med['percpu']:.2f} | {med['percpu'] / med['ksmbd']:.2f} | "
          f"{best / med['ksmbd']:.2f} | {share('unbound')}, {share('adaptive')} |")
EOF
echo
echo "MiB/s, median of $rounds rounds of ${secs} s per cell; module counters at the end:"
cat "$out/stats"
