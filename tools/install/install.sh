#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make install: the daemon, the CLI, the module's sources for DKMS, the
# systemd unit, an example configuration and the man pages, under DESTDIR
# when given (then nothing on the running system is touched).  Without
# DESTDIR the module is also registered with DKMS (or, with no DKMS, built
# for the running kernel and installed under updates/), and systemd is
# told about the unit.
#
#   tools/install/install.sh [DESTDIR]
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:-}
prefix=${PREFIX:-/usr}
unitdir=${UNITDIR:-/lib/systemd/system}
version=$(sed -n 's/^#define SMBSRV_VERSION "\(.*\)"$/\1/p' "$top/kmod/smbsrv.h")
bin="$top/build/user/userd"
[ -n "$version" ] || { echo "install: no SMBSRV_VERSION in kmod/smbsrv.h" >&2; exit 1; }
for b in smbsrvd smbsrvctl; do
	[ -x "$bin/$b" ] || { echo "install: $bin/$b missing: run make first" >&2; exit 1; }
done

say() { echo "install: $*"; }

install -d "$dest$prefix/sbin"
install -m 0755 "$bin/smbsrvd" "$bin/smbsrvctl" "$dest$prefix/sbin/"

# The module's sources, as DKMS wants them: /usr/src/smbsrv-VERSION;
# not the test modules' (kmod/test/).
src="$dest$prefix/src/smbsrv-$version"
rm -rf "$src"
install -d "$src"
(cd "$top/kmod" && find . -path ./test -prune -o \
	\( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) ! -name '*.mod.c' -print0 |
	xargs -0 cp --parents -t "$src")
sed "s/@VERSION@/$version/" "$top/tools/install/dkms.conf.in" > "$src/dkms.conf"

install -d "$dest$unitdir"
install -m 0644 "$top/tools/install/smbsrv.service" "$dest$unitdir/"

install -d "$dest/etc/smbsrv"
install -m 0644 "$top/tools/install/smbsrv.conf.example" "$dest/etc/smbsrv/"

for page in "$top"/Documentation/man/*.[0-9]; do
	sect=${page##*.}
	install -d "$dest$prefix/share/man/man$sect"
	gzip -9n < "$page" > "$dest$prefix/share/man/man$sect/$(basename "$page").gz"
done
say "files installed under ${dest:-/}"

[ -z "$dest" ] || exit 0

if command -v dkms >/dev/null; then
	dkms remove "smbsrv/$version" --all >/dev/null 2>&1 || true
	dkms add "smbsrv/$version"
	dkms install "smbsrv/$version"
else
	kver=$(uname -r)
	say "no dkms: building smbsrv.ko for $kver only"
	make -C "/lib/modules/$kver/build" M="$src" modules
	install -d "/lib/modules/$kver/updates"
	install -m 0644 "$src/smbsrv.ko" "/lib/modules/$kver/updates/"
	depmod "$kver"
fi
if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
	systemctl daemon-reload
	say "start with: systemctl enable --now smbsrv"
fi
