#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Kerberos logons with a PAC: a Samba AD DC (Debian's samba-ad-dc,
# addc.bash: provisioned into a temporary directory, its KDC in a network
# namespace of its own) issues tickets for cifs/srv.ad.smbsrv.test, whose
# keytab (samba-tool domain exportkeytab) smbsrvd in the guest uses.  The
# domain's users have no Unix accounts in the guest: idmap's rid backend
# (idmap config ADSMB : range 100000-199999) gives their ids.  pat and
# quinn are in the AD group engineers, nick is not; rita is in engineers
# too and is mapped to the guest's local user alice by the username map.
# pat writes a file and (smbcacls, Kerberos) gives it an NT ACL that
# grants only engineers, by its domain SID: quinn and rita read it, nick
# is refused, and no Unix group in the guest knows engineers.  pac.py
# (impacket) brings quinn's ticket with its PAC tampered with: the server
# signature flipped, the user's RID changed without re-signing (both
# refused, logged as a bad PAC signature), and re-encrypted unchanged
# (accepted: the tampering harness is sound); re-signed with the
# service key, the PAC also brings an extra SID of another domain and a
# resource group, which grant quinn the files whose ACLs name them alone,
# and 1100 extra SIDs, which refuse the logon.  One VM boot.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/addc.bash"

py=/usr/bin/python3
here=$(dirname "$0")
kdir=$(mktemp -d /tmp/smbsrv-pac.XXXXXX)
host=$ADDC_HOST
realm=$ADDC_REALM
fwd_pid=""

cleanup() {
	addc_stop
	[ -n "$fwd_pid" ] && kill "$fwd_pid" 2>/dev/null
	rm -rf "$kdir"
}
trap cleanup EXIT

dc() {
	addc_start "$kdir" &&
	addc_user pat 'Pat.Passw0rd.1' engineers &&
	addc_user quinn 'Quinn.Passw0rd.1' engineers &&
	addc_user rita 'Rita.Passw0rd.1' engineers &&
	addc_user nick 'Nick.Passw0rd.1' &&
	addc_tickets pat 'Pat.Passw0rd.1' && addc_tickets quinn 'Quinn.Passw0rd.1' &&
	addc_tickets rita 'Rita.Passw0rd.1' && addc_tickets nick 'Nick.Passw0rd.1'
}
# Not through t_check: its subshell would lose the DC's state.
if dc > "$kdir/dc.log" 2>&1; then
	t_ok "Samba AD DC ($realm, domain $ADDC_DOMAIN): provisioned, KDC up, users, keytab, tickets"
else
	t_not_ok "Samba AD DC ($realm, domain $ADDC_DOMAIN): provisioned, KDC up, users, keytab, tickets"
	tail -n 30 "$kdir/dc.log" | sed 's/^/# /'
	t_done
fi
ENGINEERS=$(addc_sid engineers)
DOMSID=${ENGINEERS%-*}
PAT_RID=$(addc_sid pat)
PAT_RID=${PAT_RID##*-}
t_diag "domain SID $DOMSID, engineers ${ENGINEERS##*-}, pat $PAT_RID"
export KRB5_CONFIG=$kdir/krb5.conf

t_vm_start
t_guest_check "the keytab and the configuration in the guest; smbsrvd reads the keytab" "
set -e
echo '$(base64 -w0 "$kdir/cifs.keytab")' | base64 -d > /etc/smbsrv/ad.keytab
chmod 600 /etc/smbsrv/ad.keytab
mkdir -p /srv/ad /var/tmp
chmod 1777 /srv/ad
printf '!alice = rita@$realm\n' > /etc/smbsrv/ad.map
cat > /etc/smbsrv/ad.conf <<EOF
[global]
	realm = $realm
	workgroup = $ADDC_DOMAIN
	kerberos keytab file = /etc/smbsrv/ad.keytab
	username map = /etc/smbsrv/ad.map
	idmap config * : range = 3000-7999
	idmap config $ADDC_DOMAIN : backend = rid
	idmap config $ADDC_DOMAIN : range = 100000-199999
[ad]
	path = /srv/ad
	read only = no
	vfs objects = acl_xattr
EOF
smbsrvd -F -c /etc/smbsrv/ad.conf > /tmp/smbsrvd.log 2>&1 &
for i in \$(seq 50); do grep -q 'listening on TCP' /tmp/smbsrvd.log && break; sleep 0.2; done
grep -q 'Kerberos: keytab /etc/smbsrv/ad.keytab with cifs/$host@$realm' /tmp/smbsrvd.log"
t_guest_check "no Unix account or group in the guest knows the domain's users or engineers" "
! grep -qE '^(pat|quinn|nick|rita|engineers):' /etc/passwd /etc/group &&
! grep -qE ':10[0-9]{4}:' /etc/passwd /etc/group"

ksmb() { # USER COMMANDS
	KRB5CCNAME=FILE:$kdir/$1.cc timeout 120 smbclient "//$host/ad" -I 127.0.0.1 \
		-p "$T_SMB_PORT" --use-kerberos=required -N -c "$2"
}
kget() { # USER: secret.txt read back equal
	rm -f "$kdir/got"
	ksmb "$1" "get secret.txt $kdir/got" && cmp "$kdir/secret.txt" "$kdir/got"
}
count() { # REGEX: how many lines of the daemon's log match
	t_guest "grep -cE -- '$1' /tmp/smbsrvd.log"
}
logged() { # N REGEX
	local n
	n=$(count "$2")
	[ "$n" = "$1" ] || { echo "$n lines match /$2/:"; t_guest "tail -n 8 /tmp/smbsrvd.log"; return 1; }
}

echo "engineers only" > "$kdir/secret.txt"
t_check "pat (Kerberos, ticket with a PAC) writes secret.txt" ksmb pat "put $kdir/secret.txt secret.txt"
t_check "... logged: pat's domain SID and the PAC's SIDs, uid from idmap (100000 + RID)" \
	logged 1 "Kerberos logon of pat@$realm from .*: authenticated as $ADDC_DOMAIN.pat \\(uid $((100000 + PAT_RID)); $DOMSID-$PAT_RID with [0-9]+ SIDs from the PAC"
t_check_output "the file is owned by uid $((100000 + PAT_RID)), group 100513 (Domain Users)" \
	"^$((100000 + PAT_RID)) 100513\$" t_guest "stat -c '%u %g' /srv/ad/secret.txt"

# smbcacls reaches port 445 only, and Samba's client does Kerberos only
# towards a name: a forwarder on a loopback address of this run's own,
# which nss_wrapper calls srv.ad.smbsrv.test (Samba's name cache, in the
# lock directory, is this run's own too: another run's address would
# stick).
fwd_ip=127.$(( (T_SMB_PORT >> 8) & 255 )).$(( T_SMB_PORT & 255 )).4
coproc FWD { exec "$py" "$here/tcpfwd.py" "$fwd_ip" 445 127.0.0.1 "$T_SMB_PORT"; }
fwd_pid=$FWD_PID
read -r -t 10 ready <&"${FWD[0]}"
[ "$ready" = ready ] || t_not_ok "forwarder on $fwd_ip:445"
printf '%s %s\n' "$fwd_ip" "$host" > "$kdir/hosts"
mkdir -p "$kdir/lock"
kcacls() { # USER ARGS...
	local u=$1
	shift
	KRB5CCNAME=FILE:$kdir/$u.cc LD_PRELOAD=libnss_wrapper.so NSS_WRAPPER_HOSTS=$kdir/hosts \
		NSS_WRAPPER_PASSWD=/etc/passwd NSS_WRAPPER_GROUP=/etc/group \
		timeout 120 smbcacls "//$host/ad" --use-kerberos=required -N \
		--option="lock directory=$kdir/lock" \
		--option="cache directory=$kdir/lock" --numeric "$@"
}
t_check "pat sets secret.txt's DACL: read for engineers ($ENGINEERS), nothing else" \
	kcacls pat secret.txt --set "ACL:$ENGINEERS:ALLOWED/0x0/0x001200a9"
one_ace() {
	local out
	out=$(kcacls pat secret.txt 2>&1)
	[ "$(printf '%s\n' "$out" | grep -c '^ACL:')" = 1 ] &&
		printf '%s\n' "$out" | grep -qx "ACL:$ENGINEERS:0/0x0/0x001200a9" ||
		{ echo "$out"; return 1; }
}
t_check "smbcacls reads the DACL back: one ACE, engineers' (0: allowed)" one_ace

t_check "quinn (engineers, no Unix account) reads secret.txt" kget quinn
t_check "rita (engineers, mapped to the local user alice) reads secret.txt" kget rita
t_check "... rita is alice (uid 1001) with the PAC's SIDs" \
	logged 1 "Kerberos logon of rita@$realm from .*: authenticated as alice \\(uid 1001; $DOMSID-[0-9]+ with [0-9]+ SIDs from the PAC"
t_check_output "nick (not in engineers) is refused: NT_STATUS_ACCESS_DENIED" \
	NT_STATUS_ACCESS_DENIED ksmb nick "get secret.txt $kdir/n"
t_check "... and nick's logon itself works (he lists the share)" ksmb nick ls
t_check "pat, the owner, in engineers: reads it too" kget pat

# Files for SIDs this DC does not put into a PAC by itself: an extra SID
# of another domain, a resource group.  pac.py re-signs quinn's PAC with
# them (it holds the keytab).
EXTRA_SID=S-1-5-21-4242424242-4242424242-4242424242-1234
RES_SID=S-1-5-21-3777777777-777777777-77777777-2001
echo "extra SID only" > "$kdir/extra.txt"
echo "resource group only" > "$kdir/res.txt"
acl_for() { # FILE SID: pat puts FILE and grants read to SID alone
	ksmb pat "put $kdir/$1 $1" && kcacls pat "$1" --set "ACL:$2:ALLOWED/0x0/0x001200a9"
}
two_files() {
	acl_for extra.txt "$EXTRA_SID" && acl_for res.txt "$RES_SID"
}
t_check "pat writes extra.txt (read for $EXTRA_SID only) and res.txt (read for $RES_SID only)" \
	two_files

t_checks "$py" "$here/pac.py" "$T_SMB_PORT" "$host" "$realm" "$kdir/quinn.cc" "$kdir/cifs.keytab" \
	"$kdir/secret.txt" "$kdir/extra.txt" "$kdir/res.txt"
t_check "... the two tampered PACs are logged as bad PAC signatures" \
	logged 2 "refused: the ticket.s PAC does not verify with the keytab.s key \\(PAC signature bad\\)"
t_check "... the PAC with 1100 extra SIDs (and S-1-18-1) is logged as such" \
	logged 1 "quinn@$realm from .* refused: PAC logon information refused: ExtraSids: 1101 entries, more than 1024"
t_check "... quinn's logons with the extra SID or the resource group: 5 SIDs from the PAC (4 without)" \
	logged 2 "quinn@$realm from .*: authenticated as $ADDC_DOMAIN.quinn \\(uid [0-9]+; $DOMSID-[0-9]+ with 5 SIDs from the PAC"

# The same domain with no rid line: ids from 'idmap config * : range',
# allocated at first logon and kept in state directory/idmap.tdb across
# restarts of smbsrvd; a full range refuses a logon that needs a new id.
star_conf() { # RANGE
	cat <<EOF
[global]
	realm = $realm
	workgroup = $ADDC_DOMAIN
	kerberos keytab file = /etc/smbsrv/ad.keytab
	idmap config * : range = $1
	state directory = /var/lib/smbsrv-pac
[ad]
	path = /srv/ad
	read only = no
	vfs objects = acl_xattr
EOF
}
star_restart() { # RANGE: smbsrvd stopped, started again with star_conf RANGE
	t_guest "set -e
echo '$(star_conf "$1" | base64 -w0)' | base64 -d > /etc/smbsrv/star.conf
pid=\$(cat /run/smbsrvd.pid)
kill \$pid
for i in \$(seq 50); do kill -0 \$pid 2>/dev/null || break; sleep 0.2; done
! kill -0 \$pid 2>/dev/null
n=\$(grep -c 'listening on TCP' /tmp/star.log 2>/dev/null || true)
smbsrvd -F -c /etc/smbsrv/star.conf >> /tmp/star.log 2>&1 &
for i in \$(seq 50); do [ \$(grep -c 'listening on TCP' /tmp/star.log) -gt \${n:-0} ] && break; sleep 0.2; done
[ \$(grep -c 'listening on TCP' /tmp/star.log) -gt \${n:-0} ]"
}
star_logged() { # N REGEX: lines of the * phase's log
	local n
	n=$(t_guest "grep -cE -- '$2' /tmp/star.log")
	[ "$n" = "$1" ] || { echo "$n lines match /$2/:"; t_guest "tail -n 8 /tmp/star.log"; return 1; }
}
star_full() {
	star_logged 1 "idmap config \\* : range = 3000-3001 is exhausted" &&
		star_logged 2 "pat@$realm from .* refused: no free uid for $DOMSID-$PAT_RID"
}
owner() { # FILE
	t_guest "stat -c '%u %g' /srv/ad/$1"
}
echo "star" > "$kdir/star.txt"
t_check "smbsrvd restarted without ADSMB's rid line, idmap config * : range = 3000-7999" \
	star_restart 3000-7999
t_check "... no warning about the * range at load" \
	star_logged 0 "range.*(not yet|not supported)"
t_check "nick (no local account, no rid line) writes nick1.txt" ksmb nick "put $kdir/star.txt nick1.txt"
t_check "... logged: uid 3000, the first of the * range" \
	star_logged 1 "Kerberos logon of nick@$realm from .*: authenticated as $ADDC_DOMAIN.nick \\(uid 3000;"
t_check_output "... nick1.txt is owned by uid 3000, gid 3000 (Domain Users, the first gid)" \
	"^3000 3000\$" owner nick1.txt
t_check "quinn writes quinn1.txt" ksmb quinn "put $kdir/star.txt quinn1.txt"
t_check_output "... owned by uid 3001, gid 3000" "^3001 3000\$" owner quinn1.txt
t_check "smbsrvd restarted (the same configuration)" star_restart 3000-7999
t_check "nick writes nick2.txt after the restart" ksmb nick "put $kdir/star.txt nick2.txt"
t_check_output "... owned by uid 3000 again (idmap.tdb kept it)" "^3000 3000\$" owner nick2.txt
t_check "quinn writes quinn2.txt after the restart" ksmb quinn "put $kdir/star.txt quinn2.txt"
t_check_output "... owned by uid 3001 again" "^3001 3000\$" owner quinn2.txt
t_check "quinn (engineers' SID in the PAC) reads secret.txt (ACL: engineers only)" kget quinn
t_check "smbsrvd restarted with idmap config * : range = 3000-3001 (both uids taken)" \
	star_restart 3000-3001
t_check_output "pat, who needs a new uid, is refused: NT_STATUS_LOGON_FAILURE" \
	NT_STATUS_LOGON_FAILURE ksmb pat ls
t_check_output "... and again" NT_STATUS_LOGON_FAILURE ksmb pat ls
t_check "... the exhaustion logged once, each refusal with its reason" star_full
t_check "nick, who has his uid, still logs on" ksmb nick ls

t_dmesg_clean
t_done
