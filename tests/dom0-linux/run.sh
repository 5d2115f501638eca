#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Linux control-domain system test: boot the hypervisor with Debian's
# stock kernel as the PVH dom0 once (tools/dom0/run-dom0.sh -m checks),
# let its /init run the toolstack checks (tools/dom0/checks.sh: xl list,
# info, dmesg, create, pause/unpause, log-dirty, vram-track, dirty-rate,
# destroy; every log-dirty bitmap of a writer guest checked against its
# record, checks-logdirty.sh; Debian's Linux as a PVH domU,
# checks-domu.sh) and report them.  Part of `make test` (suite dom0-linux): it
# fetches the kernel with apt once, into build/dom0 (docs/misc/dom0-linux.md).
#
#   tests/dom0-linux/run.sh [-t SECONDS] [-f] [-v]
#
#   -t  stop Bochs after this long (default 2100)
#   -f  show the console live
#   -v  print the whole serial log if the test fails
#
# Ends with "N passed, N failed": the checks dom0 counted, or "0 passed,
# 1 failed" if it never got to them; exits non-zero unless every check
# passed.  Logs: tests/out/dom0-linux/.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1

timeout=2100
args=()
verbose=0
while getopts "t:fvh" opt; do
    case $opt in
    t) timeout=$OPTARG ;;
    f) args+=(-f) ;;
    v) verbose=1 ;;
    *) sed -n '4,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done

out=$ROOT/tests/out/dom0-linux
mkdir -p "$ROOT/tests/out"
tools/misc/install-deps.sh dom0 || exit 1
if ! make -s all > "$ROOT/tests/out/build-dom0-linux.log" 2>&1; then
    tail -n 20 "$ROOT/tests/out/build-dom0-linux.log"
    echo "0 passed, 1 failed"
    exit 1
fi
tools/dom0/run-dom0.sh -m checks -d "$out" -t "$timeout" "${args[@]}" < /dev/null |
    tee "$out.summary"
rc=${PIPESTATUS[0]}

res=$(grep -oE 'dom0 checks: [0-9]+ passed, [0-9]+ failed' "$out.summary" | tail -n 1)
if [ $rc -ne 0 ] && [ $verbose = 1 ] && [ -s "$out/serial.times" ]; then
    sed 's/^/  | /' "$out/serial.times"
fi
if [ -n "$res" ]; then
    echo "${res#dom0 checks: }"
else
    echo "0 passed, 1 failed"
fi
exit $rc
