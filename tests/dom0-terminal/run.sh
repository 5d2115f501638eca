#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The terminal test: `make run` driven in a private tmux server as a user
# would (send-keys, paste-buffer, capture-pane), on a 160x48 terminal:
#
#   - the dom0 prompt comes, with the banner; `xl list` shows Domain-0
#     and the demo guest jbb;
#   - the machine stays up at the prompt for longer than the limits of the
#     no-terminal mode (make run is given RUN_TIMEOUT=30, which a shell
#     must not be held to; bochs-run.sh's own default is 120 s), and
#     answers again;
#   - `xl top` runs on the user's terminal (not in a tmux inside dom0):
#     the header, rows for Domain-0 and jbb, `s` sorts by the next column,
#     `q` quits, and the shell answers;
#   - a 200-character command line pasted in one burst arrives whole (its
#     md5sum is what it should be) and no input was lost (the hypervisor
#     logged no overrun, full stage or full ring);
#   - `poweroff` ends the machine and `make run` exits with status 0;
#   - the screen (and everything the console carried, serial.out) never
#     showed soft lockups, BUGs, call traces, RCU stalls, clocksource or
#     TSC warnings.
# It reports when the prompt came, in Bochs ticks (from the hypervisor's
# TSC-stamped lines: console_timestamps=raw) and in wall time; waits have
# generous limits for a loaded machine and are not assertions on time.
#
#   tests/dom0-terminal/run.sh [-v] [-x COLSxROWS]
#
#   -v  print the screen and the console's end when a step fails
#   -x  the terminal's size (default 160x48)
#
# Ends with "N passed, N failed".  Logs: tests/out/dom0-terminal/
# (screen.txt: the whole screen history; the run's console in run/).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1

verbose=0
size=160x48
while getopts "vx:h" opt; do
    case $opt in
    v) verbose=1 ;;
    x) size=$OPTARG ;;
    *) sed -n '4,33p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
cols=${size%x*} rows=${size#*x}

out=$ROOT/tests/out/dom0-terminal
rm -rf "$out"
mkdir -p "$out"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() {
    fail=$((fail + 1))
    echo "FAIL $1: $2"
    if [ $verbose = 1 ]; then
        screen > "$out/screen.now"
        sed 's/^/  | /' "$out/screen.now"
        [ -f "$out/run/serial.out" ] && tr -d '\r' < "$out/run/serial.out" | tail -n 20 | sed 's/^/  > /'
    fi
}
finish() {
    [ -n "${sock:-}" ] && tmux -S "$sock" kill-server 2> /dev/null
    echo "$pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
}

tools/misc/install-deps.sh test > /dev/null
command -v tmux > /dev/null || { bad "tmux" "tmux is not installed (tools/misc/install-deps.sh test)"; finish; }
[ -s build/dom0/kernel.env ] || tools/dom0/fetch-kernel.sh -q ||
    { bad "the kernel" "tools/dom0/fetch-kernel.sh failed"; finish; }

sock=$out/tmux.sock
screen() { tmux -S "$sock" capture-pane -p -t run 2> /dev/null; }
history() { tmux -S "$sock" capture-pane -p -J -S - -E - -t run 2> /dev/null; }
keys() { tmux -S "$sock" send-keys -t run "$@"; }
# wait_for SECONDS REGEX: until a line of the screen matches; 1 if it never did.
wait_for() {
    local end=$((SECONDS + $1))
    while [ $SECONDS -lt $end ]; do
        screen | grep -qE -- "$2" && return 0
        sleep 1
    done
    return 1
}
# wait_frame SECONDS FILE REGEX...: until one capture of the screen has a
# line matching each REGEX (a whole frame: a full-screen program redraws
# at the serial line's speed), saved to FILE; 1 if none did.
wait_frame() {
    local end=$((SECONDS + $1)) file=$2 re all
    shift 2
    while [ $SECONDS -lt $end ]; do
        screen > "$file"
        all=1
        for re in "$@"; do
            grep -qE -- "$re" "$file" || { all=0; break; }
        done
        [ $all = 1 ] && return 0
        sleep 1
    done
    return 1
}
# The shell answered COMMAND: type it, wait for REGEX.
answer() {
    keys -l "$1"
    keys Enter
    wait_for "$2" "$3"
}

# make run in the pane: in a terminal, the shell mode.  Its exit status
# goes to a file; the pane stays.
xen_cmdline="pml=1 ple_gap=64 ple_window=4096 console_timestamps=raw"
tmux -S "$sock" -f /dev/null new-session -d -s run -x "$cols" -y "$rows" \
    "cd '$ROOT' && make run RUN_TIMEOUT=30 RUN_DIR='$out/run' RUN_XEN_CMDLINE='$xen_cmdline'; echo \$? > '$out/status'; sleep 3600" ||
    { bad "tmux" "cannot start a tmux server"; finish; }
tmux -S "$sock" set-option -g history-limit 100000 > /dev/null
t0=$SECONDS

# 1. The prompt, the banner, xl list.
if wait_for 900 '^root@dom0:[^ ]*# ?$'; then
    t_prompt=$((SECONDS - t0))
    ok "the dom0 prompt (after ${t_prompt} s of wall time)"
else
    bad "the dom0 prompt" "no prompt within 900 s"
    finish
fi
history > "$out/screen.txt"
if grep -qE 'Try: +xl list +xl top' "$out/screen.txt" &&
   grep -qE 'xl migrate [0-9]+ localhost' "$out/screen.txt" &&
   grep -qE 'Ctrl-A three times' "$out/screen.txt"; then
    ok "the banner: what to try, the hypervisor's console, how to leave"
else
    bad "the banner" "no banner with xl list, xl top, xl migrate, Ctrl-A"
fi
if answer 'xl list' 120 '^jbb +[0-9]+ ' && screen | grep -qE '^Domain-0 +0 '; then
    ok "xl list: Domain-0 and jbb"
else
    bad "xl list: Domain-0 and jbb" "not on the screen"
fi

# 2. Longer at the prompt than any limit of the no-terminal mode.
sleep 150
if answer 'echo still-here-$((6 * 7))' 120 '^still-here-42$'; then
    ok "still at the prompt after $((SECONDS - t0 - t_prompt)) s: answers again"
else
    bad "still at the prompt after 150 s" "no answer"
fi

# 3. xl top on this terminal.
keys -l 'xl top -d 2'
keys Enter
if wait_frame 180 "$out/top.txt" 'sort NAME' '^Domain-0 +0 ' '^jbb +[0-9]+ ' '^Q Quit'; then
    ok "xl top: its screen, rows for Domain-0 and jbb"
else
    bad "xl top: its screen" "no frame with the header, rows for Domain-0 and jbb, the key bar"
fi
if grep -qE '\(d[0-9]+\)|\?\[' "$out/top.txt"; then
    bad "xl top: a clean screen" "console prefixes or mangled escapes on it"
else
    ok "xl top: a clean screen (no console prefixes, no mangled escapes)"
fi
if [ "$(awk 'length > '"$cols"' { n++ } END { print n + 0 }' "$out/top.txt")" = 0 ] &&
   grep -qE '^Q Quit' "$out/top.txt"; then
    ok "xl top: laid out for ${cols}x${rows}"
else
    bad "xl top: laid out for ${cols}x${rows}" "no key bar, or lines wider than the terminal"
fi
keys s
if wait_frame 60 "$out/top-sorted.txt" 'sort ([^N]|N[^A])' '^Domain-0 +0 ' '^jbb +[0-9]+ '; then
    ok "xl top: s sorts by the next column ($(screen | grep -oE 'sort [A-Z/]+' | head -n 1))"
else
    bad "xl top: s sorts by the next column" "the sort column did not change"
fi
keys q
if answer 'echo top-done' 120 '^top-done$'; then
    ok "xl top: q, and the shell answers"
else
    bad "xl top: q, and the shell answers" "no answer"
fi

# 4. A 200-character command line pasted in one burst.
payload=$(printf 'x%.0s' $(seq 1 150))
line="echo pasted-$payload | md5sum"
line=${line}$(printf ' %.0s' $(seq 1 $((200 - ${#line}))))
want=$(printf '%s\n' "pasted-$payload" | md5sum | cut -d' ' -f1)
printf '%s\r' "$line" > "$out/paste.txt"
tmux -S "$sock" load-buffer -b paste "$out/paste.txt" &&
    tmux -S "$sock" paste-buffer -d -b paste -t run
if wait_for 120 "^$want +-\$"; then
    ok "a 200-character line pasted in one burst arrived whole"
else
    bad "a 200-character line pasted in one burst" "md5sum $want not on the screen"
fi
if answer 'xl dmesg | grep -c "overrun\|stage full\|input ring full"' 120 '^0$'; then
    ok "no input lost: xl dmesg has no overrun"
else
    bad "no input lost" "xl dmesg reports an overrun, a full stage or a full input ring"
fi

# 5. poweroff ends the machine; make run exits 0.
keys -l poweroff
keys Enter
end=$((SECONDS + 300))
while [ ! -s "$out/status" ] && [ $SECONDS -lt $end ]; do sleep 1; done
st=$(cat "$out/status" 2> /dev/null)
if [ "$st" = 0 ]; then
    ok "poweroff: the machine ended, make run exited with status 0"
else
    bad "poweroff: the machine ended" "make run's status: ${st:-none after 300 s}"
fi

# 6. What the screen and the console showed.
history > "$out/screen.txt"
log=$out/run/serial.out
bad_re='soft lockup|BUG:|Call Trace|rcu_sched|rcu_preempt|self-detected stall|clocksource|Marking TSC unstable|TSC ADJUST|tsc: .*(unstable|skew)'
found=$( { cat "$out/screen.txt"; tr -d '\r' < "$log" 2> /dev/null; } | grep -aE -- "$bad_re" | head -n 3)
if [ -z "$found" ]; then
    ok "never a soft lockup, BUG, call trace, RCU stall or clocksource warning"
else
    bad "a clean boot" "$found"
fi

# The prompt in ticks: the hypervisor's TSC on its last line before the banner.
ticks=$(tr -d '\r' < "$log" 2> /dev/null |
        awk '/^\((XEN|d[0-9]+)\) \[[0-9a-f]+\] / { t = $2 } /dom0: Debian.s Linux/ { print t; exit }' |
        tr -d '[]')
[ -n "$ticks" ] && echo "prompt at about $(printf '%d' "0x$ticks") Bochs ticks (the hypervisor's last line before the banner), ${t_prompt} s of wall time"
finish
