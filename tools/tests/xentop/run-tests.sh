#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# xentop's host tests (run by "make -C tools/tests/xentop"), over the fake
# hypervisor (tools/tests/fake): at its k-th sample a vCPU's counters
# are k * vrate and the clock reads k seconds ($FAKE_XEN_CLOCK_NS), so the
# rates between two samples are known exactly.
#   1. batch mode (-b, -v, --json): the figures, exactly; one sysctl per
#      refresh; bad options and a failing hypervisor;
#   2. the detail of one domain (-D): vCPUs, exits by reason, heat map
#      (the fake's blocks grow by brate per sample while tracked);
#   3. the curses screen in tmux, as a person would use it: rows, sorting,
#      help, the detail view with its heat map, resizing, quitting, and
#      log-dirty switched on with t and off again on leaving; while it is
#      ours, re-armed at each refresh (the rates of a guest whose working
#      set is all dirty stay), not once it is another consumer's.
# The last line is "N passed, N failed"; the exit status is 1 on failure.
set -u
cd "$(dirname "$0")"
. ../lib.sh
SOCK=$W/tmux.sock                   # our own tmux server, nobody else's
kill_tmux() { tmux -S "$SOCK" kill-server 2>/dev/null; }
LIB_CLEANUP=kill_tmux
BEGIN_CLEARS_LOG=0                  # the screen's cases follow each other

# dom0 spins PAUSE, guest1 is tracked by write protection, web by PML.
# web's 24 blocks of 2 MiB (512 pages): pages dirtied per sample (levels
# . - . + * # # . then each level's edges: - + + * * #, then quiet; block 2
# is VRAM when a test says so); its exits per sample
# and vCPU v: (v + 1) x 3 PML_FULL, 1 EPT_VIOLATION, 10 EXTERNAL_INTERRUPT.
BRATE=0,5,0,40,200,512,1024,0,8,9,64,65,256,257,0,0,0,0,0,0,0,0,0,0
machine() {
    rm -rf "$W/run"
    mkdir -p "$W/run"
    cat >"$W/state" <<EOS
domain 0 flags=running tot=262144 max=262144 vcpus=1 maxvcpu=0 cpu=1 vrate=0:0:0:5
domain 1 uuid=5a1e0000-0000-4000-8000-000000000001 flags=blocked tot=65536 max=65536 vcpus=1 maxvcpu=0 logdirty=1 mech=wp vrate=50:0:50:1
domain 5 uuid=5a1e0000-0000-4000-8000-000000000005 flags=running tot=32768 max=32768 vcpus=2 maxvcpu=1 logdirty=1 mech=pml vrate=256:1:0:3,512:2:1:0 bshift=9 brate=$BRATE erate=62:3,48:1,1:10
EOS
    xenstore_dom0
    name_domain 1 5a1e0000-0000-4000-8000-000000000001 guest1
    name_domain 5 5a1e0000-0000-4000-8000-000000000005 web
    : >"$W/log"
}
top() { run "$BIN/xentop" "$@"; }

TABLE='NAME                ID  STATE VCPUS    MEM(k) TRACK          MECH    DIRTY/s    MiB/s PMLFULL/s WPFAULT/s    PLE/s
Domain-0             0 r-----     1   1048576 off            -           0.0     0.00       0.0       0.0      5.0
guest1               1 -b----     1    262144 log-dirty      WP         50.0     0.20       0.0      50.0      1.0
web                  5 r-----     2    131072 log-dirty      PML       768.0     3.00       3.0       1.0      3.0'

# ---- 1. batch mode ------------------------------------------------------------------

begin "xentop -b -i 1: Xen's row per domain, exact rates"
machine
top -b -i 1 -d 0.1
want_rc 0
want_out <<<"$TABLE"
end

begin "xentop -b -i 3: one sysctl per refresh (and one size query)"
machine
top -b -i 3 -d 0.1
want_rc 0
[ "$(grep -c . "$W/out")" = 12 ] || problem "$(grep -c . "$W/out") lines, want 12"
[ "$(grep -c '^dirty_stats_all$' "$W/log")" = 5 ] ||
    problem "calls: $(sort "$W/log" | uniq -c)"
grep -qv '^dirty_stats_all$' "$W/log" && problem "other calls: $(sort "$W/log" | uniq -c)"
end

begin "xentop -b -v: per-vCPU rates"
machine
top -b -v -i 1 -d 0.1
want_rc 0
want_out <<'EOF2'
NAME                ID  STATE VCPUS    MEM(k) TRACK          MECH    DIRTY/s    MiB/s PMLFULL/s WPFAULT/s    PLE/s
Domain-0             0 r-----     1   1048576 off            -           0.0     0.00       0.0       0.0      5.0
  VCPU   0        0.0     0.00       0.0       0.0      5.0
guest1               1 -b----     1    262144 log-dirty      WP         50.0     0.20       0.0      50.0      1.0
  VCPU   0       50.0     0.20       0.0      50.0      1.0
web                  5 r-----     2    131072 log-dirty      PML       768.0     3.00       3.0       1.0      3.0
  VCPU   0      256.0     1.00       1.0       0.0      3.0
  VCPU   1      512.0     2.00       2.0       1.0      0.0
EOF2
end

begin "rates are per second of the hypervisor's clock (samples 4 s apart)"
machine
FAKE_XEN_CLOCK_NS=4000000000 top -b -i 1 -d 0.1
want_rc 0
want_out_has '^web +5 r----- +2 +131072 log-dirty +PML +192\.0 +0\.75 +0\.8 +0\.2 +0\.8$'
want_out_has '^guest1 .* 12\.5 +0\.05 +0\.0 +12\.5 +0\.2$'
end

begin "tracking modes and states: vram, log-dirty+vram, crashed, paused"
machine
setfield 1 vram=0x100+64
setfield 1 logdirty=0
setfield 5 vram=0x200+16
setfield 5 flags=shutdown
setfield 5 reason=3
setfield 0 flags=running,paused
top -b -i 1 -d 0.1
want_rc 0
want_out_has '^Domain-0 +0 r-p--- '
want_out_has '^guest1 +1 -b---- +1 +262144 vram +WP '
want_out_has '^web +5 ---sc- +2 +131072 log-dirty\+vram PML '
end

begin "xentop --json: one object per iteration, the same figures"
machine
top --json -i 2 -d 0.1
want_rc 0
python3 - "$W/out" >"$W/check" 2>&1 <<'EOPY' || problem "$(cat "$W/check")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, lines
for i, l in enumerate(lines, 1):
    o = json.loads(l)
    assert o["iteration"] == i and o["interval_s"] == 1.0, o
    d = {x["name"]: x for x in o["domains"]}
    assert sorted(d) == ["Domain-0", "guest1", "web"], d
    w = d["web"]
    assert (w["domid"], w["state"], w["vcpus"], w["memory_kib"]) == (5, "r-----", 2, 131072), w
    assert (w["tracking"], w["mechanism"]) == ("log-dirty", "PML"), w
    assert (w["dirty_pages_per_s"], w["dirty_mib_per_s"], w["pml_full_exits_per_s"],
            w["wp_faults_per_s"], w["ple_exits_per_s"]) == (768.0, 3.0, 3.0, 1.0, 3.0), w
    assert [v["dirty_pages_per_s"] for v in w["vcpu"]] == [256.0, 512.0], w
    assert d["guest1"]["mechanism"] == "WP" and d["guest1"]["wp_faults_per_s"] == 50.0
    assert d["Domain-0"]["tracking"] == "off" and d["Domain-0"]["ple_exits_per_s"] == 5.0
EOPY
end

begin "bad options: exit 2, a message, no sysctl"
machine
for args in "-d 0" "-d abc" "-d 5000" "-d nan" "-i 0" "-i -1" "-i 1x" "-x" "-b extra"; do
    # shellcheck disable=SC2086
    top $args
    want_rc 2
    [ -s "$W/err" ] || problem "no message for '$args'"
done
[ -s "$W/log" ] && problem "sysctl called: $(cat "$W/log")"
end

begin "the hypervisor refuses: exit 1, one message"
machine
echo "fail dirty_stats_all 1" >>"$W/state"
top -b -i 1 -d 0.1
want_rc 1
want_err_has "^xentop: cannot read the domains' counters: Operation not permitted$"
end

begin "xl top runs xentop with its options"
machine
mkdir -p "$W/path"
ln -sf "$BIN/xentop" "$W/path/xentop"
PATH=$W/path:$PATH "$HERE/../xl/bin/xl" top -b -i 1 -d 0.1 >"$W/out" 2>"$W/err"
echo $? >"$W/rc"
want_rc 0
want_out <<<"$TABLE"
PATH=/nonexistent "$HERE/../xl/bin/xl" top -b >"$W/out" 2>"$W/err"
echo $? >"$W/rc"
want_rc 1
want_err_has '^xl: cannot run xentop: No such file or directory$'
end

# ---- 2. the detail of one domain (-D) ---------------------------------------------------

DETAIL='DETAIL web (id 5): log-dirty+vram by PML, interval 1.00s
  VCPU   0      256.0     1.00       1.0       0.0      3.0
  VCPU   1      512.0     2.00       2.0       1.0      0.0
  EXIT EXTERNAL_INTERRUPT                 30.0
  EXIT PML_FULL                            9.0
  EXIT EPT_VIOLATION                       3.0
  MAP 24 blocks of 2 MiB: . none  - up to 1/64  + up to 1/8  * up to 1/2  # more  V VRAM, quiet
  MAP 0x0000000000 .-V+*##.-++**#..........
  VRAM: pfn 0x400-0x5ff, blocks 2-2'

begin "xentop -b -D 5: vCPUs, exits by reason, heat map with the VRAM block"
machine
setfield 5 vram=0x400+512
top -b -i 1 -d 0.1 -D 5
want_rc 0
sed -n '/^DETAIL/,$p' "$W/out" >"$W/detail"
d=$(diff -u <(echo "$DETAIL") "$W/detail") || problem "detail differs (- want, + got):"$'\n'"$d"
want_out_has '^web +5 r----- +2 +131072 log-dirty\+vram PML +768\.0 '
end

begin "xentop -b -i 3 -D 5: per refresh one sysctl, one dirty_blocks, one exit_counts per vCPU (and one size query each)"
machine
top -b -i 3 -d 0.1 -D 5
want_rc 0
[ "$(grep -c '^DETAIL' "$W/out")" = 3 ] || problem "$(grep -c '^DETAIL' "$W/out") details, want 3"
counts=$(sort "$W/log" | uniq -c | awk '{ print $2 " " $3 " " $4 "=" $1 }' | paste -sd' ')
[ "$counts" = "dirty_blocks 5 logged=5 dirty_stats_all  =5 exit_counts 5 0=4 exit_counts 5 1=4" ] ||
    problem "calls: $counts"
grep -qE '^(shadow_op|logdirty)' "$W/log" && problem "bitmap or mode touched: $(cat "$W/log")"
end

begin "xentop -b -D 0: an untracked domain says so; no map"
machine
top -b -i 1 -d 0.1 -D 0
want_rc 0
want_out_has '^DETAIL Domain-0 \(id 0\): off by -, interval 1\.00s$'
want_out_has '^  tracking is off: no dirty counter moves$'
want_out_has '^  MAP none: never tracked$'
end

begin "xentop --json -D 5: exits and the heat map in that domain only"
machine
setfield 5 vram=0x400+512
top --json -i 2 -d 0.1 -D 5
want_rc 0
python3 - "$W/out" >"$W/check" 2>&1 <<'EOPY' || problem "$(cat "$W/check")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, lines
for l in lines:
    o = json.loads(l)
    d = {x["name"]: x for x in o["domains"]}
    w = d["web"]
    assert [v["dirty_pages_per_s"] for v in w["vcpu"]] == [256.0, 512.0], w
    assert [(e["reason"], e["name"], e["per_s"]) for e in w["exits"]] == \
        [(1, "EXTERNAL_INTERRUPT", 30.0), (62, "PML_FULL", 9.0), (48, "EPT_VIOLATION", 3.0)], w["exits"]
    h = w["heat_map"]
    assert (h["interval_s"], h["block_pages"], h["vram_first_pfn"], h["vram_nr"]) == \
        (1.0, 512, 0x400, 512), h
    assert h["dirtied"] == [0, 5, 0, 40, 200, 512, 1024, 0, 8, 9, 64, 65, 256, 257] + [0] * 10, h["dirtied"]
    assert "heat_map" not in d["guest1"] and "exits" not in d["Domain-0"]
EOPY
end

begin "xentop -D: a bad id is refused (2), a missing domain or a failing call is 1"
machine
for args in "-D abc" "-D -1" "-D 32752" "-D 5x"; do
    # shellcheck disable=SC2086
    top -b $args
    want_rc 2
    [ -s "$W/err" ] || problem "no message for '$args'"
done
[ -s "$W/log" ] && problem "calls made: $(cat "$W/log")"
top -b -i 1 -d 0.1 -D 9
want_rc 1
want_err_has '^xentop: no domain 9$'
echo "fail dirty_blocks 1" >>"$W/state"
top -b -i 1 -d 0.1 -D 5
want_rc 1
want_err_has "^xentop: cannot read d5's heat map or exits: Operation not permitted$"
end

# ---- 3. the screen, in tmux ------------------------------------------------------------

screen() { tmux -S "$SOCK" capture-pane -p -t top >"$W/screen" 2>/dev/null; }
keys() { tmux -S "$SOCK" send-keys -t top "$@"; }
# Wait (up to 20 s: the machine may be busy) until the screen matches.
wait_for() {
    for _ in $(seq 200); do
        screen
        grep -qE -- "$1" "$W/screen" && return 0
        sleep 0.1
    done
    problem "the screen never showed /$1/:"$'\n'"$(cat "$W/screen")"
    return 1
}
# The names of the domain rows, top to bottom.
row_order() {
    grep -oE '^(Domain-0|guest1|web) ' "$W/screen" | tr -d ' ' | paste -sd' '
}

if ! command -v tmux >/dev/null; then
    begin "tmux is installed (tools/misc/install-deps.sh test)"
    problem "no tmux"
    end
else
    machine
    setfield 5 vram=0x400+512
    # ncurses keeps its memory until exit: no leak report from ASan.
    tmux -S "$SOCK" -f /dev/null new-session -d -s top -x 132 -y 30 \
        "env ASAN_OPTIONS=detect_leaks=0 TERM=xterm-256color $BIN/xentop -d 0.3; echo \$? >$W/screen-rc; sleep 30"

    begin "screen: a row per domain, by name, with the rates"
    wait_for 'interval 1\.00s' &&
    wait_for '^web +5 r----- +2 +131072 log-dirty\+vram PML +768\.0 +3\.00 +3\.0 +1\.0 +3\.0' &&
    [ "$(row_order)" = "Domain-0 guest1 web" ] ||
        problem "order $(row_order):"$'\n'"$(cat "$W/screen")"
    grep -q 'sort NAME' "$W/screen" || problem "no 'sort NAME'"
    grep -qE '^Q Quit +D Delay' "$W/screen" || problem "no key bar"
    end

    begin "screen: s sorts by the next column; DIRTY/s puts web first"
    for _ in 1 2 3 4 5 6 7; do keys s; done
    wait_for 'sort DIRTY/s' &&
    [ "$(row_order)" = "web guest1 Domain-0" ] ||
        problem "order $(row_order):"$'\n'"$(cat "$W/screen")"
    keys Right Right Right Right
    wait_for 'sort PLE/s' &&
    [ "$(row_order)" = "Domain-0 web guest1" ] ||
        problem "by PLE/s: order $(row_order)"
    keys Left Left Left Left
    wait_for 'sort DIRTY/s'
    end

    begin "screen: h shows the help, any key goes back"
    keys h
    wait_for '^  S, s +sort by the next column'
    keys x
    wait_for 'sort DIRTY/s'
    end

    begin "screen: Enter on a domain: its vCPUs, exits and heat map; Esc/Enter back"
    keys Down Up Enter
    wait_for '^Domain web \(id 5\): log-dirty\+vram by PML' &&
    wait_for '^ +0 +256\.0 +1\.00 +1\.0 +0\.0 +3\.0$' &&
    wait_for '^ +1 +512\.0 +2\.00 +2\.0 +1\.0 +0\.0$' &&
    wait_for '^EXTERNAL_INTERRUPT +30\.0$' &&
    wait_for '^PML_FULL +9\.0$' && wait_for '^EPT_VIOLATION +3\.0$' &&
    wait_for '^Heat map: 24 blocks of 2 MiB, pages newly dirtied in 1\.00s' &&
    wait_for '^0x0000000000 \.-V\+\*##\.-\+\+\*\*#\.{10}$' &&
    wait_for '^VRAM: pfn 0x400-0x5ff, blocks 2-2$'
    grep -qE '^Esc/Enter Back  T Tracking on/off  Q Quit' "$W/screen" || problem "no key bar"
    grep -q 'Tracking is off' "$W/screen" && problem "says tracking is off"
    keys x
    wait_for 'Esc or Enter: back, t: tracking, q: quit' && wait_for '^Domain web'
    keys Escape
    wait_for 'sort DIRTY/s'
    keys Down Enter
    wait_for '^Domain guest1 \(id 1\): log-dirty by WP' &&
    wait_for '^Heat map: none \(the domain was never tracked\)'
    keys Enter
    wait_for 'sort DIRTY/s'
    end

    begin "screen: the detail resized to 30x24: the map wraps at 16 blocks; back at 132x30"
    keys Up Enter
    wait_for '^0x0000000000 \.-V\+\*##\.-\+\+\*\*#\.{10}$'
    tmux -S "$SOCK" resize-window -t top -x 30 -y 24
    wait_for '^0x0000000000 \.-V\+\*##\.-\+\+\*\*#\.\.$' &&
    wait_for '^0x0002000000 \.{8}$' &&
    wait_for '^VRAM: pfn 0x400-0x5ff, blocks' &&
    awk 'length > 30 { bad = 1 } END { exit bad }' "$W/screen" || problem "lines over 30 columns"
    tmux -S "$SOCK" resize-window -t top -x 132 -y 30
    wait_for '^0x0000000000 \.-V\+\*##\.-\+\+\*\*#\.{10}$'
    keys Escape
    wait_for 'sort DIRTY/s'
    end

    begin "screen: d sets the delay; a bad one is refused"
    keys d
    wait_for 'Delay\(sec\):'
    keys 0.5 Enter
    wait_for 'delay 0\.50s'
    keys d
    wait_for 'Delay\(sec\):'
    keys 0 Enter
    wait_for "Bad delay '0'" && wait_for 'delay 0\.50s'
    end

    begin "screen: resized to 60x12, then back: redrawn to fit"
    tmux -S "$SOCK" resize-window -t top -x 60 -y 12
    wait_for '^Q Quit  D Delay  S Sort  <-/-> Sort column  Up/Down Sel' &&
    wait_for '^Domain-0 ' &&
    [ "$(wc -l <"$W/screen")" -le 12 ] || problem "$(wc -l <"$W/screen") lines"
    awk 'length > 60 { bad = 1 } END { exit bad }' "$W/screen" || problem "lines over 60 columns"
    [ "$(row_order)" = "web guest1 Domain-0" ] || problem "rows after resize: $(row_order)"
    tmux -S "$SOCK" resize-window -t top -x 132 -y 30
    wait_for 'Up/Down Select  Enter Detail  H Help'
    end

    begin "screen: q quits with status 0"
    keys q
    for _ in $(seq 50); do [ -s "$W/screen-rc" ] && break; sleep 0.1; done
    [ "$(cat "$W/screen-rc" 2>/dev/null)" = 0 ] || problem "exit status '$(cat "$W/screen-rc" 2>/dev/null)'"
    end
    tmux -S "$SOCK" kill-server 2>/dev/null

    # web untracked: xentop -D 5 starts in its detail and asks.  Its
    # working set is all dirty (saturate=1): its writes are logged, and
    # its rate seen, only in intervals after a re-arm.
    machine
    setfield 5 logdirty=0
    setfield 5 saturate=1
    rm -f "$W/screen-rc"
    tmux -S "$SOCK" -f /dev/null new-session -d -s top -x 132 -y 30 \
        "env ASAN_OPTIONS=detect_leaks=0 TERM=xterm-256color $BIN/xentop -d 0.3 -D 5; echo \$? >$W/screen-rc; sleep 30"

    begin "screen: -D 5 untracked: says so; t switches log-dirty on, the map heats"
    wait_for '^Domain web \(id 5\): off by -' &&
    wait_for '^Tracking is off: no dirty counter moves\. t: switch log-dirty on' &&
    wait_for '^0x0000000000 \.{24}$'
    keys t
    wait_for '^Log-dirty on for d5 while you watch' &&
    wait_for '^Domain web \(id 5\): log-dirty by PML' &&
    wait_for '^0x0000000000 \.-\.\+\*##\.-\+\+\*\*#\.{10}$'
    grep -q '^shadow_op 5 enable_logdirty$' "$W/log" || problem "no enable: $(cat "$W/log")"
    grep -qE '^(logdirty|shadow_op 5 off)' "$W/log" && problem "cleaned or off: $(cat "$W/log")"
    end

    begin "screen: our own session is re-armed at each refresh: the rates stay, no CLEAN"
    wait_for '^    0      256\.0     1\.00 ' && wait_for '^    1      512\.0     2\.00 '
    n1=$(grep -c '^dirty_rearm 5$' "$W/log")
    for _ in $(seq 100); do
        [ "$(grep -c '^dirty_rearm 5$' "$W/log")" -ge $((n1 + 4)) ] && break
        sleep 0.1
    done
    [ "$(grep -c '^dirty_rearm 5$' "$W/log")" -ge $((n1 + 4)) ] ||
        problem "not re-armed at each refresh: $(grep -c '^dirty_rearm 5$' "$W/log")"
    wait_for '^    0      256\.0 ' && wait_for '^    1      512\.0 ' &&
        wait_for '^768\.0 pages/s dirtied'
    grep -qE '^(logdirty|shadow_op 5 off)' "$W/log" && problem "cleaned or off: $(cat "$W/log")"
    end

    begin "screen: leaving the detail switches it off again (ours)"
    keys Escape
    wait_for 'sort NAME'
    grep -q '^shadow_op 5 off$' "$W/log" || problem "not switched off: $(grep shadow "$W/log")"
    grep -q '^domain 5 .* logdirty=0 ' "$W/state" || problem "state: $(grep '^domain 5' "$W/state")"
    n1=$(grep -c '^dirty_rearm 5$' "$W/log")
    sleep 1
    [ "$(grep -c '^dirty_rearm 5$' "$W/log")" = "$n1" ] || problem "re-armed after off"
    end

    begin "screen: another consumer's CLEAN meanwhile: left on; q with ours: off"
    keys Enter
    wait_for 'Tracking is off'
    keys t
    wait_for '^Log-dirty on for d5'
    setfield 5 calls=1,0,0
    sleep 1
    n1=$(grep -c '^dirty_rearm 5$' "$W/log")
    sleep 1
    [ "$(grep -c '^dirty_rearm 5$' "$W/log")" = "$n1" ] ||
        problem "re-armed another consumer's session"
    keys Escape
    wait_for "d5: log-dirty is another consumer's now: left on"
    [ "$(grep -c '^shadow_op 5 off$' "$W/log")" = 1 ] || problem "switched off: $(grep shadow "$W/log")"
    setfield 5 logdirty=0
    keys Enter
    wait_for 'Tracking is off'
    keys t
    wait_for '^Log-dirty on for d5'
    keys q
    for _ in $(seq 50); do [ -s "$W/screen-rc" ] && break; sleep 0.1; done
    [ "$(cat "$W/screen-rc" 2>/dev/null)" = 0 ] || problem "exit status '$(cat "$W/screen-rc" 2>/dev/null)'"
    [ "$(grep -c '^shadow_op 5 off$' "$W/log")" = 2 ] || problem "not off at q: $(grep shadow "$W/log")"
    end
    tmux -S "$SOCK" kill-server 2>/dev/null
fi

finish
