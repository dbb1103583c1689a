# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The kernel modules the test VM's guest gets, sourced by
# tools/vm/mkinitramfs.sh (which copies them) and tools/debug-kernel.sh
# (which builds only them): modules with their dependencies, and whole
# module directories.
# want_mods_more: not used by the tests (nfsd and the NFS client for the
# benchmarks), so not in the debug kernel.
want_mods=(virtio_net cifs ksmbd loop virtio_blk veth tcp_diag btrfs dummy)
want_mods_more=(nfsd nfsv4 xfs)
want_dirs=(kernel/crypto kernel/arch/x86/crypto kernel/fs/nls kernel/lib)

# guest_mod_closure MODDIR [tests]: the modules above (with "tests": but
# want_mods_more) and everything they depend on (from MODDIR/modules.dep),
# one path relative to MODDIR a line.
guest_mod_closure() {
	local moddir=$1 depfile="$1/modules.dep" todo=() seen="" m path deps
	local names=("${want_mods[@]}")
	[ "${2:-}" = tests ] || names+=("${want_mods_more[@]}")
	for m in "${names[@]}"; do
		path=$(grep -E "(^|/)${m//_/[_-]}\.ko(\.(xz|zst|gz))?:" "$depfile" |
			head -n1 | cut -d: -f1)
		[ -n "$path" ] || { echo "module $m not found in $moddir" >&2; exit 1; }
		todo+=("$path")
	done
	for d in "${want_dirs[@]}"; do
		while read -r path; do
			todo+=("${path#"$moddir"/}")
		done < <(find "$moddir/$d" -name '*.ko*' 2>/dev/null)
	done
	while [ ${#todo[@]} -gt 0 ]; do
		m=${todo[0]}
		todo=("${todo[@]:1}")
		case " $seen " in *" $m "*) continue ;; esac
		seen="$seen $m"
		echo "$m"
		deps=$(grep -E "^$m:" "$depfile" | cut -d: -f2)
		for path in $deps; do todo+=("$path"); done
	done
}
