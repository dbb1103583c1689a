#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark guest, step 1: three servers side by side, each on its own
# tmpfs, each mounted by the guest's kernel client over loopback with
# client caching bypassed:
#
#   smbsrv  /srv/b-smbsrv  port 445   -> /mnt/smbsrv  (cifs, cache=none)
#   ksmbd   /srv/b-ksmbd   port 1445  -> /mnt/ksmbd   (cifs, cache=none)
#   nfsd    /srv/b-nfsd    NFSv4.2    -> /mnt/nfsd    (nfs4, vers=4.2)
#
# and smbsrv and ksmbd once more through a signed session (cifs `sign`:
# /mnt/smbsrv-sign, /mnt/ksmbd-sign, the same shares) and through a
# sealed one (cifs `seal`: /mnt/smbsrv-seal, /mnt/ksmbd-seal),
#
# and, for the lease cell (reread.sh), each of smbsrv and ksmbd once more
# with the cifs client's default cache=strict, through a share of its own
# (so that the client's statistics tell the mounts apart) on the same
# tmpfs, on a connection of its own (nosharesock):
#
#   smbsrv  smbsrv-lease    -> /mnt/smbsrv-lease    (cifs, cache=strict)
#   ksmbd   ksmbd-lease     -> /mnt/ksmbd-lease     (cifs, cache=strict)
#   smbsrv  smbsrv-nolease  -> /mnt/smbsrv-nolease  (the same, oplocks = no)
#
# and smbsrv once more through a share with the audit trail on (every
# operation it records, successes and failures; records to syslog, whose
# socket the guest has none of, so smbsrvd counts them as it would send
# them), cache=none on a connection of its own:
#
#   smbsrv  smbsrv-audit    -> /mnt/smbsrv-audit    (vfs objects = full_audit)
#
# and, for the connection cells (section conns), /mnt/S-x2 .. /mnt/S-x4
# for S in smbsrv, ksmbd, smbsrv-seal and ksmbd-seal: the same share on
# connections of their own (nosharesock), and /mnt/smbsrv-mc and
# /mnt/ksmbd-mc: one mount with multichannel, max_channels=2 (the second
# channel to the guest's 10.0.2.15, from the server's interface list).
#
# Both servers run with `smb2 leases = yes` (ksmbd's default is no) and
# with multichannel on (a mount without `multichannel` uses one channel);
# over the cache=none mounts a lease changes nothing (the client caches
# nothing there).
#
# and the same test file on each (read.bin, FILE_MB MiB, written with fio
# verify headers every 4 KiB, so every READ checks where its data came
# from), plus write.bin (64 MiB) for the WRITE runs to overwrite.
# VERIFY is fio's verify type for READs: meta (the default: each 4 KiB
# carries its offset and a checksum of that header; costs the client next
# to nothing) or crc32c (a checksum of every byte; costs the client about
# a tenth of a 1 MiB READ's instructions under the benchmark clock).
# Usage: setup.sh FILE_MB [VERIFY]
set -eu
mb=${1:-128}
verify=${2:-meta}
echo "$verify" > /tmp/bench.verify
users=username=demo,password=demopass,uid=1000,gid=1000
cifs=$users,cache=none,vers=3.1.1

# The CPU's AES, GHASH and SHA-256 instructions, as udev loads them on a
# real machine (this guest has no udev): without them signing and
# encryption, of the clients and of both SMB servers, run aes-generic.
modprobe -a aesni_intel ghash_clmulni_intel sha256_ssse3 2>/dev/null || true
grep -E '^(name|driver) .*(aes|cmac|ghash)' /proc/crypto | paste - - | head -n 8 || true

for s in smbsrv ksmbd nfsd; do
	mkdir -p /srv/b-$s /mnt/$s
	mount -t tmpfs -o size=$((mb * 2 + 128))m tmpfs /srv/b-$s
	chown demo:demo /srv/b-$s
done

# smbsrv
cat > /etc/smbsrv/bench.conf <<EOC
[global]
	tcp port = 445
	smb2 leases = yes
	server multi channel support = yes
[bench]
	path = /srv/b-smbsrv
	read only = no
[smbsrv-lease]
	path = /srv/b-smbsrv
	read only = no
[smbsrv-nolease]
	path = /srv/b-smbsrv
	read only = no
	oplocks = no
[smbsrv-audit]
	path = /srv/b-smbsrv
	read only = no
	vfs objects = full_audit
	full_audit:success = connect disconnect create_file pwrite renameat unlinkat fset_nt_acl
	full_audit:failure = all
EOC
echo demopass | smbsrvctl user add demo >/dev/null
modprobe smbsrv
smbsrvd -c /etc/smbsrv/bench.conf

# ksmbd
mkdir -p /etc/ksmbd
cat > /etc/ksmbd/ksmbd.conf <<EOC
[global]
	tcp port = 1445
	smb2 leases = yes
	server multi channel support = yes
[bench]
	path = /srv/b-ksmbd
	read only = no
[ksmbd-lease]
	path = /srv/b-ksmbd
	read only = no
EOC
ksmbd.adduser -a demo -p demopass >/dev/null 2>&1 || true
modprobe ksmbd
ksmbd.mountd

# Samba's smbd on port 2445 where the guest has it (bench.sh boots the
# image with Samba for the meta section); its defaults: leases on.
if command -v smbd >/dev/null; then
	mkdir -p /srv/b-samba /etc/samba /run/samba /var/lib/samba/private \
		/var/cache/samba /var/log/samba
	mount -t tmpfs -o size=$((mb * 2 + 128))m tmpfs /srv/b-samba
	chown demo:demo /srv/b-samba
	cat > /etc/samba/smb.conf <<EOC
[global]
	smb ports = 2445
	disable netbios = yes
	load printers = no
	printcap name = /dev/null
	disable spoolss = yes
	log file = /var/log/samba/log.%m
[bench]
	path = /srv/b-samba
	read only = no
EOC
	printf 'demopass\ndemopass\n' | pdbedit -s /etc/samba/smb.conf -a -t -u demo >/dev/null
	smbd -D -s /etc/samba/smb.conf
	i=0
	until ss -Hltn 'sport = :2445' | grep -q .; do
		[ $i -lt 100 ] || { echo 'setup: smbd does not listen' >&2; cat /var/log/samba/* >&2; exit 1; }
		sleep 0.2
		i=$((i + 1))
	done
fi

# nfsd, NFSv4.2 only, no rpcbind; the shortest grace period it allows.
modprobe nfsd
mount -t nfsd nfsd /proc/fs/nfsd
mkdir -p /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery
: > /var/lib/nfs/etab
: > /var/lib/nfs/rmtab
echo '/srv/b-nfsd 127.0.0.1(rw,no_root_squash,insecure,no_subtree_check,fsid=1)' \
	> /etc/exports
echo 10 > /proc/fs/nfsd/nfsv4leasetime
echo 10 > /proc/fs/nfsd/nfsv4gracetime
# 1 MiB READs as one RPC, like SMB's (nfsd picks 256K for 2 GiB of RAM).
echo 1048576 > /proc/fs/nfsd/max_block_size
exportfs -ra
rpc.mountd -N 2 -N 3 -u
rpc.nfsd -N 3 -U 8
sleep 1

mount -t cifs //127.0.0.1/bench /mnt/smbsrv -o "$cifs"
mount -t cifs //127.0.0.1/bench /mnt/ksmbd -o "$cifs,port=1445"
mkdir -p /mnt/smbsrv-sign /mnt/ksmbd-sign
mount -t cifs //127.0.0.1/bench /mnt/smbsrv-sign -o "$cifs,sign"
mount -t cifs //127.0.0.1/bench /mnt/ksmbd-sign -o "$cifs,sign,port=1445"
mkdir -p /mnt/smbsrv-seal /mnt/ksmbd-seal
mount -t cifs //127.0.0.1/bench /mnt/smbsrv-seal -o "$cifs,seal"
mount -t cifs //127.0.0.1/bench /mnt/ksmbd-seal -o "$cifs,seal,port=1445"
mkdir -p /mnt/smbsrv-lease /mnt/ksmbd-lease /mnt/smbsrv-nolease
strict=$users,cache=strict,vers=3.1.1,nosharesock
mount -t cifs //127.0.0.1/smbsrv-lease /mnt/smbsrv-lease -o "$strict"
mount -t cifs //127.0.0.1/ksmbd-lease /mnt/ksmbd-lease -o "$strict,port=1445"
mount -t cifs //127.0.0.1/smbsrv-nolease /mnt/smbsrv-nolease -o "$strict"
mkdir -p /mnt/smbsrv-audit
mount -t cifs //127.0.0.1/smbsrv-audit /mnt/smbsrv-audit -o "$cifs,nosharesock"
for k in 2 3 4; do
	for s in smbsrv smbsrv-seal ksmbd ksmbd-seal; do mkdir -p /mnt/$s-x$k; done
	mount -t cifs //127.0.0.1/bench /mnt/smbsrv-x$k -o "$cifs,nosharesock"
	mount -t cifs //127.0.0.1/bench /mnt/ksmbd-x$k -o "$cifs,nosharesock,port=1445"
	mount -t cifs //127.0.0.1/bench /mnt/smbsrv-seal-x$k -o "$cifs,seal,nosharesock"
	mount -t cifs //127.0.0.1/bench /mnt/ksmbd-seal-x$k -o "$cifs,seal,nosharesock,port=1445"
done
mkdir -p /mnt/smbsrv-mc /mnt/ksmbd-mc
mount -t cifs //127.0.0.1/bench /mnt/smbsrv-mc -o "$cifs,nosharesock,multichannel,max_channels=2"
mount -t cifs //127.0.0.1/bench /mnt/ksmbd-mc -o "$cifs,nosharesock,multichannel,max_channels=2,port=1445"
# run.sh checks a WRITE's file on the server under /srv/b-SERVER.
ln -sfn /srv/b-smbsrv /srv/b-smbsrv-audit
ln -sfn /srv/b-smbsrv /srv/b-smbsrv-sign
ln -sfn /srv/b-ksmbd /srv/b-ksmbd-sign
ln -sfn /srv/b-smbsrv /srv/b-smbsrv-seal
ln -sfn /srv/b-ksmbd /srv/b-ksmbd-seal
# The NFSv4 grace period refuses OPENs for its first seconds; the client
# retries by itself.
mount -t nfs4 -o vers=4.2,proto=tcp,rsize=1048576,wsize=1048576 \
	127.0.0.1:/srv/b-nfsd /mnt/nfsd
grep -q ' /mnt/nfsd nfs4 .*rsize=1048576' /proc/mounts ||
	{ echo "setup: nfs mount without 1 MiB rsize" >&2; exit 1; }

# The test file, with a fio meta header (its own offset, a checksum of the
# header) in every 4 KiB.
fio --name=mk --filename=/srv/b-smbsrv/read.bin --rw=write --bs=1M \
	--size=${mb}M --ioengine=psync --verify="$verify" --verify_interval=4096 \
	--do_verify=0 >/dev/null
chown demo:demo /srv/b-smbsrv/read.bin
/usr/bin/cp -p /srv/b-smbsrv/read.bin /srv/b-ksmbd/read.bin
/usr/bin/cp -p /srv/b-smbsrv/read.bin /srv/b-nfsd/read.bin
/usr/bin/cp -p /srv/b-smbsrv/read.bin /srv/b-smbsrv/lease.bin
/usr/bin/cp -p /srv/b-smbsrv/read.bin /srv/b-ksmbd/lease.bin
# fio (3.33) with verify and an async engine reads its files once, even
# time-based: READ runs go through 64 hard links of the file instead.
for s in smbsrv ksmbd nfsd; do
	for i in $(seq -w 0 63); do
		ln /srv/b-$s/read.bin /srv/b-$s/r$i.bin
	done
done
for s in smbsrv ksmbd nfsd; do
	fio --name=mkw --filename=/srv/b-$s/write.bin --rw=write --bs=1M \
		--size=64M --ioengine=psync --verify=meta --verify_interval=4096 \
		--verify_pattern=0x5aa5c33c --do_verify=0 >/dev/null
	chown demo:demo /srv/b-$s/write.bin
done
# bench.sh compares every mount's view with this at the end.
md5sum /srv/b-smbsrv/read.bin | cut -d' ' -f1 > /tmp/read.md5
# Which sessions sign (the cifs client's own view), for setup.log.
grep -iE 'signing|sign' /proc/fs/cifs/DebugData || true
echo "setup: ok"
