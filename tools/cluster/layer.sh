#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The cluster layer of the test VM: build/vm/cluster.cpio holds what only
# a cluster-mode guest needs, so that every other guest boots the image
# it boots today: librados and its shared libraries (smbsrvd loads
# librados.so.2 only when clustering = yes) and the CephFS kernel client
# (ceph.ko, libceph.ko, decompressed, under /usr/lib/smbsrv-cluster/,
# loaded by insmod after their dependencies netfs and libcrc32c, which
# the base image has).  Then build/vm/initrd-cluster.cpio: base, this
# layer, overlay (tools/vm/mkinitramfs.sh), which SMBSRV_VM_INITRD boots.
#
# Usage: tools/cluster/layer.sh     (prints the image's path)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/vm
KVER=$(cat "$top/.kver")
moddir=/lib/modules/$KVER
rados=/usr/lib/x86_64-linux-gnu/librados.so.2

"$top/tools/vm/mkinitramfs.sh" >/dev/null
[ -e "$rados" ] || { echo "layer: $rados missing: run 'make deps-cluster'" >&2; exit 1; }

libs=$( { readlink -f "$rados"; echo "$rados"; ldd "$rados" | awk '
	/=> \// { print $3 }
	/^\t\/[^ ]+ \(/ { print $1 }'; } | sort -u)
kos=(kernel/net/ceph/libceph.ko.xz kernel/fs/ceph/ceph.ko.xz)
key=$( {
	echo "$KVER"
	sha256sum "$0" | cut -d' ' -f1
	for f in $libs; do stat -L -c '%n %s %Y' "$f"; done
} | sha256sum | cut -d' ' -f1)

if [ ! -f "$out/cluster.cpio" ] || [ "$(cat "$out/cluster.key" 2>/dev/null)" != "$key" ]; then
	root=$(mktemp -d)
	trap 'rm -rf "$root"' EXIT
	for f in $libs; do
		case $f in
		/lib/* | /lib64/*) g=/usr$f ;;
		*) g=$f ;;
		esac
		mkdir -p "$root$(dirname "$g")"
		cp -L "$f" "$root$g"
	done
	mkdir -p "$root/usr/lib/smbsrv-cluster" "$root/etc/ceph"
	for m in "${kos[@]}"; do
		xz -dc "$moddir/$m" > "$root/usr/lib/smbsrv-cluster/$(basename "$m" .xz)"
	done
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0) > "$out/cluster.cpio.tmp"
	mv "$out/cluster.cpio.tmp" "$out/cluster.cpio"
	echo "$key" > "$out/cluster.key"
fi
cat "$out/base.cpio" "$out/cluster.cpio" "$out/overlay.cpio" > "$out/initrd-cluster.cpio.tmp"
mv "$out/initrd-cluster.cpio.tmp" "$out/initrd-cluster.cpio"
echo "$out/initrd-cluster.cpio"
