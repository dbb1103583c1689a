#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbtorture's protocol-core suites against smbsrv and, in the same boot,
# the in-tree ksmbd (torture.bash): connect, tcon, session, credits and
# compound with the default configuration, then session-require-signing
# with `server signing = mandatory` on both servers (the suite checks that
# the server requires signing).  The side-by-side table goes to
# build/test-logs/torture-torture-core.txt and into this log; the subtests
# smbsrv passes are asserted so they stay passing.  Most smb2.session
# subtests (reauth*, reconnect*, signing-*, encryption-*, bind_negative*)
# open their file with a lease and fail until leases exist, bind* needs
# multichannel; compound-padding needs named streams.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/torture.bash"

t_vm_start
tt_servers_up
tt_run smb2.connect smb2.tcon smb2.session smb2.credits smb2.compound

# shellcheck disable=SC2016
t_guest_check "both servers restarted with server signing = mandatory" '
set -e
sed -i "s/^\[global\]\$/[global]\n\tserver signing = mandatory/" \
	/etc/smbsrv/torture.conf /etc/ksmbd/ksmbd.conf
grep -q "server signing = mandatory" /etc/ksmbd/ksmbd.conf
kill -HUP "$(cat /run/smbsrvd.pid)"
ksmbd.control -s
sleep 2
ksmbd.mountd
for i in $(seq 50); do
	smbsrvctl status | grep -qE "server signing +mandatory" && exit 0
	sleep 0.2
done
exit 1'
tt_run smb2.session-require-signing

tt_must_pass \
	smb2.connect.connect smb2.tcon.tcon \
	smb2.session.two_logoff smb2.session.ntlmssp_bug14932 \
	smb2.session-require-signing.bug15397 \
	smb2.credits.session_setup_credits_granted \
	smb2.credits.single_req_credits_granted smb2.credits.skipped_mid \
	smb2.compound.related1 smb2.compound.related2 \
	smb2.compound.related3 smb2.compound.related4 \
	smb2.compound.related5 smb2.compound.related6 \
	smb2.compound.interim1 smb2.compound.interim2 \
	smb2.compound.related7 smb2.compound.related8 \
	smb2.compound.related9 smb2.compound.compound-break \
	smb2.compound.unrelated1 smb2.compound.create-write-close \
	smb2.compound.invalid1 smb2.compound.invalid2 \
	smb2.compound.invalid3 smb2.compound.invalid4
tt_table
t_dmesg_clean
t_done
