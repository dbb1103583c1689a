#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The module's counters in the Prometheus text format, both ways an admin
# scrapes them: smbsrvd's endpoint (metrics listen) and smbsrvctl stats
# --prometheus -o FILE (node_exporter's textfile collector).  A cifs mount
# in the guest writes and reads known byte counts while both are scraped;
# metrics.py checks that the counters moved exactly as the workload
# dictates and that promtool (Debian's prometheus package) accepts every
# scrape.  One VM boot.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
checks="$(dirname "$0")/metrics.py"

t_vm_start
t_guest_check "configuration with metrics listen = 127.0.0.1:9922, smbsrvd -F started" '
set -e
mkdir -p /srv/data
chmod 777 /srv/data
cat > /etc/smbsrv/smbsrv.conf <<EOF2
[global]
	metrics listen = 127.0.0.1:9922
[data]
	path = /srv/data
	read only = no
EOF2
printf "alice-pw\n" | smbsrvctl user add alice
smbsrvd -F > /tmp/smbsrvd.log 2>&1 &
for i in $(seq 1 50); do
	smbsrvctl status | grep -q "^daemon: *running" && exit 0
	sleep 0.2
done
exit 1'
t_check_output "smbsrvd logs where the metrics are" \
	"metrics at http://127.0.0.1:9922/metrics" vm_exec "$T_VM" "cat /tmp/smbsrvd.log"
t_check_output "smbsrvd --check-config: a host name is not an address (file:line)" \
	"^/tmp/bad.conf:2: error: metrics listen: 'localhost' is not an IPv4 address" \
	vm_exec "$T_VM" "printf '[global]\n\tmetrics listen = localhost:9922\n' > /tmp/bad.conf;
		smbsrvd --check-config /tmp/bad.conf 2>&1"

t_checks "$py" "$checks" "$T_SMB_PORT" "$T_VM"

t_guest_check "the daemon logged no error" '! grep -i "error" /tmp/smbsrvd.log'
t_dmesg_clean
t_done
