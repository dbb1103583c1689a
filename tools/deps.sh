#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install, idempotently, everything smbsrv's build and tests need from
# Debian's archive, pin the guest kernel version in .kver and extract the
# kernel's own developer scripts (checkpatch, ynl-gen) from linux-source.
#
# Usage: tools/deps.sh [--quiet] [--cluster] [--fstests]
#
# --cluster also installs the Ceph test bed of cluster mode (pkgs_cluster:
# tools/cluster/ceph-up.sh, tools/cluster/probe.py); --fstests what
# building fstests and running it in the test VM takes (pkgs_fstests:
# tools/fstests/run.sh); make deps does neither, so CI installs no more
# than before.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
quiet=""
cluster=""
fstests=""
for arg in "$@"; do
	case $arg in
	--quiet) quiet=--quiet ;;
	--cluster) cluster=1 ;;
	--fstests) fstests=1 ;;
	*) echo "usage: $0 [--quiet] [--cluster] [--fstests]" >&2; exit 2 ;;
	esac
done

say() { [ "$quiet" = --quiet ] || echo "deps: $*"; }

# Build tools and libraries (flex to libelf-dev: the debug kernel,
# tools/debug-kernel.sh; librados-dev: the header of the librados that
# smbsrvd loads at run time in cluster mode).
pkgs_build=(
	build-essential cmake pkg-config kmod xz-utils zstd cpio
	libnl-3-dev libnl-genl-3-dev libmnl-dev libssl-dev nettle-dev catch2 libkrb5-dev libtdb-dev
	python3 python3-yaml python3-jsonschema sparse
	clang-14 libfuzzer-14-dev libclang-rt-14-dev
	flex bison bc libelf-dev
	nlohmann-json3-dev tzdata
	librados-dev
)
# The guest kernel, its headers and its source (for checkpatch and ynl-gen).
pkgs_kernel=(
	linux-image-6.12-cloud-amd64 linux-headers-6.12-cloud-amd64
	linux-source-6.12
)
# The VM and the peers tests and benchmarks drive.
pkgs_vm=(
	qemu-system-x86 busybox-static iproute2
	cifs-utils smbclient samba-testsuite python3-samba samba-vfs-modules
	fio python3-impacket dbench attr btrfs-progs
	nfs-kernel-server trace-cmd gnuplot-nox
	python3-matplotlib
	krb5-kdc krb5-admin-server krb5-user keyutils libnss-wrapper
	samba-ad-dc samba-ad-provision
	prometheus
)
# Cluster mode's test bed, only with --cluster: a one-host Ceph 16 cluster
# (monitor, OSD, MDS, the admin CLI), librados for the cluster guests, and the Python
# bindings the probe uses (83 packages, 57 MB to download, 225 MB
# installed on a Debian 12 that has the lists above).
pkgs_cluster=(
	ceph-mon ceph-osd ceph-mds ceph-common librados-dev
	python3-rados python3-cephfs
)
# fstests, only with --fstests: its build (the list of its README) and
# the GNU userland its scripts run in the test VM (tools/fstests/layer.sh
# packs these programs into the guest in place of busybox's).
pkgs_fstests=(
	autoconf automake libtool libtool-bin uuid-dev xfslibs-dev
	libacl1-dev libattr1-dev libaio-dev libcap-dev libgdbm-dev
	libgdbm-compat-dev liburing-dev
	acl attr bc gawk psmisc xfsprogs e2fsprogs uuid-runtime
	bsdextrautils file
)
all=("${pkgs_build[@]}" "${pkgs_kernel[@]}" "${pkgs_vm[@]}")
[ -z "$cluster" ] || all+=("${pkgs_cluster[@]}")
[ -z "$fstests" ] || all+=("${pkgs_fstests[@]}")

missing=()
for p in "${all[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps: need root to install: ${missing[*]}" >&2
		exit 1
	fi
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# No service a package brings may start on the host.
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
		chmod 755 /usr/sbin/policy-rc.d
		trap 'rm -f /usr/sbin/policy-rc.d' EXIT
	fi
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# unpack_deb PKG DIR PROBE: Debian's package PKG unpacked (not installed)
# into DIR, unless DIR/PROBE is there already.
unpack_deb() {
	local pkg=$1 dir=$2 probe=$3 d
	[ -e "$dir/$probe" ] && return 0
	say "unpacking $pkg into $dir"
	d=$(mktemp -d)
	chmod 755 "$d"
	if ! (cd "$d" && apt-get download -qq "$pkg" >/dev/null 2>&1); then
		apt-get update -qq
		(cd "$d" && apt-get download -qq "$pkg" >/dev/null 2>&1)
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	dpkg-deb -x "$d/${pkg}"_*.deb "$dir"
	rm -rf "$d"
}

# ksmbd-tools conflicts with Debian's samba package (installed on the
# host for the Samba AD DC of host/pac and make bench-logon, whose KDC
# runs in a network namespace) and only the test VM runs it: unpack it
# under .deps instead of installing it (tools/vm/mkinitramfs.sh takes it
# from there).
unpack_deb ksmbd-tools "$top/.deps/ksmbd-tools" usr/libexec/ksmbd.tools
# Samba's smbd, the third server of long/torture-ntfs.sh, runs in the
# test VM beside ksmbd: unpacked the same way (installing samba would
# remove ksmbd-tools; its libraries and VFS modules come with samba-libs
# and samba-vfs-modules, installed above).
unpack_deb samba "$top/.deps/samba" usr/sbin/smbd

# Pin the guest kernel: the version the metapackage points at, unless an
# earlier pin is still installed (module and guest must always match).
kver_installed() {
	[ -f "/boot/vmlinuz-$1" ] && [ -d "/usr/src/linux-headers-$1" ] &&
		[ -d "/lib/modules/$1/kernel" ]
}
pin=""
[ -f "$top/.kver" ] && pin=$(cat "$top/.kver")
if [ -z "$pin" ] || ! kver_installed "$pin"; then
	dep=$(dpkg-query -W -f='${Depends}' linux-image-6.12-cloud-amd64)
	pin=$(echo "$dep" | sed -n 's/^linux-image-\([^ ,]*cloud-amd64\).*/\1/p')
	pin=${pin%-unsigned}
	if [ -z "$pin" ] || ! kver_installed "$pin"; then
		echo "deps: cannot find the installed 6.12 cloud kernel ($dep)" >&2
		exit 1
	fi
	echo "$pin" > "$top/.kver"
	say "guest kernel pinned to $pin"
fi

# The kernel's developer scripts: checkpatch.pl and the YNL generator.
ksrc="$top/.deps/linux-source"
tarball=/usr/src/linux-source-6.12.tar.xz
stamp="$ksrc/.stamp"
want=$(stat -c '%s %Y' "$tarball")
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
	say "extracting scripts/ and tools/net/ynl/ from $tarball"
	rm -rf "$ksrc"
	mkdir -p "$ksrc"
	tar -xJf "$tarball" -C "$ksrc" --strip-components=1 \
		--wildcards 'linux-source-6.12/scripts/*' \
		'linux-source-6.12/tools/net/ynl/*' \
		'linux-source-6.12/Documentation/netlink/*.yaml'
	echo "$want" > "$stamp"
fi
say "ok (kernel $pin)"
