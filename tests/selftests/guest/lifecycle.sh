#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Module and daemon life cycle: the missing-module message, start-up knobs,
# status, daemon stop/restart/kill while the module stays, reload moving the
# listener, 20 load/unload cycles under a running daemon, a clean dmesg.
. /usr/share/smbsrv/tests/lib.sh

conf=/tmp/lifecycle.conf
cat > $conf <<'EOF'
[global]
	tcp port = 445
	max connections = 77
	smb2 max read = 1M
	smb2 max write = 2M
	smb2 max trans = 512K
	smb2 max credits = 512
[demo]
	path = /srv/demo
EOF

daemon_pid() { cat /run/smbsrvd.pid 2>/dev/null; }
status_has() { smbsrvctl status | grep -qE "$1"; }
stop_daemon() {
	_p=$(daemon_pid)
	[ -n "$_p" ] || return 0
	kill "$_p" 2>/dev/null
	wait_for 10 gone "$_p"
}

# 1. No module: one line that says to load it.
err=$(smbsrvd -F -c $conf 2>&1)
rc=$?
lines=$(printf '%s\n' "$err" | wc -l)
if [ $rc -ne 0 ] && [ "$lines" -eq 1 ] && echo "$err" | grep -q "modprobe smbsrv"; then
	ok "smbsrvd without the module fails with one line naming modprobe"
else
	not_ok "smbsrvd without the module fails with one line naming modprobe"
	diag "rc=$rc: $err"
fi
err=$(smbsrvctl status 2>&1)
if [ $? -ne 0 ] && echo "$err" | grep -q "not loaded"; then
	ok "smbsrvctl status without the module says it is not loaded"
else
	not_ok "smbsrvctl status without the module says it is not loaded"
	diag "$err"
fi

# 2. Load: registered, not listening until a daemon starts it.
check "modprobe smbsrv" modprobe smbsrv
check "status before the daemon: daemon not running" status_has "^daemon: +not running"
check "status before the daemon: not listening" status_has "^listening: +no"

# 3. Daemon start-up pushes the knobs; the module listens.
check "smbsrvd starts (daemonized)" smbsrvd -c $conf
check "pid file written" wait_for 5 test -s /run/smbsrvd.pid
pid=$(daemon_pid)
check "status: daemon running with its pid" status_has "^daemon: +running \\(pid $pid\\)"
check "status: listening on TCP port 445" status_has "^listening: +TCP port 445"
check "knob: max connections 77" status_has "max connections +77$"
check "knob: smb2 max read 1M" status_has "smb2 max read +1048576 \\(1M\\)"
check "knob: smb2 max write 2M" status_has "smb2 max write +2097152 \\(2M\\)"
check "knob: smb2 max trans 512K" status_has "smb2 max trans +524288 \\(512K\\)"
check "knob: smb2 max credits 512" status_has "smb2 max credits +512$"
check "port 445 is listening" listening 445
check "a TCP client can connect to port 445" sh -c 'echo | nc -w 3 127.0.0.1 445'
check "module version reported" status_has "^module: +smbsrv [0-9]+\\.[0-9]+\\.[0-9]+"

# 4. A second daemon is refused while the first is attached.
err=$(smbsrvd -F -P /tmp/second.pid -c $conf 2>&1)
if [ $? -ne 0 ] && echo "$err" | grep -q "another smbsrvd (pid $pid) is attached"; then
	ok "a second smbsrvd is refused"
else
	not_ok "a second smbsrvd is refused"
	diag "$err"
fi

# 5. Reload moves the listener.
sed -i 's/tcp port = 445/tcp port = 4445/' $conf
kill -HUP "$pid"
check "SIGHUP reload moves the listener to 4445" wait_for 10 listening 4445
check "old port 445 closed after the move" not listening 445
check "status shows port 4445" status_has "^listening: +TCP port 4445"
sed -i 's/tcp port = 4445/tcp port = 445/' $conf
kill -HUP "$pid"
check "reload back to 445" wait_for 10 listening 445

# 6. Stopping the daemon leaves the module loaded and listening.
check "smbsrvd stops on SIGTERM" stop_daemon
check "status after stop: daemon not running" status_has "^daemon: +not running"
check "module still listening after the daemon stopped" listening 445
check "pid file removed on exit" not test -e /run/smbsrvd.pid

# 7. Restart while loaded; kill -9 is noticed too.
check "smbsrvd restarts while the module is loaded" smbsrvd -c $conf
pid2=$(daemon_pid)
check "status: restarted daemon attached" status_has "^daemon: +running \\(pid $pid2\\)"
kill -9 "$pid2"
check "kill -9: module notices the daemon is gone" wait_for 5 status_has "^daemon: +not running"
check "module still listening after kill -9" listening 445
rm -f /run/smbsrvd.pid

# 8. 20 unload/load cycles with the daemon running: it re-attaches each time.
smbsrvd -F -c $conf -P /run/smbsrvd.pid >/tmp/smbsrvd-cycles.log 2>&1 &
check "foreground smbsrvd attached for the load/unload cycles" \
	wait_for 10 status_has "^daemon: +running"
fails=0
i=1
while [ $i -le 20 ]; do
	if ! rmmod smbsrv; then
		diag "cycle $i: rmmod failed"
		fails=$((fails + 1))
		break
	fi
	if listening 445; then
		diag "cycle $i: still listening after rmmod"
		fails=$((fails + 1))
	fi
	if ! modprobe smbsrv; then
		diag "cycle $i: modprobe failed"
		fails=$((fails + 1))
		break
	fi
	if ! wait_for 10 status_has "^daemon: +running"; then
		diag "cycle $i: daemon did not re-attach"
		fails=$((fails + 1))
	fi
	if ! wait_for 10 listening 445; then
		diag "cycle $i: not listening after re-attach"
		fails=$((fails + 1))
	fi
	i=$((i + 1))
done
if [ $fails -eq 0 ]; then
	ok "20 rmmod/modprobe cycles, daemon re-attached every time"
else
	not_ok "20 rmmod/modprobe cycles, daemon re-attached every time"
fi
check "daemon stops" stop_daemon
diag "daemon log: $(cat /tmp/smbsrvd-cycles.log)"
check "final rmmod succeeds" rmmod smbsrv
check "module gone" not grep -q "^smbsrv " /proc/modules
check "nothing listening on 445 after rmmod" not listening 445
if dmesg_clean; then
	ok "dmesg has no warnings, oopses or leaks"
else
	not_ok "dmesg has no warnings, oopses or leaks"
	dmesg_bad | head -20 | sed 's/^/# /'
fi
diag "kernel messages from smbsrv: $(dmesg | grep -c smbsrv)"

done_testing
