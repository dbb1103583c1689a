#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The host reaches smbsrv in the guest through the forwarded port, and the
# guest agent drives the daemon.
. "$(dirname "$0")/lib.sh"

t_vm_start
t_guest_check "smbsrvd starts with the VM's configuration" \
	"smbsrvd -c /etc/smbsrv/smbsrv.conf"
t_check_output "smbsrvctl status shows the daemon running" \
	"^daemon: +running" vm_exec "$T_VM" "smbsrvctl status"
# Knobs the module receives but does not act on yet: status marks exactly
# those --check-config reports for a file setting every knob status shows,
# at the value it shows (a size as the configuration spells it).
read -r -d '' knobs_check <<'EOF'
set -e
smbsrvctl status | sed -n '/^knobs:/,$p' | tail -n +2 > /tmp/knobs
awk '{ n = substr($0, 3, 20); sub(/ +$/, "", n); v = substr($0, 24)
	sub(/  \(accepted, not yet in effect\)$/, "", v)
	if (v ~ /\(.*\)$/) { sub(/^[^(]*\(/, "", v); sub(/\)$/, "", v) }
	print "\t" n " = " v }' /tmp/knobs > /tmp/knobs.conf
{ echo '[global]'; cat /tmp/knobs.conf; } > /tmp/all-knobs.conf
smbsrvd --check-config /tmp/all-knobs.conf > /tmp/check.out 2>&1 || true
sed -n "s/.*'\(.*\)' is accepted but not yet in effect.*/\1/p" /tmp/check.out | sort > /tmp/want
grep '(accepted, not yet in effect)$' /tmp/knobs | cut -c3-22 | sed 's/ *$//' | sort > /tmp/got
echo "knobs: $(wc -l < /tmp/knobs.conf); not yet in effect: $(tr '\n' ' ' < /tmp/want)"
test "$(wc -l < /tmp/knobs.conf)" -ge 15
cmp /tmp/want /tmp/got || { cat /tmp/knobs /tmp/check.out; exit 1; }
EOF
t_guest_check "smbsrvctl status marks the knobs --check-config calls not yet in effect" \
	"$knobs_check"
t_check "host connects to 127.0.0.1:$T_SMB_PORT (forwarded to smbsrv)" \
	timeout 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$T_SMB_PORT"
t_dmesg_clean
t_done
