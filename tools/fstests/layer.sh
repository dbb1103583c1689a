#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the fstests layer of the test VM: build/fstests/fstests.cpio, the
# built fstests tree (BUILT, see run.sh) at /var/lib/xfstests, the host's
# GNU userland fstests scripts call (bash, coreutils, gawk, sed, grep,
# util-linux, xfs_io, attr and acl tools, perl ...) in place of busybox's
# applets, their shared libraries, and the guest side of the run
# (tools/fstests/guest.sh); then build/fstests/initrd.cpio: the VM's
# base image, this layer, the overlay (tools/vm/mkinitramfs.sh).
#
# Usage: tools/fstests/layer.sh BUILT
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
built=$1
out=$top/build/fstests
vm=$top/build/vm

# Debian packages whose programs (and perl's modules) the guest gets.
pkgs=(bash coreutils sed gawk grep findutils diffutils util-linux mount
	procps psmisc bc attr acl xfsprogs perl-base e2fsprogs debianutils
	hostname uuid-runtime bsdextrautils tar gzip libcap2-bin file xz-utils)

"$top/tools/vm/mkinitramfs.sh" >/dev/null
mkdir -p "$out"
# Rebuilt only when the tree, these scripts or the packages change.
key=$( {
	cat "$out/src.key" 2>/dev/null || echo "$built"
	sha256sum "$0" "$top/tools/fstests/guest.sh" | cut -d' ' -f1
	dpkg-query -W "${pkgs[@]}"
} | sha256sum | cut -d' ' -f1)
if [ -f "$out/fstests.cpio" ] && [ "$(cat "$out/fstests.cpio.key" 2>/dev/null)" = "$key" ]; then
	cat "$vm/base.cpio" "$out/fstests.cpio" "$vm/overlay.cpio" > "$out/initrd.cpio.tmp"
	mv "$out/initrd.cpio.tmp" "$out/initrd.cpio"
	exit 0
fi
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

guest_path() {
	case "$1" in
	/bin/* | /sbin/* | /lib/* | /lib64/*) echo "/usr$1" ;;
	*) echo "$1" ;;
	esac
}

files=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || { echo "layer: $p is not installed: run 'make deps-fstests'" >&2; exit 1; }
	while IFS= read -r f; do
		case "$f" in
		/usr/share/doc/* | /usr/share/man/* | /usr/share/locale/* | \
		/usr/share/info/* | /usr/share/lintian/* | /usr/share/bash-completion/* | \
		/etc/* | /usr/lib/systemd/* | /lib/systemd/* | /usr/share/zsh/*) continue ;;
		esac
		[ -f "$f" ] || [ -L "$f" ] || continue
		files+=("$f")
	done < <(dpkg -L "$p")
done
elfs=()
for f in "${files[@]}"; do
	dst="$root$(guest_path "$f")"
	mkdir -p "$(dirname "$dst")"
	cp -P "$f" "$dst"
	[ -L "$f" ] || ! head -c4 "$f" | grep -q ELF || elfs+=("$f")
done
# Alternatives dpkg -L does not list.
ln -sf gawk "$root/usr/bin/awk"
[ -e "$root/usr/bin/which.debianutils" ] && ln -sf which.debianutils "$root/usr/bin/which"
# The file(1) database.
mkdir -p "$root/usr/lib/file"
if [ -e /usr/lib/file/magic.mgc ]; then
	cp -L /usr/lib/file/magic.mgc "$root/usr/lib/file/"
fi

# fstests itself, and its programs' libraries.
mkdir -p "$root/var/lib/xfstests"
(cd "$built" && tar --exclude='*.o' --exclude=.git -cf - .) | tar -xf - -C "$root/var/lib/xfstests"
while IFS= read -r f; do elfs+=("$f"); done < <(find "$built/src" "$built/ltp" -type f -perm -u+x -not -name '*.sh' |
	while IFS= read -r f; do head -c4 "$f" | grep -q ELF && echo "$f"; done)
for l in $(for f in "${elfs[@]}"; do ldd "$f" 2>/dev/null | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }'; done | sort -u); do
	dst="$root$(guest_path "$l")"
	mkdir -p "$(dirname "$dst")"
	cp -L "$l" "$dst"
done
mkdir -p "$root/usr/share/smbsrv/fstests" "$root/etc"
install -m 755 "$top/tools/fstests/guest.sh" "$root/usr/share/smbsrv/fstests/guest.sh"
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) > "$out/fstests.cpio.tmp"
mv "$out/fstests.cpio.tmp" "$out/fstests.cpio"
echo "$key" > "$out/fstests.cpio.key"
cat "$vm/base.cpio" "$out/fstests.cpio" "$vm/overlay.cpio" > "$out/initrd.cpio.tmp"
mv "$out/initrd.cpio.tmp" "$out/initrd.cpio"
du -sh "$out/fstests.cpio" "$out/initrd.cpio"
