#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbsrvctl against a running smbsrvd: share list/add/update/del edit the
# configuration in place (comments kept, bad edits refused, nothing
# half-written) and make the daemon reload; reload finds the daemon by its
# pid file and never signals a process a stale pid file names.
. /usr/share/smbsrv/tests/lib.sh

conf=/tmp/admin.conf
pidf=/run/admin-smbsrvd.pid
log=/tmp/admin-smbsrvd.log
cat > $conf <<'EOF2'
; smbsrv test configuration -- keep me
[global]
	server string = admin test   ; trailing comment

# the demo share
[demo]
	path = /srv/demo
	comment = Demo
EOF2
ctl() { smbsrvctl -c $conf -P $pidf "$@"; }
reloads() { grep -c "configuration reloaded" $log 2>/dev/null; }
# wait_for runs this again each time; a "$(reloads)" in its arguments would
# be counted once, before the wait.
reloaded() { test "$(reloads)" = "$1"; }
mkdir -p /srv/docs
orig=$(md5sum < $conf)

check "modprobe smbsrv" modprobe smbsrv
smbsrvd -F -c $conf -P $pidf > $log 2>&1 &
dpid=$!
check "smbsrvd attached" wait_for 10 test -s $pidf

check "share list shows the demo share with its comment" \
	sh -c "smbsrvctl -c $conf share list | grep -qE '^demo +/srv/demo +Demo$'"

out=$(ctl share add docs -o "path = /srv/docs" -o "comment = Documents" 2>&1)
if [ $? -eq 0 ] && echo "$out" | grep -q "smbsrvd (pid $dpid) told to reload"; then
	ok "share add writes the share and signals the daemon"
else
	not_ok "share add writes the share and signals the daemon"
	diag "$out"
fi
check "the daemon reloaded" wait_for 10 reloaded 1
check "comments and formatting kept" grep -qxF "	server string = admin test   ; trailing comment" $conf
check "the new share is at the end" sh -c "tail -3 $conf | tr '\n' '|' | grep -qxF '[docs]|	path = /srv/docs|	comment = Documents|'"
check "share show prints the new share" sh -c "ctl() { smbsrvctl -c $conf \"\$@\"; }; ctl share show docs | grep -qxF '	comment = Documents'"

sum=$(md5sum < $conf)
out=$(ctl share add docs -o "path = /srv/x" 2>&1)
check "adding an existing share fails" test $? -eq 1
out=$(ctl share update docs -o "guest ok = perhaps" 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "error: guest ok: invalid boolean 'perhaps'"; then
	ok "an invalid value is refused with file:line"
else
	not_ok "an invalid value is refused with file:line"
	diag "rc=$rc $out"
fi
check "refused edits leave the file as it was" test "$(md5sum < $conf)" = "$sum"
check "refused edits do not signal the daemon" test "$(reloads)" = 1
check "no temporary file left" sh -c "! ls /tmp/admin.conf.* 2>/dev/null"

check "share update" ctl share update docs -o "read only = no" -o "comment ="
check "update applied in place" sh -c "tail -2 $conf | tr '\n' '|' | grep -qxF '	path = /srv/docs|	read only = no|'"
check "share del" ctl share del docs
check "add then del leaves the file byte for byte as it was" test "$(md5sum < $conf)" = "$orig"
check "three reloads" wait_for 10 reloaded 3
check "smbsrvctl reload" ctl reload
check "four reloads" wait_for 10 reloaded 4

# Live control against the module (no client connected: empty tables).
check "sessions: the table header" sh -c "smbsrvctl sessions | head -1 | grep -q '^SESSION  *USER  *CLIENT  *DIALECT  *SIGNING  *ENCRYPTION'"
check "connections: the table header" sh -c "smbsrvctl connections | head -1 | grep -q '^CONNECTION  *CLIENT  *DIALECT'"
check "stats shows the module's counters" sh -c "smbsrvctl stats | grep -q '^connections: [0-9]'"
out=$(smbsrvctl set route-policy sideways 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "route policy: invalid value 'sideways'"; then
	ok "set with an invalid value is refused before the module is asked"
else
	not_ok "set with an invalid value is refused before the module is asked"
	diag "rc=$rc $out"
fi
check "set route-policy unbound" sh -c "smbsrvctl set route-policy unbound | grep -q '^route policy = unbound'"
check "status shows the knob changed" sh -c "smbsrvctl status | grep -qE '^  route policy +unbound'"
check "kill of an unknown session is refused in one line" \
	sh -c "! smbsrvctl kill session 0x1234 2>/tmp/ctl.err && [ \$(wc -l < /tmp/ctl.err) -eq 1 ]"

kill $dpid
check "daemon stopped" wait_for 10 gone $dpid
out=$(ctl reload 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "smbsrvd is not running"; then
	ok "reload without a daemon fails and says why"
else
	not_ok "reload without a daemon fails and says why"
	diag "rc=$rc $out"
fi
# A stale pid file naming another live process (here: init).
echo 1 > $pidf
out=$(ctl reload 2>&1)
check "a stale pid file naming another process is not trusted" test $? -eq 1
out=$(ctl share add later -o "path = /srv/docs" 2>&1)
if [ $? -eq 0 ] && echo "$out" | grep -q "not running; the change applies when it starts"; then
	ok "editing while the daemon is down works and says so"
else
	not_ok "editing while the daemon is down works and says so"
	diag "$out"
fi
check "dmesg clean" dmesg_clean
done_testing
