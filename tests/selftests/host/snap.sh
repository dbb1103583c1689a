#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Previous versions (vfs objects = shadow_copy2), one VM boot with Samba.
# Two layouts: btrfs (a file system per server in a loop file, the share
# its top, read-only snapshots `btrfs subvolume snapshot -r` into
# .snapshots/@GMT-..., found from the mount point as Samba finds them) and
# a plain snapshot directory beside a tmpfs share (cp -a copies named by
# shadow:format "snap-%Y%m%d-%H%M%S", with links and decoys among them).
# After the first snapshot file.txt changes and deleted.txt goes, after
# the second file.txt changes again.  snap.py (impacket, raw PDUs): the
# FSCTL_SRV_ENUMERATE_SNAPSHOTS two-call protocol names exactly the
# snapshots on disk; TWrp and @GMT paths read the old data; crafted
# tokens, "..", links out of the snapshot directory or the snapshot are
# refused; nothing in a snapshot is written.  smbclient: allinfo lists the
# snapshots, `get @GMT-...\file` reads the old file.  The kernel's cifs
# client mounted with snapshot=: the old tree, read-only.  smbtorture
# smb2.twrp on smbsrv and on Samba's smbd with shadow_copy2 on the same
# layout: the table goes to build/test-logs/torture-snap.txt.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/torture.bash"

py=/usr/bin/python3
checks="$(dirname "$0")/snap.py"
OLD=@GMT-2024.01.02-03.04.05
MID=@GMT-2024.06.01-12.00.00
NONE=@GMT-2001.01.01-00.00.00
# FILETIME of OLD, for the cifs client's snapshot= option.
OLD_FT=$(( (1704164645 + 11644473600) * 10000000 ))

export SMBSRV_VM_SAMBA=1
TT_SMBSRV_ONLY=1
TT_SAMBA=1
TT_SHARE_CONF="vfs objects = shadow_copy2 streams_xattr"
TT_OPTIONS="--option=torture:twrp_file=twrp.txt
	--option=torture:twrp_snapshot=$OLD --option=torture:twrp_stream=s
	--option=torture:twrp_stream_size=11"
TT_SMBSRV_SHARE_CONF="
[plain]
	path = /srv/plain
	read only = no
	vfs objects = shadow_copy2
	shadow:snapdir = /srv/plain-snaps
	shadow:basedir = /srv/plain
	shadow:format = snap-%Y%m%d-%H%M%S
	shadow:sort = asc
[nosnap]
	path = /srv/plain
	read only = no
[local]
	path = /srv/local
	vfs objects = shadow_copy2
	shadow:snapdir = /srv/local-snaps
	shadow:basedir = /srv/local
	shadow:format = snap-%Y%m%d-%H%M%S
	shadow:sort = asc
	shadow:localtime = yes"
# shadow:localtime: smbsrvd in central European time (a POSIX TZ rule:
# the guest has no zone files), +1 in winter, +2 in summer.
TT_SMBSRVD_ENV="TZ=CET-1CEST,M3.5.0,M10.5.0/3"

t_vm_start
t_guest_check "btrfs file systems for smbsrv's and Samba's shares" '
set -e
modprobe btrfs
for d in tt-smbsrv tt-samba; do
	truncate -s 320M /tmp/$d.img
	mkfs.btrfs -q /tmp/$d.img
	mkdir -p /srv/$d
	mount -o loop /tmp/$d.img /srv/$d
done'
tt_servers_up

# The tree every layout starts from, as user demo.
populate='
mkdir -p sub subdir .snapshots
echo v1 > file.txt
echo inner1 > sub/inner.txt
echo gone > deleted.txt
echo twrp > twrp.txt
echo h > subdir/hardlink
chown -R demo:demo .'
t_guest_check "files on both btrfs shares and the plain one" "
set -e
for d in /srv/tt-smbsrv /srv/tt-samba; do (cd \$d && $populate); done
mkdir -p /srv/plain && (cd /srv/plain && $populate && rmdir .snapshots)
echo secret > /srv/secret.txt"
up=$(mktemp)
printf 'twrp stream' > "$up"
for port in "$T_SMB_PORT" "$(vm_port "$T_VM" samba)"; do
	t_check "a stream twrp.txt:s on port $port (smbclient)" \
		smbclient //127.0.0.1/torture -p "$port" -U demo%demo \
		-c "put $up twrp.txt:s"
done
rm -f "$up"

t_guest_check "two snapshots, the tree changed after each" "
set -e
for d in /srv/tt-smbsrv /srv/tt-samba; do
	btrfs subvolume snapshot -r \$d \$d/.snapshots/$OLD >/dev/null
	echo v2 > \$d/file.txt
	rm \$d/deleted.txt
	echo inner2 > \$d/sub/inner.txt
	btrfs subvolume snapshot -r \$d \$d/.snapshots/$MID >/dev/null
	echo v3 > \$d/file.txt
done
mkdir /srv/plain-snaps
cp -a /srv/plain /srv/plain-snaps/snap-20240102-030405
ln -s /etc/passwd /srv/plain-snaps/snap-20240102-030405/escape
echo v2 > /srv/plain/file.txt
rm /srv/plain/deleted.txt
echo inner2 > /srv/plain/sub/inner.txt
cp -a /srv/plain /srv/plain-snaps/snap-20240601-120000
echo v3 > /srv/plain/file.txt
# Not snapshots: a name of no time, links out of the directory.
mkdir /srv/plain-snaps/not-a-snapshot /srv/plain-snaps/snap-2024
ln -s /etc /srv/plain-snaps/snap-20240301-000000
ln -s ../plain /srv/plain-snaps/snap-20240401-000000
# A link that stays inside is one (snapper's layout).
ln -s snap-20240601-120000 /srv/plain-snaps/snap-20240801-000000
touch /srv/plain-snaps/snap-20240901-000000"

t_checks timeout 300 "$py" "$checks" "$T_SMB_PORT" torture demo demo \
	list "$MID" "$OLD"
t_checks timeout 300 "$py" "$checks" "$T_SMB_PORT" plain demo demo \
	list "$OLD" "$MID" @GMT-2024.08.01-00.00.00
t_checks timeout 600 "$py" "$checks" "$T_SMB_PORT" torture demo demo \
	versions "$OLD" "$MID" "$NONE"
t_guest_check "the btrfs snapshot list is what is on disk" "
[ \"\$(ls /srv/tt-smbsrv/.snapshots | tr '\n' ' ')\" = '$OLD $MID ' ]"
t_guest_check "a link out of the plain snapshot to read from" '
ln -s /srv/secret.txt /srv/plain-snaps/snap-20240601-120000/escape'
t_checks timeout 600 "$py" "$checks" "$T_SMB_PORT" plain demo demo \
	versions "$OLD" "$MID" "$NONE"
t_guest_check "nothing in the snapshots changed, nothing was added" "
set -e
[ \"\$(cat /srv/plain-snaps/snap-20240102-030405/file.txt)\" = v1 ]
[ \"\$(cat /srv/tt-smbsrv/.snapshots/$OLD/file.txt)\" = v1 ]
for d in /srv/plain-snaps/snap-20240102-030405 /srv/tt-smbsrv/.snapshots/$OLD
do
	[ -z \"\$(find \$d -name 'new*' -o -name 'renamed*' -o -name 'linked*')\" ]
done
[ \"\$(cat /srv/secret.txt)\" = secret ]"
out=$(timeout 300 "$py" "$checks" "$T_SMB_PORT" nosnap demo demo list 2>&1)
t_check_output "a share without shadow_copy2 has no snapshots to list" \
	"FAIL ENUMERATE_SNAPSHOTS with room for the counts: got INVALID_DEVICE_REQUEST" \
	echo "$out"

# shadow:localtime: snapshots named in local time list as the UTC times
# they were taken; the hour the clocks skip names none.
t_guest_check "snapshots of /srv/local named in local time" "
set -e
mkdir -p /srv/local /srv/local-snaps/snap-20240115-120000 \
	/srv/local-snaps/snap-20240715-120000 \
	/srv/local-snaps/snap-20240331-023000
echo live > /srv/local/file.txt
echo winter > /srv/local-snaps/snap-20240115-120000/file.txt
echo summer > /srv/local-snaps/snap-20240715-120000/file.txt
chown -R demo:demo /srv/local /srv/local-snaps"
t_checks timeout 300 "$py" "$checks" "$T_SMB_PORT" local demo demo \
	list @GMT-2024.01.15-11.00.00 @GMT-2024.07.15-10.00.00
got=$(mktemp)
for tok in @GMT-2024.01.15-11.00.00:winter @GMT-2024.07.15-10.00.00:summer; do
	rm -f "$got"
	smbclient //127.0.0.1/local -p "$T_SMB_PORT" -U demo%demo \
		-c "get ${tok%%:*}\\file.txt $got" >/dev/null 2>&1
	t_check "smbclient gets ${tok%%:*}\\file.txt (${tok#*:}) from local" \
		grep -qx "${tok#*:}" "$got"
done
rm -f "$got"
out=$(smbclient //127.0.0.1/local -p "$T_SMB_PORT" -U demo%demo \
	-c 'get @GMT-2024.07.15-12.00.00\file.txt /dev/null' 2>&1)
t_check_output "the local time's own name as a token is no snapshot" \
	NT_STATUS_OBJECT_NAME_NOT_FOUND echo "$out"

# smbclient: allinfo's snapshot list, and get through a token.
out=$(smbclient //127.0.0.1/torture -p "$T_SMB_PORT" -U demo%demo \
	-c 'allinfo file.txt' 2>&1)
printf '%s\n' "$out" | sed 's/^/# /'
t_check_output "smbclient allinfo lists $MID" "$MID" echo "$out"
t_check_output "smbclient allinfo lists $OLD" "$OLD" echo "$out"
got=$(mktemp)
for share in torture plain; do
	rm -f "$got"
	smbclient "//127.0.0.1/$share" -p "$T_SMB_PORT" -U demo%demo \
		-c "get $OLD\\deleted.txt $got" >/dev/null 2>&1
	t_check "smbclient gets $OLD\\deleted.txt from $share" \
		grep -qx gone "$got"
	rm -f "$got"
	smbclient "//127.0.0.1/$share" -p "$T_SMB_PORT" -U demo%demo \
		-c "get $MID\\file.txt $got" >/dev/null 2>&1
	t_check "smbclient gets $MID\\file.txt (v2) from $share" \
		grep -qx v2 "$got"
done
rm -f "$got"
t_check_fail "smbclient cannot put into a snapshot" \
	smbclient //127.0.0.1/torture -p "$T_SMB_PORT" -U demo%demo \
	-c "put /etc/hostname $OLD\\put.txt"

# The kernel's cifs client: snapshot= mounts the old tree.
for share in torture plain; do
	t_guest_check "cifs snapshot=$OLD_FT mount of $share: the old tree" "
set -e
mkdir -p /mnt/snap
mount -t cifs //127.0.0.1/$share /mnt/snap \
	-o username=demo,password=demo,snapshot=$OLD_FT,cache=none
trap 'umount /mnt/snap' EXIT
[ \"\$(cat /mnt/snap/file.txt)\" = v1 ]
[ \"\$(cat /mnt/snap/deleted.txt)\" = gone ]
[ \"\$(cat /mnt/snap/sub/inner.txt)\" = inner1 ]
ls /mnt/snap | grep -qx deleted.txt
! echo changed > /mnt/snap/file.txt 2>/dev/null
! touch /mnt/snap/new.txt 2>/dev/null
! rm /mnt/snap/deleted.txt 2>/dev/null
[ \"\$(cat /mnt/snap/file.txt)\" = v1 ]"
done
t_guest_check "a snapshot= time without a snapshot: nothing to mount" "
! mount -t cifs //127.0.0.1/torture /mnt/snap \
	-o username=demo,password=demo,snapshot=$(( (978307200 + 11644473600) * 10000000 )) 2>/dev/null ||
{ ls /mnt/snap; umount /mnt/snap; false; }"

# smbtorture smb2.twrp, smbsrv and Samba on the same btrfs layout.
tt_run smb2.twrp
tt_must_pass smb2.twrp.write smb2.twrp.stream smb2.twrp.openroot \
	smb2.twrp.listdir
tt_not_behind samba smb2.twrp
tt_table
out=$(timeout 600 "$py" "$checks" "$(vm_port "$T_VM" samba)" torture \
	demo demo versions "$OLD" "$MID" "$NONE" 2>&1)
mkdir -p "$T_TOP/build/test-logs"
printf '%s\n' "$out" > "$T_TOP/build/test-logs/snap-samba.txt"
t_diag "snap.py versions against Samba: $(grep -c '^PASS' <<< "$out") pass, $(grep -c '^FAIL' <<< "$out") differ (build/test-logs/snap-samba.txt)"
grep '^FAIL' <<< "$out" | sed 's/^/# samba: /'
t_dmesg_clean
t_done
