#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot the whole stack under Bochs: the hypervisor, Debian's stock kernel
# as the PVH control domain with the initramfs of mk-initramfs.sh, and a
# demo domU; `make run`, and tests/dom0-linux/run.sh.
#
#   run-dom0.sh [-m checks|shell] [-d DIR] [-t SECONDS] [-z gzip|none]
#               [-c XEN_CMDLINE] [-I IPS] [-f] [-n]
#
#   -m checks   dom0's /init runs /etc/dom0/checks.sh and powers off; the
#               exit status is 0 only if "dom0 checks: N passed, 0 failed"
#               with N > 0 appeared (the default without a terminal)
#   -m shell    a root shell in dom0 on this terminal at once, with the
#               jbb guest running (needs a terminal on stdin); the run lasts
#               until the machine powers off (`poweroff` or `exit` in the
#               shell): no time limit.  Ctrl-A three times: the hypervisor.
#               Exit status 0 if the machine powered off, 1 otherwise
#   -d DIR      the run's directory (default tests/out/dom0-run): xen.iso,
#               serial.out (the whole console, in both modes), serial.times
#               (each line with the wall time since Bochs started),
#               bochs.log, build.log
#   -t SECONDS  checks only: stop Bochs after this long (default 900)
#   -z          the initramfs's compression (default none: GRUB passes a
#               gzip one as it is, and Linux would inflate it)
#   -c          the hypervisor's command line
#               (default "pml=1 ple_gap=64 ple_window=4096"); checks add
#               console_to_ring (their hypercall-buffer check reads back
#               what dom0 wrote)
#   -I IPS      Bochs's "cpu: ips=" (default $DOM0_IPS, else 50000000: the
#               speed Bochs runs Linux at here, so that dom0's clock keeps
#               with the wall clock; docs/misc/dom0-linux.md, "Time")
#   -f          follow: show the console live (the default when stdin is
#               a terminal)
#   -n          do not build (use what build/dom0 and tests/bin hold)
#
# DOM0_CMDLINE replaces Linux's command line (the default below),
# DOM0_MEM its RAM in MiB; the Debian domU (/etc/xen/debian.cfg,
# mk-initramfs.sh -L: Debian's kernel again, 35 MB) is in its initramfs
# unless DOM0_LINUX_DOMU=0; V=1 shows the build's commands.

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1

mode=checks
dir=$ROOT/tests/out/dom0-run
timeout=900
z=none
xen_cmdline="pml=1 ple_gap=64 ple_window=4096"
ips=${DOM0_IPS:-50000000}
follow=0
[ -t 0 ] && follow=1
build=1
while getopts "m:d:t:z:c:I:fnh" opt; do
    case $opt in
    m) mode=$OPTARG ;;
    d) dir=$OPTARG ;;
    t) timeout=$OPTARG ;;
    z) z=$OPTARG ;;
    c) xen_cmdline=$OPTARG ;;
    I) ips=$OPTARG ;;
    f) follow=1 ;;
    n) build=0 ;;
    *) sed -n '4,40p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
die() { echo "run-dom0: $*" >&2; exit 2; }
case $mode in checks|shell) ;; *) die "-m checks or shell, not '$mode'" ;; esac
[[ $timeout =~ ^[0-9]+$ ]] && [ "$timeout" -gt 0 ] || die "-t takes seconds, not '$timeout'"
[[ $ips =~ ^[1-9][0-9]*000000$ ]] ||
    die "-I takes instructions per second in whole millions (the hypervisor rounds its TSC to a MHz), not '$ips'"
if [ $mode = shell ] && ! tty -s; then
    die "-m shell needs a terminal on stdin (without one: -m checks)"
fi
for t in bochs grub-mkrescue xorriso python3; do
    command -v $t > /dev/null ||
        die "$t is missing: tools/misc/install-deps.sh dom0 installs what this needs"
done

# The hypervisor's command line: the words a shell would see, each a
# parameter the hypervisor knows (its *_param() declarations), so that a
# typo is found here, not in a boot log that scrolls by.
check_xen_cmdline() {
    local w name known
    known=$(grep -rhoE '(boolean|integer|size|string|custom|ignore)_param\("[a-z0-9_-]+"' xen/ |
            sed -E 's/.*\("(.*)"/\1/' | sort -u)
    for w in $1; do
        name=${w%%=*}
        name=${name#no-}
        if [[ ! $w =~ ^[A-Za-z0-9_.,:/+@%=-]+$ ]]; then
            die "the hypervisor's command line has a word it cannot take: '$w' (RUN_XEN_CMDLINE=\"$1\")"
        fi
        grep -qxF -- "$name" <<< "$known" ||
            die "the hypervisor has no parameter '$name' (RUN_XEN_CMDLINE=\"$1\"; docs/misc/xen-command-line.md lists them)"
    done
}
check_xen_cmdline "$xen_cmdline"
if [ $mode = checks ] && [[ " $xen_cmdline " != *" console_to_ring "* ]]; then
    xen_cmdline+=" console_to_ring"
fi

# Linux: its console is hvc0 (console_io; COM1 is not dom0's), and
# earlyprintk=xen shows what happens before hvc0 exists; loglevel=5 (before
# earlyprintk, or the boot console replays the log at the default level)
# hides the boot's info and notice lines but keeps warnings, errors, BUGs
# and oopses; one CPU.  What cannot succeed here is not tried
# (docs/misc/dom0-linux.md, "Where the boot's time goes"): the crypto
# self-tests (half of the boot: cryptomgr.notests), PCI (no config space:
# pci=off), and the initcalls of what the hypervisor does not offer: the
# CMOS RTC driver (its probe fails, -22; the wallclock is Xen's), Xen's
# MCA log (the mca hypercall) and physical-CPU info (platform_op 55).
DOM0_CMDLINE=${DOM0_CMDLINE:-loglevel=5 console=hvc0 earlyprintk=xen nosmp tsc=reliable cryptomgr.notests pci=off initcall_blacklist=cmos_init,xen_late_init_mcelog,xen_pcpu_init}
# The hypervisor zeroes all of dom0's RAM before it starts: every MiB given
# costs boot time.
DOM0_MEM=${DOM0_MEM:-256}
MEGS=1024

linux_cmdline="$DOM0_CMDLINE xenpml.init=$mode"
if [ $mode = shell ]; then
    # What a serial line cannot tell dom0: the terminal's type and size.
    size=$(stty size 2> /dev/null)
    [[ $size =~ ^[0-9]+\ [0-9]+$ ]] && linux_cmdline+=" xenpml.size=${size/ /x}"
    [[ ${TERM:-} =~ ^[A-Za-z0-9._+-]+$ ]] && linux_cmdline+=" xenpml.term=$TERM"
fi

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
    step tools/dom0/fetch-xen-utils.sh -o "$B"
    step make -C tools/xl xl.dom0
    step make -C tools/misc xen-logdirty-check.static xen-hcall-buffer-check.static
    step make -C tools/xentop xentop.static
    if [ "$B/vmlinux" -nt "$B/vmlinux.pvh" ] || [ ! -s "$B/vmlinux.pvh" ]; then
        step tools/dom0/trim-vmlinux.py "$B/vmlinux" "$B/vmlinux.pvh"
    fi
    domu=
    [ "${DOM0_LINUX_DOMU:-1}" = 1 ] && domu=-L
    step tools/dom0/mk-initramfs.sh -o "$B" -m $mode -z "$z" $domu
fi
[ -s "$B/kernel.env" ] || die "no kernel in ${B#$ROOT/} (run without -n to fetch it)"
. "$B/kernel.env"
initrd=$B/initramfs.cpio
# A shell needs none of what only the checks use (mk-initramfs.sh -m shell).
[ $mode = shell ] && initrd=$B/initramfs-shell.cpio
[ "$z" = gzip ] && initrd=$initrd.gz
[ -f "$initrd" ] || die "no $initrd (run without -n to build it)"
# The kernel GRUB loads: vmlinux without the zeros a loader adds anyway
# (GRUB reads about 10 Bochs ticks a byte; inflating a gzipped one would
# cost about 46 a byte, see docs/misc/dom0-linux.md).
if [ "$B/vmlinux" -nt "$B/vmlinux.pvh" ] || [ ! -s "$B/vmlinux.pvh" ]; then
    step tools/dom0/trim-vmlinux.py "$B/vmlinux" "$B/vmlinux.pvh"
fi

step tools/boot/mkiso.sh -o "$dir/xen.iso" -c "$xen_cmdline" \
    "$B/vmlinux.pvh|mem=$DOM0_MEM name=Domain-0 -- $linux_cmdline" \
    "$initrd|initrd" \
    "tests/bin/demo.elf|vcpus=2 mem=16 name=demo -- a domU started at boot"

printf 'run-dom0: Linux %s (vmlinux %s MiB), initramfs %s KiB, %s MiB for dom0 in %s MiB, Bochs at %s MIPS\n' \
    "$KVER" "$(( $(stat -c %s "$B/vmlinux.pvh") >> 20 ))" \
    "$(( $(stat -c %s "$initrd") >> 10 ))" $DOM0_MEM $MEGS $((ips / 1000000))

bochs_args=(-d "$dir" -i "$dir/xen.iso" -m $MEGS -I "$ips")
if [ $mode = shell ]; then
    echo "run-dom0: booting; dom0's shell comes in about a minute (logs: ${dir#$ROOT/}/)"
    bochs_args+=(-t 0 -T "$(tty)")
else
    # Stop at the end of dom0 (power-off, halt, panic) or of the hypervisor.
    bochs_args+=(-t "$timeout"
                 -s 'reboot: (Power down|System halted|Restarting system)|Kernel panic|Panic on CPU|All vCPUs are blocked')
    [ $follow = 1 ] && bochs_args+=(-f)
fi

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
saved=
[ $mode = shell ] && saved=$(stty -g)
tools/boot/bochs-run.sh "${bochs_args[@]}"
[ -n "$saved" ] && stty "$saved"
sleep 0.5
kill $tail_pid 2> /dev/null
wait $tail_pid 2> /dev/null
sleep 0.2

if [ $mode = shell ]; then
    echo
    tools/dom0/summary.sh -s "$dir"
    rc=$?
    echo "run-dom0: logs: ${dir#$ROOT/}/serial.out (the console; timestamped: serial.times), bochs.log, build.log"
    exit $rc
fi
tools/dom0/summary.sh "$dir"
rc=$?
if [ "$(cat "$dir/status" 2> /dev/null)" = timeout ]; then
    echo "run-dom0: timed out after ${timeout} s (-t, RUN_TIMEOUT): the machine was still running; Bochs stopped"
    rc=1
fi
echo "run-dom0: full log: ${dir#$ROOT/}/serial.out (timestamped: serial.times), bochs.log, build.log"
exit $rc
