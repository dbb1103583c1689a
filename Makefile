# SPDX-License-Identifier: GPL-2.0-or-later
#
# smbsrv: the only entry point a user needs.
#
#   make deps    install build/test dependencies (Debian 12, root), pin kernel
#   make deps-cluster  also the Ceph test bed of cluster mode
#                (tools/cluster/ceph-up.sh)
#   make         build smbsrv.ko, smbsrvd, smbsrvctl
#   make run     build, boot the test VM serving a share to a demo user, use
#                it with smbclient and a cifs mount, print what to try
#   make check   build and run every test; last line "N passed, N failed"
#   make check-long  the long VM runs outside CI (30 s races, ...)
#   make check-cluster  cluster mode: a Ceph test cluster and two smbsrv
#                guests on one CephFS (outside make check; deps-cluster)
#   make bench-cluster  1 MiB READ and WRITE through one cluster node and
#                through two at once (minutes; never in make check)
#   make check-debug  (or make check KERNEL=debug) the VM suites on the
#                debug kernel (KASAN, lockdep, kmemleak, UBSAN; built once
#                by make debug-kernel, hours on a busy 2-core machine;
#                never in CI); VM_FILTER=REGEX picks suites,
#                DEBUG_SUITES=long the long ones
#   make regen   regenerate netlink code from Documentation/netlink/specs
#   make lint    checkpatch --strict, sparse, generated-code freshness
#   make bench   benchmarks in the test VM (never part of make check;
#                about 1-2 hours; make bench-quick: a few minutes;
#                make bench-logon: Kerberos vs NTLMv2 logons, minutes)
#   make fuzz    the long fuzzing campaign: every libFuzzer target for 10^7
#                runs or an hour (FUZZ_RUNS, FUZZ_SECONDS), new coverage
#                merged into tests/fuzz/corpus (make check: 5 s each)
#   make torture-cache  smbtorture's oplock, lease, durable handle and
#                session suites whole, beside ksmbd (16 minutes under load)
#   make torture-replay  smbtorture's replay and async compound suites
#                beside ksmbd and Samba (make check runs smbsrv's alone)
#   make torture-fruit  smbtorture's vfs.fruit suites beside Samba and
#                ksmbd (make check runs smbsrv's alone)
#   make install [DESTDIR=...]  daemon, CLI, module sources for DKMS,
#                systemd unit, example configuration, man pages

TOP	:= $(CURDIR)
BUILD	:= $(TOP)/build
KVER	?= $(shell cat $(TOP)/.kver 2>/dev/null)
KDIR	?= /lib/modules/$(KVER)/build
JOBS	?= $(shell nproc)
CMAKE_BUILD_TYPE ?= RelWithDebInfo

export KVER

.PHONY: all deps deps-cluster deps-fstests fstests kmod userd run check check-long check-cluster unit lint regen clean distclean \
	need-kver vm-initramfs install bench bench-cluster bench-logon bench-quick torture-cache torture-replay torture-fruit fuzz \
	debug-kernel check-debug

all: kmod userd

deps:
	@$(TOP)/tools/deps.sh

deps-cluster:
	@$(TOP)/tools/deps.sh --cluster

deps-fstests:
	@$(TOP)/tools/deps.sh --fstests

# fstests' quick group on a posix cifs mount, smbsrv beside ksmbd
# (Documentation/testing.md, "fstests"); fstests' source is not part of
# this repository: FSTESTS_SRC=PATH, options through FSTESTS_ARGS
# (tools/fstests/run.sh --help).  Hours under TCG; not part of make check.
fstests: deps-fstests
	@$(MAKE) --no-print-directory all
	@$(TOP)/tools/fstests/run.sh --src "$(FSTESTS_SRC)" $(FSTESTS_ARGS)

need-kver:
	@if [ -z "$(KVER)" ] || [ ! -d "$(KDIR)" ]; then \
		echo "no pinned guest kernel (.kver): run 'make deps' first" >&2; \
		exit 1; \
	fi

# -j: make check's own make runs without it, and the module's 80 sources
# would otherwise compile one at a time beside an idle core.  A compiler
# warning is an error: make lint runs sparse (C=2) in this very tree with
# the same KCFLAGS (tests/run-all.sh lint_run; any other flags would
# rebuild every object), so it sees no compiler output of its own.
#
# Then the test modules (kmod/test/: the crypto KUnit suite, the upcall
# probe), against smbsrv.ko's exports; only the test VM packs them.
kmod: need-kver
	$(MAKE) -j$(JOBS) -C $(KDIR) M=$(TOP)/kmod KCFLAGS=-Werror modules
	$(MAKE) -j$(JOBS) -C $(KDIR) M=$(TOP)/kmod/test KCFLAGS=-Werror \
		KBUILD_EXTRA_SYMBOLS=$(TOP)/kmod/Module.symvers modules

userd:
	@cmake -S $(TOP) -B $(BUILD)/user -DCMAKE_BUILD_TYPE=$(CMAKE_BUILD_TYPE) >/dev/null
	@cmake --build $(BUILD)/user -j $(JOBS)

run: deps
	@$(MAKE) --no-print-directory all
	@$(TOP)/tools/run-demo.sh

# make check KERNEL=debug is make check-debug.
ifeq ($(KERNEL),debug)
check: check-debug
else
check: deps
	@$(MAKE) --no-print-directory all
	@$(TOP)/tests/run-all.sh
endif

check-long: deps
	@$(MAKE) --no-print-directory all
	@$(TOP)/tests/run-all.sh --only long

check-cluster: deps-cluster
	@$(MAKE) --no-print-directory all
	@$(TOP)/tools/cluster/check.sh

# 1 MiB READ and WRITE through one cluster node and through two at once
# (tools/cluster/bench.sh, Documentation/benchmarks.md; not in check-cluster).
bench-cluster: deps-cluster
	@$(MAKE) --no-print-directory all
	@$(TOP)/tools/cluster/check.sh $(TOP)/tools/cluster/bench.sh

# Documentation/testing.md, "The debug kernel".
DEBUG_SUITES ?= vm
debug-kernel: deps
	@$(TOP)/tools/debug-kernel.sh

check-debug: debug-kernel
	@$(MAKE) --no-print-directory all
	@$(TOP)/tools/debug-kernel.sh --kmod
	@SMBSRV_VM_KERNEL=debug $(TOP)/tests/run-all.sh --only $(DEBUG_SUITES) \
		$(if $(VM_FILTER),--vm-filter '$(value VM_FILTER)')

unit: userd
	@$(TOP)/tests/run-all.sh --only unit

# READ throughput and QD1/QD4 latency beside the in-tree ksmbd and nfsd,
# under the instruction-count clock (Documentation/benchmarks.md); options
# through BENCH_ARGS (tools/bench/bench.sh --help); SECTIONS picks
# sections (make bench SECTIONS=meta: small files and metadata only).
# WRITE routing: tools/bench/route.sh.
bench: deps
	@$(MAKE) --no-print-directory all
	@$(TOP)/tools/bench/bench.sh $(if $(SECTIONS),--sections "$(SECTIONS)") $(BENCH_ARGS)

# Logons per second and latency, Kerberos (Samba AD DC tickets) vs NTLMv2,
# smbsrv vs ksmbd (tools/bench/logon.sh; options through BENCH_ARGS).
bench-logon: deps
	@$(MAKE) --no-print-directory all
	@$(TOP)/tools/bench/logon.sh $(BENCH_ARGS)

bench-quick: deps
	@$(MAKE) --no-print-directory all
	@$(TOP)/tools/bench/bench.sh --quick $(if $(SECTIONS),--sections "$(SECTIONS)") $(BENCH_ARGS)

# The client caching suites whole, beside ksmbd (make check runs a part),
# then the per-suite counts and what each server failed, as Markdown
# (Documentation/testing.md has the last run's).
torture-cache torture-replay torture-fruit: deps
	@$(MAKE) --no-print-directory all
	@TT_FULL=1 $(TOP)/tests/run-all.sh --only vm --vm-filter 'host/$@$$'; \
	rc=$$?; \
	$(TOP)/tools/bench/torture-table.py $(BUILD)/test-logs/torture-$@.txt; \
	exit $$rc

# tests/fuzz/campaign.sh has the knobs and the report's columns.
fuzz: deps
	@$(TOP)/tests/fuzz/campaign.sh

lint: need-kver
	@$(TOP)/tests/run-all.sh --only lint

regen:
	@$(TOP)/tools/ynl-regen.sh

install: userd
	@$(TOP)/tools/install/install.sh $(DESTDIR)

clean:
	-@[ -z "$(KVER)" ] || [ ! -d "$(KDIR)" ] || \
		{ $(MAKE) -s -C $(KDIR) M=$(TOP)/kmod clean; \
		  $(MAKE) -s -C $(KDIR) M=$(TOP)/kmod/test clean; }
	rm -rf $(BUILD)

distclean: clean
	rm -rf $(TOP)/.deps $(TOP)/.kver
