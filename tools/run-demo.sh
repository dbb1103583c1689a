#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make run`: boot the test VM with smbsrv serving the share 'demo' to the
# user 'demo' (password 'demo', added with `smbsrvctl user add`), use it
# with real clients (smbclient from this host through the forwarded port,
# the kernel's cifs client in the guest), show what the module saw, and
# print the commands to try.  On a terminal the VM stays up until Enter.
#
# Exit status 0 when every step worked; otherwise 1, with the step that
# failed and where the guest's console log was kept.
#
# Environment: SMBSRV_VM_SMB_PORT (host port for SMB, default 4445 or a
# free one), SMBSRV_RUN_VM (the VM's name, default demo), SMBSRV_RUN_KEEP=1
# (leave the VM running when not on a terminal; stop it with the printed
# command).  tests/selftests/host/run-demo.sh runs this non-interactively
# and checks its output: change both together.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tools/vm/lib.sh"

vm=${SMBSRV_RUN_VM:-demo}
user=demo
pass=demo
share=demo
mnt=/mnt/demo
steps=8
step=0
t_step=0
port=${SMBSRV_VM_SMB_PORT:-4445}
if ss -Htln "sport = :$port" 2>/dev/null | grep -q .; then
	port=$(vm_free_port) || exit 1
fi
export SMBSRV_VM_SMB_PORT=$port
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
since() { echo "$(now) $1" | awk '{ printf "%.1f", $1 - $2 }'; }

# A numbered step: what happens now.
begin() {
	step=$((step + 1))
	t_step=$(now)
	echo
	echo "[$step/$steps] $*"
}
took() { echo "      ($(since "$t_step") s)"; }

# Anything that goes wrong ends the run: say what, keep the console.
fail() {
	echo >&2
	echo "run: FAILED at step $step/$steps: $*" >&2
	if [ -f "$(vm_dir "$vm")/console.log" ]; then
		vm_fail_log "$vm" "failed at step $step" 2>&1 | sed 's/^vm: /run: /' >&2
	fi
	vm_alive "$vm" && vm_stop "$vm"
	echo "run: guest console log: $(ls -t "$VM_OUT"/failed/"$vm"-*.log 2>/dev/null | head -n1)" >&2
	exit 1
}

# Show a command, indented, then run it with its output indented.
show() { # COMMAND...
	local a line=""
	for a in "$@"; do
		case "$a" in
		*[[:space:]\;]*) line+=" '$a'" ;;
		*) line+=" $a" ;;
		esac
	done
	echo "      \$${line}"
	"$@" 2>&1 | sed 's/^/        /'
	return "${PIPESTATUS[0]}"
}

# Run a guest script; its lines are shown as they would be typed.
guest() { # SCRIPT
	local out rc
	out=$(vm_exec "$vm" "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/        /'
	return $rc
}

smbc=(smbclient "//127.0.0.1/$share" -p "$port" -U "$user%$pass")

echo "smbsrv demo: a QEMU guest runs smbsrv.ko and smbsrvd serving the share"
echo "'$share'; clients on this host and in the guest use it."

begin "building the VM image (initramfs with smbsrv.ko, smbsrvd, smbsrvctl)"
vm_initramfs > "$tmp/initramfs.log" 2>&1 || {
	cat "$tmp/initramfs.log" >&2
	fail "could not build the initramfs"
}
took

begin "booting Debian's $VM_KVER kernel under QEMU ($(vm_accel))"
vm_alive "$vm" && vm_stop "$vm"
vm_start "$vm" || fail "the VM did not boot"
echo "      booted in $(cat "$(vm_dir "$vm")/boot-seconds") s; guest port 445 is 127.0.0.1:$port here"

begin "starting smbsrv in the guest: module, user '$user', daemon"
guest "
set -e
echo '\$ modprobe smbsrv'
modprobe smbsrv
echo '\$ echo $pass | smbsrvctl user add $user'
echo $pass | smbsrvctl user add $user
echo '\$ smbsrvd -c /etc/smbsrv/smbsrv.conf'
smbsrvd -c /etc/smbsrv/smbsrv.conf
echo '\$ smbsrvctl status'
smbsrvctl status
" || fail "smbsrv did not start in the guest"
took

begin "smbclient on this host lists the shares"
show smbclient -L //127.0.0.1 -p "$port" -U "$user%$pass" ||
	fail "smbclient -L failed"
took

begin "smbclient on this host puts a 1 MiB file on the share and gets it back"
head -c 1048576 /dev/urandom > "$tmp/hello.bin"
want=$(md5sum < "$tmp/hello.bin" | cut -d' ' -f1)
(cd "$tmp" && show "${smbc[@]}" -c "put hello.bin; get hello.bin back.bin") ||
	fail "smbclient put/get failed"
got=$(vm_exec "$vm" "md5sum < /srv/demo/hello.bin" | cut -d' ' -f1)
back=$(md5sum < "$tmp/back.bin" | cut -d' ' -f1)
echo "      md5 sent $want, on the server $got, got back $back"
[ "$got" = "$want" ] && [ "$back" = "$want" ] || fail "checksums differ"
took

begin "the kernel's cifs client in the guest mounts the share, copies a file in and out"
guest "
set -e
echo '\$ mount -t cifs //127.0.0.1/$share $mnt -o username=$user,password=$pass,vers=3.1.1,seal'
mkdir -p $mnt
mount -t cifs //127.0.0.1/$share $mnt -o username=$user,password=$pass,vers=3.1.1,seal
head -c 4194304 /dev/urandom > /tmp/data.bin
echo '\$ cp /tmp/data.bin $mnt/data.bin    # 4 MiB of random bytes, in'
cp /tmp/data.bin $mnt/data.bin
sync
echo '\$ cp $mnt/data.bin /tmp/data.back   # and out again, after a remount'
umount $mnt
mount -t cifs //127.0.0.1/$share $mnt -o username=$user,password=$pass,vers=3.1.1,seal
cp $mnt/data.bin /tmp/data.back
a=\$(md5sum < /tmp/data.bin | cut -d' ' -f1)
b=\$(md5sum < /srv/demo/data.bin | cut -d' ' -f1)
c=\$(md5sum < /tmp/data.back | cut -d' ' -f1)
echo \"md5 copied in \$a, on the server \$b, copied out \$c\"
test \"\$a\" = \"\$b\" && test \"\$b\" = \"\$c\"
echo '\$ ls -l $mnt'
ls -l $mnt
" || fail "the cifs mount or its copies failed"
took

begin "smbsrvctl sessions: the mount's session (dialect, signing, encryption)"
guest "
echo '\$ smbsrvctl sessions'
smbsrvctl sessions
smbsrvctl sessions | grep -q ' $user .* 3\\.1\\.1 ' || { echo 'no 3.1.1 session of $user'; exit 1; }
" || fail "smbsrvctl sessions does not show the mount"
took

begin "smbsrvctl stats: what the module's request queues did"
guest "
echo '\$ smbsrvctl stats'
smbsrvctl stats
" || fail "smbsrvctl stats failed"
took

if ! vm_exec "$vm" ". /usr/share/smbsrv/tests/lib.sh; ! dmesg_bad" >/dev/null 2>&1; then
	vm_exec "$vm" 'dmesg | tail -n 40' 2>&1 | sed 's/^/  /' >&2
	fail "the guest kernel logged a warning or an oops"
fi

vmsh="$top/tools/vm/vm.sh"
cat <<EOF

smbsrv works: the VM "$vm" serves the share '$share' (/srv/demo in the
guest, a tmpfs) to the user '$user', password '$pass'; the guest has it
mounted with cifs at $mnt.  Try, from this host:

  \$ smbclient -L //127.0.0.1 -p $port -U $user%$pass
  \$ ${smbc[*]} -c 'ls'
  \$ ${smbc[*]} -c 'put /etc/os-release os-release; get README.txt -'
  \$ ${smbc[*]}
  \$ $vmsh exec $vm 'ls -l $mnt; smbsrvctl sessions; smbsrvctl stats'
  \$ $vmsh exec $vm 'smbsrvctl connections; smbsrvctl status'

Console log: $(vm_dir "$vm")/console.log
Stop it:     $vmsh stop $vm
EOF

if [ -t 0 ] && [ -t 1 ]; then
	echo
	read -r -p "The VM stays up until you press Enter here... " _
	vm_stop "$vm"
	echo "VM stopped."
elif [ "${SMBSRV_RUN_KEEP:-0}" != 1 ]; then
	vm_stop "$vm"
	echo "VM stopped (SMBSRV_RUN_KEEP=1 leaves it running)."
fi
exit 0
