#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The module's crypto against published vectors: loaded with selftest=1,
# smbsrv.ko checks key derivation (3.0, 3.0.2, 3.1.1, 256-bit), the 3.1.1
# preauth integrity hash chain, signing (AES-CMAC, HMAC-SHA256, AES-GMAC
# with its server and cancel nonce bits) and encryption (AES-128/256-CCM
# and -GCM) of real SMB messages, each also with its data split between a
# kvec and a page, encrypted out of place from a page into another one
# (an encrypted READ's path) with the source left as it was, and tampered
# messages refused.  One TAP line per vector
# reported in the kernel log.
. /usr/share/smbsrv/tests/lib.sh

# The number of vectors kmod/crypto_test.c reports: a section that stops
# reporting must fail this test, not shrink it.
EXPECTED=110

check "modprobe smbsrv selftest=1" modprobe smbsrv selftest=1
dmesg | sed -n 's/.*smbsrv: selftest: //p' > /tmp/st.log
grep -vE '^[0-9]+ passed, [0-9]+ failed$' /tmp/st.log > /tmp/st.vec
while IFS= read -r line; do
	case "$line" in
	*": ok") ok "crypto vector: ${line%: ok}" ;;
	*": FAILED") not_ok "crypto vector: ${line%: FAILED}" ;;
	*) not_ok "unexpected self-test line: $line" ;;
	esac
done < /tmp/st.vec
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /tmp/st.log)
check "self-test summary: $EXPECTED passed, 0 failed" \
	test "$summary" = "$EXPECTED passed, 0 failed"
check "every vector reported once" \
	test "$(wc -l < /tmp/st.vec)" -eq "$EXPECTED"
check "rmmod smbsrv" rmmod smbsrv
if dmesg_clean; then
	ok "dmesg has no warnings, oopses or leaks"
else
	not_ok "dmesg has no warnings, oopses or leaks"
	dmesg_bad | head -20 | sed 's/^/# /'
fi

done_testing
