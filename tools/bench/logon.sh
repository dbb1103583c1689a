#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make bench-logon`: logons per second and logon latency, Kerberos (a
# Samba AD DC's tickets, with a PAC, tests/selftests/host/addc.bash) vs
# NTLMv2, smbsrv vs the in-tree ksmbd, in one VM boot (TCG, guest clock
# real time).  tools/bench/logons.py logs on N times from the host
# (impacket, a fresh connection each, only SESSION_SETUP timed), one
# client and then P at once.  Debian's ksmbd-tools is built without
# Kerberos: its Kerberos row is tried and reported as it fails.  The
# daemon's own time per ticket (GSSAPI and the PAC, "ticket checked in N
# us" in its log) is reported beside.  Outside make check.
#
#   tools/bench/logon.sh [--n N] [--procs P] [--out DIR]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/lib.sh"
. "$top/tests/selftests/host/addc.bash"

main() {
n=100
procs=4
out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--n) n=$2; shift ;;
	--procs) procs=$2; shift ;;
	--out) out=$2; shift ;;
	*) sed -n '3,15s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
	shift
done
py=/usr/bin/python3
commit=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
out=${out:-$top/build/bench/logon-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$out"
kdir=$(mktemp -d /tmp/smbsrv-logon.XXXXXX)
vm=bench-logon
trap 'addc_stop; vm_stop "$vm" >/dev/null 2>&1 || true; rm -rf "$kdir"' EXIT

# Through ||: addc.bash's functions expect no errexit (a poll that fails
# until the KDC is up would end the script under set -e).
addc_start "$kdir" &&
	addc_user quinn 'Quinn.Passw0rd.1' engineers &&
	addc_tickets quinn 'Quinn.Passw0rd.1' ||
	{ echo "the Samba AD DC did not start (logs in $kdir)"; trap - EXIT; exit 1; }
export KRB5_CONFIG=$kdir/krb5.conf

vm_initramfs >/dev/null
vm_start "$vm"
port=$(vm_port "$vm" smb)
rival=$(vm_port "$vm" rival)
vm_exec "$vm" "
set -e
modprobe smbsrv
echo '$(base64 -w0 "$kdir/cifs.keytab")' | base64 -d > /etc/smbsrv/ad.keytab
chmod 600 /etc/smbsrv/ad.keytab
mkdir -p /srv/ad /srv/kk /var/tmp
cat > /etc/smbsrv/ad.conf <<EOF
[global]
	realm = $ADDC_REALM
	workgroup = $ADDC_DOMAIN
	kerberos keytab file = /etc/smbsrv/ad.keytab
	idmap config $ADDC_DOMAIN : backend = rid
	idmap config $ADDC_DOMAIN : range = 100000-199999
[ad]
	path = /srv/ad
EOF
echo alicepass | smbsrvctl -c /etc/smbsrv/ad.conf user add alice >/dev/null
smbsrvd -F -c /etc/smbsrv/ad.conf > /tmp/smbsrvd.log 2>&1 &
mkdir -p /etc/ksmbd
cat > /etc/ksmbd/ksmbd.conf <<EOF
[global]
	tcp port = 1445
	kerberos keytab file = /etc/smbsrv/ad.keytab
	kerberos service name = cifs/$ADDC_HOST@$ADDC_REALM
[ad]
	path = /srv/kk
EOF
ksmbd.adduser -a alice -p alicepass >/dev/null
modprobe ksmbd
ksmbd.mountd
for i in \$(seq 100); do
	ss -Hltn 'sport = :445' | grep -q . && ss -Hltn 'sport = :1445' | grep -q . && exit 0
	sleep 0.2
done
exit 1"

{
	echo "commit $commit"
	echo "date $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "n $n procs $procs (TCG, guest clock real time; host load $(cut -d' ' -f1-3 /proc/loadavg))"
} > "$out/meta"
one() { # SERVER PORT METHOD PROCS
	local r
	if [ "$3" = kerberos ]; then
		r=$("$py" "$top/tools/bench/logons.py" "$2" "$ADDC_HOST" kerberos "$n" --procs "$4" \
			--ccache "$kdir/quinn.cc" --realm "$ADDC_REALM" --user quinn 2>&1 | tail -n1) ||
			r="$3 failed: $r"
	else
		r=$("$py" "$top/tools/bench/logons.py" "$2" "$ADDC_HOST" ntlmv2 "$n" --procs "$4" \
			--user alice --password alicepass 2>&1 | tail -n1) || r="$3 failed: $r"
	fi
	echo "$1 $r" | tee -a "$out/results"
}
for p in 1 "$procs"; do
	one smbsrv "$port" kerberos "$p"
	one smbsrv "$port" ntlmv2 "$p"
	one ksmbd "$rival" ntlmv2 "$p"
	one ksmbd "$rival" kerberos "$p"
done
vm_exec "$vm" "sed -n 's/.*ticket checked in \([0-9]*\) us.*/\1/p' /tmp/smbsrvd.log" |
	sort -n | awk '{ a[NR] = $1 } END { print "smbsrvd GSSAPI+PAC per ticket (us): n=" NR,
		"p50=" a[int((NR + 1) / 2)], "p90=" a[int(NR * 0.9)], "max=" a[NR] }' |
	tee -a "$out/results"
echo "results in $out"
}
main "$@"
