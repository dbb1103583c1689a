#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check-cluster: cluster mode's suites (tests/selftests/cluster/*.sh)
# against a Ceph test cluster (ceph-up.sh) and two smbsrv guests.
#
# The guests' user network reaches nothing on the host but through
# forwards, and a Ceph client connects to the addresses the cluster's maps
# advertise.  So everything runs in a private network namespace where the
# cluster listens on 10.0.2.100 (an address of QEMU's user network, on the
# namespace's loopback): a guest's connection to 10.0.2.100:PORT is
# forwarded by QEMU (guestfwd, one per daemon port) to the same address
# and port in the namespace.  The host-side clients run in it too.
#
# Usage: tools/cluster/check.sh [SUITE...]   (default: every suite)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${SMBSRV_CLUSTER_NETNS:-}" != 1 ]; then
	exec unshare --net -- env SMBSRV_CLUSTER_NETNS=1 "$0" "$@"
fi
ip link set lo up
ip addr add 10.0.2.100/32 dev lo

export CEPH_DIR=$top/build/ceph-check
CEPH_ADDR=10.0.2.100 nice "$top/tools/cluster/ceph-up.sh" up "$CEPH_DIR" || exit 1
trap '"$top/tools/cluster/ceph-up.sh" down "$CEPH_DIR"' EXIT

suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=("$top"/tests/selftests/cluster/*.sh)
pass=0
fail=0
for s in "${suites[@]}"; do
	echo "=== ${s#"$top"/}"
	out=$("$s" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	pass=$((pass + $(printf '%s\n' "$out" | grep -c '^ok ')))
	fail=$((fail + $(printf '%s\n' "$out" | grep -c '^not ok ')))
	[ $rc = 0 ] || [ "$(printf '%s\n' "$out" | grep -c '^not ok ')" != 0 ] || fail=$((fail + 1))
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
