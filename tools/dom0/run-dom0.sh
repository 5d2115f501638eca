#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot the whole stack under Bochs: the hypervisor, Debian's stock kernel
# as the PVH control domain with the initramfs of mk-initramfs.sh, and a
# demo domU; `make run-dom0`, and tests/dom0-linux/run.sh.
#
#   run-dom0.sh [-m checks|shell] [-d DIR] [-t SECONDS] [-z gzip|none]
#               [-c XEN_CMDLINE] [-f] [-n]
#
#   -m checks   dom0's /init runs /etc/dom0/checks.sh and powers off; the
#               exit status is 0 only if "dom0 checks: N passed, 0 failed"
#               with N > 0 appeared (the default)
#   -m shell    the checks, then a root shell on hvc0, with Bochs's COM1 on
#               this terminal both ways (needs a terminal; what is typed
#               reaches dom0's shell; Ctrl-A three times: the hypervisor)
#   -d DIR      the run's directory (default tests/out/dom0-linux): xen.iso,
#               serial.out, serial.times (each line with the wall time since
#               Bochs started), bochs.log, build.log
#   -t SECONDS  stop Bochs after this long (default 400)
#   -z          the initramfs's compression (default none: GRUB passes a
#               gzip one as it is, and Linux would inflate it)
#   -c          the hypervisor's command line
#               (default "pml=1 ple_gap=64 ple_window=4096")
#   -f          follow: show the console live (the default when stdin is
#               a terminal)
#   -n          do not build (use what build/dom0 and tests/bin hold)
#
# DOM0_CMDLINE replaces Linux's command line (the default below);
# V=1 shows the build's commands.

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1

mode=checks
dir=$ROOT/tests/out/dom0-linux
timeout=400
z=none
xen_cmdline="pml=1 ple_gap=64 ple_window=4096"
follow=0
[ -t 0 ] && follow=1
build=1
while getopts "m:d:t:z:c:fnh" opt; do
    case $opt in
    m) mode=$OPTARG ;;
    d) dir=$OPTARG ;;
    t) timeout=$OPTARG ;;
    z) z=$OPTARG ;;
    c) xen_cmdline=$OPTARG ;;
    f) follow=1 ;;
    n) build=0 ;;
    *) sed -n '4,27p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
case $mode in checks|shell) ;; *) echo "run-dom0: -m checks or shell" >&2; exit 2 ;; esac
if [ $mode = shell ] && ! tty -s; then
    echo "run-dom0: -m shell needs a terminal on stdin" >&2
    exit 2
fi

# Linux: its console is hvc0 (console_io); earlyprintk=xen shows what
# happens before hvc0 exists; loglevel=5 (before earlyprintk, or the boot
# console replays the log at the default level) hides the boot's info and
# notice lines but keeps warnings, errors, BUGs and oopses (every console
# character is a VM exit); one CPU.
DOM0_CMDLINE=${DOM0_CMDLINE:-loglevel=5 console=hvc0 earlyprintk=xen nosmp tsc=reliable}
# The hypervisor zeroes all of dom0's RAM before it starts, about a Bochs
# tick a byte: every MiB given costs boot time.
DOM0_MEM=${DOM0_MEM:-256}
MEGS=1024

B=$ROOT/build/dom0
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log=$dir/build.log
: > "$log"

# Run a build step; its output goes to build.log (and the terminal with V=1).
step() {
    if [ "${V:-0}" = 1 ]; then
        echo "+ $*"
        "$@" 2>&1 | tee -a "$log"
        [ "${PIPESTATUS[0]}" -eq 0 ] && return 0
    else
        "$@" >> "$log" 2>&1 && return 0
    fi
    tail -n 20 "$log" >&2
    echo "run-dom0: failed: $* (full log: ${log#$ROOT/})" >&2
    exit 1
}

if [ $build = 1 ]; then
    step tools/dom0/fetch-kernel.sh -o "$B"
    step make -C tools/xl xl.static
    step make -C tools/misc xen-logdirty-check.static xen-hcall-buffer-check.static
    step make -C tools/xentop xentop.static
    step tools/dom0/mk-initramfs.sh -o "$B" -z "$z"
fi
. "$B/kernel.env"
initrd=$B/initramfs.cpio
[ "$z" = gzip ] && initrd=$initrd.gz
[ -f "$initrd" ] || { echo "run-dom0: no $initrd" >&2; exit 1; }
# The kernel GRUB loads: vmlinux without the zeros a loader adds anyway
# (GRUB reads about 10 Bochs ticks a byte; inflating a gzipped one would
# cost about 46 a byte, see docs/misc/dom0-linux.md).
if [ "$B/vmlinux" -nt "$B/vmlinux.pvh" ] || [ ! -s "$B/vmlinux.pvh" ]; then
    step tools/dom0/trim-vmlinux.py "$B/vmlinux" "$B/vmlinux.pvh"
fi

step tools/boot/mkiso.sh -o "$dir/xen.iso" -c "$xen_cmdline" \
    "$B/vmlinux.pvh|mem=$DOM0_MEM name=Domain-0 -- $DOM0_CMDLINE xenpml.init=$mode" \
    "$initrd|initrd" \
    "tests/bin/demo.elf|vcpus=2 mem=16 name=demo -- a domU started at boot"

printf 'run-dom0: Linux %s (vmlinux %s MiB), initramfs %s KiB, %s MiB for dom0 in %s MiB\n' \
    "$KVER" "$(( $(stat -c %s "$B/vmlinux.pvh") >> 20 ))" \
    "$(( $(stat -c %s "$initrd") >> 10 ))" $DOM0_MEM $MEGS

bochs_args=(-d "$dir" -i "$dir/xen.iso" -m $MEGS -t "$timeout")
if [ $mode = shell ]; then
    saved=$(stty -g)
    tools/boot/bochs-run.sh "${bochs_args[@]}" -T "$(tty)"
    stty "$saved"
    echo "run-dom0: logs: ${dir#$ROOT/}/bochs.log, build.log"
    exit 0
fi

# Stop at the end of dom0 (power-off, halt, panic) or of the hypervisor.
stop='reboot: (Power down|System halted)|Kernel panic|Panic on CPU|All vCPUs are blocked'
[ $follow = 1 ] && bochs_args+=(-f)

# Stamp each serial line with the wall time since Bochs started.
t0=${EPOCHREALTIME/./}
rm -f "$dir/serial.out"
stamp() {
    local line now
    while IFS= read -r line; do
        now=${EPOCHREALTIME/./}
        printf '%7.2f %s\n' "$(( (now - t0) / 10000 ))e-2" "${line%$'\r'}"
    done
}
tail -n +1 -F -s 0.1 "$dir/serial.out" 2> /dev/null > >(stamp > "$dir/serial.times") &
tail_pid=$!
tools/boot/bochs-run.sh "${bochs_args[@]}" -s "$stop"
sleep 0.5
kill $tail_pid 2> /dev/null
wait $tail_pid 2> /dev/null
sleep 0.2

tools/dom0/summary.sh "$dir"
rc=$?
echo "run-dom0: full log: ${dir#$ROOT/}/serial.out (timestamped: serial.times), bochs.log, build.log"
exit $rc
