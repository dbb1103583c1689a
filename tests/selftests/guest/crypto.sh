#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The module's crypto against published vectors: the test module
# smbsrv_crypto_test (kmod/test/crypto_test.c) is the KUnit suite
# smbsrv_crypto, run when it is loaded (by KUnit, or by its stand-in on a
# kernel without KUnit), against the loaded smbsrv.ko's crypto code: key
# derivation (2.1, 3.0, 3.0.2, 3.1.1, 256-bit), the 3.1.1 preauth
# integrity hash chain, signing (AES-CMAC, HMAC-SHA256, AES-GMAC with its
# server and cancel nonce bits) and encryption (AES-128/256-CCM and -GCM)
# of real SMB messages, each also with its data split between a kvec and
# a page, encrypted out of place from a page into another one (an
# encrypted READ's path) with the source left as it was, and tampered
# messages refused; each signature checked with the data in pieces of a
# page pair, as a WRITE's data is received (one piece across the pages'
# boundary).  One TAP line per vector, from the suite's KTAP in
# the kernel log.
. /usr/share/smbsrv/tests/lib.sh

# The vectors the suite reports: a case that stops reporting must fail
# this test, not shrink it.
EXPECTED=144

check "modprobe smbsrv" modprobe smbsrv
check "modprobe smbsrv_crypto_test (runs the suite)" modprobe smbsrv_crypto_test
ktap_results smbsrv_crypto > /tmp/kt.res
grep -v '^suite	' /tmp/kt.res > /tmp/kt.vec
while IFS='	' read -r st name; do
	if [ "$st" = ok ]; then
		ok "crypto: $name"
	else
		not_ok "crypto: $name"
	fi
done < /tmp/kt.vec
if grep -q '^not ok' /tmp/kt.vec; then
	dmesg | grep -A3 'FAILED at' | head -40 | sed 's/^/# /'
fi
check "the suite smbsrv_crypto ran to its end and passed" \
	grep -qx 'suite	ok' /tmp/kt.res
check "every vector reported: $EXPECTED" \
	test "$(wc -l < /tmp/kt.vec)" -eq "$EXPECTED"
check "no vector reported twice" \
	test -z "$(cut -f2 /tmp/kt.vec | sort | uniq -d)"
check "rmmod smbsrv_crypto_test smbsrv" rmmod smbsrv_crypto_test smbsrv
if dmesg_clean; then
	ok "dmesg has no warnings, oopses or leaks"
else
	not_ok "dmesg has no warnings, oopses or leaks"
	dmesg_bad | head -20 | sed 's/^/# /'
fi

done_testing
