# SPDX-License-Identifier: GPL-2.0-only
#
# Top-level targets:
#   make          build the hypervisor (xen/xen), the guest test kernels and
#                 the toolstack (tools/)
#   make run      boot the hypervisor under Bochs with pml=1 ple_gap=64
#                 ple_window=4096 and the demo guests, console on the terminal
#   make test     run every test suite; ends with "N passed, N failed"
#   make bench    the performance lab: install what is missing, build, boot
#                 the benchmark runs under Bochs and write docs/performance.md
#                 (tools/bench/run-bench.sh)
#   make bench-scale  only the scaling runs (groups scale and ram: domUs up
#                 to 2 GiB), then docs/performance.md from all the logs there
#   make clean
# `run` and `test` install the Debian packages they need first.

XEN_ROOT := $(CURDIR)
include Config.mk

MAKEFLAGS += --no-print-directory

RUN_XEN_CMDLINE ?= pml=1 ple_gap=64 ple_window=4096

.PHONY: all xen guests tools deps run test bench bench-scale clean

all: xen guests tools

xen:
	$(MAKE) -C xen

guests:
	$(MAKE) -C tests

tools:
	$(MAKE) -C tools

deps:
	@tools/misc/install-deps.sh

run: deps
	@$(MAKE) all
	@tools/misc/run-demo.sh "$(RUN_XEN_CMDLINE)"

test: deps
	@tools/misc/run-all-tests.sh

bench: deps
	@$(MAKE) all
	@tools/bench/run-bench.sh -n

bench-scale: deps
	@$(MAKE) all
	@tools/bench/run-bench.sh -n scale ram

clean:
	$(MAKE) -C xen clean
	$(MAKE) -C tests clean
	$(MAKE) -C tools clean
	rm -rf tests/unit/bin tests/abi/bin
