#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# interfaces and bind interfaces only: a guest with a second interface
# (dummy0, 192.168.77.1/24) beside lo and eth0 (10.0.2.15, where the
# host's forwarded port arrives).  smbsrv must listen exactly where told
# (ss in the guest, and connections: cifs mounts in the guest, smbclient
# from the host), move on reload without dropping established
# connections, keep listening where it did when nothing matches, and go
# back to every address.  One VM boot.
. "$(dirname "$0")/lib.sh"

t_vm_start
t_guest_check "dummy0 up with 192.168.77.1/24" '
set -e
modprobe dummy # creates dummy0 (numdummies=1)
ip link show dummy0 > /dev/null 2>&1 || ip link add dummy0 type dummy
ip addr add 192.168.77.1/24 dev dummy0
# No IPv6 link-local address on it: the checks below name every address.
echo 1 > /proc/sys/net/ipv6/conf/dummy0/disable_ipv6
ip link set dummy0 up'
t_guest_check "bind interfaces only = yes, interfaces = dummy0; smbsrvd -F started" '
set -e
mkdir -p /srv/data && chmod 777 /srv/data
cat > /etc/smbsrv/smbsrv.conf <<EOF2
[global]
	bind interfaces only = yes
	interfaces = dummy0
[data]
	path = /srv/data
	read only = no
EOF2
printf "alice-pw\n" | smbsrvctl user add alice
smbsrvd -F > /tmp/smbsrvd.log 2>&1 &
for i in $(seq 1 50); do
	smbsrvctl status | grep -q "^daemon: *running" && exit 0
	sleep 0.2
done
exit 1'

# What the guest listens on at port 445: the addresses, sorted, on one line.
listening() {
	vm_exec "$T_VM" "ss -Hltn 'sport = :445' | awk '{ print \$4 }' | sed 's/:445\$//' | sort | tr '\n' ' '"
}
mount_ok() { # ADDR MNT: a cifs mount through ADDR that writes and reads
	vm_exec "$T_VM" "set -e; mkdir -p $2; mount -t cifs //$1/data $2 -o username=alice,password=alice-pw,uid=1001,cache=none
		echo via-$1 > $2/via-$1; test \"\$(cat /srv/data/via-$1)\" = via-$1"
}
# A new connection (nosharesock: the cifs client would otherwise reuse one
# it has to that address, which stays up when smbsrv stops listening there).
mount_refused() { # ADDR: a cifs mount through ADDR is refused (ECONNREFUSED)
	vm_exec "$T_VM" "mkdir -p /mnt/r; mount -t cifs //$1/data /mnt/r -o username=alice,password=alice-pw,nosharesock 2>&1" |
		grep -q 'mount error(111)'
}
host_ls() {
	timeout 120 smbclient //127.0.0.1/data -p "$T_SMB_PORT" -U alice%alice-pw -m SMB3 -c ls
}

t_check_output "ss: listening on 192.168.77.1 only (not 127.0.0.1, 10.0.2.15, any)" \
	'^192\.168\.77\.1 $' listening
t_check_output "smbsrvctl status: TCP port 445 at 192.168.77.1" \
	'^listening: +TCP port 445 at 192\.168\.77\.1$' vm_exec "$T_VM" "smbsrvctl status"
t_check_output "smbsrvctl -j status: listen_addresses [\"192.168.77.1\"]" \
	'"listen_addresses":\["192\.168\.77\.1"\]' vm_exec "$T_VM" "smbsrvctl -j status"
t_check "a cifs mount through 192.168.77.1 works" mount_ok 192.168.77.1 /mnt/d
t_check "a cifs mount through 127.0.0.1 is refused" mount_refused 127.0.0.1
t_check_fail "smbclient from the host (arrives at 10.0.2.15) is refused" host_ls

t_guest_check "interfaces = 127.0.0.1 192.168.77.0/24, smbsrvctl reload" '
set -e
sed -i "s|interfaces = dummy0|interfaces = 127.0.0.1 192.168.77.0/24|" /etc/smbsrv/smbsrv.conf
n=$(grep -c "configuration reloaded" /tmp/smbsrvd.log || true)
smbsrvctl reload
for i in $(seq 1 50); do
	[ "$(grep -c "configuration reloaded" /tmp/smbsrvd.log)" -gt "$n" ] && exit 0
	sleep 0.2
done
exit 1'
t_check_output "ss: listening on 127.0.0.1 and 192.168.77.1 only" \
	'^127\.0\.0\.1 192\.168\.77\.1 $' listening
t_check "a cifs mount through 127.0.0.1 works now" mount_ok 127.0.0.1 /mnt/l
t_guest_check "the mount through 192.168.77.1 from before the reload still works" \
	'echo again > /mnt/d/again && test "$(cat /srv/data/again)" = again'

t_guest_check "interfaces = eth0, smbsrvctl reload" '
set -e
sed -i "s|interfaces = .*|interfaces = eth0|" /etc/smbsrv/smbsrv.conf
n=$(grep -c "configuration reloaded" /tmp/smbsrvd.log || true)
smbsrvctl reload
for i in $(seq 1 50); do
	[ "$(grep -c "configuration reloaded" /tmp/smbsrvd.log)" -gt "$n" ] && exit 0
	sleep 0.2
done
exit 1'
t_check_output "ss: listening on eth0's addresses only (10.0.2.15 and its IPv6 ones)" \
	'^10\.0\.2\.15( \[[0-9a-f:]+\](%eth0)?)* $' listening
t_check "smbclient from the host works now" host_ls
t_check "a new cifs mount through 127.0.0.1 is refused" mount_refused 127.0.0.1
t_guest_check "both mounts from before keep working" \
	'echo d > /mnt/d/d2 && echo l > /mnt/l/l2 && test "$(cat /srv/data/d2 /srv/data/l2)" = "d
l"'

t_guest_check "interfaces = eth9 (no such interface), reload: an error, listening kept" '
set -e
sed -i "s|interfaces = .*|interfaces = eth9|" /etc/smbsrv/smbsrv.conf
smbsrvctl reload
for i in $(seq 1 50); do
	grep -q "keeping the addresses listened on" /tmp/smbsrvd.log && break
	sleep 0.2
done
grep "interfaces: .eth9. matches no address" /tmp/smbsrvd.log
grep "bind interfaces only: no address of .interfaces. is up" /tmp/smbsrvd.log
smbsrvctl status | grep "^listening: *TCP port 445 at 10.0.2.15"'
t_check "smbclient from the host still works" host_ls

t_guest_check "bind interfaces only = no, reload: every address" '
set -e
sed -i "s|bind interfaces only = yes|bind interfaces only = no|" /etc/smbsrv/smbsrv.conf
smbsrvctl reload
for i in $(seq 1 50); do
	smbsrvctl status | grep -q "^listening: *TCP port 445, every address$" && exit 0
	sleep 0.2
done
smbsrvctl status; exit 1'
t_check_output "ss: one wildcard socket" '^(\*|\[::\]) $' listening
t_check "a cifs mount through 127.0.0.1 works again" mount_ok 127.0.0.1 /mnt/l2
t_check "smbclient from the host works" host_ls

t_guest_check "smbsrvd does not start when nothing in interfaces is up" '
kill $(cat /run/smbsrvd.pid); sleep 1
printf "[global]\n\tbind interfaces only = yes\n\tinterfaces = eth9\n" > /tmp/none.conf
smbsrvd -F -c /tmp/none.conf > /tmp/none.log 2>&1; rc=$?
cat /tmp/none.log
test $rc -ne 0 && grep -q "no address of .interfaces. is up" /tmp/none.log'
t_guest_check "umount" 'umount /mnt/d /mnt/l /mnt/l2'
t_dmesg_clean
t_done
