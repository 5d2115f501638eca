#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make run`: boot the hypervisor under Bochs (CPU model tigerlake) with the
# given command line and the demo guests, showing the serial console live:
#   d0  the control domain, tracking d1's dirty pages through libxenctrl
#       (global log-dirty with PML, then VRAM tracking) and checking every
#       bitmap against what d1 wrote (tests/logdirty);
#   d1  a writer of pseudo-random pages, on two vCPUs (tests/dirtier);
#   d2  a hello-world guest with two vCPUs (tests/demo);
#   d3  two vCPUs spinning on each other with PAUSE (tests/smp-rr): PLE.
# The run ends when the guests have powered off (the hypervisor then turns
# the machine off) or after RUN_TIMEOUT seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."

XEN_CMDLINE=${1:-pml=1 ple_gap=64 ple_window=4096}
# d0 finishes before the other guests: keep the host up until they are done.
[[ " $XEN_CMDLINE" == *" dom0_shutdown="* ]] || XEN_CMDLINE+=" dom0_shutdown=domain"
OUT=tests/out/run
mkdir -p "$OUT"

tools/boot/mkiso.sh -o "$OUT/xen.iso" -x xen/xen -c "$XEN_CMDLINE" \
    "tests/bin/logdirty.elf|mem=16 name=control" \
    "tests/bin/dirtier.elf|vcpus=2 mem=16 name=writer -- seed=7 pages=2048 work=60" \
    "tests/bin/demo.elf|vcpus=2 mem=16 name=demo -- a guest with two vCPUs" \
    "tests/bin/smp-rr.elf|vcpus=2 name=spinner -- rounds=50"
exec tools/boot/bochs-run.sh -d "$OUT" -i "$OUT/xen.iso" -c "${RUN_CPU:-tigerlake}" \
    -t "${RUN_TIMEOUT:-120}" -f
