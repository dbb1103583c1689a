#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the test VM's initramfs from the host's own binaries:
#
#   build/vm/base.cpio     busybox, kmod, mount.cifs, fio, ksmbd-tools, GNU
#                          cp and fallocate (copy_file_range, hole punching),
#                          dbench (its load file comes with the test),
#                          nfs-utils' server and mount.nfs, trace-cmd,
#                          cifs.upcall and request-key (sec=krb5 mounts), the
#                          shared libraries of everything (ours included) and
#                          the guest kernel's modules tests need.  Rebuilt
#                          only when its inputs change.
#   build/vm/overlay.cpio  smbsrv.ko and the test modules beside it
#                          (kmod/test/: smbsrv_crypto_test.ko,
#                          smbsrv_upcall_probe.ko; only this image has
#                          them), smbsrvd, smbsrvctl, the guest init,
#                          agent, test and benchmark scripts.  Rebuilt
#                          every time.
#   build/vm/initrd.cpio   both, concatenated (the kernel unpacks them in
#                          order; later entries win).
#   build/vm/samba.cpio    with SMBSRV_VM_SAMBA=1 only: Samba's smbd and
#                          pdbedit (unpacked by tools/deps.sh), the VFS
#                          modules acl_xattr and streams_xattr, the
#                          libraries of these that base lacks and the
#                          gconv modules of Samba's default charsets
#                          (about 29 MB more); build/vm/initrd-samba.cpio
#                          is base, samba and overlay, which the VM boots
#                          with SMBSRV_VM_SAMBA=1 (tools/vm/lib.sh).
#
# For another kernel (tools/vm/lib.sh does it for the debug kernel):
# KVER its release, SMBSRV_MODDIR its modules (SMBSRV_MODS=tests: it has
# only those the tests use, see guest-modules.sh), SMBSRV_KO smbsrv.ko
# built against it (its test modules in test/ beside it), SMBSRV_VM_OUT
# the directory instead of build/vm.
#
# Uncompressed on purpose: under TCG decompression is emulated too.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${SMBSRV_VM_OUT:-$top/build/vm}
# One at a time: VM suites run two at a time (tests/run-all.sh) and each
# packs the current module here when its guest starts.
mkdir -p "$out"
exec 9> "$out/.mkinitramfs.lock"
flock 9
KVER=${KVER:-$(cat "$top/.kver" 2>/dev/null || true)}
[ -n "$KVER" ] || { echo "mkinitramfs: no .kver: run 'make deps'" >&2; exit 1; }
moddir=${SMBSRV_MODDIR:-/lib/modules/$KVER}

userbin="$top/build/user/userd"
ko=${SMBSRV_KO:-$top/kmod/smbsrv.ko}
# The test modules, built with it (kmod/test/).
test_kos=("$(dirname "$ko")/test/smbsrv_crypto_test.ko"
	"$(dirname "$ko")/test/smbsrv_upcall_probe.ko")
# Test helpers built next to the programs (tests/tools).
testbins=("$top/build/user/tests/tools/smbsrv-nlpeer"
	"$top/build/user/tests/tools/smbsrv-fsprobe"
	"$top/build/user/tests/tools/smbsrv-slowgss.so"
	"$top/build/user/tests/tools/smbsrv-metaload")
for f in "$ko" "${test_kos[@]}" "$userbin/smbsrvd" "$userbin/smbsrvctl" "${testbins[@]}"; do
	[ -f "$f" ] || { echo "mkinitramfs: $f missing: run 'make'" >&2; exit 1; }
done

mkdir -p "$out"

# ksmbd-tools, unpacked by tools/deps.sh (it conflicts with samba).
kt="$top/.deps/ksmbd-tools"
# Host programs the guest gets, by their path on the host.
host_bins=(
	/bin/busybox /usr/bin/kmod /sbin/mount.cifs /usr/bin/fio
	"$kt/usr/sbin/ksmbd.mountd" "$kt/usr/sbin/ksmbd.adduser"
	"$kt/usr/sbin/ksmbd.addshare" "$kt/usr/sbin/ksmbd.control"
	/usr/bin/setpriv /usr/bin/strace /usr/bin/perf
	/usr/bin/cp /usr/bin/fallocate /usr/bin/dbench
	/usr/bin/getfattr /usr/bin/setfattr /usr/bin/ss
	/usr/sbin/rpc.nfsd /usr/sbin/rpc.mountd /usr/sbin/exportfs /sbin/mount.nfs
	/usr/bin/trace-cmd
	/usr/bin/btrfs /usr/sbin/mkfs.btrfs
	/usr/sbin/cifs.upcall /sbin/request-key
)
host_bins_opt=(/usr/bin/strace /usr/bin/perf)
# Kernel modules (with their dependencies) and whole module directories.
# shellcheck source=tools/vm/guest-modules.sh
. "$top/tools/vm/guest-modules.sh"

# Map a host path to its place in the merged-/usr guest.
guest_path() {
	case "$1" in
	"$kt"/*) echo "${1#"$kt"}" ;;
	/bin/* | /sbin/* | /lib/* | /lib64/*) echo "/usr$1" ;;
	*) echo "$1" ;;
	esac
}

# The shared-library closure of some ELF files, one path per line.
lib_closure() {
	local f
	for f in "$@"; do
		ldd "$f" 2>/dev/null | awk '
			/=> \// { print $3 }
			/^\t\/[^ ]+ \(/ { print $1 }'
	done | sort -u
}

bins=()
for b in "${host_bins[@]}"; do
	if [ -x "$b" ]; then
		bins+=("$b")
	elif ! printf '%s\n' "${host_bins_opt[@]}" | grep -qx "$b"; then
		echo "mkinitramfs: $b missing: run 'make deps'" >&2
		exit 1
	fi
done
libs=$(lib_closure "${bins[@]}" "$userbin/smbsrvd" "$userbin/smbsrvctl" "${testbins[@]}")

mods=$(guest_mod_closure "$moddir" "${SMBSRV_MODS:-}" | sort -u)

# pack_cpio DIR OUT: DIR's tree as an uncompressed cpio archive, owned by
# root.
pack_cpio() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0) > "$2.tmp"
	mv "$2.tmp" "$2"
}

# --- base.cpio ---------------------------------------------------------
key=$( {
	echo "$KVER"
	sha256sum "$0" | cut -d' ' -f1
	for f in "${bins[@]}" $libs; do stat -L -c '%n %s %Y' "$f"; done
	echo "$mods"
} | sha256sum | cut -d' ' -f1)

if [ ! -f "$out/base.cpio" ] || [ "$(cat "$out/base.key" 2>/dev/null)" != "$key" ]; then
	echo "mkinitramfs: building base image"
	root=$(mktemp -d)
	trap 'rm -rf "$root"' EXIT
	mkdir -p "$root"/usr/{bin,sbin,lib,lib64} "$root"/{dev,proc,sys,tmp,run,etc,root,srv,mnt,var/log,var/run,var/tmp}
	ln -s usr/bin "$root/bin"
	ln -s usr/sbin "$root/sbin"
	ln -s usr/lib "$root/lib"
	ln -s usr/lib64 "$root/lib64"

	for f in "${bins[@]}" $libs; do
		dst="$root$(guest_path "$f")"
		mkdir -p "$(dirname "$dst")"
		cp -L "$f" "$dst"
	done
	# busybox provides every applet kmod and the others do not.
	for a in $("$root/usr/bin/busybox" --list); do
		[ -e "$root/usr/bin/$a" ] || [ -e "$root/usr/sbin/$a" ] ||
			ln -s busybox "$root/usr/bin/$a"
	done
	for a in modprobe insmod rmmod lsmod depmod modinfo; do
		rm -f "$root/usr/bin/$a" "$root/usr/sbin/$a"
		ln -s ../bin/kmod "$root/usr/sbin/$a"
	done

	# Kernel modules, decompressed (kmod in a bare initramfs cannot
	# read compressed ones), then the module index.
	for m in $mods; do
		src="$moddir/$m"
		dst="$root/usr/lib/modules/$KVER/${m%.xz}"
		dst=${dst%.zst}
		mkdir -p "$(dirname "$dst")"
		case "$m" in
		*.xz) xz -dc "$src" > "$dst" ;;
		*.zst) zstd -qdc "$src" > "$dst" ;;
		*) cp "$src" "$dst" ;;
		esac
	done
	cp "$moddir"/modules.{order,builtin,builtin.modinfo} "$root/usr/lib/modules/$KVER/"
	depmod -b "$root/usr" "$KVER"

	# Users and groups the tests use; smbsrv maps SMB users by name.
	cat > "$root/etc/passwd" <<-'EOF'
	root:x:0:0:root:/root:/bin/sh
	nobody:x:65534:65534:nobody:/nonexistent:/bin/false
	demo:x:1000:1000:demo user:/srv:/bin/false
	alice:x:1001:1001:alice:/srv:/bin/false
	bob:x:1002:1002:bob:/srv:/bin/false
	EOF
	cat > "$root/etc/group" <<-'EOF'
	root:x:0:
	nogroup:x:65534:
	demo:x:1000:
	alice:x:1001:
	bob:x:1002:
	family:x:1100:alice,bob
	EOF
	echo "smbsrv-vm" > "$root/etc/hostname"
	# nfs-utils (the benchmark's nfsd) reads these through libtirpc.
	cp /etc/netconfig /etc/protocols /etc/services /etc/rpc "$root/etc/"
	ln -s mount.nfs "$root/usr/sbin/mount.nfs4"
	mkdir -p "$root/var/lib/nfs"
	echo "127.0.0.1 localhost smbsrv-vm" > "$root/etc/hosts"

	pack_cpio "$root" "$out/base.cpio"
	echo "$key" > "$out/base.key"
	rm -rf "$root"
	trap - EXIT
fi

# --- samba.cpio (SMBSRV_VM_SAMBA=1) -------------------------------------
sd="$top/.deps/samba"
smb_lib=/usr/lib/x86_64-linux-gnu/samba
gconv=/usr/lib/x86_64-linux-gnu/gconv
if [ "${SMBSRV_VM_SAMBA:-}" = 1 ]; then
	smb_bins=("$sd/usr/sbin/smbd" "$sd/usr/bin/pdbedit"
		"$smb_lib/vfs/acl_xattr.so" "$smb_lib/vfs/streams_xattr.so"
		"$smb_lib/vfs/shadow_copy2.so" "$smb_lib/vfs/fruit.so")
	for f in "${smb_bins[@]}"; do
		[ -f "$f" ] || { echo "mkinitramfs: $f missing: run 'make deps'" >&2; exit 1; }
	done
	# Only what base does not have already.
	smb_libs=$(comm -23 <(lib_closure "${smb_bins[@]}") <(echo "$libs" | sort -u))
	# Samba's dos charset (CP850) and UTF-16 go through iconv.
	smb_gconv=("$gconv/gconv-modules" "$gconv/gconv-modules.cache"
		"$gconv/IBM850.so" "$gconv/UTF-16.so" "$gconv/UNICODE.so")
	skey=$( {
		sha256sum "$0" | cut -d' ' -f1
		for f in "${smb_bins[@]}" $smb_libs "${smb_gconv[@]}"; do
			stat -L -c '%n %s %Y' "$f"
		done
	} | sha256sum | cut -d' ' -f1)
	if [ ! -f "$out/samba.cpio" ] || [ "$(cat "$out/samba.key" 2>/dev/null)" != "$skey" ]; then
		echo "mkinitramfs: building the Samba layer"
		root=$(mktemp -d)
		trap 'rm -rf "$root"' EXIT
		mkdir -p "$root"/usr/{sbin,bin} "$root"/etc/samba \
			"$root"/var/{lib/samba/private,cache/samba,log/samba} \
			"$root$gconv/gconv-modules.d"
		cp "$sd/usr/sbin/smbd" "$root/usr/sbin/"
		cp "$sd/usr/bin/pdbedit" "$root/usr/bin/"
		for f in "${smb_bins[@]:2}" $smb_libs "${smb_gconv[@]}"; do
			dst="$root$(guest_path "$f")"
			mkdir -p "$(dirname "$dst")"
			cp -L "$f" "$dst"
		done
		cp "$gconv"/gconv-modules.d/*.conf "$root$gconv/gconv-modules.d/"
		pack_cpio "$root" "$out/samba.cpio"
		echo "$skey" > "$out/samba.key"
		rm -rf "$root"
		trap - EXIT
	fi
fi

# --- overlay.cpio ------------------------------------------------------
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/usr/{sbin,lib/modules/$KVER/updates,share/smbsrv} "$root/etc/smbsrv"
cp "$userbin/smbsrvd" "$userbin/smbsrvctl" "$root/usr/sbin/"
cp "${testbins[@]}" "$root/usr/sbin/"
cp "$ko" "$root/usr/lib/modules/$KVER/updates/smbsrv.ko"
cp "${test_kos[@]}" "$root/usr/lib/modules/$KVER/updates/"
install -m 755 "$top/tools/vm/guest/init" "$root/init"
install -m 755 "$top/tools/vm/guest/vm-agent" "$root/usr/sbin/vm-agent"
install -m 755 "$top/tools/vm/guest/vm-kmemleak" "$root/usr/sbin/vm-kmemleak"
install -m 755 "$top/tools/trace/smbsrv-stages" "$root/usr/sbin/smbsrv-stages"
cp "$top/tools/vm/guest/smbsrv.conf" "$root/etc/smbsrv/smbsrv.conf"
cp -r "$top/tests/selftests/guest" "$root/usr/share/smbsrv/tests"
cp "$top/tools/vm/kernel-reports.awk" "$root/usr/share/smbsrv/"
cp -r "$top/tools/bench/guest" "$root/usr/share/smbsrv/bench"

# Module index including smbsrv.ko and the test modules, computed on
# the host.
idx=$(mktemp -d)
mkdir -p "$idx/usr/lib/modules/$KVER/updates"
# depmod needs the other modules' symbols: read them from base's tree.
(cd "$idx" && cpio --quiet -idm "usr/lib/modules/*" < "$out/base.cpio")
cp "$ko" "$idx/usr/lib/modules/$KVER/updates/smbsrv.ko"
cp "${test_kos[@]}" "$idx/usr/lib/modules/$KVER/updates/"
depmod -b "$idx/usr" "$KVER"
cp "$idx/usr/lib/modules/$KVER"/modules.* "$root/usr/lib/modules/$KVER/"
rm -rf "$idx"

pack_cpio "$root" "$out/overlay.cpio"
cat "$out/base.cpio" "$out/overlay.cpio" > "$out/initrd.cpio.tmp"
mv "$out/initrd.cpio.tmp" "$out/initrd.cpio"
if [ "${SMBSRV_VM_SAMBA:-}" = 1 ]; then
	cat "$out/base.cpio" "$out/samba.cpio" "$out/overlay.cpio" > "$out/initrd-samba.cpio.tmp"
	mv "$out/initrd-samba.cpio.tmp" "$out/initrd-samba.cpio"
fi
