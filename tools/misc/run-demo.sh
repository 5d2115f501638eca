#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make run`: boot the hypervisor under Bochs (CPU model tigerlake) with the
# given command line and the demo guests, showing the serial console live.
# The run ends when the guests have powered off (the hypervisor then turns
# the machine off) or after RUN_TIMEOUT seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."

XEN_CMDLINE=${1:-pml=1 ple_gap=64 ple_window=4096}
OUT=tests/out/run
mkdir -p "$OUT"

tools/boot/mkiso.sh -o "$OUT/xen.iso" -x xen/xen -c "$XEN_CMDLINE" \
    "tests/bin/demo.elf|name=demo0 -- hello from the control domain" \
    "tests/bin/demo.elf|vcpus=2 mem=16 name=demo1 -- a guest with two vCPUs" \
    "tests/bin/smp-rr.elf|vcpus=2 name=spinner -- rounds=50"
exec tools/boot/bochs-run.sh -d "$OUT" -i "$OUT/xen.iso" -c "${RUN_CPU:-tigerlake}" \
    -t "${RUN_TIMEOUT:-120}" -f
