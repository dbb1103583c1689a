#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the debug guest kernel: Debian's 6.12 cloud kernel from
# linux-source-6.12, configured from /boot/config-$(cat .kver), cut down
# to the modules the test VM loads (make localmodconfig with the list
# from tools/vm/guest-modules.sh), without debug info, and with KASAN
# (generic, inline), lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP,
# kmemleak (no automatic scan: the guest scans at the end of a run),
# UBSAN and KUnit.  See Documentation/testing.md, "The debug kernel".
#
#   build/debug-kernel/linux/          the source tree, built in place
#   build/debug-kernel/KEY/bzImage     the kernel; KEY is the source
#   build/debug-kernel/KEY/lib/modules/RELEASE/
#                                      package version and the .config hash
#   build/debug-kernel/KEY/release     RELEASE (make kernelrelease)
#   build/debug-kernel/current         symlink to the last KEY built
#
# A KEY already built is reused.  Never in CI: hours on two busy
# cores.
#
#   tools/debug-kernel.sh --print   the current KEY directory (fails when
#                                   none is built)
#   tools/debug-kernel.sh --kmod    build smbsrv.ko and its test modules
#                                   against the debug tree, from a copy
#                                   of kmod/ in build/debug-kernel/kmod
#                                   (kmod/ keeps the modules of the stock
#                                   kernel)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/build/debug-kernel"

current() {
	local d
	d=$(readlink -f "$out/current" 2>/dev/null) || d=""
	if [ -z "$d" ] || [ ! -f "$d/done" ]; then
		echo "debug-kernel: not built: run 'make debug-kernel'" >&2
		return 1
	fi
	echo "$d"
}

if [ "${1:-}" = --print ]; then
	current
	exit
fi
# One at a time: a second run would rewrite the .config under the first.
mkdir -p "$out"
exec 9> "$out/.lock"
flock -n 9 || { echo "debug-kernel: another build is running" >&2; exit 1; }
case "${1:-}" in
--kmod)
	current > /dev/null
	# Copy with times kept, so that kbuild rebuilds only what changed;
	# a source gone from kmod/ goes from the copy too.
	mkdir -p "$out/kmod"
	(cd "$top/kmod" && find . -name '*.[ch]' ! -name '*.mod.c' -o -name Kbuild -o -name Makefile) |
		sort > "$out/kmod.files"
	(cd "$out/kmod" && find . -name '*.[ch]' ! -name '*.mod.c') | sort |
		comm -23 - <(grep '\.[ch]$' "$out/kmod.files") |
		(cd "$out/kmod" && xargs -r rm -f)
	(cd "$top/kmod" && cpio --quiet -pdmu "$out/kmod" < "$out/kmod.files")
	make -C "$out/linux" M="$out/kmod" modules
	exec make -C "$out/linux" M="$out/kmod/test" \
		KBUILD_EXTRA_SYMBOLS="$out/kmod/Module.symvers" modules
	;;
esac

kver=$(cat "$top/.kver")
base=/boot/config-$kver
tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$base" ] || { echo "debug-kernel: $base missing" >&2; exit 1; }
[ -f "$tarball" ] ||
	{ echo "debug-kernel: $tarball missing: apt install linux-source-6.12" >&2; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
jobs=${JOBS:-$(nproc)}

mkdir -p "$out"
src="$out/linux"
if [ "$(cat "$out/linux.version" 2>/dev/null)" != "$srcver" ]; then
	echo "debug-kernel: unpacking linux-source $srcver"
	rm -rf "$src" "$out/linux.version"
	mkdir -p "$src"
	tar -xf "$tarball" -C "$src" --strip-components=1
	echo "$srcver" > "$out/linux.version"
fi

# --- configuration -----------------------------------------------------
# shellcheck source=tools/vm/guest-modules.sh
. "$top/tools/vm/guest-modules.sh"
lsmod="$out/lsmod"
guest_mod_closure "/lib/modules/$kver" tests | sed 's|.*/||; s|\.ko.*||; y|-|_|' |
	sort -u > "$lsmod"

cp "$base" "$src/.config"
{ yes "" || :; } | make -s -C "$src" LSMOD="$lsmod" localmodconfig >"$out/localmodconfig.log" 2>&1
cfg() { "$src/scripts/config" --file "$src/.config" "$@"; }
# No debug info or BTF (half the build time), no module signing (Debian's
# keys are not in the source package), our own release name.
cfg -d DEBUG_INFO -d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_DWARF4 \
	-d DEBUG_INFO_DWARF5 -e DEBUG_INFO_NONE -d DEBUG_INFO_BTF \
	-d MODULE_SIG -d MODULE_SIG_ALL \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
	--set-str LOCALVERSION "-smbsrv-debug" -d LOCALVERSION_AUTO
# What the test VM does not use, built in by the cloud kernel: a smaller
# build (q35 with virtio-net/blk/rng, -kernel and an initramfs, no LSM).
cfg -d XEN -d HYPERV -d SECURITY_SELINUX -d SECURITY_APPARMOR -d SECURITY_TOMOYO \
	-d SECURITY_YAMA -d SECURITY_LANDLOCK -d SECURITY_LOCKDOWN_LSM -d IMA -d EVM \
	-d INTEGRITY -d AUDIT -d BPF_SYSCALL -d BPF_JIT -d NETFILTER -d NET_SCHED \
	-d HIBERNATION -d SUSPEND -d KEXEC -d KEXEC_FILE -d CRASH_DUMP -d EFI -d MD \
	-d NVME_CORE -d BLK_DEV_NVME -d ATA -d SCSI -d USB_SUPPORT -d DRM -d FB \
	-d FUSE_FS -d VIRTIO_FS -d NUMA -d X86_SGX -d AMD_MEM_ENCRYPT \
	-d INTEL_TDX_GUEST -d XFRM -d NET_KEY -d MPTCP -d TLS -d VSOCKETS \
	-d CRYPTO_FIPS -d PROFILING -d QUOTA -d NFS_FS -d SUNRPC \
	-d WIRELESS -d WLAN -d INPUT_MOUSE -d INPUT_JOYSTICK -d INPUT_TOUCHSCREEN
# The checkers, kprobe events (host/route and host/read tell where a
# receive ran by a kprobe on it; the stock kernel has them) and KUnit,
# which runs the suite of smbsrv_crypto_test.ko itself here (the stock
# kernel has no KUnit: kmod/test/kunit-lite.c stands in).
debug_opts=(KASAN KASAN_GENERIC KASAN_INLINE PROVE_LOCKING DEBUG_ATOMIC_SLEEP
	DEBUG_KMEMLEAK UBSAN UBSAN_BOUNDS UBSAN_SHIFT DEBUG_LIST KPROBES
	KPROBE_EVENTS KUNIT)
for o in "${debug_opts[@]}"; do cfg -e "$o"; done
cfg -d KASAN_OUTLINE -d DEBUG_KMEMLEAK_AUTO_SCAN -d DEBUG_KMEMLEAK_DEFAULT_OFF \
	-d KUNIT_ALL_TESTS \
	--set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 40000 -d UBSAN_ALIGNMENT
make -s -C "$src" olddefconfig </dev/null >/dev/null
for o in "${debug_opts[@]}"; do
	grep -qx "CONFIG_$o=y" "$src/.config" ||
		{ echo "debug-kernel: CONFIG_$o did not stick" >&2; exit 1; }
done
if grep -qx 'CONFIG_DEBUG_KMEMLEAK_AUTO_SCAN=y' "$src/.config"; then
	echo "debug-kernel: CONFIG_DEBUG_KMEMLEAK_AUTO_SCAN is still on" >&2
	exit 1
fi

key="$srcver-$(grep -v '^#' "$src/.config" | sha256sum | cut -c1-16)"
dst="$out/$key"
if [ -f "$dst/done" ]; then
	ln -sfn "$key" "$out/current"
	echo "debug-kernel: $dst (cached)"
	exit 0
fi

# --- build -------------------------------------------------------------
echo "debug-kernel: building $key with -j$jobs ($(date -u +%H:%M:%S))"
start=$(date +%s)
make -C "$src" -j"$jobs" bzImage modules </dev/null
rm -rf "$dst"
mkdir -p "$dst"
make -s -C "$src" INSTALL_MOD_PATH="$dst" INSTALL_MOD_STRIP=1 \
	DEPMOD=/sbin/depmod modules_install </dev/null
cp "$src/arch/x86/boot/bzImage" "$dst/bzImage"
cp "$src/.config" "$dst/config"
make -s -C "$src" kernelrelease > "$dst/release"
echo "$(( $(date +%s) - start ))" > "$dst/build-seconds"
touch "$dst/done"
ln -sfn "$key" "$out/current"
echo "debug-kernel: built $dst in $(( ($(date +%s) - start) / 60 )) minutes"
