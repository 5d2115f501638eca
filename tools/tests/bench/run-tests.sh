#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The performance lab's report is a function of its inputs (run by
# "make -C tools/tests/bench"):
#   1. the fixture (fixture/runs.txt: the results of a few real runs)
#      gives fixture/expected.md byte for byte, and reading and writing the
#      results file gives it back unchanged;
#   2. the same runs as run directories (as tests/out/bench-* holds them)
#      give the same report as their results file;
#   3. runs of two commits, or of a tree with changes, are refused unless
#      --allow-mixed, which marks the file;
#   4. a run the wall-clock safety net stopped, or that failed, is left out
#      of every table and named; runs of the lab not booted are named;
#   5. the committed docs/performance.md is what docs/performance-runs.txt
#      gives (skipped, and said so, while that file is not committed).
# UPDATE=1 rewrites fixture/expected.md from the fixture (after a deliberate
# change to the report; review the diff).
# The last line is "N passed, N failed"; the exit status is 1 on failure.
set -u
cd "$(dirname "$0")"
HERE=$PWD
ROOT=$(cd ../../.. && pwd)
REPORT="python3 $ROOT/tools/bench/report.py"
FIX=$HERE/fixture/runs.txt
EXP=$HERE/fixture/expected.md

pass=0
fail=0
skip=0
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

ok() { pass=$((pass + 1)); echo "PASS $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1: $2"; }

# 1. The fixture.
if [ "${UPDATE:-0}" = 1 ]; then
    $REPORT --from-results "$FIX" -o "$EXP" > /dev/null
fi
if $REPORT --from-results "$FIX" -o "$W/fix.md" > "$W/fix.out" 2>&1 &&
   cmp -s "$W/fix.md" "$EXP"; then
    ok fixture-report
else
    ko fixture-report "$(diff "$EXP" "$W/fix.md" 2>&1 | head -5 | tr '\n' ' ')$(tail -2 "$W/fix.out" | tr '\n' ' ')"
fi
$REPORT --from-results "$FIX" -o "$W/again.md" --write-results "$W/runs2.txt" > /dev/null 2>&1
if cmp -s "$FIX" "$W/runs2.txt" && cmp -s "$W/again.md" "$EXP"; then
    ok fixture-results-roundtrip
else
    ko fixture-results-roundtrip "$(diff "$FIX" "$W/runs2.txt" | head -3 | tr '\n' ' ')"
fi

# 2. The same runs as run directories, with whole logs around the lines read.
python3 - "$FIX" "$W/dirs" <<'PY'
import os, sys
src, out = sys.argv[1], sys.argv[2]
run = part = None
files = {}
for line in open(src):
    line = line.rstrip("\n")
    if line.startswith("=== run "):
        run = line[8:]
        part = None
        d = os.path.join(out, "bench-" + run)
        os.makedirs(os.path.join(d, "xen.iso.d/boot/grub"))
        files[run] = {"serial.out": ["GRUB loading.\r", "(XEN) noise line\r"],
                      "bochsrc": ["romimage: file=x"], "grub": ["set timeout=0"]}
    elif run is None:
        continue
    elif line in ("--- grub", "--- bochsrc", "--- serial"):
        part = {"--- grub": "grub", "--- bochsrc": "bochsrc", "--- serial": "serial.out"}[line]
    elif part:
        files[run][part].append(("  " + line) if part == "grub" else
                                line + ("\r" if part == "serial.out" else ""))
    else:
        k, _, v = line.partition(" ")
        name = {"status": "status", "commit": "commit", "bochs": "bochs-version"}[k]
        files[run][name] = [v]
for run, fs in files.items():
    d = os.path.join(out, "bench-" + run)
    for name, lines in fs.items():
        p = os.path.join(d, "xen.iso.d/boot/grub/grub.cfg" if name == "grub" else name)
        with open(p, "w") as f:
            f.write("\n".join(lines) + "\n")
PY
if $REPORT -o "$W/dirs.md" "$W"/dirs/bench-* > /dev/null 2>&1 && cmp -s "$W/dirs.md" "$EXP"; then
    ok run-directories
else
    ko run-directories "$(diff "$EXP" "$W/dirs.md" 2>&1 | head -5 | tr '\n' ' ')"
fi

# 3. One commit, or refused.
first=$(grep -m1 '^=== run ' "$FIX" | cut -c9-)
sed "/^=== run $first\$/,/^commit /s/^commit \(.*\)/commit 0123456789ab/" "$FIX" > "$W/mixed.txt"
sed 's/^commit \(.*\)/commit \1-dirty/' "$FIX" > "$W/dirty.txt"
for kind in mixed dirty; do
    rm -f "$W/$kind.md"
    $REPORT --from-results "$W/$kind.txt" -o "$W/$kind.md" > /dev/null 2> "$W/$kind.err"
    rc=$?
    if [ $rc = 2 ] && [ ! -e "$W/$kind.md" ] && grep -q 'not one measurement' "$W/$kind.err"; then
        ok "refuse-$kind"
    else
        ko "refuse-$kind" "exit $rc, $(head -1 "$W/$kind.err")"
    fi
    $REPORT --from-results "$W/$kind.txt" -o "$W/$kind.md" --allow-mixed > /dev/null 2>&1
    if grep -q '^> \*\*Not one measurement' "$W/$kind.md" &&
       ! grep -q 'Every figure below was measured at commit' "$W/$kind.md"; then
        ok "allow-mixed-$kind"
    else
        ko "allow-mixed-$kind" "no note at the top"
    fi
done

# 4. Failed and missing runs.
victim=$(grep '^=== run seed-wp' "$FIX" | head -1 | cut -c9-)
if [ -n "$victim" ]; then
    sed "/^=== run $victim\$/,/^status /s/^status .*/status timeout/" "$FIX" > "$W/timeout.txt"
    $REPORT --from-results "$W/timeout.txt" -o "$W/timeout.md" > /dev/null 2>&1
    rc=$?
    # Its score must appear nowhere: the WP average of the full report.
    wp_avg=$(grep -m1 '^| global log-dirty | ' "$EXP" | cut -d'|' -f3 | tr -d ' ')
    if [ $rc = 1 ] && grep -q "failed and are left out of every table:\*\* $victim (the wall-clock safety net stopped it)" "$W/timeout.md" &&
       [ -n "$wp_avg" ] && ! grep -q "$wp_avg" "$W/timeout.md" &&
       ! grep -q "^# $victim\$" "$W/timeout.md"; then
        ok timed-out-run-left-out
    else
        ko timed-out-run-left-out "exit $rc; WP avg $wp_avg still there or no note"
    fi
    sed "/^=== run $victim\$/,/^=== run /s/^(d0) Test result: SUCCESS/(d0) Test result: FAILURE/" "$FIX" > "$W/failed.txt"
    $REPORT --from-results "$W/failed.txt" -o "$W/failed.md" > /dev/null 2>&1
    if grep -q "left out of every table:\*\* $victim (1 of 2 results not SUCCESS (FAILURE))" "$W/failed.md" &&
       ! grep -q "$wp_avg" "$W/failed.md"; then
        ok failed-run-left-out
    else
        ko failed-run-left-out "the failed runs' cells are still in the tables"
    fi
else
    ko timed-out-run-left-out "the fixture has no seed-wp run"
fi
$REPORT --from-results "$FIX" -o "$W/missing.md" --expect "$(grep '^=== run ' "$FIX" | cut -c9- | tr '\n' ' ') ple-nonesuch" > /dev/null 2>&1
if grep -q 'were not booted.*ple-nonesuch' "$W/missing.md"; then
    ok missing-runs-named
else
    ko missing-runs-named "no note naming ple-nonesuch"
fi

# 5. The committed file.
if [ -f "$ROOT/docs/performance-runs.txt" ]; then
    if $REPORT --from-results "$ROOT/docs/performance-runs.txt" -o "$W/perf.md" > /dev/null 2>&1 &&
       cmp -s "$W/perf.md" "$ROOT/docs/performance.md"; then
        ok committed-performance-md
    else
        ko committed-performance-md "docs/performance.md is not what docs/performance-runs.txt gives: $(diff "$ROOT/docs/performance.md" "$W/perf.md" | head -3 | tr '\n' ' ')"
    fi
else
    skip=$((skip + 1))
    echo "SKIP committed-performance-md: docs/performance-runs.txt is not committed yet (make bench writes it)"
fi

[ $skip = 0 ] || echo "($skip skipped)"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
