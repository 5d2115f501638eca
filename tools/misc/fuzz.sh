#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make fuzz`: run the fuzzers under Bochs with new seeds.
#
#   FUZZ_ITERS=N   seeds to run (default 20); each seed boots the
#                  hostile-guest fuzzer (tests/fuzz-guest) and the
#                  control-domain fuzzer (tests/fuzz-dom0), each with a
#                  witness domain
#   FUZZ_SEED=S    the first seed (default: random); seeds S, S+1, ...
#   FUZZ_KIND=K    guest, dom0 or both (default both)
#   FUZZ_OPS=LIST  the guests' ops= (default: their default set, without
#                  the classes known to break the host; "all" enables them)
#   FUZZ_GUEST_ITERS, FUZZ_DOM0_ITERS  operations per run (3000, 300)
#   FUZZ_TRACE=1   the fuzzers print every operation before making it
#
# The control-domain runs of odd seeds use write protection (pml=0).
#
# Prints every failing seed with the command that reproduces it and ends
# with "N passed, N failed".  The cases run from a generated test list with
# tests/run-tests.sh; their logs are in tests/out/fuzz-<kind>-<seed>/.
set -uo pipefail
cd "$(dirname "$0")/../.."

iters=${FUZZ_ITERS:-20}
seed=${FUZZ_SEED:-$(( (RANDOM << 15 | RANDOM) % 1000000000 ))}
kind=${FUZZ_KIND:-both}
ops=${FUZZ_OPS:-}
giters=${FUZZ_GUEST_ITERS:-3000}
diters=${FUZZ_DOM0_ITERS:-300}

case $kind in
guest|dom0|both) ;;
*) echo "fuzz.sh: FUZZ_KIND must be guest, dom0 or both" >&2; exit 2 ;;
esac
[[ $iters =~ ^[0-9]+$ && $seed =~ ^[0-9]+$ ]] ||
    { echo "fuzz.sh: FUZZ_ITERS and FUZZ_SEED must be numbers" >&2; exit 2; }

cfg=$(mktemp /tmp/fuzz-XXXXXX.cfg)
trap 'rm -f "$cfg"' EXIT
opsarg=${ops:+ ops=$ops}${FUZZ_TRACE:+ trace=1}
reject='reject = Panic on CPU|Xen BUG|Fatal exception'

for ((i = 0; i < iters; i++)); do
    s=$((seed + i))
    if [ "$kind" != dom0 ]; then
        cat >>"$cfg" <<CASE
[fuzz-guest-$s]
domain = witness -- rounds=300
domain = fuzz-guest mem=16 -- seed=$s iters=$giters$opsarg
timeout = 150
expect = ^\(d0\) Test result: SUCCESS
expect = ^\(d1\) Test result: SUCCESS
expect = All domains have shut down: powering off
$reject

CASE
    fi
    if [ "$kind" != guest ]; then
        cat >>"$cfg" <<CASE
[fuzz-dom0-$s]
domain = fuzz-dom0 mem=16 -- seed=$s iters=$diters$opsarg
domain = dirtier mem=16 -- seed=$s pages=1024 work=60
domain = witness -- rounds=200
extra_params = sched_credit_tslice_ms=5$([ $((s % 2)) -eq 1 ] && echo " pml=0")
timeout = 240
expect = ^\(d0\) Test result: SUCCESS
expect = ^\(d1\) Test result: SUCCESS
expect = ^\(d2\) Test result: SUCCESS
expect = All domains have shut down: powering off
reject = MISSING
$reject

CASE
    fi
done

echo "fuzz: seeds $seed..$((seed + iters - 1)), kind $kind${ops:+, ops=$ops}"
log=$(mktemp /tmp/fuzz-XXXXXX.log)
trap 'rm -f "$cfg" "$log"' EXIT
tests/run-tests.sh -n -c "$cfg" 2>&1 | tee "$log" | grep --line-buffered -Ev '^[0-9]+ passed, [0-9]+ failed$'
out=$(cat "$log")

pass=$(grep -c '^PASS ' <<<"$out")
fail=$(grep -c '^FAIL ' <<<"$out")
if [ "$fail" -ne 0 ]; then
    echo
    echo "Failing seeds (logs in tests/out/<case>/serial.out):"
    grep '^FAIL ' <<<"$out" | while read -r _ case why; do
        k=${case#fuzz-}; k=${k%-*}; s=${case##*-}
        echo "  seed $s ($k): $why"
        echo "    reproduce: make fuzz FUZZ_SEED=$s FUZZ_ITERS=1 FUZZ_KIND=$k${ops:+ FUZZ_OPS=$ops}"
        echo "    traced:    make fuzz FUZZ_SEED=$s FUZZ_ITERS=1 FUZZ_KIND=$k${ops:+ FUZZ_OPS=$ops} FUZZ_TRACE=1"
    done
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
