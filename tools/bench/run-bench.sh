#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The performance lab (`make bench`): boot the benchmark runs under Bochs,
# collect their results and write the tables (tools/bench/report.py).
#
#   tools/bench/run-bench.sh [options] [RUN|GROUP ...]
#
#   RUN|GROUP   the runs to boot (shell patterns allowed), or the groups
#               seed, display, scale, ram, ple, migrate, all; default: all (`make
#               bench`); `make bench-scale` is scale and ram, `make
#               bench-migrate` migrate
#   -j N        boot N runs at a time (default 2)
#   -n          do not build (use tests/bin/*.elf and xen/xen as they are)
#   -r          no boots: regenerate the report (and its results file)
#               from the logs in tests/out/bench-*
#   -R          no boots, no logs: regenerate the report from the results
#               file alone (docs/performance-runs.txt); it must give the
#               committed docs/performance.md back byte for byte
#   -m          write the report even if its runs were booted at different
#               commits or from a tree with changes (it says so at its top);
#               without -m the report refuses to write such a file
#   -o FILE     write the report to FILE (default docs/performance.md;
#               "-" for none); it is printed on stdout either way
#   -l          list the runs and exit
#
# Every run boots the hypervisor with Bochs "cpu: ips=1600000000" (see
# below; the migration runs keep the tests' Bochs default) in its own
# directory tests/out/bench-<run>/ (xen.iso, bochsrc, serial.out, status,
# commit: the commit its images were built from, wall: the host seconds it
# took).  A run that does not end with every domain's "Test result:
# SUCCESS" fails the bench and is left out of every table.  Numbers are in
# Bochs's emulated ticks (clock sync=none: one tick per instruction), so the
# same command gives the same numbers on any host.  Runs are bounded in
# ticks, not seconds: the driver of the specjbb-like runs (tests/bench)
# fails a cell that has not ended within a bound of emulated ticks, and
# the PLE runs' 20 round trips have a watchdog in emulated time
# (watchdog=, the guest library's); the migration runs do a
# fixed amount of work (one save and restore) and have no tick bound of
# their own yet.  The wall-clock limit on each Bochs
# process is only a safety net against a hung emulator, NET_FACTOR (default
# 6) times the run's nominal seconds (see the list of runs), and a run it
# stops is reported as such ("safety net fired") and counted as failed,
# never averaged.

set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BOOT=$ROOT/tools/boot
BIN=$ROOT/tests/bin
OUT=$ROOT/tests/out
XEN=${XEN_IMAGE:-$ROOT/xen/xen}

jobs=2
build=1
report_only=0
from_results=0
allow_mixed=0
list_only=0
report_file=$ROOT/docs/performance.md
results_file=$ROOT/docs/performance-runs.txt
NET_FACTOR=${NET_FACTOR:-6}

usage() {
    sed -n '4,42p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

while getopts "j:nrRmo:lh" opt; do
    case $opt in
    j) jobs=$OPTARG ;;
    n) build=0 ;;
    r) report_only=1 ;;
    R) report_only=1; from_results=1 ;;
    m) allow_mixed=1 ;;
    o) report_file=$OPTARG ;;
    l) list_only=1 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))

# ---------------------------------------------------------------------------
# The parameters, chosen once (docs/performance.md says why).

# What the guests believe the TSC frequency is: 1.6 GHz, the clock of the
# seed's Broadwell.  One tick is one instruction, so a millisecond of timer
# time is 1.6 million instructions, about what that machine retires in one.
IPS=1600000000
MS=1600000                      # ticks per millisecond at $IPS

# The specjbb-like cells.
SLICE_MS=1                      # the driver acts at the end of each 1 ms slice
VRAM_PERIOD=$((30 * MS))        # QEMU's display refresh: 30 ms
CLEAN_PERIOD=$((10 * MS))       # global log-dirty: CLEAN every 10 ms
BUDGET=$((240 * MS))            # measured domU CPU time per cell: 240 ms
WARMUP=$((30 * MS))             # unmeasured, after the mode is turned on
FB="fb_every=256 fb_lines=4"    # 4 framebuffer lines every 256 transactions
SEEDS=1-6
COST=1500                       # the per-exit cost model, ticks

# The PLE runs (tests/smp-rr), bounded in ticks by the guest library's
# watchdog= (SCHEDOP_watchdog, in seconds of system time, which with clock
# sync=none is ticks / 1.6e9): the slowest (no PLE, a 30 ms slice per turn)
# takes about 2e9 ticks (1.25 s) for its 20 round trips; the hypervisor
# shuts the run down (SHUTDOWN_watchdog, no result: failed) at ten times that.
PLE_ROUNDS=20
PLE_WATCHDOG=13

# The migration runs (tests/migrate saving tests/mig-writer): the link is
# capped at 10^8 octets per 10^9 ticks (0.1 octet a tick), the downtime
# target is 2M ticks; the writer's pace grows with a smaller work= delay
# between its page writes.  They boot at Bochs's default ips (the tests'):
# a 30 ms time slice is then 120,000 ticks, so the saver's waits for the
# cap (yields) come back within that, and a console character costs
# hundreds of ticks rather than 141,000.
MIG_CAP=100000000
MIG_TARGET=2000000
MIG_WORKS="66000 16000 8000 3000 0"

# ---------------------------------------------------------------------------
# The runs: name | group | hypervisor command line | bench args | jbb mem |
# nominal seconds (the former time-outs; on two cores at a load of 4 to 7,
# a seed run took 0.6-0.8 of its 900, a display run 0.8-0.9 of its 600, a
# PLE run 0.2-0.3 of its nominal); the wall-clock safety net is NET_FACTOR
# times it
# The PLE runs have "smp-rr" in the bench-args column.

RUNS=()
add_run() {
    RUNS+=("$1|$2|$3|$4|$5|$6")
}

jbb_common="budget=$BUDGET warmup=$WARMUP vram=$VRAM_PERIOD $FB"
# guest_loglvl=warning: the hypervisor's console writes synchronously to
# Bochs's 115200-baud UART, about 141,000 ticks a character, so its one
# info line per log-dirty ENABLE or OFF (12M ticks) would swamp what
# turning log-dirty on costs.
xen_jbb() {  # xen_jbb MECH COST
    echo "pml=$([ "$1" = pml ] && echo 1 || echo 0) sched_credit_tslice_ms=$SLICE_MS guest_loglvl=warning$(cost_opt "$2")"
}
cost_opt() {
    [ "$1" != 0 ] && echo " vmexit_cost_ticks=$1"
}
tag() {
    [ "$1" = 0 ] && echo raw || echo cost
}

# Log-dirty at scale: the domU's RAM from 256 MiB to 2 GiB (18 MiB is the
# scale-rate runs), the same 8 MiB working set, CLEAN every 30, 10 and 1 ms.
# Bochs gets the domU's RAM plus room for the hypervisor and dom0.
# Longest first, so that two at a time finish together.
for mem in 2048 1024 256; do
    for cost in 0 $COST; do
        for mech in pml wp; do
            add_run "ram-$mem-$mech-$(tag $cost)" ram "$(xen_jbb $mech $cost)" \
                "seeds=1 ws=8 modes=off,global clean=$((30 * MS)),$CLEAN_PERIOD,$MS $jbb_common" $mem 1800
        done
    done
done
for cost in 0 $COST; do
    for mech in pml wp; do
        add_run "seed-$mech-$(tag $cost)" seed "$(xen_jbb $mech $cost)" \
            "seeds=$SEEDS ws=8 modes=off,vram,global clean=$CLEAN_PERIOD $jbb_common" 18 900
    done
done
# The display: a 1024x768x32 framebuffer (768 lines of 4 KiB) drawn as a
# text console that prints a line every 4,480 transactions (about 10 ms at
# some 3,570 ticks a transaction), scrolling the screen by a 16-pixel row.
DISPLAY="fb_pages=768 fb_lines=16 fb_every=4480 fb_scroll=1"
for cost in 0 $COST; do
    for mech in pml wp; do
        add_run "display-$mech-$(tag $cost)" display "$(xen_jbb $mech $cost)" \
            "seeds=$SEEDS ws=8 modes=off,vram budget=$BUDGET warmup=$WARMUP vram=$VRAM_PERIOD $DISPLAY" 18 600
    done
done
for cost in 0 $COST; do
    for mech in pml wp; do
        add_run "scale-ws-$mech-$(tag $cost)" scale "$(xen_jbb $mech $cost)" \
            "seeds=1 ws=1,4,8,16,64 modes=off,global clean=$CLEAN_PERIOD $jbb_common" 1024 1200
    done
done
# ple_gap 3 is just below the 4-tick PAUSE-to-PAUSE distance of smp-rr's
# wait loop (pause; mov; cmp; jne), 4 just at it.  Without pause-loop exits
# a round trip lasts two 30 ms time slices: these runs are the long ones.
for gap in 0 3; do
    for cost in 0 $COST; do
        add_run "ple-gap$gap-w4096-$(tag $cost)" ple \
            "ple_gap=$gap ple_window=4096$(cost_opt $cost)" smp-rr - 600
    done
done
for cost in 0 $COST; do
    for mech in pml wp; do
        add_run "scale-rate-$mech-$(tag $cost)" scale "$(xen_jbb $mech $cost)" \
            "seeds=1 ws=8 modes=off,global clean=$((30 * MS)),$CLEAN_PERIOD,$((3 * MS)),$MS $jbb_common" 18 600
    done
done
for cost in 0 $COST; do
    for gap in 4 41 48 64 128; do
        add_run "ple-gap$gap-w4096-$(tag $cost)" ple \
            "ple_gap=$gap ple_window=4096$(cost_opt $cost)" smp-rr - 300
    done
    for win in 1024 16384 65536; do
        add_run "ple-gap64-w$win-$(tag $cost)" ple \
            "ple_gap=64 ple_window=$win$(cost_opt $cost)" smp-rr - 300
    done
done

# Migration: PML and write protection, Xen's policy and ours, each pace.
# The "bench args" column is "mig:" and d0's command line, the memory
# column the writer's work= delay.
# Ours bounds every throttle pause by the target; "ours3x" states a bound
# of 3 times it (pause=), for the fastest writer only (see table 6).
for mech in pml wp; do
    for pol in xen ours ours3x; do
        for work in $MIG_WORKS; do
            [ $pol = ours3x ] && [ "$work" != "${MIG_WORKS##* }" ] && continue
            add_run "mig-$mech-$pol-w$work" migrate \
                "pml=$([ $mech = pml ] && echo 1 || echo 0) guest_loglvl=warning" \
                "mig:live=1 policy=$([ $pol = xen ] && echo 1 || echo 0) downtime=$MIG_TARGET$([ $pol = ours3x ] && echo " pause=$((3 * MIG_TARGET))") bandwidth=$MIG_CAP bench=1 probe=20000000 failures=0 dump=0" \
                "$work" 300
        done
    done
done

run_field() {  # run_field RUN N
    local IFS='|'
    local -a f
    read -r -a f <<< "$1"
    echo "${f[$2]}"
}

mig_writer_args() {  # mig_writer_args WORK
    echo "seed=11 pages=256 work=$1"
}

# Select.
declare -a selected=()
if [ $# -eq 0 ]; then
    selected=("${RUNS[@]}")
else
    for r in "${RUNS[@]}"; do
        name=$(run_field "$r" 0)
        group=$(run_field "$r" 1)
        for arg in "$@"; do
            # shellcheck disable=SC2053
            if [[ $name == $arg || $group == "$arg" || $arg == all ]]; then
                selected+=("$r")
                break
            fi
        done
    done
    [ ${#selected[@]} -gt 0 ] || { echo "run-bench.sh: no run matches $*" >&2; exit 2; }
fi

if [ $list_only = 1 ]; then
    for r in "${selected[@]}"; do
        printf '%-24s xen: %s\n' "$(run_field "$r" 0)" "$(run_field "$r" 2)"
        if [ "$(run_field "$r" 3)" = smp-rr ]; then
            printf '%-24s d0:  smp-rr vcpus=2 -- rounds=%s watchdog=%s\n' "" "$PLE_ROUNDS" "$PLE_WATCHDOG"
        elif [[ $(run_field "$r" 3) == mig:* ]]; then
            printf '%-24s d0:  migrate mem=56 -- %s\n' "" "$(run_field "$r" 3 | sed 's/^mig://')"
            printf '%-24s d1:  mig-writer mem=4 -- %s\n' "" "$(mig_writer_args "$(run_field "$r" 4)")"
        else
            printf '%-24s d0:  bench mem=16 -- %s\n' "" "$(run_field "$r" 3)"
            printf '%-24s d1:  jbb mem=%s\n' "" "$(run_field "$r" 4)"
        fi
    done
    exit 0
fi

# ---------------------------------------------------------------------------

# The report reads the logs of every run of the list that has booted (not
# only the selected ones), and nothing else in tests/out; it names every run
# of the list that is missing.  It also writes the results file: the lines
# of those logs that it reads, from which -R gives the same report again.
report() {
    local -a args=(--ips "$IPS" --cost "$COST" --expect "$(all_names)") dirs=()
    local r d
    [ "$report_file" != - ] && args+=(-o "$report_file")
    [ $allow_mixed = 1 ] && args+=(--allow-mixed)
    if [ $from_results = 1 ]; then
        python3 "$ROOT/tools/bench/report.py" "${args[@]}" --from-results "$results_file"
        return
    fi
    for r in "${RUNS[@]}"; do
        d=$OUT/bench-$(run_field "$r" 0)
        [ -f "$d/serial.out" ] && dirs+=("$d")
    done
    [ ${#dirs[@]} -gt 0 ] || { echo "run-bench.sh: no run has booted yet" >&2; return 1; }
    [ "$report_file" != - ] && args+=(--write-results "$results_file")
    python3 "$ROOT/tools/bench/report.py" "${args[@]}" "${dirs[@]}"
}

all_names() {
    local r
    for r in "${RUNS[@]}"; do
        printf '%s ' "$(run_field "$r" 0)"
    done
}

# What the runs measure: the last commit that changed anything but the
# documentation (docs/, *.md), so that committing a regenerated
# docs/performance.md does not change the commit it names; "-dirty" if the
# tree has changes (tracked or not) outside the documentation.
measured_commit() {
    local c
    c=$(git -C "$ROOT" log -1 --format=%H HEAD -- . ':(exclude)docs' ':(exclude)*.md' 2> /dev/null)
    [ -n "$c" ] || { echo unknown; return; }
    c=${c:0:12}
    if [ -n "$(git -C "$ROOT" status --porcelain -- . ':(exclude)docs' ':(exclude)*.md' 2> /dev/null)" ]; then
        c=$c-dirty
    fi
    echo "$c"
}

if [ $report_only = 1 ]; then
    report
    exit
fi

command -v python3 > /dev/null || { echo "run-bench.sh: python3 is needed" >&2; exit 1; }
mkdir -p "$OUT"
if [ $build = 1 ]; then
    if ! make -C "$ROOT/tests" guests > "$OUT/bench-build.log" 2>&1 ||
       ! make -C "$ROOT/xen" >> "$OUT/bench-build.log" 2>&1; then
        tail -20 "$OUT/bench-build.log"
        echo "run-bench.sh: build failed (tests/out/bench-build.log)"
        exit 1
    fi
fi

# Every run boots the same images: copies taken now, so that a rebuild in
# the tree while the runs boot cannot mix two builds in one report.
IMG=$OUT/bench-images
rm -rf "$IMG"
mkdir -p "$IMG"
for f in "$XEN" "$BIN/bench.elf" "$BIN/jbb.elf" "$BIN/smp-rr.elf" \
         "$BIN/migrate.elf" "$BIN/mig-writer.elf"; do
    cp "$f" "$IMG/" || { echo "run-bench.sh: missing $f (build first)" >&2; exit 1; }
done
XEN=$IMG/$(basename "$XEN")
BIN=$IMG
# The commit the images were built from, taken once with them.
measured_commit > "$IMG/commit"
dpkg-query -W -f='${Version}' bochs > "$IMG/bochs-version" 2> /dev/null || echo unknown > "$IMG/bochs-version"
if [[ $(cat "$IMG/commit") == *-dirty ]]; then
    echo "run-bench.sh: warning: the tree has changes outside docs/: these runs measure" \
        "$(cat "$IMG/commit"), and the report will refuse them without -m" >&2
fi

# One run: ISO, Bochs, then check that every domain succeeded.
boot_run() {
    local r=$1 name dir xen args mem megs timeout t0 status
    local -a modules ips=(-I "$IPS")
    name=$(run_field "$r" 0)
    xen=$(run_field "$r" 2)
    args=$(run_field "$r" 3)
    mem=$(run_field "$r" 4)
    timeout=$(run_field "$r" 5)
    dir=$OUT/bench-$name

    rm -rf "$dir"
    mkdir -p "$dir"
    megs=256
    if [ "$args" = smp-rr ]; then
        modules=("$BIN/smp-rr.elf|vcpus=2 -- rounds=$PLE_ROUNDS watchdog=$PLE_WATCHDOG")
    elif [[ $args == mig:* ]]; then
        modules=("$BIN/migrate.elf|mem=56 -- ${args#mig:}"
                 "$BIN/mig-writer.elf|mem=4 -- $(mig_writer_args "$mem")")
        ips=()
    else
        [ "$mem" -gt 64 ] && megs=$((mem + 192))
        modules=("$BIN/bench.elf|mem=16 -- $args" "$BIN/jbb.elf|mem=$mem")
    fi
    if ! "$BOOT/mkiso.sh" -o "$dir/xen.iso" -x "$XEN" -c "$xen" "${modules[@]}" \
            > "$dir/mkiso.log" 2>&1; then
        echo "FAIL $name (ISO build failed, see ${dir#$ROOT/}/mkiso.log)" > "$dir/verdict"
        return
    fi
    cp "$IMG/commit" "$IMG/bochs-version" "$dir/"
    t0=$(date +%s)
    "$BOOT/bochs-run.sh" -d "$dir" -i "$dir/xen.iso" "${ips[@]}" -m "$megs" \
        -t $((timeout * NET_FACTOR)) -s 'Panic on CPU'
    echo $(($(date +%s) - t0)) > "$dir/wall"
    status=$(cat "$dir/status" 2> /dev/null || echo missing)

    local results ok
    results=$(tr -d '\r' < "$dir/serial.out" 2> /dev/null | grep -c 'Test result: ')
    ok=$(tr -d '\r' < "$dir/serial.out" 2> /dev/null | grep -c 'Test result: SUCCESS')
    if [ "$status" = exited ] && [ "$results" -gt 0 ] && [ "$results" = "$ok" ]; then
        echo "PASS $name ($(cat "$dir/wall") s)" > "$dir/verdict"
    elif [ "$status" = timeout ]; then
        echo "FAIL $name (wall-clock safety net fired after $(cat "$dir/wall") s," \
             "$NET_FACTOR x its nominal $timeout s, at load $(cut -d' ' -f1 /proc/loadavg);" \
             "$ok of $results results SUCCESS so far; see ${dir#$ROOT/}/serial.out)" > "$dir/verdict"
    else
        echo "FAIL $name ($status, $ok of $results results SUCCESS; see ${dir#$ROOT/}/serial.out)" \
            > "$dir/verdict"
    fi
}

start=$(date +%s)
echo "Booting ${#selected[@]} runs, $jobs at a time (Bochs ips=$IPS; the migration runs at Bochs's default)..."
declare -A running=()
failed=0
reap() {
    local pid
    wait -n 2> /dev/null
    for pid in "${!running[@]}"; do
        if ! kill -0 "$pid" 2> /dev/null; then
            wait "$pid" 2> /dev/null
            local v
            v=$(cat "$OUT/bench-${running[$pid]}/verdict" 2> /dev/null ||
                echo "FAIL ${running[$pid]} (no verdict)")
            echo "  $v"
            [[ $v == PASS* ]] || failed=$((failed + 1))
            unset "running[$pid]"
        fi
    done
}
for r in "${selected[@]}"; do
    while [ ${#running[@]} -ge "$jobs" ]; do
        reap
    done
    boot_run "$r" &
    running[$!]=$(run_field "$r" 0)
done
while [ ${#running[@]} -gt 0 ]; do
    reap
done
elapsed=$(($(date +%s) - start))
echo "Boots took $((elapsed / 60)) min $((elapsed % 60)) s"
echo

report
rc=$?
[ $failed -eq 0 ] || { echo "run-bench.sh: $failed run(s) failed"; exit 1; }
exit $rc
