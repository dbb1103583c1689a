#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A minimal Ceph cluster for smbsrv's cluster tests, from Debian's packages
# (tools/deps.sh --cluster): one monitor, one OSD, one MDS and a CephFS,
# all in one private directory with its own ceph.conf, listening on one
# address (loopback by default), started as plain processes of the caller
# (no service, nothing under /etc or /var/lib) and stopped by their pids.
#
# Usage: tools/cluster/ceph-up.sh up|down|status|addrs [DIR]
#
#   up      (re)create the cluster in DIR and wait until the file system is
#           active and the state pool takes writes; prints the time taken
#   down    stop the daemons started in DIR and remove DIR
#   status  the daemons' pids and memory (RSS), "ceph -s", the MDS
#   addrs   the addresses the daemons listen on, one a line
#
# DIR: build/ceph by default.  Environment: CEPH_ADDR (the address every
# daemon binds and advertises, 127.0.0.1), CEPH_MON_PORT (a free one by
# default), CEPH_STORE (memstore: objects in the OSD's memory, gone at
# "down"; bluestore: a sparse 4 GiB file DIR/osd.block), CEPH_UP_TIMEOUT
# (300 s).  A failed "up" stops what it started and keeps DIR/log.
#
# Then, for clients: CEPH_CONF=DIR/ceph.conf; DIR/client.admin.keyring;
# DIR/client.smbsrv.keyring is what an smbsrv node gets (the CephFS, and
# the "smbsrv" pool for the cluster state, with class methods for
# cls_lock); DIR/env has both as shell assignments.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cmd=${1:-}
dir=${2:-$top/build/ceph}
addr=${CEPH_ADDR:-127.0.0.1}
store=${CEPH_STORE:-memstore}
up_timeout=${CEPH_UP_TIMEOUT:-300}

conf=$dir/ceph.conf

say() { echo "ceph-up: $*"; }
die() { echo "ceph-up: $*" >&2; exit 1; }

# ceph ARGS...: the admin CLI against this cluster only.
c() { timeout 60 ceph -c "$conf" --connect-timeout 30 "$@"; }

free_port() {
	python3 -c 'import socket
s = socket.socket()
s.bind(("'"$addr"'", 0))
print(s.getsockname()[1])'
}

# Our daemons: pid files under DIR/run whose process still runs with our
# ceph.conf (a recycled pid is never signalled).
our_pids() {
	local f pid
	for f in "$dir"/run/*.pid; do
		[ -e "$f" ] || continue
		pid=$(cat "$f")
		if [ -z "$pid" ] || [ ! -r "/proc/$pid/cmdline" ]; then
			continue
		fi
		tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$conf" &&
			echo "$pid"
	done
}

wait_for() {
	local what=$1 deadline=$((SECONDS + up_timeout))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $deadline ] || die "timed out waiting for $what"
		sleep 1
	done
}

mds_active() { c mds stat | grep -q 'up:active'; }

pool_writes() {
	timeout 30 rados -c "$conf" -p smbsrv put ceph-up.probe "$conf" &&
		timeout 30 rados -c "$conf" -p smbsrv rm ceph-up.probe
}

write_conf() {
	local fsid=$1 port=$2
	cat > "$conf" <<EOF
# Written by tools/cluster/ceph-up.sh: a one-host test cluster.
[global]
fsid = $fsid
mon_host = [v2:$addr:$port]
public_addr = $addr
cluster_addr = $addr
ms_bind_msgr1 = false
ms_bind_msgr2 = true
ms_bind_port_min = 6800
ms_bind_port_max = 7300
auth_cluster_required = cephx
auth_service_required = cephx
auth_client_required = cephx
keyring = $dir/\$name.keyring
run_dir = $dir/run
pid_file = $dir/run/\$name.pid
admin_socket = $dir/run/\$name.asok
log_file = $dir/log/\$name.log
log_to_stderr = false
err_to_stderr = true
mon_cluster_log_file = $dir/log/cluster.log
# One OSD: pools of one copy, placed on one host.
osd_pool_default_size = 1
osd_pool_default_min_size = 1
osd_pool_default_pg_num = 8
osd_pool_default_pgp_num = 8
mon_allow_pool_size_one = true
mon_warn_on_pool_no_redundancy = false
auth_allow_insecure_global_id_reclaim = false
osd_crush_chooseleaf_type = 0
mon_allow_pool_delete = true
# A small test bed: little memory, no fsync storms.
osd_objectstore = $store
memstore_device_bytes = 2147483648
bluestore_block_path = $dir/osd.block
bluestore_block_size = 4294967296
bluestore_block_create = true
osd_memory_target = 939524096
bluestore_cache_autotune = false
bluestore_cache_size = 67108864
mds_cache_memory_limit = 134217728
osd_op_num_shards = 1
osd_op_num_threads_per_shard = 2
mon_data_avail_warn = 1
mon_data_avail_crit = 0

[mon]
mon_data = $dir/mon/\$id
keyring = $dir/mon/\$id/keyring
[client]
admin_socket = $dir/run/\$name.\$pid.asok
[osd]
osd_data = $dir/osd
[mds]
mds_data = $dir/mds/\$id
EOF
}

do_up() {
	local t0=$SECONDS port fsid uuid id p
	case $store in
	memstore | bluestore) ;;
	*) die "CEPH_STORE: memstore or bluestore, not '$store'" ;;
	esac
	for p in ceph-mon ceph-osd ceph-mds; do
		command -v $p >/dev/null ||
			die "$p missing: tools/deps.sh --cluster installs it"
	done
	[ -z "$(our_pids 2>/dev/null)" ] || die "$dir runs a cluster: down first"
	rm -rf "$dir"
	mkdir -p "$dir"/{mon/a,osd,mds/a,run,log}
	port=${CEPH_MON_PORT:-$(free_port)}
	fsid=$(cat /proc/sys/kernel/random/uuid)
	write_conf "$fsid" "$port"
	trap 'stop_daemons; echo "ceph-up: failed; logs in $dir/log" >&2' EXIT

	# Monitor: keys for itself and the admin, a map of one.
	ceph-authtool --create-keyring "$dir/mon.keyring" --gen-key -n mon. \
		--cap mon 'allow *' >/dev/null
	ceph-authtool --create-keyring "$dir/client.admin.keyring" \
		--gen-key -n client.admin --cap mon 'allow *' \
		--cap osd 'allow *' --cap mds 'allow *' --cap mgr 'allow *' >/dev/null
	ceph-authtool "$dir/mon.keyring" \
		--import-keyring "$dir/client.admin.keyring" >/dev/null
	monmaptool --create --fsid "$fsid" \
		--addv a "[v2:$addr:$port]" "$dir/monmap" >/dev/null
	ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" \
		--keyring "$dir/mon.keyring"
	ceph-mon -c "$conf" -i a 2>>"$dir/log/ceph-up.log" ||
		die "ceph-mon did not start: $dir/log/mon.a.log"
	wait_for "the monitor" c mon stat
	say "monitor up at $addr:$port ($((SECONDS - t0)) s)"

	# OSD: an id, a key, an empty store.
	uuid=$(cat /proc/sys/kernel/random/uuid)
	id=$(c osd new "$uuid")
	[ "$id" = 0 ] || die "expected osd.0, got osd.$id"
	ceph-osd -c "$conf" -i 0 --mkfs --mkkey --no-mon-config --osd-uuid "$uuid" \
		--keyring "$dir/osd.0.keyring" >/dev/null 2>"$dir/log/osd-mkfs.err" ||
		die "ceph-osd --mkfs failed: $(cat "$dir/log/osd-mkfs.err")"
	c auth add osd.0 osd 'allow *' mon 'allow profile osd' \
		mgr 'allow profile osd' -i "$dir/osd.0.keyring" >/dev/null 2>>"$dir/log/ceph-up.log"
	ceph-osd -c "$conf" -i 0 2>>"$dir/log/ceph-up.log" ||
		die "ceph-osd did not start: $dir/log/osd.0.log"
	wait_for "osd.0" sh -c "ceph -c '$conf' --connect-timeout 30 osd dump | grep -q '^osd.0 up'"
	say "osd.0 up ($store) ($((SECONDS - t0)) s)"

	# Pools and the file system, the state pool beside it.
	{
		c osd pool create cephfs_metadata 8
		c osd pool create cephfs_data 8
		c osd pool create smbsrv 8
		c osd pool application enable smbsrv smbsrv
		c fs new cephfs cephfs_metadata cephfs_data
	} >/dev/null 2>>"$dir/log/ceph-up.log"

	c auth get-or-create mds.a mon 'allow profile mds' osd 'allow rwx' \
		mds 'allow' -o "$dir/mds.a.keyring" >/dev/null
	ceph-mds -c "$conf" -i a >/dev/null 2>>"$dir/log/ceph-up.log" ||
		die "ceph-mds did not start: $dir/log/mds.a.log"
	wait_for "an active MDS" mds_active
	say "mds.a active ($((SECONDS - t0)) s)"

	# The key smbsrv nodes get: the file system, the state pool (rwx:
	# class methods such as cls_lock), blocklisting a dead node.
	c auth get-or-create client.smbsrv \
		mon 'allow r, allow command "osd blocklist"' \
		mds 'allow rw' \
		osd 'allow rw tag cephfs data=cephfs, allow rwx pool=smbsrv' \
		-o "$dir/client.smbsrv.keyring" >/dev/null
	wait_for "writes to the state pool" pool_writes
	cat > "$dir/env" <<EOF
CEPH_CONF=$conf
CEPH_FSID=$fsid
CEPH_MON=$addr:$port
CEPH_SMBSRV_KEY=$(ceph-authtool -p -n client.smbsrv "$dir/client.smbsrv.keyring")
EOF
	trap - EXIT
	say "up in $((SECONDS - t0)) s: CEPH_CONF=$conf"
}

stop_daemons() {
	local pids pid left=""
	pids=$(our_pids)
	# shellcheck disable=SC2086 # one pid a word
	[ -z "$pids" ] || kill -TERM $pids 2>/dev/null || true
	for _ in $(seq 1 30); do
		left=""
		for pid in $pids; do
			[ -d "/proc/$pid" ] && left="$left $pid"
		done
		[ -n "$left" ] || break
		sleep 1
	done
	# shellcheck disable=SC2086
	[ -z "$left" ] || kill -KILL $left 2>/dev/null || true
}

do_down() {
	[ -d "$dir" ] || return 0
	stop_daemons
	rm -rf "$dir"
	say "down"
}

do_status() {
	local pid total=0 rss
	[ -f "$conf" ] || die "no cluster in $dir"
	for pid in $(our_pids); do
		rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
		total=$((total + rss))
		printf '%-8s pid %-7s rss %6d KiB\n' \
			"$(cat "/proc/$pid/comm")" "$pid" "$rss"
	done
	printf 'total rss %d MiB\n' $((total / 1024))
	c -s
	c mds stat
}

do_addrs() {
	local pid
	for pid in $(our_pids); do
		ss -ltnpH | grep -F "pid=$pid," | awk '{ print $4 }'
	done | sort -u
}

case $cmd in
up) do_up ;;
down) do_down ;;
status) do_status ;;
addrs) do_addrs ;;
*) die "usage: $0 up|down|status|addrs [DIR]" ;;
esac
