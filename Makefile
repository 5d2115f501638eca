# SPDX-License-Identifier: GPL-2.0-only
#
# Top-level targets:
#   make          build the hypervisor (xen/xen), the guest test kernels and
#                 the toolstack (tools/)
#   make run      boot the hypervisor under Bochs with pml=1 ple_gap=64
#                 ple_window=4096, Debian's stock kernel as the PVH control
#                 domain running xl, and a demo guest beside it
#                 (tools/dom0/run-dom0.sh; the kernel is fetched once into
#                 build/dom0 with apt-get download, never installed).  In a
#                 terminal: a root shell in dom0 on your terminal in about a
#                 minute, for as long as you like (`poweroff` ends it;
#                 Ctrl-A three times: the hypervisor's console); without
#                 one: the scripted checks, and their status (at most
#                 RUN_TIMEOUT seconds, default 900).  DOM0_INIT=checks|shell
#                 chooses; RUN_XEN_CMDLINE the hypervisor's command line;
#                 logs in RUN_DIR (tests/out/dom0-run); V=1 shows the
#                 build's commands.  `make run-dom0` is the
#                 same.
#   make run-demo the test-kernel demo: a control-domain test kernel that
#                 tracks a writer's dirty pages, a hello-world guest and a
#                 PAUSE spinner (no download)
#   make test     run every test suite; ends with "N passed, N failed"
#   make bench    the performance lab: install what is missing, build, boot
#                 the benchmark runs under Bochs and write docs/performance.md
#                 (tools/bench/run-bench.sh)
#   make fuzz     run the hostile-guest and control-domain fuzzers with new
#                 seeds (tools/misc/fuzz.sh: FUZZ_ITERS=20, FUZZ_SEED=,
#                 FUZZ_KIND=guest|dom0|both, FUZZ_OPS=, FUZZ_TRACE=1)
#   make bench-scale  only the scaling runs (groups scale and ram: domUs up
#                 to 2 GiB), then docs/performance.md from all the logs there
#   make bench-migrate  only the live-migration runs (group migrate: Xen's
#                 policy against ours over a capped link, PML and WP); rewrites
#                 only their section of docs/performance.md
#   make install  the toolstack as Xen installs it: the shared libraries
#                 (libxenctrl.so.4.17 ...) and their archives in $(libdir),
#                 the headers in $(includedir) (the public ABI in
#                 $(includedir)/xen), pkg-config files in $(libdir)/pkgconfig,
#                 xl and xentop in $(sbindir), the man pages in $(mandir)
#                 (rendered by pandoc).  DESTDIR, prefix (/usr/local),
#                 libdir, bindir, sbindir, includedir, mandir as Xen's
#                 config/Paths.mk (config/Paths.mk here)
#   make docs     render the man pages (docs/man1, man3, man5)
#   make clean
# `run` and `test` install the Debian packages they need first.

XEN_ROOT := $(CURDIR)
include Config.mk

MAKEFLAGS += --no-print-directory

RUN_XEN_CMDLINE ?= pml=1 ple_gap=64 ple_window=4096
RUN_TIMEOUT ?= 900
RUN_DIR ?= tests/out/dom0-run
# Handed to the scripts through the environment, as they are (no shell
# quoting to break on).
export RUN_XEN_CMDLINE RUN_TIMEOUT RUN_DIR DOM0_INIT

.PHONY: all xen guests tools docs install deps run run-dom0 run-demo test bench bench-scale bench-migrate fuzz clean

all: xen guests tools

xen:
	$(MAKE) -C xen

guests:
	$(MAKE) -C tests

tools:
	$(MAKE) -C tools

docs:
	$(MAKE) -C docs

# The hypervisor itself is installed by hand (GRUB's menu, docs/design.md).
install: tools
	$(MAKE) -C tools install
	$(MAKE) -C docs install

deps:
	@tools/misc/install-deps.sh

DOM0_INIT ?=
run run-dom0: deps
	@tools/misc/install-deps.sh dom0
	@$(MAKE) $(if $(filter 1,$(V)),,-s) all
	@m=$$DOM0_INIT; [ -n "$$m" ] || { [ -t 0 ] && m=shell || m=checks; }; \
	    exec tools/dom0/run-dom0.sh -m "$$m" -t "$$RUN_TIMEOUT" -d "$$RUN_DIR" -c "$$RUN_XEN_CMDLINE"

run-demo: deps
	@$(MAKE) all
	@tools/misc/run-demo.sh "$$RUN_XEN_CMDLINE"

test: deps
	@tools/misc/run-all-tests.sh

bench: deps
	@$(MAKE) all
	@tools/bench/run-bench.sh -n

fuzz: deps
	@$(MAKE) -s all
	@FUZZ_ITERS="$(FUZZ_ITERS)" FUZZ_SEED="$(FUZZ_SEED)" FUZZ_KIND="$(FUZZ_KIND)" \
	    FUZZ_OPS="$(FUZZ_OPS)" FUZZ_TRACE="$(FUZZ_TRACE)" tools/misc/fuzz.sh

bench-scale: deps
	@$(MAKE) all
	@tools/bench/run-bench.sh -n scale ram

bench-migrate: deps
	@$(MAKE) all
	@tools/bench/run-bench.sh -n migrate

clean:
	$(MAKE) -C xen clean
	$(MAKE) -C tests clean
	$(MAKE) -C tools clean
	$(MAKE) -C docs clean
	rm -rf tests/unit/bin tests/abi/bin
