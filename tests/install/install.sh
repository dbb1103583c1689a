#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make install DESTDIR=...: every file lands where it should, the man pages
# render without a warning, the systemd unit verifies, dkms.conf names the
# module and the installed sources build it, the example configuration is
# clean.  Prints TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
dest=$(mktemp -d /tmp/smbsrv-install-XXXXXX)
trap 'rm -rf "$dest"' EXIT
kver=$(cat "$top/.kver")
version=$(sed -n 's/^#define SMBSRV_VERSION "\(.*\)"$/\1/p' "$top/kmod/smbsrv.h")
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { # DESCRIPTION COMMAND...
	local d=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$d"; else not_ok "$d"; printf '%s\n' "$out" | sed 's/^/# /'; fi
}

check "make install DESTDIR=... succeeds" make -s -C "$top" install DESTDIR="$dest"

src="$dest/usr/src/smbsrv-$version"
for f in usr/sbin/smbsrvd usr/sbin/smbsrvctl; do
	check "$f installed, executable" test -x "$dest/$f"
done
for f in "usr/src/smbsrv-$version/dkms.conf" "usr/src/smbsrv-$version/Kbuild" \
	"usr/src/smbsrv-$version/main.c" "usr/src/smbsrv-$version/include/uapi/linux/smbsrv.h" \
	lib/systemd/system/smbsrv.service etc/smbsrv/smbsrv.conf.example \
	usr/share/man/man8/smbsrvd.8.gz usr/share/man/man8/smbsrvctl.8.gz \
	usr/share/man/man5/smbsrv.conf.5.gz; do
	check "$f installed" test -s "$dest/$f"
done
check "no build products among the module sources" \
	test -z "$(find "$src" -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd')"
check "no test sources among the module sources (kmod/test stays out)" \
	test -z "$(find "$src" -path "$src/test" -o -name '*_test.*' -o -name 'test_*' -o -name 'kunit*' -o -name '*probe*')"

for page in "$dest"/usr/share/man/man*/*.gz; do
	name=$(basename "$page" .gz)
	out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	if [ -z "$out" ] && LC_ALL=C.UTF-8 man -l "$page" 2>/dev/null | grep -q "^NAME"; then
		ok "man page $name renders without warnings"
	else
		not_ok "man page $name renders without warnings"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done

if command -v systemd-analyze >/dev/null; then
	# The unit as installed, its daemon path pointed at the staged binary
	# (the man pages it names are not installed on this machine).
	vdir=$(mktemp -d /tmp/smbsrv-unit-XXXXXX)
	sed "s|/usr/sbin/smbsrvd|$dest/usr/sbin/smbsrvd|" \
		"$dest/lib/systemd/system/smbsrv.service" > "$vdir/smbsrv.service"
	check "systemd-analyze verify smbsrv.service" \
		systemd-analyze verify --man=no "$vdir/smbsrv.service"
	rm -rf "$vdir"
else
	echo "# systemd-analyze not available: the unit is not verified"
fi

check "dkms.conf names the module and the version" bash -c "
	. '$src/dkms.conf'
	[ \"\$PACKAGE_NAME\" = smbsrv ] && [ \"\$PACKAGE_VERSION\" = '$version' ] &&
	[ \"\${BUILT_MODULE_NAME[0]}\" = smbsrv ] && [ \"\$AUTOINSTALL\" = yes ]"
# What DKMS does with them: build the module from the installed sources.
build=$(mktemp -d /tmp/smbsrv-dkms-XXXXXX)
cp -r "$src/." "$build/"
check "the installed sources build smbsrv.ko (as DKMS would)" bash -c "
	make -s -C /lib/modules/$kver/build M=$build modules >/dev/null &&
	modinfo -F version $build/smbsrv.ko | grep -qx '$version'"
check "smbsrv.ko as DKMS builds it has no test code" \
	"$top/tools/test-modules.sh" shipped "$build/smbsrv.ko"
rm -rf "$build"

out=$("$dest/usr/sbin/smbsrvd" --check-config "$dest/etc/smbsrv/smbsrv.conf.example" 2>&1 >/dev/null)
if [ $? -eq 0 ] && ! echo "$out" | grep -qE "error|unknown"; then
	ok "the example configuration is clean"
else
	not_ok "the example configuration is clean"
	printf '%s\n' "$out" | sed 's/^/# /'
fi
check "installed smbsrvctl runs" bash -c "'$dest/usr/sbin/smbsrvctl' version | grep -qx 'smbsrvctl $version'"

echo "1..$n"
[ $failed -eq 0 ]
