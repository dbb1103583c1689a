# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# TAP helpers for guest-side selftests (busybox sh).
T_N=0
T_FAIL=0

ok() {
	T_N=$((T_N + 1))
	echo "ok $T_N - $*"
}

not_ok() {
	T_N=$((T_N + 1))
	T_FAIL=$((T_FAIL + 1))
	echo "not ok $T_N - $*"
}

# check DESCRIPTION COMMAND...: ok if the command succeeds; its output is
# shown as TAP comments when it fails.
check() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then
		ok "$_desc"
	else
		not_ok "$_desc"
		printf '%s\n' "$_out" | sed 's/^/# /'
	fi
}

# Has process PID exited (a zombie counts as exited)?
gone() {
	! kill -0 "$1" 2>/dev/null || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null
}

not() {
	! "$@"
}

diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

# Kernel log lines that mean a bug, but for the reports in the in-tree
# ksmbd's code alone (it runs beside smbsrv as the yardstick; the
# debug kernel's KASAN finds bugs of its own): kernel-reports.awk tells
# them apart by the modules in their traces.
dmesg_bad() {
	dmesg | awk -v pass=1 -f /usr/share/smbsrv/kernel-reports.awk | grep -E 'WARNING:|BUG:|Oops|Call Trace|general protection|UBSAN|KASAN|refcount_t:|list_(add|del) corruption|kmemleak: [0-9]+ new suspected|kmemleak: Cannot|INFO: task .* blocked|hung_task|soft lockup|rcu_sched self-detected|RCU stall'
}

dmesg_clean() {
	! dmesg_bad
}

# ktap_results SUITE: the results of the KUnit suite SUITE in the kernel
# log, as KUnit prints them or, on a kernel without KUnit, the test
# module's stand-in (kmod/test/kunit-lite.c) does: one line per result,
# "ok" or "not ok", a tab, and "CASE: PARAMETER" for a parameterised
# case's results or "CASE" for a plain case's; a skipped result is "not
# ok".  Last, "suite" and the suite's own ok or not ok; nothing of it
# when the suite never ran or stopped before its end.
ktap_results() {
	dmesg | sed -E 's/^(<[0-9]+>)?\[[^]]*\] //' | awk -v suite="$1" '
	function result(s,    ok) {
		ok = (s ~ /^ok /)
		sub(/^(not )?ok [0-9]+ /, "", s)
		if (s ~ / # SKIP/) {
			ok = 0
			sub(/ # SKIP.*/, "", s)
		}
		res = s
		return ok ? "ok" : "not ok"
	}
	!run && $0 == "    # Subtest: " suite { run = 1; next }
	!run { next }
	/^        # Subtest: / { kase = substr($0, 20); next }
	/^        (not )?ok [0-9]+ / {
		st = result(substr($0, 9))
		printf "%s\t%s: %s\n", st, kase, res
		next
	}
	/^    (not )?ok [0-9]+ / {
		st = result(substr($0, 5))
		if (res != kase)
			printf "%s\t%s\n", st, res
		kase = ""
		next
	}
	/^(not )?ok [0-9]+ / {
		st = result($0)
		if (res == suite) {
			printf "suite\t%s\n", st
			exit
		}
	}'
}

# wait_for SECONDS COMMAND...: poll until the command succeeds.
wait_for() {
	_t=$(($1 * 10))
	shift
	while [ $_t -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		_t=$((_t - 1))
	done
	return 1
}

# Is something listening on TCP PORT (v4 or v6)?
listening() {
	_hex=$(printf '%04X' "$1")
	grep -qE "^ *[0-9]+: [0-9A-F]+:$_hex [0-9A-F]+:0000 0A" /proc/net/tcp6 /proc/net/tcp 2>/dev/null
}

done_testing() {
	echo "1..$T_N"
	[ $T_FAIL -eq 0 ]
}
