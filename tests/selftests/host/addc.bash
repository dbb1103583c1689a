# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# A Samba AD domain controller for tests that need tickets with a PAC,
# sourced by host suites (pac.sh) and tools/bench/logon.sh: Debian's
# samba-ad-dc provisioned into a temporary directory (realm
# AD.SMBSRV.TEST, domain ADSMB, no DNS), its KDC alone started in a
# network namespace of its own (so that port 88 never collides with the
# host's or another run's), users and groups made with samba-tool on the
# database directly, the server's keytab exported with samba-tool domain
# exportkeytab, and tickets fetched inside the namespace into ccache
# files that clients outside use (they carry the service ticket: no KDC
# is needed after that).
#
#   addc_start DIR            provision and start; 0 on success
#   addc_user NAME PASS [GROUP...]
#   addc_tickets NAME PASS    DIR/NAME.cc with a cifs/$ADDC_HOST ticket
#   addc_sid NAME             a user's or group's objectSid
#   addc_stop
#
# Call addc_start in the shell that uses the DC (not in a $(...)
# subshell): the functions keep its state in ADDC_DIR and ADDC_PID.
ADDC_REALM=AD.SMBSRV.TEST
ADDC_DOMAIN=ADSMB
ADDC_HOST=srv.ad.smbsrv.test
ADDC_DIR=""
ADDC_PID=""

addc_tool() {
	samba-tool "$@" -s "$ADDC_DIR/dc/etc/smb.conf" -H "$ADDC_DIR/dc/private/sam.ldb"
}

# Inside the DC's network namespace.
addc_ns() {
	nsenter --net="/proc/$ADDC_PID/ns/net" "$@"
}

addc_start() { # DIR
	ADDC_DIR=$1
	command -v samba >/dev/null || { echo "samba (samba-ad-dc) is not installed"; return 1; }
	unshare -n true 2>/dev/null || { echo "cannot make a network namespace (need root)"; return 1; }
	samba-tool domain provision --targetdir="$ADDC_DIR/dc" --realm=$ADDC_REALM \
		--domain=$ADDC_DOMAIN --server-role=dc --dns-backend=NONE --host-name=dc1 \
		--adminpass='Adm1n.Passw0rd' --option="interfaces=lo" \
		--option="bind interfaces only=yes" >"$ADDC_DIR/provision.log" 2>&1 ||
		{ tail -n 20 "$ADDC_DIR/provision.log"; return 1; }
	# The file server's account: its SPN's keys AES only (an account
	# without msDS-SupportedEncryptionTypes gets RC4 service tickets).
	addc_tool user add smbsrv-svc 'Svc.Passw0rd.1' >/dev/null &&
	addc_tool spn add "cifs/$ADDC_HOST" smbsrv-svc >/dev/null || return 1
	/usr/bin/python3 - "$ADDC_DIR" <<-'PY' || return 1
	import sys, ldb
	from samba.samdb import SamDB
	from samba.param import LoadParm
	from samba.auth import system_session
	d = sys.argv[1]
	lp = LoadParm()
	lp.load(d + "/dc/etc/smb.conf")
	db = SamDB(url=d + "/dc/private/sam.ldb", lp=lp, session_info=system_session())
	res = db.search(expression="(sAMAccountName=smbsrv-svc)", attrs=["dn"])
	m = ldb.Message()
	m.dn = res[0].dn
	m["e"] = ldb.MessageElement("24", ldb.FLAG_MOD_REPLACE, "msDS-SupportedEncryptionTypes")
	db.modify(m)
	PY
	samba-tool domain exportkeytab "$ADDC_DIR/cifs.keytab" --principal="cifs/$ADDC_HOST" \
		-s "$ADDC_DIR/dc/etc/smb.conf" >/dev/null || return 1
	cat > "$ADDC_DIR/krb5.conf" <<-EOF
	[libdefaults]
		default_realm = $ADDC_REALM
		dns_lookup_realm = false
		dns_lookup_kdc = false
		rdns = false
		dns_canonicalize_hostname = false
	[realms]
		$ADDC_REALM = {
			kdc = 127.0.0.1
		}
	[domain_realm]
		.ad.smbsrv.test = $ADDC_REALM
	EOF
	# The KDC only, one process, in its own network namespace; the shell
	# that execs it writes its pid (samba's, then) first.
	# Its pid file in the run's directory too: Samba's default,
	# /run/samba/samba.pid, would keep a second DC (another run) from
	# starting.
	mkdir -p "$ADDC_DIR/run"
	unshare -n --fork sh -c 'ip link set lo up && echo $$ > "$3" && exec samba -i -M single \
		-s "$1" --option="server services=kdc" --option="log file=$2" \
		--option="pid directory=$4"' sh \
		"$ADDC_DIR/dc/etc/smb.conf" "$ADDC_DIR/samba.log" "$ADDC_DIR/kdc.pid" "$ADDC_DIR/run" \
		>"$ADDC_DIR/samba.out" 2>&1 &
	local i
	for i in $(seq 1 100); do
		ADDC_PID=$(cat "$ADDC_DIR/kdc.pid" 2>/dev/null)
		[ -n "$ADDC_PID" ] && addc_ns ss -Hlun 'sport = :88' 2>/dev/null | grep -q . && return 0
		sleep 0.2
	done
	cat "$ADDC_DIR/samba.out"
	return 1
}

addc_user() { # NAME PASS [GROUP...]
	local name=$1 pass=$2 g
	shift 2
	addc_tool user add "$name" "$pass" >/dev/null || return 1
	for g in "$@"; do
		addc_tool group list | grep -qx "$g" || addc_tool group add "$g" >/dev/null || return 1
		addc_tool group addmembers "$g" "$name" >/dev/null || return 1
	done
}

addc_tickets() { # NAME PASS
	echo "$2" | KRB5_CONFIG=$ADDC_DIR/krb5.conf KRB5CCNAME=FILE:$ADDC_DIR/$1.cc \
		addc_ns kinit "$1" >/dev/null &&
	KRB5_CONFIG=$ADDC_DIR/krb5.conf KRB5CCNAME=FILE:$ADDC_DIR/$1.cc \
		addc_ns kvno "cifs/$ADDC_HOST" >/dev/null
}

addc_sid() { # NAME
	addc_tool user show "$1" 2>/dev/null | sed -n 's/^objectSid: //p' | grep . ||
		addc_tool group show "$1" | sed -n 's/^objectSid: //p'
}

addc_stop() {
	[ -z "$ADDC_PID" ] && [ -n "$ADDC_DIR" ] && ADDC_PID=$(cat "$ADDC_DIR/kdc.pid" 2>/dev/null)
	[ -n "$ADDC_PID" ] && kill "$ADDC_PID" 2>/dev/null
	ADDC_PID=""
}
