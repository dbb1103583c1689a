#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make bench`: READ (and QD1/QD4 latency) benchmark of smbsrv beside the
# in-tree ksmbd and nfsd (NFSv4.2), in one VM boot, under the
# instruction-count clock by default (Documentation/benchmarks.md, "The
# READ benchmark").  Each server serves its own tmpfs; the guest's kernel
# clients mount them over loopback with client caching bypassed (cifs
# cache=none, fio --direct=1, libaio).  Sections:
#
#   matrix   sequential READ, 4K/64K/1M x QD1/QD8 x 1/4 jobs, every server
#   sweep    sequential READ 4K..1M at QD8, 1 job: smbsrv splicing every
#            READ (splice threshold 4K) and never (copy), ksmbd, nfsd
#   latency  READ and WRITE, 4K and 1M, QD1 and QD4, 1 job: fio clat
#            p50/p99 for smbsrv, ksmbd, nfsd
#   signed   1M READ at QD1 and QD8, 1 job, through mounts with `sign`:
#            smbsrv (default knobs) and ksmbd
#   lease    client caching: a buffered 1M READ of a 128 MiB file and
#            its re-READ through cifs mounts with cache=strict, smbsrv
#            and ksmbd both with `smb2 leases = yes`, and smbsrv with
#            `oplocks = no` (no caching) for reference
#            (tools/bench/guest/reread.sh); under a read-caching lease
#            the client re-reads from its own page cache
#   meta     small files and metadata (tools/bench/guest/meta.sh): create,
#            write and close FILES files of 4 KiB in a tree of 10 x 10
#            directories, stat the tree cold (after a remount) and warm,
#            rename every file, delete all, through fresh cifs
#            (cache=strict) and NFSv4.2 mounts: smbsrv with leases on and
#            off, ksmbd (leases on), Samba's smbd where the deps have it
#            (the guest then boots the image with Samba), nfsd, and the
#            loops on the tmpfs itself (local); every file checked on the
#            server's tmpfs (not in the default sections: --sections meta,
#            make bench SECTIONS=meta; --meta-files N, default 500)
#   write    WRITE, 4K, 64K and 1M, QD1 x 1 and QD8 x 4 jobs: smbsrv
#            (min receivefile size 64K: one copy from 64 KiB),
#            smbsrv-wcopy (min receivefile size 0: every WRITE copied
#            twice, as before) and ksmbd (not in the default sections:
#            --sections write; --sizes picks the sizes)
#   write-signed  the same WRITEs, 64K and 1M, through the signed mounts:
#            smbsrv-sign (min receivefile size 64K: the signature checked
#            over the received pages, one copy), smbsrv-sign-wcopy (min
#            receivefile size 0: copied twice) and ksmbd-sign (not in the
#            default sections: --sections write-signed; --sizes as above)
#   write-sealed  the same WRITEs, 1M, through the sealed mounts (AES-128-GCM):
#            smbsrv-seal (min receivefile size 64K: decrypted out of the
#            received pages into the server's own, one copy), smbsrv-seal-wcopy
#            (min receivefile size 0: received into a buffer, decrypted
#            there, copied) and ksmbd-seal (not in the default sections:
#            --sections write-sealed; --sizes as above)
#   audit    READ and WRITE, 4K and 1M, QD1 x 1 and QD8 x 4 jobs, smbsrv
#            through its bench share and through a share with the audit
#            trail on (smbsrv-audit): what auditing costs the data path
#            (not in the default sections: --sections audit)
#   small    4K READ and WRITE, QD1 x 1 and QD8 x 4 jobs, smbsrv and
#            ksmbd: the per-request cost of small I/O, with guest
#            instructions per request under the instruction clock (not in
#            the default sections: --sections small)
#   conns    the seeds' table: 4K, 64K and 1M x READ, WRITE and 50/50
#            mixed (half the jobs READ, half WRITE) x 1, 2 and 4
#            connections, 4 jobs at QD8 spread over the connections:
#            smbsrv and ksmbd (cifs mounts of their own, nosharesock,
#            SERVER.cN), nfsd (one mount with nconnect=N, nfsd.cN), and
#            one multichannel mount of 2 channels (SERVER.mc2) (not in the
#            default sections: --sections conns; --sizes as above)
#   conns-sealed  the same through sealed mounts (AES-128-GCM), READ and
#            WRITE, 1 and 4 connections: smbsrv-seal.cN, ksmbd-seal.cN
#            (not in the default sections: --sections conns-sealed)
#
# Every run checks its data (tools/bench/guest/run.sh).  smbsrv's
# variants (default knobs, copy only, no inline reads) are switched live
# with smbsrvctl set.  Raw results go to build/bench/RUN/ (one file per
# run), the tables and the plot are written by tools/bench/report.py.
#
#   tools/bench/bench.sh [--quick] [--secs S] [--clock icount|tcg]
#       [--cpu MODEL] [--rounds N] [--sections "matrix sweep signed latency"]
#       [--servers "smbsrv ksmbd ..."] [--sweep-servers "..."]
#       [--sizes "4k 1m"] [--qds "1 8"] [--jobs "1 4"] (the matrix's
#       READ sizes, queue depths, fio jobs)
#       [--extra "SERVER read BS QD JOBS, ..."] (more cells)
#       [--verify meta|crc32c] [--out DIR | --resume DIR]
#       [--meta-files N] [--meta-servers "smbsrv ksmbd ..."]
#       [--small-servers "smbsrv-d0 smbsrv-d1"] (more servers in section
#       small's cells, beside smbsrv and ksmbd) [--small-cells "1x1 8x4"]
#       (its QDxJOBS cells)
#
# --quick: 4K and 1M READ at QD1 and QD8 (1 job) and the latency cells at
# 4K/1M QD1, smbsrv vs ksmbd vs nfsd, 3 s runs: a few minutes.
# --resume DIR: run what DIR's plan still lacks (a cell whose servers did
# not all finish is run again whole, in this boot).  A guest that dies
# (the instruction-count clock's known double fault, VM-NOTES.md) is
# booted again, once per crash up to 5 times; its console log is kept in
# DIR/crash-N.log and the crash counted in DIR/meta.
# Servers: smbsrv (default knobs), smbsrv-d0 and smbsrv-d1 (the module's
# inline_depth switch at 0 and 1: no request at depth inline but READs,
# and small WRITEs too but no response held), smbsrv-wcopy (min receivefile size 0),
# smbsrv-r4k (min receivefile size 4K: 4 KiB WRITEs received into pages),
# smbsrv-l0 (the module's recv_lean switch at 0),
# smbsrv-splice (splice threshold 4K),
# smbsrv-copy (splice threshold 0: off), smbsrv-noinline (inline reads
# no), smbsrv-sign and ksmbd-sign (signed mounts), smbsrv-sign-wcopy
# (signed, min receivefile size 0), smbsrv-seal, smbsrv-seal-wcopy and
# ksmbd-seal (the same through sealed mounts), ksmbd, nfsd; in the
# lease section smbsrv-lease, ksmbd-lease and smbsrv-nolease (cache=strict
# mounts; smbsrv-nolease: a share with oplocks = no); smbsrv-audit (the
# default knobs through a share with the audit trail on; section audit:
# its READ and WRITE cells beside smbsrv's).
# Environment: SMBSRV_VM_SMP, SMBSRV_VM_MEM as for tools/vm/lib.sh;
# SMBSRV_BENCH_VM names the guest (default bench), so that two runs (two
# CPU models) can go at once from one tree.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/lib.sh"

# All of it in a function: bash then parses the whole script before
# running any of it, so editing or checking out this file during a run of
# an hour or two cannot derail the run.
main() {
quick=0
secs=""
clock=icount
cpu=max
rounds=1
sections="matrix sweep signed latency lease"
servers=""
sizes_opt=""
qds_opt=""
sweep_servers=""
out=""
verify=meta
resume=0
extra=""
jobs_opt=""
meta_files=500
meta_servers=""
small_servers=""
small_cells="1x1 8x4"
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--secs) secs=$2; shift ;;
	--clock) clock=$2; shift ;;
	--cpu) cpu=$2; shift ;;
	--rounds) rounds=$2; shift ;;
	--sections) sections=$2; shift ;;
	--servers) servers=$2; shift ;;
	--sizes) sizes_opt=$2; shift ;;
	--qds) qds_opt=$2; shift ;;
	--jobs) jobs_opt=$2; shift ;;
	--sweep-servers) sweep_servers=$2; shift ;;
	--out) out=$2; shift ;;
	--resume) out=$2; resume=1; shift ;;
	--verify) verify=$2; shift ;;
	--extra) extra=$2; shift ;;
	--meta-files) meta_files=$2; shift ;;
	--meta-servers) meta_servers=$2; shift ;;
	--small-servers) small_servers=$2; shift ;;
	--small-cells) small_cells=$2; shift ;;
	*) sed -n '3,50s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
	shift
done

file_mb=128
# A meta-only run needs the READ files only for the final check.
[ "$(echo $sections)" = meta ] && file_mb=16
# Samba's smbd joins the meta section where tools/deps.sh unpacked it.
case " $sections " in
*" meta "*)
	if [ -x "$top/.deps/samba/usr/sbin/smbd" ]; then
		export SMBSRV_VM_SAMBA=1
		meta_servers=${meta_servers:-"smbsrv smbsrv-nolease ksmbd samba nfsd local"}
	else
		meta_servers=${meta_servers:-"smbsrv smbsrv-nolease ksmbd nfsd local"}
	fi ;;
esac
if [ $quick = 1 ]; then
	secs=${secs:-3}
	sizes_matrix="4k 1m"
	qds_matrix="1 8"
	jobs_matrix="1"
	sections_q=""
	for s in $sections; do
		case $s in sweep | signed) ;; *) sections_q="$sections_q $s" ;; esac
	done
	sections=$sections_q
	servers=${servers:-"smbsrv ksmbd nfsd"}
	lat_sizes="4k 1m"
	lat_qds="1"
else
	secs=${secs:-4}
	sizes_matrix="4k 64k 1m"
	qds_matrix="1 8"
	jobs_matrix="1 4"
	servers=${servers:-"smbsrv smbsrv-copy smbsrv-noinline ksmbd nfsd"}
	lat_sizes="4k 1m"
	lat_qds="1 4"
fi
sizes_matrix=${sizes_opt:-$sizes_matrix}
qds_matrix=${qds_opt:-$qds_matrix}
jobs_matrix=${jobs_opt:-$jobs_matrix}
sweep_sizes="4k 8k 16k 32k 64k 128k 256k 512k 1m"
sweep_servers=${sweep_servers:-"smbsrv-splice smbsrv-copy ksmbd nfsd"}
# Latency cells: smbsrv (default knobs) and the rivals that were asked for.
lat_servers=$(for s in smbsrv ksmbd nfsd; do
	case " $servers " in *" $s "*) printf '%s ' "$s" ;; esac
done)

commit=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
stamp=$(date -u +%Y%m%d-%H%M%S)
out=${out:-$top/build/bench/$stamp-$clock}
mkdir -p "$out/runs"

# The run plan: unique (server rw bs qd jobs) keys, cells in order, the
# servers of a cell rotated so that no server always runs first.
plan=$out/plan
[ $resume = 1 ] && [ -f "$plan" ] || : > "$plan"
add_cell() {	# SERVERS RW BS QD JOBS
	local s
	for s in $1; do
		grep -qx "$s $2 $3 $4 $5" "$plan" || echo "$s $2 $3 $4 $5" >> "$plan"
	done
}
[ $resume = 1 ] && [ -s "$plan" ] && sections=""
for sec in $sections; do
	case $sec in
	matrix)
		for bs in $sizes_matrix; do for qd in $qds_matrix; do
			for j in $jobs_matrix; do
				add_cell "$servers" read "$bs" "$qd" "$j"
			done
		done; done ;;
	sweep)
		for bs in $sweep_sizes; do
			add_cell "$sweep_servers" read "$bs" 8 1
		done ;;
	latency)
		for rw in read write; do for bs in $lat_sizes; do
			for qd in $lat_qds; do
				add_cell "$lat_servers" "$rw" "$bs" "$qd" 1
			done
		done; done ;;
	signed)
		for qd in 1 8; do
			add_cell "smbsrv-sign ksmbd-sign" read 1m "$qd" 1
		done ;;
	lease)
		add_cell "smbsrv-lease ksmbd-lease smbsrv-nolease" reread 1m 1 1 ;;
	meta)
		# FILES over 10 x 10 directories (the run's BS QD JOBS fields).
		add_cell "$meta_servers" meta "$meta_files" 10 10 ;;
	write)
		for bs in ${sizes_opt:-4k 64k 1m}; do
			add_cell "smbsrv smbsrv-wcopy ksmbd" write "$bs" 1 1
			add_cell "smbsrv smbsrv-wcopy ksmbd" write "$bs" 8 4
		done ;;
	write-signed)
		for bs in ${sizes_opt:-64k 1m}; do
			add_cell "smbsrv-sign smbsrv-sign-wcopy ksmbd-sign" write "$bs" 1 1
			add_cell "smbsrv-sign smbsrv-sign-wcopy ksmbd-sign" write "$bs" 8 4
		done ;;
	small)
		for rw in read write; do for c in $small_cells; do
			add_cell "smbsrv ksmbd $small_servers" "$rw" 4k "${c%x*}" "${c#*x}"
		done; done ;;
	write-sealed)
		for bs in ${sizes_opt:-1m}; do
			add_cell "smbsrv-seal smbsrv-seal-wcopy ksmbd-seal" write "$bs" 1 1
			add_cell "smbsrv-seal smbsrv-seal-wcopy ksmbd-seal" write "$bs" 8 4
		done ;;
	conns)
		for bs in ${sizes_opt:-4k 64k 1m}; do for rw in read write mixed; do
			add_cell "smbsrv.c1 ksmbd.c1 nfsd.c1 smbsrv.c2 ksmbd.c2 nfsd.c2
				smbsrv.c4 ksmbd.c4 nfsd.c4 smbsrv.mc2 ksmbd.mc2" "$rw" "$bs" 8 4
		done; done ;;
	conns-sealed)
		for bs in ${sizes_opt:-4k 64k 1m}; do for rw in read write; do
			add_cell "smbsrv-seal.c1 ksmbd-seal.c1 smbsrv-seal.c4 ksmbd-seal.c4" "$rw" "$bs" 8 4
		done; done ;;
	audit)
		for rw in read write; do for bs in 4k 1m; do
			add_cell "smbsrv smbsrv-audit" "$rw" "$bs" 1 1
			add_cell "smbsrv smbsrv-audit" "$rw" "$bs" 8 4
		done; done ;;
	*) echo "bench: unknown section $sec" >&2; exit 2 ;;
	esac
done
if [ -n "$sections" ] && [ -n "$extra" ]; then
	while read -r s rw bs qd j; do
		[ -n "$s" ] && add_cell "$s" "$rw" "$bs" "$qd" "$j"
	done < <(tr ',' '\n' <<< "$extra")
fi

export SMBSRV_VM_CLOCK=$clock SMBSRV_VM_CPU=$cpu
export SMBSRV_VM_EXEC_TIMEOUT=$((secs * 60 + 600))
case " $sections " in *" meta "*) SMBSRV_VM_EXEC_TIMEOUT=$((meta_files + 1800)) ;; esac
trap 'vm_stop "$vm" >/dev/null 2>&1 || true' EXIT

[ $resume = 1 ] && [ -f "$out/meta" ] || {
	echo "commit $commit"
	echo "date $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "clock $clock"
	echo "cpu $cpu"
	echo "smp ${SMBSRV_VM_SMP:-2}"
	echo "kernel $VM_KVER"
	echo "secs $secs"
	echo "rounds $rounds"
	echo "file_mb $file_mb"
	echo "verify $verify"
	echo "meta_files $meta_files"
	echo "meta_dirs 110"
	echo "meta_size 4096"
	echo "host_load $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/meta"

if [ $resume = 1 ]; then
	secs=$(sed -n 's/^secs //p' "$out/meta")
	rounds=$(sed -n 's/^rounds //p' "$out/meta")
	verify=$(sed -n 's/^verify //p' "$out/meta")
	# The clock and CPU model the run began with, not this command's.
	clock=$(sed -n 's/^clock //p' "$out/meta")
	cpu=$(sed -n 's/^cpu //p' "$out/meta")
	export SMBSRV_VM_CLOCK=$clock SMBSRV_VM_CPU=$cpu
	[ "$(sed -n 's/^commit //p' "$out/meta")" = "$commit" ] ||
		echo "bench: resuming a run of commit $(sed -n 's/^commit //p' "$out/meta") with $commit" >&2
fi
vm_initramfs >/dev/null
boot || exit 1
grep -q '^qemu ' "$out/meta" || echo "qemu $(cat "$(vm_dir "$vm")/clock")" >> "$out/meta"

# The knob settings of an smbsrv variant, applied before each of its runs
# (splice threshold 0: never splice).  SERVER.cN and SERVER.mcN (section
# conns) are SERVER on N connections or channels.
variant() {
	# The module's inline_depth switch (testing.md, "Same-boot
	# comparisons"): smbsrv-d0 neither path, smbsrv-d1 small WRITEs at
	# depth inline but no response held; every other variant both (3).
	# And its recv_lean switch: smbsrv-l0 the receive without the
	# carry, the lazy frame timer and the end of a run on an empty
	# socket; every other variant all three (7).
	local d=/sys/module/smbsrv/parameters/inline_depth
	local l=/sys/module/smbsrv/parameters/recv_lean
	case ${1%.*} in
	# (In a subshell: the caller sends the whole command's output to
	# /dev/null, which would override a bare echo's redirection.)
	smbsrv-d0) echo "$(variant smbsrv) && (echo 0 > $d)"; return ;;
	smbsrv-d1) echo "$(variant smbsrv) && (echo 1 > $d)"; return ;;
	smbsrv-l0) echo "$(variant smbsrv) && (echo 0 > $l)"; return ;;
	smbsrv*) printf '(echo 3 > %s) && (echo 7 > %s) && ' "$d" "$l" ;;
	esac
	case ${1%.*} in
	smbsrv) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads yes && smbsrvctl set min-receivefile-size 64K" ;;
	smbsrv-wcopy) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads yes && smbsrvctl set min-receivefile-size 0" ;;
	smbsrv-r4k) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads yes && smbsrvctl set min-receivefile-size 4K" ;;
	smbsrv-copy) echo "smbsrvctl set splice-threshold 0 && smbsrvctl set inline-reads yes" ;;
	smbsrv-splice) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads yes" ;;
	smbsrv-noinline) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads no" ;;
	smbsrv-sign) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads yes && smbsrvctl set min-receivefile-size 64K" ;;
	smbsrv-sign-wcopy) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads yes && smbsrvctl set min-receivefile-size 0" ;;
	smbsrv-seal) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads yes && smbsrvctl set min-receivefile-size 64K" ;;
	smbsrv-seal-wcopy) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads yes && smbsrvctl set min-receivefile-size 0" ;;
	smbsrv-lease | smbsrv-nolease | smbsrv-audit) echo "smbsrvctl set splice-threshold 4K && smbsrvctl set inline-reads yes" ;;
	*) echo : ;;
	esac
}

mount_of() {
	set -- "${1%.*}"
	case $1 in smbsrv-sign*) echo smbsrv-sign ;; smbsrv-seal*) echo smbsrv-seal ;; *-sign | *-seal | smbsrv-audit) echo "$1" ;; smbsrv*) echo smbsrv ;; *) echo "$1" ;; esac
}

# run.sh's CONNS [MC] of a server name: SERVER.cN, SERVER.mcN, SERVER.
conns_of() {
	case $1 in
	*.c[0-9]*) echo "${1##*.c}" ;;
	*.mc[0-9]*) echo "${1##*.mc} mc" ;;
	*) echo 1 ;;
	esac
}

# The guest's command for one run.
run_cmd() {	# SERVER RW BS QD JOBS
	case $2 in
	reread) echo "sh /usr/share/smbsrv/bench/reread.sh $1 $3" ;;
	meta) echo "sh /usr/share/smbsrv/bench/meta.sh $1 $3 $4 $5 4096" ;;
	*) echo "sh /usr/share/smbsrv/bench/run.sh $(mount_of "$1") $2 $3 $4 $5 $secs $(conns_of "$1")" ;;
	esac
}

total=$(($(wc -l < "$plan") * rounds))
n=0
failed=0
t0=$(date +%s)
mapfile -t cells < <(awk '{ print $2, $3, $4, $5 }' "$plan" | awk '!seen[$0]++')
for r in $(seq 1 "$rounds"); do
	ci=0
	for cell in "${cells[@]}"; do
		read -r rw bs qd jobs <<< "$cell"
		mapfile -t who < <(awk -v c="$cell" '$2" "$3" "$4" "$5 == c { print $1 }' "$plan")
		k=${#who[@]}
		if [ $resume = 1 ]; then
			done_all=1
			for s in "${who[@]}"; do
				good "$out/runs/$r-$s-$rw-$bs-$qd-$jobs" || done_all=0
			done
			if [ $done_all = 1 ]; then
				n=$((n + k))
				ci=$((ci + 1))
				continue
			fi
		fi
		for ((try = 1; try <= 2; try++)); do
			crashed=0
			for ((i = 0; i < k; i++)); do
				s=${who[$(((i + ci + r) % k))]}
				f="$out/runs/$r-$s-$rw-$bs-$qd-$jobs"
				vm_exec "$vm" "$(variant "$s") >/dev/null &&
					$(run_cmd "$s" "$rw" "$bs" "$qd" "$jobs")" \
					> "$f" 2>&1 || true
				if ! vm_alive "$vm"; then
					crashed=1
					break
				fi
				printf 'bench: %d/%d %s %s %s QD%s x%s (%ds)\n' $((n + i + 1)) "$total" \
					"$s" "$rw" "$bs" "$qd" "$jobs" $(($(date +%s) - t0)) >&2
			done
			[ $crashed = 1 ] || break
			# The guest died: keep its console, boot again, run the
			# whole cell again in the new boot.
			crashes=$(($(sed -n 's/^crashes //p' "$out/meta" | tail -n1) + 0 + 1))
			cp "$(vm_dir "$vm")/console.log" "$out/crash-$crashes.log"
			sed -i '/^crashes /d' "$out/meta"
			echo "crashes $crashes" >> "$out/meta"
			echo "bench: the guest died during $s $rw $bs QD$qd x$jobs" \
				"(crash $crashes, $out/crash-$crashes.log); booting again" >&2
			[ "$crashes" -le 5 ] && boot || { echo "bench: giving up" >&2; exit 1; }
		done
		for s in "${who[@]}"; do
			f="$out/runs/$r-$s-$rw-$bs-$qd-$jobs"
			good "$f" || { echo "bench: $f: fio or its data check failed:" >&2
				{ grep '^@@err' "$f" || true; } | tail -n 5 >&2; failed=$((failed + 1)); }
		done
		n=$((n + k))
		ci=$((ci + 1))
	done
done
# The whole file once more, byte for byte, through every mount.
vm_exec "$vm" 'for s in smbsrv ksmbd nfsd smbsrv-sign ksmbd-sign smbsrv-lease ksmbd-lease smbsrv-nolease smbsrv-audit; do
	[ "$(dd if=/mnt/$s/read.bin bs=1M 2>/dev/null | md5sum | cut -d" " -f1)" = "$(cat /tmp/read.md5)" ] ||
		{ echo "read.bin differs through /mnt/$s"; exit 1; }
done; dmesg | grep -E "BUG|WARNING|Oops" || true' > "$out/final.log" 2>&1 ||
	{ cat "$out/final.log" >&2; failed=$((failed + 1)); }
vm_stop "$vm" >/dev/null 2>&1 || true
trap - EXIT

/usr/bin/python3 "$top/tools/bench/report.py" "$out"
echo "bench: results in $out (${failed} failed runs)" >&2
[ "$failed" = 0 ]
}

# A run's result file: fio and its data check succeeded.
good() {
	grep -q '^@@fio-rc 0$' "$1" 2>/dev/null && grep -q '^@@verify-rc 0$' "$1"
}

# Boot the guest and set the servers up; counts boots in the meta file.
boot() {
	vm_stop "$vm" >/dev/null 2>&1 || true
	vm_start "$vm" >/dev/null || return 1
	local b
	b=$(($(sed -n 's/^boots //p' "$out/meta" | tail -n1) + 0 + 1))
	sed -i '/^boots /d' "$out/meta"
	echo "boots $b" >> "$out/meta"
	vm_exec "$vm" "sh /usr/share/smbsrv/bench/setup.sh $file_mb $verify" \
		> "$out/setup.log" 2>&1 || {
		cat "$out/setup.log" >&2
		echo "bench: guest setup failed" >&2
		return 1
	}
}

vm=${SMBSRV_BENCH_VM:-bench}
main "$@"
