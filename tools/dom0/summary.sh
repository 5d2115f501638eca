#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Judge and summarise a run of tools/dom0/run-dom0.sh from its directory:
# wall time to each stage (serial.times), Bochs's ticks at the end
# (bochs.log), how far Linux got, dom0's check lines.
#
#   summary.sh [-s] DIR
#
# Exit status 0 only if dom0 printed "dom0 checks: N passed, 0 failed"
# with N > 0; with -s (a shell run, run-dom0.sh -m shell): only if the
# machine powered off.
set -uo pipefail
shell=0
[ "${1:-}" = -s ] && { shell=1; shift; }
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
    "dom0 built (kernel copied into its RAM)" "$(at '^\(XEN\) (\[[^]]*\] )?d0: ')" \
    "Linux's first line" "$(at '^(Poking KASLR|\[ *[0-9]+\.[0-9]+\] )')" \
    "/init's first line" "$(at '(dom0 checks: Linux|dom0: Debian.s Linux)')" \
    "last line" "$last"
echo "  Bochs ticks at the end: $ticks (a run stopped on a line ran 1 s more;"
echo "  an idle machine's ticks race ahead); Bochs: $(cat "$dir/status" 2> /dev/null)"

txt=$(sed -E 's/^ *[0-9.]+ //' "$times")
if [ $shell = 1 ]; then
    boots=$(grep -caE '^\(XEN\) (\[[^]]*\] )?Command line:' <<< "$txt")
    [ "$boots" -gt 1 ] && echo "dom0: the machine rebooted $((boots - 1)) time(s)"
    if grep -qaE 'All domains have shut down: powering off' <<< "$txt"; then
        echo "dom0: the machine powered off"
        exit 0
    fi
    echo "dom0: the machine did not power off; the console's last lines:"
    tail -n 15 <<< "$txt" | sed 's/^/  /'
    exit 1
fi
res=$(grep -aoE 'dom0 checks: [0-9]+ passed, [0-9]+ failed' <<< "$txt" | tail -n 1)
if [ -n "$res" ]; then
    grep -aE '^(PASS|FAIL) |^ +\| ' <<< "$txt" | sed 's/^/  /'
    echo "$res"
    p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<< "$res")
    f=$(sed -E 's/.* ([0-9]+) failed/\1/' <<< "$res")
    [ "$f" -eq 0 ] && [ "$p" -gt 0 ]
    exit
fi
if grep -qa 'dom0 checks: Linux' <<< "$txt"; then
    grep -aE '^(PASS|FAIL) ' <<< "$txt" | sed 's/^/  /'
    echo "dom0's checks did not finish; the console's last lines:"
else
    echo "dom0 did not reach its checks; the console's last lines:"
fi
grep -avE '^\((XEN|d[0-9]+)\) ' <<< "$txt" | tail -n 25 | sed 's/^/  /'
bug=$(grep -aE 'kernel BUG at|Kernel panic|BUG: |Oops|Domain 0 crashed|Panic on CPU' <<< "$txt" | head -n 3)
[ -n "$bug" ] && { echo "dom0: stopped by:"; sed 's/^/  /' <<< "$bug"; }
echo "dom0 checks: 0 passed, 1 failed"
exit 1
