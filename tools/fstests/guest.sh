#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The guest side of tools/fstests/run.sh (packed by layer.sh).
#
#   guest.sh setup            smbsrvd on 445 and ksmbd on 1445, each with
#                             shares test and scratch (its own directories
#                             under /srv/fst-SERVER), POSIX extensions on,
#                             SMB user root; fstests' users
#   guest.sh list GROUP       the tests `check -g GROUP` would run on cifs
#   guest.sh run SERVER T...  each test T (generic/001 ...) in its own
#                             `check` run against SERVER (at most
#                             FST_TEST_TIMEOUT seconds, default 900), then
#                             unmount; prints "RESULT T pass|fail|notrun|
#                             timeout SECONDS [reason]" per test
set -uo pipefail

fst=/var/lib/xfstests
pass=fstests
port_of() { case $1 in smbsrv) echo 445 ;; ksmbd) echo 1445 ;; esac; }

config() { # SERVER
	local o
	o="-o vers=3.1.1,posix,username=root,password=$pass,port=$(port_of "$1")"
	cat <<EOC
export FSTYP=cifs
export TEST_DEV=//127.0.0.1/test
export TEST_DIR=/mnt/test
export SCRATCH_DEV=//127.0.0.1/scratch
export SCRATCH_MNT=/mnt/scratch
export TEST_FS_MOUNT_OPTS="$o"
export MOUNT_OPTIONS="$o"
export CIFS_MOUNT_OPTIONS="$o"
EOC
}

setup() {
	set -e
	mkdir -p /mnt/test /mnt/scratch /etc/ksmbd
	for s in smbsrv ksmbd; do
		mkdir -p /srv/fst-$s/test /srv/fst-$s/scratch
		chmod 0777 /srv/fst-$s/test /srv/fst-$s/scratch
		config $s > /etc/fstests-$s.config
	done
	grep -q '^fsgqa:' /etc/passwd || {
		printf '%s\n' 'fsgqa:x:1200:1200:fsgqa:/tmp:/bin/bash' \
			'123456-fsgqa:x:1201:1201:fsgqa2:/tmp:/bin/bash' \
			'fsgqa2:x:1202:1202:fsgqa3:/tmp:/bin/bash' >> /etc/passwd
		printf '%s\n' 'fsgqa:x:1200:' '123456-fsgqa:x:1201:' \
			'fsgqa2:x:1202:' >> /etc/group
	}
	cat > /etc/smbsrv/fstests.conf <<EOC
[global]
	tcp port = 445
	smb3 unix extensions = yes
[test]
	path = /srv/fst-smbsrv/test
	read only = no
[scratch]
	path = /srv/fst-smbsrv/scratch
	read only = no
EOC
	cat > /etc/ksmbd/ksmbd.conf <<EOC
[global]
	tcp port = 1445
[test]
	path = /srv/fst-ksmbd/test
	read only = no
[scratch]
	path = /srv/fst-ksmbd/scratch
	read only = no
EOC
	echo $pass | smbsrvctl -c /etc/smbsrv/fstests.conf user add root >/dev/null
	ksmbd.adduser -a root -p $pass >/dev/null
	smbsrvd -c /etc/smbsrv/fstests.conf
	modprobe ksmbd
	ksmbd.mountd
	i=0
	until ss -Hltn 'sport = :1445' | grep -q .; do
		[ $i -lt 150 ] || { echo 'ksmbd does not listen'; exit 1; }
		sleep 0.2
		i=$((i + 1))
	done
	for s in smbsrv ksmbd; do
		mount -t cifs //127.0.0.1/test /mnt/test -o "vers=3.1.1,posix,username=root,password=$pass,port=$(port_of $s)"
		grep ' /mnt/test ' /proc/mounts | grep -q posix || { echo "$s: no posix mount"; exit 1; }
		umount /mnt/test
	done
}

list() {
	cd $fst && HOST_OPTIONS=/etc/fstests-smbsrv.config ./check -n -g "$1" 2>/dev/null |
		grep -E '^(generic|cifs)/[0-9]+' | awk '{ print $1 }'
}

run() {
	local s=$1 t log res start secs why rc
	shift
	cd $fst || exit 1
	mkdir -p "/tmp/fst-results/$s"
	for t in "$@"; do
		log=/tmp/fst-results/$s/$(echo "$t" | tr / -).log
		start=$(date +%s)
		HOST_OPTIONS=/etc/fstests-$s.config RESULT_BASE=/tmp/fst-results/$s \
			timeout -k 10 "${FST_TEST_TIMEOUT:-900}" ./check "$t" > "$log" 2>&1
		rc=$?
		secs=$(( $(date +%s) - start ))
		if [ $rc = 124 ] || [ $rc = 137 ]; then
			res=timeout why=""
		elif grep -q '^Not run:' "$log"; then
			res=notrun why=$(grep -E "^$t.*\\[not run\\]" "$log" | sed 's/.*\[not run\] *//' | head -n1)
		elif grep -q '^Passed all' "$log"; then
			res=pass why=""
		else
			res=fail why=$(grep -E "^$t" "$log" | sed "s|^$t *||" | head -n1)
		fi
		echo "RESULT $t $res $secs $why"
		umount /mnt/test /mnt/scratch 2>/dev/null
		# A timed-out test may leave processes in the mounts behind.
		if [ $res = timeout ]; then
			pkill -9 -f "$fst/tests/$t" 2>/dev/null
			umount -l /mnt/test /mnt/scratch 2>/dev/null
		fi
	done
}

cmd=$1
shift
case $cmd in
setup) setup ;;
list) list "$@" ;;
run) run "$@" ;;
*) echo "usage: $0 setup|list GROUP|run SERVER TEST..." >&2; exit 2 ;;
esac
