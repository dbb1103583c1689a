# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The READ path's VM checks, shared by host/read.sh (make check: the
# whole matrix, the races as a short smoke) and long/read-races.sh (the
# races for 30 s each, outside CI).  Source after lib.sh, then:
#
#   rd_setup            shares t (tmpfs), e (ext4 on a loop device: real
#                       eviction), st (tmpfs, streams_xattr); splice
#                       threshold 4 KiB, frame timeout 5 s; smbsrvd up
#   rd_files            the files of 0 B to 64 MiB and sparse ones, md5s
#   rd_read_all S O M   every file up to M MiB through a mount of S with
#                       options O, md5-exact after drop_caches
#   rd_race_truncate S  READs while the file is truncated and punched
#   rd_race_evict S     READs while drop_caches runs in a loop
#   rd_race_stall S     a client that stops reading, others read on
#   rd_unload           everything down, rmmod clean, dmesg clean
#
# In the guest, /tmp/rd.sh defines rs KEY (a READ counter from smbsrvctl
# stats: spliced, spliced_bytes, copied, copied_bytes, copy_off,
# copy_small, copy_stream, copy_nonreg, copy_compound, copy_nocache,
# copy_error, inline_hits, inline_misses, inline_deferred, pages) and the
# race loops.

RD_PY=/usr/bin/python3
RD_CHECKS="$(dirname "${BASH_SOURCE[0]}")/read.py"

rd_setup() {
	t_guest_check "shares t (tmpfs), e (ext4 on loop), st (streams) served with splice threshold 4 KiB" '
set -e
modprobe loop
mkdir -p /srv/t /srv/e /srv/st /mnt/t /mnt/e
mount -t tmpfs tmpfs /srv/t
mount -t tmpfs tmpfs /srv/st
dd if=/dev/zero of=/tmp/e.img bs=1M count=224 2>/dev/null
mke2fs -F -b 4096 /tmp/e.img >/dev/null 2>&1
mount -t ext4 -o loop /tmp/e.img /srv/e
chown demo:demo /srv/t /srv/e /srv/st
cat > /etc/smbsrv/read.conf <<EOF
[global]
	tcp port = 445
	splice threshold = 4096
	frame timeout = 5
[t]
	path = /srv/t
	read only = no
[e]
	path = /srv/e
	read only = no
[st]
	path = /srv/st
	read only = no
	vfs objects = streams_xattr
EOF
echo demo | smbsrvctl -c /etc/smbsrv/read.conf user add demo >/dev/null
smbsrvd -c /etc/smbsrv/read.conf
cat > /tmp/rd.sh <<"EOF"
rs() {
	smbsrvctl stats | awk -v k="$1" -F": " "
BEGIN { m[\"spliced\"] = \"read spliced\"; m[\"spliced_bytes\"] = \"read spliced bytes\"
	m[\"copied\"] = \"read copied\"; m[\"copied_bytes\"] = \"read copied bytes\"
	m[\"pages\"] = \"read pages in flight\" }
{ n = \$1; sub(/^read copy /, \"copy_\", n); sub(/^inline /, \"inline_\", n); v[n] = \$2; v[\$1] = \$2 }
END { name = (k in m) ? m[k] : k
	if (name in v) print v[name]; else { print \"no counter \" k > \"/dev/stderr\"; exit 1 } }"
}
now() { date +%s; }
# md5 of a file read through a mount in 1 MiB READs.
rmd5() { dd if="$1" bs=1M 2>/dev/null | md5sum | cut -d" " -f1; }
lmd5() { md5sum < "$1" | cut -d" " -f1; }
EOF
. /tmp/rd.sh
test "$(rs pages)" = 0'
}

# The files the mounts read: on e, 0 B to 64 MiB of random bytes, a
# 16 MiB file with "hole" at 5 MiB and holes around it, and 8 MiB + 1 of
# hole; on t the 1 MiB + 3 and 8 MiB + 5 ones and the sparse one.  Their
# md5s go to /tmp/md5.list.
RD_SIZES="0 1 4095 4096 4097 65537 1048579 8388613 67108864"
rd_files() {
	t_guest_check "files of 0 B to 64 MiB and sparse files, md5 noted" "
set -e
. /tmp/rd.sh
head -c 67108864 /dev/urandom > /srv/e/f67108864
: > /tmp/md5.list
for n in $RD_SIZES; do
	[ \$n = 67108864 ] || head -c \$n /srv/e/f67108864 > /srv/e/f\$n
	echo \"f\$n \$(lmd5 /srv/e/f\$n) \$n\" >> /tmp/md5.list
done
truncate -s 16777216 /srv/e/sparse
printf hole | dd of=/srv/e/sparse bs=1 seek=5242880 conv=notrunc 2>/dev/null
truncate -s 8388609 /srv/e/hollow
for f in sparse hollow; do echo \"\$f \$(lmd5 /srv/e/\$f) 0\" >> /tmp/md5.list; done
cp /srv/e/f1048579 /srv/e/f8388613 /srv/e/sparse /srv/t/
sync"
}

# Read every file of e up to $3 MiB through a mount with options $2
# (rd_mount) after dropping the server's caches: md5 as noted.
rd_read_all() {
	rd_mount "$1" "$2"
	t_guest_check "$1 (${2:-plain}): files of 0 B to $3 MiB and sparse ones read back md5-exact after drop_caches" "
. /tmp/rd.sh
sync
echo 3 > /proc/sys/vm/drop_caches
bad=0
while read -r f want n; do
	[ \$n -le \$(($3 * 1048576)) ] || continue
	got=\$(rmd5 /mnt/$1/\$f)
	[ \"\$got\" = \"\$want\" ] || { echo \"\$f: \$got, want \$want\"; bad=1; }
done < /tmp/md5.list
exit \$bad"
}

# Mount share $1 on /mnt/$1 with extra options $2 (cache=none: every
# read(2) is a READ of its size).
rd_mount() {
	t_guest_check "cifs mounts //127.0.0.1/$1 (${2:-plain})" "
umount /mnt/$1 2>/dev/null
mount -t cifs //127.0.0.1/$1 /mnt/$1 -o username=demo,password=demo,cache=none,actimeo=0${2:+,$2}"
}

# READs of 1 MiB and of 100003 bytes at random places of a file that is
# truncated, hole-punched and rewritten meanwhile: every byte read is the
# file's byte at that place or a zero (a hole, a truncated tail), never
# anything else; no READ returns more than the file ever held.  Share
# $2, $1 seconds.
rd_race_truncate() {
	local secs=$1 share=$2
	t_guest_check "race ($share, ${secs} s): READs while the file is truncated and hole-punched; every byte read is the file's or a zero" "
set -e
. /tmp/rd.sh
head -c 16777216 /dev/urandom | tr '\\000' '\\001' > /tmp/orig.$share
cp /tmp/orig.$share /srv/$share/race
end=\$((\$(now) + $secs))
(
	while [ \$(now) -lt \$end ]; do
		# dd, not truncate(1): truncate opens with O_NONBLOCK, and
		# while a client holds an oplock (cifs shares one 2.1
		# connection between mounts) the kernel lease smbsrv keeps
		# for it makes such an open fail with EWOULDBLOCK (fcntl(2))
		# instead of waiting for the break.
		dd if=/dev/null of=/srv/$share/race bs=512 seek=\$RANDOM 2>/dev/null
		/usr/bin/fallocate -p -o \$((RANDOM * 256)) -l \$((RANDOM * 4 + 1)) /srv/$share/race 2>/dev/null || true
		dd if=/tmp/orig.$share of=/srv/$share/race bs=1M conv=notrunc 2>/dev/null
		/usr/bin/fallocate -p -o \$((RANDOM * 512)) -l 1048576 /srv/$share/race 2>/dev/null || true
		# Churn: other files take and free pages of the same cache.
		head -c 2097152 /dev/urandom > /srv/$share/churn
		rm -f /srv/$share/churn
	done
) &
w=\$!
reads=0 bad=0
while [ \$(now) -lt \$end ]; do
	for bs in 1048576 100003; do
		k=\$((RANDOM % (16777216 / bs)))
		dd if=/mnt/$share/race of=/tmp/got bs=\$bs skip=\$k count=1 2>/dev/null || true
		dd if=/tmp/orig.$share of=/tmp/want bs=\$bs skip=\$k count=1 2>/dev/null
		reads=\$((reads + 1))
		ok=1
		[ \$(stat -c %s /tmp/got) -le \$(stat -c %s /tmp/want) ] || ok=0
		cmp -l /tmp/got /tmp/want 2>/dev/null |
			awk '\$2 != 0 { bad = 1 } END { exit bad }' || ok=0
		if [ \$ok = 0 ]; then
			bad=\$((bad + 1))
			echo \"READ of \$bs at block \$k: foreign bytes\"
			cmp -l /tmp/got /tmp/want 2>/dev/null | awk '\$2 != 0' | head -n 5
		fi
	done
done
wait \$w
echo \"\$reads READs, \$bad with foreign bytes\"
test \$reads -gt 0 && test \$bad = 0"
}

# A file read whole again and again while the page cache is dropped in a
# loop: md5-exact every time.  Share $2, $1 seconds.
rd_race_evict() {
	local secs=$1 share=$2
	t_guest_check "race ($share, ${secs} s): READs while drop_caches runs in a loop, md5-exact every time" "
set -e
. /tmp/rd.sh
head -c 12582917 /dev/urandom > /srv/$share/evict
want=\$(lmd5 /srv/$share/evict)
end=\$((\$(now) + $secs))
( while [ \$(now) -lt \$end ]; do echo 3 > /proc/sys/vm/drop_caches; sleep 0.2; done ) &
d=\$!
n=0 bad=0
while [ \$(now) -lt \$end ]; do
	got=\$(rmd5 /mnt/$share/evict)
	n=\$((n + 1))
	[ \"\$got\" = \"\$want\" ] || { bad=\$((bad + 1)); echo \"pass \$n: md5 \$got\"; }
done
wait \$d
echo \"\$n whole reads, \$bad wrong\"
test \$n -gt 0 && test \$bad = 0"
}

# A client on the host sends READs of 1 MiB and never reads the answers
# (read.py stall) for $1 seconds; meanwhile the guest reads on through
# share e, md5-exact; the server drops the stalled connection, and the
# module holds no page references afterwards.
rd_race_stall() {
	local secs=$1 out
	out=$(mktemp)
	STALL_SECONDS=$secs $RD_PY "$RD_CHECKS" "$T_SMB_PORT" t stall demo demo \
		> "$out" 2>&1 &
	local py=$!
	sleep 3
	t_guest_check "stall (${secs} s): others read on, md5-exact, while a client stops reading" "
set -e
. /tmp/rd.sh
want=\$(lmd5 /srv/e/evict)
end=\$((\$(now) + $secs))
n=0
while [ \$(now) -lt \$end ]; do
	test \"\$(rmd5 /mnt/e/evict)\" = \"\$want\"
	n=\$((n + 1))
done
echo \"\$n whole reads\""
	wait $py
	t_checks cat "$out"
	rm -f "$out"
	t_guest_check "stall: the stalled connection is gone, no page references are held" "
. /tmp/rd.sh
for i in \$(seq 1 100); do
	c=\$(smbsrvctl connections | grep -c 10.0.2.2)
	[ \$c = 0 ] && [ \"\$(rs pages)\" = 0 ] && exit 0
	sleep 0.2
done
smbsrvctl connections; rs pages; exit 1"
}

rd_unload() {
	t_guest_check "no page references held, then umount, smbsrvd stopped, rmmod smbsrv" "
set -e
. /tmp/rd.sh
test \"\$(rs pages)\" = 0
umount /mnt/t /mnt/e 2>/dev/null || true
kill \$(pidof smbsrvd)
for i in \$(seq 1 50); do pidof smbsrvd >/dev/null || break; sleep 0.1; done
rmmod smbsrv
! grep -q '^smbsrv ' /proc/modules"
	t_dmesg_clean
}
