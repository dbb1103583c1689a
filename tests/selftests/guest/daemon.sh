#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The real smbsrvd answering the module's upcalls, without an SMB client:
# the upcall probe (debugfs smbsrv/upcall, the test module
# smbsrv_upcall_probe) starts session-setup, tree-connect and rpc upcalls
# through the loaded module's real netlink path, and checks what the
# module parsed out of the daemon's answers.
# Session setup legs are Samba's (recorded by tests/interop/samba-gensec.py):
# the legs whose outcome does not depend on the random server challenge
# (null session, unknown user, wrong password).  Then a reload, kill -9
# and a restart.
. /usr/share/smbsrv/tests/lib.sh

P=/sys/kernel/debug/smbsrv/upcall
CONF=/etc/smbsrv/daemon.conf
PIDF=/run/smbsrvd.pid

probe() {
	(
		exec 3<>$P || exit 1
		printf '%s\n' "$*" >&3 || exit 1
		cat <&3
	)
}

# check_probe DESCRIPTION REGEX COMMAND...: the probe's result matches.
check_probe() {
	_d=$1
	_re=$2
	shift 2
	_got=$(probe "$@" 2>&1)
	if printf '%s\n' "$_got" | grep -qE -- "$_re"; then
		ok "$_d"
	else
		not_ok "$_d"
		diag "want: /$_re/"
		diag "got:  $_got"
	fi
}

# Samba 4.17 gensec client legs.
NEG_RAW=4e544c4d53535000010000001582086200000000280000000000000028000000060100000000000f
AUTH_ANON=4e544c4d535350000300000000000000580000000000000058000000000000005800000000000000580000000400040058000000100010005c000000158a0062060100000000000fec9339af7a59acf740bd9c7a07865a0c56004d0078de28977cda3cc282dc7c98b4d2ec75
INIT_SPNEGO=604806062b0601050502a03e303ca00e300c060a2b06010401823702020aa22a04284e544c4d53535000010000001582086200000000280000000000000028000000060100000000000f

check "modprobe smbsrv" modprobe smbsrv
check "modprobe smbsrv_upcall_probe" modprobe smbsrv_upcall_probe
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
check "upcall probe present" test -e $P

mkdir -p /etc/smbsrv /srv/demo /srv/later
cat > $CONF <<'EOF_CONF'
[global]
	map to guest = bad user
[demo]
	path = /srv/demo/
	read only = no
	valid users = alice, @family
	vfs objects = streams_xattr
	veto files = /*.tmp/
[public]
	path = /srv/demo
	guest ok = yes
EOF_CONF
check "users added" sh -c "printf 'alice-pw\n' | smbsrvctl -n -c $CONF user add alice"
check "smbsrvd starts" smbsrvd -c $CONF -P $PIDF
check "the daemon's NegTokenInit2 is the module's negotiate blob" \
	sh -c "smbsrv-nlpeer -s | grep -qx 'negotiate-blob 604806062b0601050502a03e303ca00e300c060a2b06010401823702020aa32a3028a0261b246e6f745f646566696e65645f696e5f5246433431373840706c656173655f69676e6f7265'"

# --- tree connects ----------------------------------------------------------
check_probe "tree: alice gets [demo] with its path, flags, masks and veto files" \
	"^ret=0 status=0x00000000 name=demo path=/srv/demo flags=0x[0-9a-f]+ force_uid=-1 force_gid=-1 create_mask=0744 directory_mask=0755 .* veto=/\*\.tmp/ " \
	tree 1 1001 0 10.0.2.2 alice demo
_f=$(probe tree 1 1001 0 10.0.2.2 alice demo | sed -n 's/.* flags=\(0x[0-9a-f]*\) .*/\1/p')
check "tree: [demo] is writable, with streams (share flags $_f)" \
	sh -c "[ \$(( $_f & 1 )) -eq 0 ] && [ \$(( $_f & 512 )) -ne 0 ]"
check_probe "tree: bob is in @family" "^ret=0 status=0x00000000 name=demo" \
	tree 1 1002 0 10.0.2.2 bob DEMO
check_probe "tree: demo is not in valid users" "^ret=0 status=0xc0000022$" \
	tree 1 1000 0 10.0.2.2 demo demo
check_probe "tree: an unknown share is BAD_NETWORK_NAME" "^ret=0 status=0xc00000cc$" \
	tree 1 1001 0 10.0.2.2 alice nosuch
check_probe "tree: a guest is refused [demo]" "^ret=0 status=0xc0000022$" \
	tree 1 65534 1 10.0.2.2 nobody demo
check_probe "tree: a guest gets [public], read-only" \
	"^ret=0 status=0x00000000 name=public path=/srv/demo flags=0x[0-9a-f]*[13579bdf] " \
	tree 1 65534 1 10.0.2.2 nobody public
check_probe "tree: IPC\$ is always there" "^ret=0 status=0x00000000 name=IPC\\\$ path=\(null\) " \
	tree 1 65534 2 10.0.2.2 nobody 'IPC$'

# --- session setup legs -----------------------------------------------------
check_probe "session: raw NTLMSSP NEGOTIATE gets a CHALLENGE" \
	"^ret=0 status=0xc0000016 blob=4e544c4d5353500002000000.* key=- uid=-1" \
	session 0x11 0x311 10.0.2.2 $NEG_RAW
check_probe "session: Samba's null-session AUTHENTICATE maps to nobody" \
	"^ret=0 status=0x00000000 blob=- key=- uid=65534 gid=65534 groups=65534 flags=0x2 user=nobody domain=$" \
	session 0x11 0x311 10.0.2.2 $AUTH_ANON
check_probe "session: an AUTHENTICATE without NEGOTIATE is INVALID_PARAMETER" \
	"^ret=0 status=0xc000000d blob=- key=- uid=-1" \
	session 0x12 0x311 10.0.2.2 $AUTH_ANON
probe session 0x16 0x311 10.0.2.2 $NEG_RAW > /dev/null
check_probe "session: the second leg from another address finds nothing" \
	"^ret=0 status=0xc000000d" session 0x16 0x311 10.9.9.9 $AUTH_ANON
check_probe "session: ...and leaves the real client's exchange alone" \
	"^ret=0 status=0x00000000 .* flags=0x2 " session 0x16 0x311 10.0.2.2 $AUTH_ANON
check_probe "session: SPNEGO NegTokenInit gets accept-incomplete with a CHALLENGE" \
	"^ret=0 status=0xc0000016 blob=a181.*4e544c4d5353500002000000" \
	session 0x13 0x300 10.0.2.2 $INIT_SPNEGO
check_probe "session: an empty blob gets the NegTokenInit2" \
	"^ret=0 status=0xc0000016 blob=604806062b0601050502" \
	session 0x14 0x311 10.0.2.2 -
check_probe "session: garbage is INVALID_PARAMETER" "^ret=0 status=0xc000000d " \
	session 0x15 0x311 10.0.2.2 deadbeef

# --- named pipes ------------------------------------------------------------
check_probe "rpc: a pipe nobody serves is OBJECT_NAME_NOT_FOUND" \
	"^ret=0 status=0xc0000034 data=-$" rpc 1 7 0 1024 alice '\PIPE\lsarpc' -
check_probe "rpc: I/O on a pipe never opened is INVALID_HANDLE" \
	"^ret=0 status=0xc0000008 data=-$" rpc 1 7 2 1024 alice lsarpc 0500

# --- reload ---------------------------------------------------------------
check_probe "tree: [later] does not exist yet" "^ret=0 status=0xc00000cc$" \
	tree 1 1001 0 10.0.2.2 alice later
printf '[later]\n\tpath = /srv/later\n' >> $CONF
check "reload (SIGHUP)" kill -HUP "$(cat $PIDF)"
i=0
while [ $i -lt 50 ] && ! probe tree 1 1001 0 10.0.2.2 alice later | grep -q 'status=0x00000000'; do
	sleep 0.2
	i=$((i + 1))
done
check_probe "tree: [later] is there after the reload" "^ret=0 status=0x00000000 name=later path=/srv/later" \
	tree 1 1001 0 10.0.2.2 alice later

# --- kill -9 and restart ----------------------------------------------------
check_probe "a logon's first leg before the kill" "^ret=0 status=0xc0000016 " \
	session 0x30 0x311 10.0.2.2 $NEG_RAW
pid=$(cat $PIDF)
check "kill -9 smbsrvd" kill -9 "$pid"
check "the module notices the daemon is gone" \
	wait_for 10 sh -c "smbsrv-nlpeer -s | grep -qx 'daemon-state 0'"
check_probe "no daemon: a session setup fails at once (ENOTCONN)" "^ret=-107$" \
	session 0x20 0x311 10.0.2.2 $NEG_RAW
check "smbsrvd restarts" smbsrvd -c $CONF -P $PIDF
check_probe "after the restart, upcalls are answered again" \
	"^ret=0 status=0xc0000016 blob=4e544c4d5353500002000000" \
	session 0x20 0x311 10.0.2.2 $NEG_RAW
check_probe "its second leg after the restart: the exchange is gone (INVALID_PARAMETER)" \
	"^ret=0 status=0xc000000d" session 0x30 0x311 10.0.2.2 $AUTH_ANON
check "smbsrvd stops on SIGTERM" kill "$(cat $PIDF)"
check "and the module sees it gone" \
	wait_for 10 sh -c "smbsrv-nlpeer -s | grep -qx 'daemon-state 0'"

check "rmmod smbsrv_upcall_probe smbsrv" rmmod smbsrv_upcall_probe smbsrv
check "dmesg clean" dmesg_clean
done_testing
