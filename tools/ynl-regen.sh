#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Regenerate the netlink code from Documentation/netlink/specs/smbsrv.yaml
# with the kernel's own ynl-gen (taken out of linux-source by make deps).
#
#   tools/ynl-regen.sh            rewrite the generated files
#   tools/ynl-regen.sh --check    fail if a generated file is out of date
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
ksrc="$top/.deps/linux-source"
gen="$ksrc/tools/net/ynl/ynl-gen-c.py"
spec_rel=Documentation/netlink/specs/smbsrv.yaml
check=${1:-}

if [ ! -f "$gen" ]; then
	echo "ynl-regen: $gen missing: run 'make deps'" >&2
	exit 1
fi

# ynl-gen finds the schema next to the spec and names the spec relative to
# the tree holding MAINTAINERS: stage a minimal tree that looks like ours.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/Documentation/netlink/specs"
touch "$stage/MAINTAINERS"
cp "$ksrc"/Documentation/netlink/*.yaml "$stage/Documentation/netlink/"
cp "$top/$spec_rel" "$stage/$spec_rel"

status=0
gen_one() { # mode kind output
	local out="$top/$3" tmp
	tmp="$stage/$(basename "$3")"
	# The generated source includes its header by the output's basename.
	(cd "$stage" && /usr/bin/python3 "$gen" --mode "$1" "--$2" \
		--spec "$stage/$spec_rel" -o "$tmp" >/dev/null)
	if [ "$check" = --check ]; then
		if ! cmp -s "$tmp" "$out"; then
			echo "ynl-regen: $3 is out of date: run 'make regen'" >&2
			status=1
		fi
	elif ! cmp -s "$tmp" "$out"; then
		cp "$tmp" "$out"
		echo "	GEN	$3"
	fi
}

gen_one uapi header kmod/include/uapi/linux/smbsrv.h
gen_one kernel header kmod/netlink-gen.h
gen_one kernel source kmod/netlink-gen.c
exit $status
