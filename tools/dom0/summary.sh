#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Judge and summarise a run of tools/dom0/run-dom0.sh from its directory:
# wall time to each stage (serial.times), Bochs's ticks at the end
# (bochs.log), how far Linux got, dom0's check lines.
#
#   summary.sh DIR
#
# Exit status 0 only if dom0 printed "dom0 checks: N passed, 0 failed"
# with N > 0.
set -uo pipefail
dir=$1
times=$dir/serial.times
[ -s "$times" ] || { echo "dom0: no serial output (see $dir/bochs.out)"; echo "0 passed, 1 failed"; exit 1; }

# at REGEX: the wall time of the first line matching REGEX, or "-".
at() {
    awk -v re="$1" '{ t = $1; sub(/^ *[0-9.]+ /, "") } $0 ~ re { print t "s"; f = 1; exit }
                    END { if (!f) print "-" }' "$times"
}
last=$(tail -n 1 "$times" | awk '{ print $1 "s" }')
ticks=$(awk '/^[0-9]+[a-z]\[/ { t = $1 } END { sub(/[a-z].*/, "", t); printf "%.0f", t }' \
        "$dir/bochs.log" 2> /dev/null)
echo "dom0: wall time since Bochs started (serial.times):"
printf '  %-44s %s\n' \
    "hypervisor's first line (BIOS, GRUB loading)" "$(at '^\(XEN\) ')" \
    "dom0 built (kernel copied into its RAM)" "$(at '^\(XEN\) d0: ')" \
    "Linux's first line" "$(at '^\(d0\) ')" \
    "/init's first line" "$(at 'dom0 checks: Linux')" \
    "last line" "$last"
echo "  Bochs ticks at the end: $ticks (a run stopped on a line ran 1 s more;"
echo "  an idle machine's ticks race ahead); Bochs: $(cat "$dir/status" 2> /dev/null)"

txt=$(sed -E 's/^ *[0-9.]+ //' "$times")
res=$(grep -aoE 'dom0 checks: [0-9]+ passed, [0-9]+ failed' <<< "$txt" | tail -n 1)
if [ -n "$res" ]; then
    grep -aE '(PASS|FAIL) |^(\(d0\) )? +\| ' <<< "$txt" | sed 's/^/  /'
    echo "$res"
    p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<< "$res")
    f=$(sed -E 's/.* ([0-9]+) failed/\1/' <<< "$res")
    [ "$f" -eq 0 ] && [ "$p" -gt 0 ]
    exit
fi
echo "dom0 did not reach its checks; its last console lines:"
grep -a '^(d0) ' <<< "$txt" | tail -n 25 | sed 's/^/  /'
bug=$(grep -aE 'kernel BUG at|Kernel panic|BUG: |Oops|Domain 0 crashed|Panic on CPU' <<< "$txt" | head -n 3)
[ -n "$bug" ] && { echo "dom0: stopped by:"; sed 's/^/  /' <<< "$bug"; }
echo "dom0 checks: 0 passed, 1 failed"
exit 1
