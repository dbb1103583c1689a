# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# smbtorture against smbsrv and, in the same VM boot, the in-tree ksmbd
# (and Samba's smbd, with TT_SAMBA): a side-by-side table of every subtest
# that ran, and TAP checks of the subtests smbsrv must pass.  Source it from a host selftest after lib.sh
# (see Documentation/testing.md):
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/torture.bash"
#   t_vm_start
#   tt_servers_up                     # the servers, share "torture" each
#   tt_run smb2.read smb2.rw.rw1      # suites (smb2.SUITE) or single subtests
#                                     # (smb2.SUITE.SUB), on every server
#   tt_must_pass smb2.read.eof smb2.rw.rw1 ...
#   tt_not_behind ksmbd smb2.read ...   # per suite (or subtest) smbsrv
#                                     # passes at least as many as ksmbd
#   tt_table                          # the table as TAP diagnostics
#   t_done
#
# The table also goes to build/test-logs/torture-NAME.txt (NAME: the
# script's name), one line per subtest, "name smbsrv ksmbd [samba]" with
# success, failure, error, skip, xfail or "-" (did not run: the suite died
# or timed out); smbtorture's own output is kept in
# build/test-logs/torture-NAME/.
# Knobs, set before the calls:
#   TT_SMBSRV_CONF  extra [global] lines for smbsrvd
#   TT_KSMBD_CONF   extra [global] lines for ksmbd
#   TT_SHARE_CONF   extra lines for both servers' [torture] share
#   TT_SMBSRV_SHARE_CONF  ... for smbsrv's only
#   TT_MORE_CONF    more sections (shares) for both servers, after [torture];
#                   @ROOT@ in it is the server's own [torture] root
#   TT_SHARE        the share tt_run connects to (default torture)
#   TT_SMBSRV_AUTH  smbtorture credentials for smbsrv (default demo%demo)
#   TT_KSMBD_AUTH   ... for ksmbd (default demo%demo)
#   TT_OPTIONS      more smbtorture options (--option=torture:...)
#   TT_TIMEOUT      seconds per suite and server (default 240; times
#                   VM_SLOW on a slow kernel): a suite
#                   that hangs is killed and its missing subtests show "-"
#   TT_ROOT         owner and mode of both share roots, "OWNER MODE"
#                   (default "demo:demo 0755")
#   TT_SMBSRV_ONLY  set: tt_run runs smbsrv only (ksmbd's column shows "-")
#   TT_SAMBA        set: Samba's smbd is a third server (guest port 2445,
#                   its own share root /srv/tt-samba); the VM must boot
#                   the image with Samba, SMBSRV_VM_SAMBA=1 before
#                   t_vm_start.  Its share gets TT_SHARE_CONF, then
#   TT_SAMBA_SHARE_CONF  ... for Samba's only
#   TT_SAMBA_CONF   extra [global] lines for Samba
#   TT_SAMBA_AUTH   ... its credentials (default demo%demo)
#   TT_COLUMNS      the servers tt_table shows (default smbsrv, ksmbd and
#                   samba with TT_SAMBA): a script that runs tt_one under
#                   other names shows those

TT_TABLE="$T_TOP/build/test-logs/torture-$T_NAME.txt"
TT_DIR="$T_TOP/build/test-logs/torture-$T_NAME"
TT_SMBSRV_AUTH=${TT_SMBSRV_AUTH:-demo%demo}
TT_KSMBD_AUTH=${TT_KSMBD_AUTH:-demo%demo}
TT_SAMBA_AUTH=${TT_SAMBA_AUTH:-demo%demo}
TT_TIMEOUT=${TT_TIMEOUT:-240}
TT_ROOT=${TT_ROOT:-demo:demo 0755}
rm -rf "$TT_DIR"
mkdir -p "$TT_DIR"

# The servers in tt_run's order.
tt_servers() {
	echo smbsrv
	[ -n "${TT_SMBSRV_ONLY:-}" ] || echo ksmbd
	[ -z "${TT_SAMBA:-}" ] || echo samba
}

# A server's share sections: [torture] at PATH with TT_SHARE_CONF and the
# server's own EXTRA lines, then TT_MORE_CONF.
tt_share() {
	printf '[torture]\n\tpath = %s\n\tread only = no\n\tguest ok = yes\n' "$1"
	local more=${TT_MORE_CONF:-}
	printf '\t%s\n\t%s\n%s\n' "${TT_SHARE_CONF:-}" "$2" "${more//@ROOT@/$1}"
}

# Samba's smbd on guest port 2445 (TT_SAMBA): the same share, its state
# under the guest's tmpfs, printing off, user demo in its passdb.
tt_samba_setup() {
	[ -n "${TT_SAMBA:-}" ] || return 0
	cat <<-EOS
	mkdir -p /srv/tt-samba /etc/samba /run/samba /var/lib/samba/private \
		/var/cache/samba /var/log/samba
	chown ${TT_ROOT% *} /srv/tt-samba
	chmod ${TT_ROOT#* } /srv/tt-samba
	cat > /etc/samba/smb.conf <<EOF
	[global]
		smb ports = 2445
		disable netbios = yes
		map to guest = bad user
		load printers = no
		printcap name = /dev/null
		disable spoolss = yes
		log file = /var/log/samba/log.%m
		${TT_SAMBA_CONF:-}
	$(tt_share /srv/tt-samba "${TT_SAMBA_SHARE_CONF:-}")
	EOF
	printf 'demo\ndemo\n' | pdbedit -s /etc/samba/smb.conf -a -t -u demo >/dev/null
	smbd -D -s /etc/samba/smb.conf
	i=0
	until ss -Hltn 'sport = :2445' | grep -q .; do
		[ \$i -lt 100 ] || { echo 'smbd does not listen'; cat /var/log/samba/*; exit 1; }
		sleep 0.2
		i=\$((i + 1))
	done
	EOS
}

# The servers with a share "torture" on the guest's root filesystem
# (tmpfs), user demo with password demo in every user database.
tt_servers_up() {
	t_guest_check "smbsrvd, ksmbd (port 1445)${TT_SAMBA:+ and Samba (port 2445)} serve share torture" "
set -e
mkdir -p /srv/tt-smbsrv /srv/tt-ksmbd /etc/ksmbd
chown ${TT_ROOT% *} /srv/tt-smbsrv /srv/tt-ksmbd
chmod ${TT_ROOT#* } /srv/tt-smbsrv /srv/tt-ksmbd
cat > /etc/smbsrv/torture.conf <<EOF
[global]
	tcp port = 445
	map to guest = bad user
	${TT_SMBSRV_CONF:-}
$(tt_share /srv/tt-smbsrv "${TT_SMBSRV_SHARE_CONF:-}")
EOF
cat > /etc/ksmbd/ksmbd.conf <<EOF
[global]
	tcp port = 1445
	map to guest = bad user
	${TT_KSMBD_CONF:-}
$(tt_share /srv/tt-ksmbd "")
EOF
echo demo | smbsrvctl -c /etc/smbsrv/torture.conf user add demo >/dev/null
ksmbd.adduser -a demo -p demo >/dev/null
${TT_SMBSRVD_ENV:+env $TT_SMBSRVD_ENV} smbsrvd -c /etc/smbsrv/torture.conf
modprobe ksmbd
ksmbd.mountd
# ksmbd listens once ksmbd.mountd has handed it the configuration, which
# can take a while in a loaded guest: the first client must not be early.
i=0
until ss -Hltn 'sport = :1445' | grep -q .; do
	[ \$i -lt 100 ] || { echo 'ksmbd does not listen'; exit 1; }
	sleep 0.2
	i=\$((i + 1))
done
$(tt_samba_setup)"
}

# tt_one SERVER PORT AUTH TEST: run a suite or one subtest on a server,
# leave "subtest result" lines in $TT_DIR/SERVER.TEST.res.
tt_one() {
	local server=$1 port=$2 auth=$3 test=$4 out start
	out="$TT_DIR/$server.$test"
	start=$SECONDS
	# shellcheck disable=SC2086
	timeout $((TT_TIMEOUT * VM_SLOW)) smbtorture "//127.0.0.1/${TT_SHARE:-torture}" -p "$port" \
		-U"$auth" $TT_OPTIONS "$test" > "$out.log" 2>&1
	echo $((SECONDS - start)) > "$out.secs"
	# smbtorture's subunit-style lines: "success: NAME", "failure: NAME
	# [ reason ]", "error: ...", "skip: ...", NAME relative to the suite,
	# or the subtest's own last component when one subtest was asked
	# (smb2.SUITE.SUB); blanks in NAME become "_".
	sed -n -E 's/^(success|failure|error|skip|xfail): (.*)$/\1 \2/p' \
		"$out.log" | sed -E 's/ \[.*$//; s/ +$//; s/ /_/2g' |
		while read -r result name; do
		case "$test" in
		*.*.*".$name") echo "$test $result" ;;
		*) echo "$test.$name $result" ;;
		esac
	done > "$out.res"
}

# One server's whole list before the next server's: smbsrv goes first, so
# on the debug kernel a report in ksmbd (which taints the kernel and so
# switches lockdep off) comes after all of smbsrv's runs.
tt_run() {
	local t srv port auth line
	for srv in $(tt_servers); do
		case $srv in
		smbsrv) port=$T_SMB_PORT auth=$TT_SMBSRV_AUTH ;;
		ksmbd) port=$T_RIVAL_PORT auth=$TT_KSMBD_AUTH ;;
		samba) port=$(vm_port "$T_VM" samba) auth=$TT_SAMBA_AUTH ;;
		esac
		for t in "$@"; do
			tt_one "$srv" "$port" "$auth" "$t"
		done
	done
	for t in "$@"; do
		line="$t:"
		for srv in $(tt_servers); do
			line="$line $srv $(grep -c ' success$' "$TT_DIR/$srv.$t.res") passed in $(cat "$TT_DIR/$srv.$t.secs") s,"
		done
		t_diag "${line%,}"
	done
}

# The result of SUBTEST on SERVER, "-" when it did not run.
tt_result() {
	local r
	r=$(cat "$TT_DIR/$1".*.res 2>/dev/null | awk -v n="$2" '$1 == n { print $2; exit }')
	echo "${r:--}"
}

# TAP: each named subtest succeeded on smbsrv.
tt_must_pass() {
	local t r
	for t in "$@"; do
		r=$(tt_result smbsrv "$t")
		if [ "$r" = success ]; then
			t_ok "smbtorture $t passes"
		else
			t_not_ok "smbtorture $t passes (got $r)"
			grep -h -A3 -E "^(failure|error): ${t##*.}( \[|$)" \
				"$TT_DIR"/smbsrv.*.log 2>/dev/null | head -n 8 |
				sed 's/^/# /'
		fi
	done
}

# How many subtests of SERVER passed among those named PREFIX (a suite
# smb2.SUITE counts its subtests, a subtest itself).
tt_passed() {
	cat "$TT_DIR/$1".*.res 2>/dev/null |
		awk -v p="$2" '($1 == p || index($1, p ".") == 1) && $2 == "success"' |
		wc -l
}

# TAP: for each suite (or subtest) named, smbsrv passed at least as many
# subtests as SERVER did.
tt_not_behind() {
	local srv=$1 t s o
	shift
	for t in "$@"; do
		s=$(tt_passed smbsrv "$t")
		o=$(tt_passed "$srv" "$t")
		if [ "$s" -ge "$o" ]; then
			t_ok "$t: smbsrv passes $s, $srv $o"
		else
			t_not_ok "$t: smbsrv passes $s, fewer than $srv's $o"
		fi
	done
}

# The side-by-side table: TAP diagnostics and build/test-logs.
tt_table() {
	local names n srv line total
	names=$(cat "$TT_DIR"/*.res 2>/dev/null | awk '{ print $1 }' | sort -u)
	{
		line=$(printf '%-60s' subtest)
		for srv in ${TT_COLUMNS:-smbsrv ksmbd ${TT_SAMBA:+samba}}; do
			line="$line $(printf '%-8s' "$srv")"
		done
		echo "$line"
		for n in $names; do
			line=$(printf '%-60s' "$n")
			for srv in ${TT_COLUMNS:-smbsrv ksmbd ${TT_SAMBA:+samba}}; do
				line="$line $(printf '%-8s' "$(tt_result "$srv" "$n")")"
			done
			echo "$line"
		done
		total="passed:"
		for srv in ${TT_COLUMNS:-smbsrv ksmbd ${TT_SAMBA:+samba}}; do
			total="$total $srv $(cat "$TT_DIR/$srv".*.res 2>/dev/null | grep -c ' success$'),"
		done
		echo "${total%,}"
	} > "$TT_TABLE"
	sed 's/^/  /' "$TT_TABLE" | while IFS= read -r l; do t_diag "$l"; done
}
