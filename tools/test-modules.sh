#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The module's tests live in test modules (kmod/test/, Documentation/
# testing.md "Module tests"); two checks keep them there and keep them
# KUnit's:
#
#   tools/test-modules.sh shipped KO [TEST_KO...]
#       KO, smbsrv.ko as shipped, has no test code: no module parameter
#       named for tests, no symbol named like test code (selftest, kunit,
#       ktap, *_test*, test_*, probe_*, the upcall probe's), and none of
#       the symbols the test modules TEST_KO... define.  Prints what it
#       finds and fails then.
#   tools/test-modules.sh kunit
#       The test modules build, warnings as errors, against the kernel's
#       own <kunit/test.h>, as on a kernel with CONFIG_KUNIT (the stock
#       kernel has none; the guest runs them through kmod/test/kunit-lite.c):
#       the stand-in offers nothing the tests use that KUnit lacks.  In a
#       copy under /tmp; the only symbols left undefined must be KUnit's,
#       and the suite must be registered in KUnit's section.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)

# Symbols every module has, whatever it does.
generic='^(\.L|__UNIQUE_ID|__pfx_|__this_module$|init_module$|cleanup_module$|_note_|____versions$|__key\.|__start_|__stop_|orc_header$|__mod_|__func__\.|__already_done\.|__print_once\.)'

# Defined symbols of ELF objects, without GCC's clone suffixes.
defined() {
	nm "$@" | awk 'NF >= 2 && $(NF - 1) !~ /^[Uw]$/ { print $NF }' |
		sed -E 's/\.(isra|constprop|part|cold|lto_priv)(\.[0-9]+)*$//' |
		sort -u
}

shipped() {
	local ko=$1 bad
	shift
	[ -f "$ko" ] || { echo "$ko: missing" >&2; return 1; }
	bad=$(
		modinfo -F parm "$ko" | grep -iE 'test|probe' |
			sed 's/^/module parameter: /'
		defined "$ko" | grep -iE \
			'selftest|kunit|ktap|_test($|_)|^test_|(^|_)probe_|crypto_vector' |
			sed 's/^/test-like symbol: /'
		if [ $# -gt 0 ]; then
			comm -12 <(defined "$ko" | grep -vE "$generic") \
				<(defined "$@" | grep -vE "$generic") |
				sed 's/^/a test module'"'"'s symbol: /'
		fi
	)
	if [ -n "$bad" ]; then
		echo "$ko carries test code:"
		printf '%s\n' "$bad"
		return 1
	fi
}

kunit() {
	local kdir tmp out undef
	kdir=/lib/modules/$(cat "$top/.kver")/build
	[ -f "$top/kmod/Module.symvers" ] ||
		{ echo "kmod/Module.symvers missing: run make" >&2; return 1; }
	tmp=$(mktemp -d /tmp/smbsrv-kunit-XXXXXX)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	mkdir -p "$tmp/kmod/test"
	mkdir -p "$tmp/kmod/wire"
	cp "$top"/kmod/*.h "$tmp/kmod/"
	cp "$top"/kmod/wire/*.h "$tmp/kmod/wire/"
	cp -r "$top/kmod/include" "$tmp/kmod/"
	cp "$top"/kmod/test/*.[ch] "$top/kmod/test/Kbuild" "$tmp/kmod/test/"
	# CONFIG_KUNIT for Kbuild and for the preprocessor; modpost only
	# warns about the symbols the stock kernel does not have.
	if ! out=$(make -s -C "$kdir" M="$tmp/kmod/test" CONFIG_KUNIT=y \
		KCFLAGS="-Werror -DCONFIG_KUNIT=1" KBUILD_MODPOST_WARN=1 \
		KBUILD_EXTRA_SYMBOLS="$top/kmod/Module.symvers" modules 2>&1); then
		printf '%s\n' "$out"
		return 1
	fi
	undef=$(printf '%s\n' "$out" | sed -n 's/.*modpost: "\([^"]*\)" .* undefined!$/\1/p' |
		grep -vE '^_*kunit_' || true)
	if [ -n "$undef" ]; then
		echo "undefined beside KUnit's: $undef"
		return 1
	fi
	# (grep reads all: with pipefail, grep -q's early exit fails the pipe.)
	if defined "$tmp/kmod/test/smbsrv_crypto_test.ko" | grep kunit_lite; then
		echo "the stand-in was linked in with CONFIG_KUNIT"
		return 1
	fi
	if ! readelf -SW "$tmp/kmod/test/smbsrv_crypto_test.ko" |
		grep -F ' .kunit_test_suites ' >/dev/null; then
		echo "smbsrv_crypto_test.ko registers no suite with KUnit"
		return 1
	fi
}

case "${1:-}" in
shipped) shift; shipped "$@" ;;
kunit) kunit ;;
*) echo "usage: $0 shipped KO [TEST_KO...] | kunit" >&2; exit 2 ;;
esac
