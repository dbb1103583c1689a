#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Markdown summary of a tools/fstests/run.sh results directory: counts per
# server over the tests both ran, then each server's failures and the
# tests one server passes and the other does not.
set -euo pipefail
res=$1
cat "$res/info"
echo
echo "| server | ran | passed | failed | not run | timed out |"
echo "|---|---|---|---|---|---|"
for s in smbsrv ksmbd; do
	f=$res/$s.txt
	[ -f "$f" ] || continue
	awk -v s="$s" '{ n++; c[$2]++ }
		END { printf "| %s | %d | %d | %d | %d | %d |\n", s, n, c["pass"], c["fail"], c["notrun"], c["timeout"] }' "$f"
done
for s in smbsrv ksmbd; do
	echo
	echo "$s failures:"
	awk '$2 == "fail" || $2 == "timeout" { $3 = ""; print "- " $0 }' "$res/$s.txt"
done
echo
echo "passed by one server only:"
join <(awk '{ print $1, $2 }' "$res/smbsrv.txt" | sort) <(awk '{ print $1, $2 }' "$res/ksmbd.txt" | sort) |
	awk '$2 != $3 && ($2 == "pass" || $3 == "pass") { print "- " $1 ": smbsrv " $2 ", ksmbd " $3 }'
