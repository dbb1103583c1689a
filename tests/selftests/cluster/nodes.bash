# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Two cluster nodes for a suite of make check-cluster (run through
# tools/cluster/check.sh, which runs it inside a network namespace with
# the test Ceph cluster on 10.0.2.100).  Source it after host/lib.sh:
#
#   . "$(dirname "$0")/nodes.bash"
#   cl_boot                     # guests c-a and c-b
#   for n in a b; do t_check "node $n up" node_up "$n"; done
#
# node_up N mounts the CephFS root on node N's /mnt/cephfs and exports
# /mnt/cephfs/$CL_DIR as shares "cl" (oplocks = no) and "lc" (oplocks and
# leases) with clustering = yes under node name node-N, user demo
# (password demo) known; single_up N restarts node N's module and daemon
# with clustering off, the same shares on the same mount.
# Knobs, set before sourcing:
#   CL_NAME    the cluster's name (its RADOS namespace; default check)
#   CL_DIR     the shares' directory under the CephFS root (default share)
#   CL_SHARES  more share sections for the nodes' configuration
CL_NAME=${CL_NAME:-check}
CL_DIR=${CL_DIR:-share}
: "${CEPH_DIR:?run through tools/cluster/check.sh}"
# shellcheck source=/dev/null
. "$CEPH_DIR/env"
mon_port=${CEPH_MON##*:}

# Each Ceph daemon port the guests must reach: QEMU runs busybox nc per
# connection to it (a guestfwd to a chardev takes one connection only).
fwd=""
for a in $("$T_TOP/tools/cluster/ceph-up.sh" addrs "$CEPH_DIR"); do
	p=${a##*:}
	fwd+="${fwd:+,}guestfwd=tcp:10.0.2.100:$p-cmd:busybox nc 10.0.2.100 $p"
done

# cl_boot: boot nodes a and b (guests c-a and c-b) with the cluster
# image; the suite ends (t_done) if one does not boot.
cl_boot() {
	local initrd n v
	initrd=$("$T_TOP/tools/cluster/layer.sh") || { t_not_ok "build the cluster VM image"; t_done; }
	T_VMS=()
	for n in a b; do
		if ! SMBSRV_VM_INITRD=$initrd SMBSRV_VM_NETDEV=$fwd vm_start "c-$n"; then
			t_not_ok "boot node $n"
			for v in "${T_VMS[@]}"; do vm_stop "$v"; done
			t_done
		fi
		T_VMS+=("c-$n")
		t_diag "node $n booted in $(cat "$(vm_dir "c-$n")/boot-seconds") s; SMB on 127.0.0.1:$(vm_port "c-$n" smb)"
	done
}

node_up() {
	local n=$1
	vm_exec "c-$n" "
set -e
modprobe netfs
modprobe libcrc32c
insmod /usr/lib/smbsrv-cluster/libceph.ko
insmod /usr/lib/smbsrv-cluster/ceph.ko
mkdir -p /mnt/cephfs /etc/ceph
mount -t ceph 10.0.2.100:$mon_port:/ /mnt/cephfs -o name=smbsrv,secret=$CEPH_SMBSRV_KEY,ms_mode=crc,recover_session=clean
# The daemon reads its CephFS client's address there (for fencing).
[ -d /sys/kernel/debug/ceph ] || mount -t debugfs debugfs /sys/kernel/debug
mkdir -p /mnt/cephfs/$CL_DIR
chmod 777 /mnt/cephfs/$CL_DIR
cat > /etc/ceph/ceph.conf <<EOF2
[global]
fsid = $CEPH_FSID
mon_host = [v2:10.0.2.100:$mon_port]
auth_client_required = cephx
keyring = /etc/ceph/client.smbsrv.keyring
ms_mode = crc
log_to_stderr = false
EOF2
printf '[client.smbsrv]\n\tkey = %s\n' '$CEPH_SMBSRV_KEY' > /etc/ceph/client.smbsrv.keyring
cat > /etc/smbsrv/cluster.conf <<EOF2
[global]
	tcp port = 445
	map to guest = bad user
	clustering = yes
	cluster node name = node-$n
	cluster ceph conf = /etc/ceph/ceph.conf
	cluster ceph user = smbsrv
	cluster state store = rados:smbsrv
	cluster name = $CL_NAME
	smb2 leases = yes
[cl]
	path = /mnt/cephfs/$CL_DIR
	read only = no
	guest ok = yes
	oplocks = no
[lc]
	path = /mnt/cephfs/$CL_DIR
	read only = no
	guest ok = yes
${CL_SHARES:-}
EOF2
echo demo | smbsrvctl -c /etc/smbsrv/cluster.conf user add demo >/dev/null
modprobe smbsrv
$daemon_up
"
}

# Start smbsrvd in a node and wait until it attached to the module.
daemon_up='
smbsrvd -F -c /etc/smbsrv/cluster.conf >> /tmp/smbsrvd.log 2>&1 &
for i in $(seq 1 120); do
	[ "$(grep -c "attached to smbsrv" /tmp/smbsrvd.log)" -gt "${1:-0}" ] && exit 0
	kill -0 $! 2>/dev/null || break
	sleep 0.5
done
cat /tmp/smbsrvd.log
exit 1
'

# Clustering off in the same guest: the cluster's smbsrvd stopped if it
# runs, the module reloaded (its cluster branch goes with it), the same
# shares on the same CephFS mount.
single_up() {
	vm_exec "c-$1" '
if pidof smbsrvd >/dev/null; then
	kill $(pidof smbsrvd)
	for i in $(seq 1 120); do pidof smbsrvd >/dev/null || break; sleep 0.5; done
fi
rmmod smbsrv && modprobe smbsrv || exit 1
grep -Ev "^[[:space:]]*(clustering|cluster )" /etc/smbsrv/cluster.conf > /etc/smbsrv/single.conf
smbsrvd -F -c /etc/smbsrv/single.conf > /tmp/single.log 2>&1 &
for i in $(seq 1 120); do
	grep -q "attached to smbsrv" /tmp/single.log && exit 0
	kill -0 $! 2>/dev/null || break
	sleep 0.5
done
cat /tmp/single.log; exit 1'
}
