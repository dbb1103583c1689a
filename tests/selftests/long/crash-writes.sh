#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Crash-consistent writes: nothing the server acknowledged as durable is
# lost when the machine dies.  The share is ext4 on a real block device
# (virtio-blk, a raw image on the host: SMBSRV_VM_DISK), not tmpfs.  A
# host-side client (host/crashwrite.py, through the forwarded port, so its
# record of what was acknowledged outlives the guest) writes with
# write-through, with FLUSH, or both at random, and QEMU is killed with
# SIGKILL at a random moment (CRASH_POINTS times, default 20; 0.5-10 s
# after the first acknowledged WRITE).  The guest boots again on the same
# image, serves it again, and every range acknowledged as durable is read
# back and compared.  A control round comes first: plain WRITEs, neither
# write-through nor flushed, must be lost (they sat in the guest's page
# cache), which shows the check sees a loss when there is one.  Then,
# without a guest crash: smbsrvd killed with SIGKILL mid-write, and the
# client killed mid-write; every WRITE acknowledged at all must be there.
# Then a client's CREATE waits for a frozen /srv/c (fsfreeze) without
# locking the directory meanwhile.  Finally smbsrvd stops, the module unloads, /srv/c unmounts, and e2fsck
# -fn of the image on the host finds no error.  About 25 minutes under
# TCG on a loaded 2-core machine; run with `make check-long`.
. "$(dirname "$0")/../host/lib.sh"

points=${CRASH_POINTS:-20}
py=/usr/bin/python3
cw="$T_TOP/tests/selftests/host/crashwrite.py"
work="$VM_OUT/crash-writes"
img="$work/disk.img"
rm -rf "$work"
mkdir -p "$work"
if ! vm_initramfs >/dev/null; then
	t_not_ok "build the VM initramfs"
	t_done
fi
truncate -s 4G "$img"
t_check "ext4 on the disk image (host mkfs)" mkfs.ext4 -q -F -b 4096 "$img"
export SMBSRV_VM_DISK="$img"

# modprobe, mount /dev/vda (journal replay after a crash), smbsrvd up.
serve() {
	vm_exec "$T_VM" '
set -e
modprobe smbsrv
modprobe virtio_blk
i=0
until [ -b /dev/vda ] || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
mkdir -p /srv/c
mount -t ext4 /dev/vda /srv/c
chown demo:demo /srv/c
cat > /etc/smbsrv/crash.conf <<EOF
[global]
	tcp port = 445
[c]
	path = /srv/c
	read only = no
EOF
echo demo | smbsrvctl -c /etc/smbsrv/crash.conf user add demo >/dev/null
smbsrvd -c /etc/smbsrv/crash.conf
i=0
until smbsrvctl -c /etc/smbsrv/crash.conf stats >/dev/null 2>&1 || [ $i -ge 50 ]; do
	sleep 0.2
	i=$((i + 1))
done'
}

boot() {
	T_VM=l-crash-writes
	vm_start "$T_VM" || return 1
	T_SMB_PORT=$(vm_port "$T_VM" smb)
	serve
}

cw_verify() { # NAME which LABEL
	t_checks "$py" "$cw" verify "$T_SMB_PORT" c demo demo "$1" \
		"$work/$1.log" "$2" "$3"
}

# Round 0 is the control: plain WRITEs, never made durable, are lost by
# the kill (so the check can see a loss); rounds 1.. are the kill points.
modes=(wt flush mixed)
killed=0
for ((r = 0; r <= points; r++)); do
	if ! boot; then
		t_not_ok "boot $r: /dev/vda mounted and served after $r kills"
		vm_kill "$T_VM"
		break
	fi
	if [ "$r" = 1 ]; then
		out=$("$py" "$cw" verify "$T_SMB_PORT" c demo demo round0 \
			"$work/round0.log" acked control 2>&1)
		if grep -q 'FAIL .* bytes lost' <<< "$out"; then
			t_ok "control: plain WRITEs never made durable are lost by the kill"
		else
			t_not_ok "control: plain WRITEs never made durable are lost by the kill"
		fi
		t_diag "$out"
	elif [ "$r" -gt 1 ]; then
		cw_verify "round$((r - 1))" durable \
			"after kill $((r - 1)) (${modes[$(((r - 2) % 3))]})"
	fi
	mode=${modes[$(((r + 2) % 3))]}
	[ "$r" = 0 ] && mode=none
	: > "$work/round$r.log"
	"$py" "$cw" write "$T_SMB_PORT" c demo demo "round$r" \
		"$work/round$r.log" "$mode" > "$work/round$r.out" 2>&1 &
	writer=$!
	# The kill point: 0.5 to 10 s after the first acknowledged WRITE,
	# in 10 ms steps.
	for ((i = 0; i < 300; i++)); do
		[ -s "$work/round$r.log" ] && break
		kill -0 "$writer" 2>/dev/null || break
		sleep 0.1
	done
	delay=$((50 + RANDOM % 950))
	sleep "$((delay / 100)).$(printf %02d $((delay % 100)))"
	acked=$(grep -c '^D' "$work/round$r.log")
	qemu=$(cat "$(vm_dir "$T_VM")/qemu.pid")
	kill -9 "$qemu"
	wait "$writer" 2>/dev/null
	while kill -0 "$qemu" 2>/dev/null; do sleep 0.1; done
	[ "$r" = 0 ] || killed=$((killed + 1))
	t_diag "kill $r ($mode) $((delay / 100)).$(printf %02d $((delay % 100))) s into the writing: $acked durable WRITEs acknowledged before it ($(grep -c '^A' "$work/round$r.log") in all)"
	if [ "$acked" = 0 ] && [ "$r" != 0 ]; then
		t_not_ok "kill $r: the client got a durable WRITE acknowledged before the kill"
		t_diag "$(tail -n 5 "$work/round$r.out")"
	fi
done

# After the last kill: every round's file, not only the last one.
if boot; then
	for ((i = 1; i <= killed; i++)); do
		cw_verify "round$i" durable "after all $killed kills, round $i"
	done

	# smbsrvd killed with SIGKILL while a client writes; a new smbsrvd
	# then serves the share, and every acknowledged WRITE is there.
	"$py" "$cw" write "$T_SMB_PORT" c demo demo daemon-kill \
		"$work/daemon-kill.log" mixed 8 > "$work/daemon-kill.out" 2>&1 &
	writer=$!
	sleep 3
	t_guest_check "smbsrvd killed (SIGKILL) mid-write" 'kill -9 $(pidof smbsrvd)'
	wait "$writer"
	t_diag "writer after smbsrvd's kill: $(tail -n 1 "$work/daemon-kill.out")"
	t_guest_check "smbsrvd started again" \
		'sleep 1; smbsrvd -c /etc/smbsrv/crash.conf && sleep 2'
	cw_verify daemon-kill acked "smbsrvd killed mid-write"

	# The client killed with SIGKILL mid-write: the server tears the
	# connection down; what it acknowledged stays.
	"$py" "$cw" write "$T_SMB_PORT" c demo demo client-kill \
		"$work/client-kill.log" mixed > "$work/client-kill.out" 2>&1 &
	writer=$!
	sleep 4
	kill -9 "$writer"
	wait "$writer" 2>/dev/null
	sleep 1
	cw_verify client-kill acked "client killed mid-write"

	# A CREATE that waits for a frozen file system holds no directory
	# lock meanwhile: smbsrv takes write access to the mount before the
	# parent's lock, in the kernel's order (the other order is a
	# deadlock against a freeze, and here would block every lookup and
	# listing of that directory until the thaw).
	t_guest_check "freeze: /srv/c frozen" \
		'mkdir -p /srv/c/fz && chown demo /srv/c/fz && sync &&
		 fsfreeze --freeze /srv/c'
	smbclient //127.0.0.1/c -p "$T_SMB_PORT" -U demo%demo \
		-c 'mkdir fz\new' > "$work/freeze.out" 2>&1 &
	client=$!
	sleep 3
	if kill -0 "$client" 2>/dev/null; then
		t_ok "freeze: the client's mkdir waits for the thaw"
	else
		t_not_ok "freeze: the client's mkdir waits for the thaw"
		t_diag "$(cat "$work/freeze.out")"
	fi
	t_guest_check "freeze: its directory is listed meanwhile" \
		'timeout 30 ls -la /srv/c/fz'
	t_guest_check "freeze: /srv/c thawed" 'fsfreeze --unfreeze /srv/c'
	if wait "$client"; then
		t_ok "freeze: the client's mkdir completes after the thaw"
	else
		t_not_ok "freeze: the client's mkdir completes after the thaw"
		t_diag "$(cat "$work/freeze.out")"
	fi
	t_guest_check "freeze: the new directory is there" 'test -d /srv/c/fz/new'
	t_dmesg_clean
	t_diag "$(t_guest 'df -h /srv/c | tail -n 1')"
	t_guest_check "smbsrvd stopped, smbsrv unloaded, /srv/c unmounted" '
kill $(pidof smbsrvd); sleep 1; rmmod smbsrv && umount /srv/c'
	vm_stop "$T_VM"
else
	t_not_ok "boot after the last kill: /dev/vda mounted and served"
	vm_kill "$T_VM"
fi
T_VM=""
t_check "e2fsck -fn of the image after the last unmount: no errors" \
	e2fsck -fn "$img"
t_diag "$killed kill points"
rm -f "$img"
t_done
