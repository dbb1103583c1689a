#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The WRITE path (Documentation/design.md, "The WRITE path") through real
# clients, one boot, the shares of read.bash (tmpfs t, ext4 e, streams
# st) with min receivefile size 64 KiB: cifs mounts (plain, sign, seal)
# write files of 1 B to 16 MiB, at unaligned offsets and across sparse
# gaps, the same writes done on a local file as the model: md5-exact
# after drop_caches; the counters say which way each WRITE went (one copy
# for plain, signed and sealed ones from 64 KiB, copied for small ones);
# signed mounts at 3.0 (AES-CMAC) and 2.1 (HMAC-SHA256) and smbclient
# signing with AES-GMAC and sealing with AES-128-CCM and AES-256-GCM copy
# a few MiB both ways, their WRITEs one copy;
# impacket and raw PDUs (write.py) send 0 B to 2 MiB WRITEs at odd
# offsets, WRITEs refused after their data came in pages (the connection
# stays in step), signed WRITEs with a byte changed after signing (refused,
# nothing written, counted as bad signatures), sealed WRITEs of 0 B to
# 2 MiB and ones with a byte of their ciphertext changed (the connection
# dropped, nothing written), a sealed compound, WRITEs laid out so they must be taken whole, a
# compound, a named stream, a WRITE cut off mid-data; the knob switched
# live; WRITEs racing truncate and another connection's READs; long
# writes through smbtorture smb2.rw; smbsrvd stopped and rmmod clean.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/read.bash"

WR_CHECKS="$(dirname "$0")/write.py"

t_vm_start
rd_setup
t_guest_check "write counters readable; min receivefile size 64 KiB by default" "
set -e
smbsrvctl status | grep -E 'min receivefile size +65536( |\$)'
cat > /tmp/ws.sh <<'EOF'
# show: every counter's growth since note, on one line.
show() { for k in one_copy copied copy_off copy_small one_copy_signed one_copy_sealed copy_sealed copy_compound copy_stream copy_other; do printf '%s +%s ' \$k \$(delta \$k); done; echo; }
# ws KEY: a WRITE counter of smbsrvctl stats (one_copy, one_copy_bytes,
# one_copy_signed, one_copy_sealed, copied, copied_bytes, copy_off,
# copy_small, ...).
ws() { smbsrvctl stats | sed -n \"s/^write \$(echo \$1 | tr _ ' '): //p\" | grep . ; }
note() { for k in one_copy one_copy_bytes copied copy_off copy_small one_copy_signed one_copy_sealed copy_sealed copy_compound copy_stream copy_other inline inline_depth inline_deferred; do echo \$k=\$(ws \$k); done > /tmp/ws.before; }
# delta KEY: how much KEY grew since note.
delta() { echo \$((\$(ws \$1) - \$(sed -n \"s/^\$1=//p\" /tmp/ws.before))); }
EOF
. /tmp/ws.sh
test \"\$(ws one_copy)\" = 0
test \"\$(ws copy_other)\" = 0"

# The same writes through the mount of share $1 and on a local model
# (dd from one random source), then md5 of the server's file after
# drop_caches and of the file read back through the mount.  $2: mount
# options.  Writes with data of 64 KiB and more: 13 WRITEs or more (a
# 16 MiB write(2) goes out in several).
wr_all() {
	local share=$1 opts=$2
	rd_mount "$share" "$opts"
	t_guest_check "$share (${opts:-plain}): writes of 1 B to 16 MiB, odd offsets, sparse gaps: md5-exact after drop_caches" "
. /tmp/rd.sh
. /tmp/ws.sh
note
[ -f /tmp/src ] || head -c 16777221 /dev/urandom > /tmp/src
rm -rf /tmp/want; mkdir /tmp/want
rm -f /mnt/$share/w.*
# name bs seek count: dd's blocks, so seek=3 with bs=100003 writes at 300009
w() {
	dd if=/tmp/src of=/mnt/$share/w.\$1 bs=\$2 seek=\$3 count=\$4 conv=notrunc 2>/dev/null &&
	dd if=/tmp/src of=/tmp/want/w.\$1 bs=\$2 seek=\$3 count=\$4 conv=notrunc 2>/dev/null
}
set -e
for n in 1 4095 4096 4097 65535 65536 65537 1048579 8388613 16777216; do w s\$n \$n 0 1; done
w odd 100003 3 2
w odd 65537 7 1
w odd 4097 1 1
w gap 65536 0 1
w gap 65537 200 1
w gap 4097 5 1
w gap 131071 1 1
sync
echo 3 > /proc/sys/vm/drop_caches
bad=0
for f in /tmp/want/w.*; do
	n=\$(basename \$f)
	[ \"\$(lmd5 /srv/$share/\$n)\" = \"\$(lmd5 \$f)\" ] || { echo \"\$n on the server: md5 differs\"; bad=1; }
	[ \"\$(rmd5 /mnt/$share/\$n)\" = \"\$(lmd5 \$f)\" ] || { echo \"\$n read back: md5 differs\"; bad=1; }
done
for k in one_copy one_copy_bytes one_copy_signed one_copy_sealed copied copy_small copy_sealed copy_other; do echo \"\$k +\$(delta \$k)\"; done
test \$bad = 0"
}

wr_all t ""
t_guest_check "plain: WRITEs of 64 KiB and more took one copy (>= 13, >= 26,000,000 bytes: write(2)s past wsize leave small tails), smaller ones were copied for small" "
. /tmp/ws.sh
for k in one_copy one_copy_bytes copy_small copy_other one_copy_signed copy_sealed; do echo \"\$k +\$(delta \$k)\"; done
test \$(delta one_copy) -ge 13 && test \$(delta one_copy_bytes) -ge 26000000 &&
test \$(delta copy_small) -ge 7 && test \$(delta copy_other) = 0 &&
test \$(delta one_copy_signed) = 0 && test \$(delta copy_sealed) = 0"
wr_all e ""
t_guest_check "plain on ext4: one copy as well" "
. /tmp/ws.sh; test \$(delta one_copy) -ge 13 && test \$(delta copy_other) = 0"
wr_all t sign
t_guest_check "signed (3.1.1): WRITEs of 64 KiB and more took one copy, all of them signed (>= 13, >= 26,000,000 bytes); smaller ones copied for small" "
. /tmp/ws.sh
smbsrvctl sessions | grep -E '^0x[0-9a-f]+ +demo +[^ ]+ +3\.1\.1 +yes '
test \$(delta one_copy) -ge 13 && test \$(delta one_copy_bytes) -ge 26000000 &&
test \$(delta one_copy_signed) = \$(delta one_copy) &&
test \$(delta copy_small) -ge 7 && test \$(delta copy_other) = 0"

# A signed mount at dialect $1 ($2: the same as a regex; $3: the
# signing algorithm): 4 MiB + 3 bytes in 1 MiB and 64 KiB write(2)s, and
# back, md5-exact after drop_caches; every WRITE of 64 KiB or more took
# one copy, signed, the 3-byte tails were copied for small.
wr_signed() {
	rd_mount t "sign,vers=$1"
	t_guest_check "signed at $1 ($3): 4 MiB + 3 bytes written in 1 MiB and 64 KiB WRITEs, read back md5-exact; those WRITEs took one copy, signed" "
set -e
. /tmp/rd.sh
. /tmp/ws.sh
smbsrvctl sessions | grep -E '^0x[0-9a-f]+ +demo +[^ ]+ +$2 +yes '
note
head -c 4194307 /tmp/src > /tmp/sv
rm -f /mnt/t/sv.1m /mnt/t/sv.64k
dd if=/tmp/sv of=/mnt/t/sv.1m bs=1M 2>/dev/null
dd if=/tmp/sv of=/mnt/t/sv.64k bs=64K 2>/dev/null
sync
echo 3 > /proc/sys/vm/drop_caches
for f in sv.1m sv.64k; do
	test \"\$(lmd5 /srv/t/\$f)\" = \"\$(lmd5 /tmp/sv)\"
	test \"\$(rmd5 /mnt/t/\$f)\" = \"\$(lmd5 /tmp/sv)\"
done
show
test \$(delta one_copy) -ge 68 && test \$(delta one_copy_signed) = \$(delta one_copy)
test \$(delta copy_small) = 2 && test \$(delta copy_other) = 0"
}
wr_signed 3.0 '3\.0' AES-CMAC
wr_signed 2.1 '2\.1' HMAC-SHA256

# smbclient from the host with signing required and AES-GMAC the only
# signing algorithm it allows (Samba's client drops a connection that
# negotiates one it does not allow): 4 MiB put and get through qemu's
# network, md5-exact on both sides.
wr_tmp=$(mktemp -d)
head -c 4194309 /dev/urandom > "$wr_tmp/big"
t_guest_check "note the counters" ". /tmp/ws.sh; note"
t_check "smbclient signing, AES-128-GMAC only: 4 MiB put and get md5-exact" \
	timeout $((120 * VM_SLOW)) smbclient //127.0.0.1/t -p "$T_SMB_PORT" -U demo%demo \
	--client-protection=sign --option='client smb3 signing algorithms=AES-128-GMAC' \
	-c "put $wr_tmp/big gmac.bin; get gmac.bin $wr_tmp/back"
t_check "... what came back is what was put" cmp "$wr_tmp/big" "$wr_tmp/back"
t_guest_check "... the server's file is md5-exact; its WRITEs took one copy, signed" "
. /tmp/ws.sh; show
test \"\$(md5sum < /srv/t/gmac.bin)\" = '$(md5sum < "$wr_tmp/big")' &&
test \$(delta one_copy) -ge 1 && test \$(delta one_copy_signed) = \$(delta one_copy) &&
test \$(delta copy_other) = 0"
rm -rf "$wr_tmp"
wr_all t seal
t_guest_check "sealed (AES-128-GCM): WRITEs of 64 KiB and more decrypted out of their pages, one copy, all of them sealed (>= 13, >= 26,000,000 bytes); smaller ones copied for small" "
. /tmp/ws.sh; show
grep -A2 '^name *: gcm(aes)' /proc/crypto | sed -n 's/^driver *: /gcm(aes) driver: /p'
grep -A2 '^name *: ccm(aes)' /proc/crypto | sed -n 's/^driver *: /ccm(aes) driver: /p'
test \$(delta one_copy) -ge 13 && test \$(delta one_copy_bytes) -ge 26000000 &&
test \$(delta one_copy_sealed) = \$(delta one_copy) &&
test \$(delta one_copy_signed) = 0 &&
test \$(delta copy_small) -ge 7 && test \$(delta copy_sealed) = 0 &&
test \$(delta copy_other) = 0"

# smbclient from the host with encryption required and one cipher
# allowed ($1): 4 MiB put and get through qemu's network, md5-exact on
# both sides; its WRITEs (64 KiB and more) took one copy, sealed.
wr_sealed_smbclient() {
	t_guest_check "note the counters" ". /tmp/ws.sh; note"
	t_check "smbclient sealed, $1 only: 4 MiB put and get md5-exact" \
		timeout $((120 * VM_SLOW)) smbclient //127.0.0.1/t -p "$T_SMB_PORT" -U demo%demo \
		--client-protection=encrypt --option="client smb3 encryption algorithms=$1" \
		-c "put $wr_tmp/big seal.bin; get seal.bin $wr_tmp/back"
	t_check "... what came back is what was put" cmp "$wr_tmp/big" "$wr_tmp/back"
	t_guest_check "... the server's file is md5-exact; its WRITEs took one copy, sealed" "
. /tmp/ws.sh; show
test \"\$(md5sum < /srv/t/seal.bin)\" = '$(md5sum < "$wr_tmp/big")' &&
test \$(delta one_copy) -ge 1 && test \$(delta one_copy_sealed) = \$(delta one_copy) &&
test \$(delta copy_other) = 0 && test \$(delta copy_sealed) = 0"
	rm -f "$wr_tmp/back"
}
wr_tmp=$(mktemp -d)
head -c 4194309 /dev/urandom > "$wr_tmp/big"
wr_sealed_smbclient AES-128-CCM
wr_sealed_smbclient AES-256-GCM
rm -rf "$wr_tmp"

# Raw WRITEs from the host (through qemu's network: socket buffers as a
# NIC makes them, segments of about 1.5 KB), unsigned and in the clear
# (impacket itself seals or signs what it sends over SMB 3.1.1).
t_guest_check "note the counters" ". /tmp/ws.sh; note"
t_checks $RD_PY "$WR_CHECKS" "$T_SMB_PORT" t plain demo demo
t_guest_check "raw plain WRITEs of 64 KiB and more took one copy (8 of them)" "
. /tmp/ws.sh; show; test \$(delta one_copy) = 8 && test \$(delta copy_other) = 0"
t_guest_check "note the counters" ". /tmp/ws.sh; note"
t_checks $RD_PY "$WR_CHECKS" "$T_SMB_PORT" t refused demo demo
t_guest_check "refused WRITEs are not counted; the 2 that landed took one copy" "
. /tmp/ws.sh; show; test \$(delta one_copy) = 2"
t_guest_check "note the counters" "
. /tmp/ws.sh; note; smbsrvctl stats | sed -n 's/^bad signatures: //p' > /tmp/bs.before
test -s /tmp/bs.before"
t_checks $RD_PY "$WR_CHECKS" "$T_SMB_PORT" t signed demo demo
t_guest_check "the 10 signed WRITEs that landed (3.0, 2.1) took one copy, signed; the 6 changed after signing are counted nowhere" "
. /tmp/ws.sh; show; test \$(delta one_copy) = 10 && test \$(delta one_copy_signed) = 10 && test \$(delta copied) = 0"
t_guest_check "... and counted as 6 bad signatures" "
bs=\$(smbsrvctl stats | sed -n 's/^bad signatures: //p'); echo \"bad signatures \$(cat /tmp/bs.before) -> \$bs\"
test \$((bs - \$(cat /tmp/bs.before))) = 6"
t_guest_check "note the counters" ". /tmp/ws.sh; note"
t_checks $RD_PY "$WR_CHECKS" "$T_SMB_PORT" t sealed demo demo
t_guest_check "the 6 sealed (AES-128-CCM) WRITEs of 64 KiB or more took one copy, sealed; the sealed compound's was copied (reason compound); the 4 changed ones are counted nowhere" "
. /tmp/ws.sh; show
test \$(delta one_copy) = 6 && test \$(delta one_copy_sealed) = 6 &&
test \$(delta copy_compound) = 1 && test \$(delta copy_sealed) = 0 &&
test \$(delta copy_other) = 0"
t_guest_check "note the counters" ". /tmp/ws.sh; note"
t_checks $RD_PY "$WR_CHECKS" "$T_SMB_PORT" t whole demo demo
t_guest_check "the 2 WRITEs laid out otherwise were copied (reason other)" "
. /tmp/ws.sh; show; test \$(delta copy_other) = 2 && test \$(delta one_copy) = 0"
t_guest_check "note the counters" ". /tmp/ws.sh; note"
t_checks $RD_PY "$WR_CHECKS" "$T_SMB_PORT" t compound demo demo
t_guest_check "the WRITE inside a compound was copied (reason compound)" "
. /tmp/ws.sh; show; test \$(delta copy_compound) = 1 && test \$(delta one_copy) = 0"
t_guest_check "min-receivefile-size 4096 live; note the counters" "
smbsrvctl set min-receivefile-size 4096 >/dev/null
smbsrvctl status | grep -E 'min receivefile size +4096( |\$)' && . /tmp/ws.sh && note"
t_checks $RD_PY "$WR_CHECKS" "$T_SMB_PORT" st stream demo demo
t_guest_check "the unsigned WRITE to a named stream was copied (reason stream), not written from pages" "
. /tmp/ws.sh; show; test \$(delta copy_stream) = 1 && test \$(delta one_copy) = 0"
t_checks $RD_PY "$WR_CHECKS" "$T_SMB_PORT" t cut demo demo
rd_mount t ""
t_guest_check "min-receivefile-size 0 live: a 1 MiB WRITE is copied (reason off); 64K again: one copy" "
set -e
. /tmp/ws.sh
smbsrvctl set min-receivefile-size 0 >/dev/null
note
dd if=/tmp/src of=/mnt/t/off bs=1M count=1 2>/dev/null
test \$(delta copy_off) = 1 && test \$(delta one_copy) = 0
smbsrvctl set min-receivefile-size 64K >/dev/null
note
dd if=/tmp/src of=/mnt/t/off bs=1M count=1 2>/dev/null
test \$(delta one_copy) = 1
head -c 1048576 /tmp/src | cmp - /srv/t/off"

# WRITEs of 1 MiB at random places of a 16 MiB file (bytes never 0)
# while the server's side truncates it, and another connection
# (nosharesock) READs it: every byte read is the file's or a zero; after
# the race one last pass writes every block and the file is md5-exact.
t_guest_check "race (t, 8 s): WRITEs while the file is truncated and another connection reads; then md5-exact" "
. /tmp/rd.sh
mkdir -p /mnt/t2
umount /mnt/t2 2>/dev/null
mount -t cifs //127.0.0.1/t /mnt/t2 -o username=demo,password=demo,cache=none,actimeo=0,nosharesock ||
	{ echo 'second mount failed'; exit 1; }
head -c 16777216 /dev/urandom | tr '\\000' '\\001' > /tmp/orig
cp /tmp/orig /srv/t/wrace
chown demo:demo /srv/t/wrace
end=\$((\$(now) + 8))
(
	while [ \$(now) -lt \$end ]; do
		dd if=/dev/null of=/srv/t/wrace bs=512 seek=\$RANDOM 2>/dev/null
		sleep 0.1
	done
	exit 0
) &
tr=\$!
(
	w=0 f=0
	while [ \$(now) -lt \$end ]; do
		k=\$((RANDOM % 16))
		if dd if=/tmp/orig of=/mnt/t/wrace bs=1048576 skip=\$k seek=\$k count=1 conv=notrunc 2>/tmp/wr.err; then
			w=\$((w + 1))
		else
			f=\$((f + 1)); cat /tmp/wr.err
		fi
	done
	echo \"\$w WRITEs of 1 MiB, \$f failed\"
	exit 0
) > /tmp/wr.out 2>&1 &
wr=\$!
reads=0 bad=0
while [ \$(now) -lt \$end ]; do
	k=\$((RANDOM % 16))
	dd if=/mnt/t2/wrace of=/tmp/got bs=1048576 skip=\$k count=1 2>/dev/null
	dd if=/tmp/orig of=/tmp/want1 bs=1048576 skip=\$k count=1 2>/dev/null
	reads=\$((reads + 1))
	if ! cmp -l /tmp/got /tmp/want1 2>/dev/null | awk '\$2 != 0 { bad = 1 } END { exit bad }'; then
		bad=\$((bad + 1)); echo \"READ of block \$k: foreign bytes\"
	fi
done
wait \$tr
wait \$wr
cat /tmp/wr.out
echo \"\$reads READs, \$bad with foreign bytes\"
ok=1
grep -q '^[1-9][0-9]* WRITEs of 1 MiB, 0 failed' /tmp/wr.out || ok=0
[ \$reads -gt 0 ] && [ \$bad = 0 ] || ok=0
dd if=/tmp/orig of=/mnt/t/wrace bs=1048576 conv=notrunc 2>/dev/null || { echo 'the last pass failed'; ok=0; }
sync
echo 3 > /proc/sys/vm/drop_caches
[ \"\$(lmd5 /srv/t/wrace)\" = \"\$(lmd5 /tmp/orig)\" ] || { echo 'server file differs'; ok=0; }
[ \"\$(rmd5 /mnt/t2/wrace)\" = \"\$(lmd5 /tmp/orig)\" ] || { echo 'read back differs'; ok=0; }
umount /mnt/t2
test \$ok = 1"

# Small WRITEs at depth (sched.h, "Inline requests"): 4 KiB WRITEs
# submitted 16 at a time (fio, libaio, --direct) at random offsets of a
# 4 MiB file, verified by fio reading them back through the mount and by
# the md5 of the server's file after drop_caches against the mount's.
# Over a tmpfs file's own pages the receiver writes some itself
# (inline_depth) and hands none to a worker after trying; a new file
# (every WRITE grows it or lands in a hole) and the ext4 share (it writes
# back) are tried and handed to workers (inline_deferred), never written
# inline at depth; nor with route policy unbound, nor with the module's
# inline_depth switch at 0.  Each is repeated up to 3 times when the
# server never saw two WRITEs at once (a loaded host can answer each
# before the next arrives).
t_guest_check "small WRITEs at depth: helper" "
cat > /tmp/wd.sh <<'WD'
# wd NAME SHARE EXISTS: one fio run; sets d_inl d_depth d_def.
wd() {
	. /tmp/rd.sh
	. /tmp/ws.sh
	rm -f /mnt/\$2/\$1
	if [ \$3 = yes ]; then
		head -c 4194304 /tmp/src > /srv/\$2/\$1
		chown demo:demo /srv/\$2/\$1
	fi
	note
	fio --name=\$1 --filename=/mnt/\$2/\$1 --rw=randwrite --bs=4k --size=4M \
		--ioengine=libaio --iodepth=16 --iodepth_batch_submit=16 \
		--iodepth_batch_complete_min=16 --direct=1 --verify=crc32c \
		--do_verify=1 --output=/tmp/fio.out ||
		{ cat /tmp/fio.out; echo 'FAIL: fio (or its verify)'; return 1; }
	echo 3 > /proc/sys/vm/drop_caches
	[ \"\$(lmd5 /srv/\$2/\$1)\" = \"\$(rmd5 /mnt/\$2/\$1)\" ] ||
		{ echo 'FAIL: the server file and the read back differ'; return 1; }
	d_inl=\$(delta inline) d_depth=\$(delta inline_depth) d_def=\$(delta inline_deferred)
	echo \"\$1 on \$2: inline +\$d_inl, at depth +\$d_depth, deferred +\$d_def\"
}
# wd3 NAME SHARE EXISTS WANT: wd up to 3 times until WANT is seen.
# WANT depth: some written inline at depth, none deferred; deferred:
# some tried and handed to workers, none written inline at depth.
wd3() {
	for run in 1 2 3; do
		wd \$1 \$2 \$3 || return 1
		if [ \$4 = depth ]; then
			[ \$d_def = 0 ] || { echo 'FAIL: deferred'; return 1; }
			[ \$d_depth -ge 1 ] && return 0
		else
			[ \$d_depth = 0 ] || { echo 'FAIL: written inline at depth'; return 1; }
			[ \$d_def -ge 1 ] && return 0
		fi
	done
	echo \"FAIL: none \$4 in 3 runs\"; return 1
}
WD"
rd_mount e ""
t_guest_check "small WRITEs at depth on tmpfs, over the file's pages: some written by the receiver (inline_depth), none deferred; fio-verified, md5-exact" "
. /tmp/wd.sh
wd3 wd.t t yes depth"
t_guest_check "... a new tmpfs file that grows: tried, handed to workers, none written inline at depth; verified" "
. /tmp/wd.sh
wd3 wd.n t no deferred"
t_guest_check "... on ext4 (it writes back): tried, handed to workers, none written inline at depth; verified" "
. /tmp/wd.sh
wd3 wd.e e yes deferred"
t_guest_check "... route policy unbound: none tried inline (queued unbound); verified" "
. /tmp/wd.sh
smbsrvctl set route-policy unbound >/dev/null
wd wd.u t yes; rc=\$?
smbsrvctl set route-policy percpu >/dev/null
[ \$rc = 0 ] && [ \$d_depth = 0 ] && [ \$d_def = 0 ]"
t_guest_check "... module switch inline_depth=0: none written inline at depth; 3 again: some; verified" "
. /tmp/wd.sh
p=/sys/module/smbsrv/parameters/inline_depth
[ \$(cat \$p) = 3 ] || { echo \"FAIL: inline_depth is \$(cat \$p)\"; exit 1; }
echo 0 > \$p
wd wd.z t yes; rc=\$?
echo 3 > \$p
[ \$rc = 0 ] && [ \$d_depth = 0 ] && [ \$d_def = 0 ] || exit 1
wd3 wd.t t yes depth"

# smbtorture's WRITE tests through the one-copy path.
tt_log=$(mktemp)
t_check "smbtorture smb2.rw (rw1, rw2: random WRITEs and READs, checked)" \
	timeout $((300 * VM_SLOW)) smbtorture //127.0.0.1/t -p "$T_SMB_PORT" -U demo%demo \
	smb2.rw.rw1 smb2.rw.rw2
rm -f "$tt_log"
t_guest_check "no WRITE was copied for a reason other than those above" "
. /tmp/ws.sh; smbsrvctl stats | grep '^write '; test \$(ws copy_other) = 2"
rd_unload
t_done
