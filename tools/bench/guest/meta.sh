#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark guest, one metadata run (bench.sh section meta): the loops of
# smbsrv-metaload (tests/tools/metaload.c) over a fresh mount of one
# server, the kernel client's default caching (cifs cache=strict, NFS's
# close-to-open), a connection of its own:
#
#   create      mkdir a tree of TOP x SUB directories, create, write SIZE
#               bytes and close each of FILES files
#   stat-cold   unmount, mount again, readdir every directory and lstat
#               every entry
#   stat-warm   the same walk again at once
#   rename      every file to NAME.o in its directory
#   delete      unlink every file, rmdir every directory
#
# Between rename and delete every file is read back on the server's own
# tmpfs (/srv/b-SERVER) and compared byte for byte with what create wrote.
#
# SERVER: smbsrv (smb2 leases = yes), smbsrv-nolease (the same server
# after `smbsrvctl set smb2-leases no`, the default: no caching for SMB3
# clients; set back to yes afterwards), ksmbd (smb2 leases = yes), samba
# (where the guest has smbd: setup.sh), nfsd (NFSv4.2), local (the loops
# on the tmpfs itself, no client or server: the physical limit).
#
# Per phase: "@@phase NAME OPS NS REQUESTS" (REQUESTS: what the client
# sent, from /proc/fs/cifs/Stats for SMB, the RPC count of /proc/net/rpc/nfs
# for NFS, 0 for local), and for smbsrv the module's counters before and
# after (smbsrvctl stats).
#
#   meta.sh SERVER FILES TOP SUB SIZE
set -u
srv=$1 files=$2 top=$3 sub=$4 size=$5
users=username=demo,password=demopass,uid=1000,gid=1000
cifs=$users,vers=3.1.1,nosharesock
m=/mnt/meta-$srv
case $srv in
smbsrv | smbsrv-nolease) back=/srv/b-smbsrv port=445 ;;
ksmbd) back=/srv/b-ksmbd port=1445 ;;
samba) back=/srv/b-samba port=2445 ;;
nfsd) back=/srv/b-nfsd ;;
local) back=/srv/b-smbsrv ;;
*) echo "meta.sh: unknown server $srv" >&2; exit 2 ;;
esac
tree=meta-$srv

mnt() {
	case $srv in
	local) return 0 ;;
	nfsd) mount -t nfs4 -o vers=4.2,proto=tcp 127.0.0.1:/srv/b-nfsd "$m" ;;
	*) mount -t cifs "//127.0.0.1/bench" "$m" -o "$cifs,port=$port" ;;
	esac
}
umnt() { [ $srv = local ] || umount "$m"; }
dir() { if [ $srv = local ]; then echo "$back/$tree"; else echo "$m/$tree"; fi; }

reqs() {
	case $srv in
	local) echo 0 ;;
	nfsd) awk '$1 == "rpc" { print $2 }' /proc/net/rpc/nfs ;;
	*) awk '$1 == "SMBs:" { n += $2 } END { print n + 0 }' /proc/fs/cifs/Stats ;;
	esac
}
stats() { case $srv in smbsrv*) smbsrvctl stats 2>&1 ;; esac; }

# One phase: its line, and smbsrv's counters around it.
phase() {	# NAME METALOAD-ARGS...
	name=$1
	shift
	stats > /tmp/meta.st0
	r0=$(reqs)
	out=$(smbsrv-metaload "$@" 2>/tmp/meta.err) || {
		sed 's/^/@@err /' /tmp/meta.err
		rc=1
		return 1
	}
	r1=$(reqs)
	stats > /tmp/meta.st1
	set -- $out
	echo "@@phase $name $2 $3 $((r1 - r0))"
	echo "@@stats0 $name"
	cat /tmp/meta.st0
	echo "@@stats1 $name"
	cat /tmp/meta.st1
	echo "@@end-stats"
}

rc=0
if [ $srv = smbsrv-nolease ]; then
	smbsrvctl set smb2-leases no >/dev/null || exit 1
elif [ $srv = smbsrv ]; then
	smbsrvctl set smb2-leases yes >/dev/null || exit 1
fi
mkdir -p "$m"
rm -rf "${back:?}/$tree"
mnt || { echo "@@fio-rc 1"; echo "@@err mount of $srv failed"; exit 1; }
mkdir "$(dir)"
echo "@@stat0 $(head -n1 /proc/stat)"
# The cifs client's "SMBs:" lines count per mount since the last reset.
[ $srv = local ] || [ $srv = nfsd ] || echo 0 > /proc/fs/cifs/Stats
phase create create "$(dir)" "$files" "$top" "$sub" "$size" &&
	umnt && mnt &&
	phase stat-cold stat "$(dir)" &&
	phase stat-warm stat "$(dir)" &&
	phase rename rename "$(dir)" "$files" "$top" "$sub" || rc=1
vrc=1
if [ $rc = 0 ]; then
	vrc=0
	smbsrv-metaload check "$back/$tree" "$files" "$top" "$sub" "$size" old \
		> /dev/null 2>/tmp/meta.vfy || vrc=1
	[ $vrc = 0 ] || sed 's/^/@@err /' /tmp/meta.vfy
	phase delete delete "$(dir)" "$files" "$top" "$sub" || rc=1
	# What delete removed is gone on the server too.
	[ "$(ls -A "$back/$tree" 2>&1)" = "" ] ||
		{ vrc=1; echo "@@err $back/$tree not empty after delete"; }
fi
echo "@@fio-rc $rc"
echo "@@verify-rc $vrc"
echo "@@stat1 $(head -n1 /proc/stat)"
rmdir "$(dir)" 2>/dev/null
umnt
[ $srv = smbsrv-nolease ] && smbsrvctl set smb2-leases yes >/dev/null
echo "@@end"
exit $rc
