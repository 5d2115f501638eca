# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by checks.sh (/etc/dom0/checks-top-screen.sh) while jbb ($d)
# runs with log-dirty on: the curses screen of `xl top` driven in tmux as
# a person would (send-keys, capture-pane), as tools/tests/xentop/
# run-tests.sh does against its fake libxenctrl: rows, sorting, the
# detail view with its heat map, a resize, back, quit with status 0.
# Uses ok/bad and $out from checks.sh.  Each wait polls the screen for up
# to 60 s: dom0 under Bochs is slow.

if ! command -v tmux > /dev/null 2>&1; then
    echo "SKIP xl top screen: no tmux in the initramfs (no tmux on the build host)"
else
    ts_sock=/tmp/tmux.sock
    ts_rc=/tmp/top-screen.rc
    rm -f "$ts_rc"
    ts_screen() { tmux -S "$ts_sock" capture-pane -p -t top > $out 2>&1; }
    ts_keys() { tmux -S "$ts_sock" send-keys -t top "$@"; }
    # ts_wait REGEX: until a line of the screen matches (up to 60 s).
    ts_wait() {
        ts_n=0
        while [ $ts_n -lt 120 ]; do
            ts_screen
            grep -qE -- "$1" $out && return 0
            sleep 0.5
            ts_n=$((ts_n + 1))
        done
        ts_why="the screen never showed /$1/"
        return 1
    }
    # ts_step NAME: PASS if every ts_wait before it since the last step held.
    ts_ok=1
    ts_step() {
        if [ $ts_ok = 1 ]; then ok "$1"; else bad "$1" "$ts_why"; fi
        ts_ok=1
    }
    ts_need() { ts_wait "$1" || ts_ok=0; }

    if tmux -S "$ts_sock" -f /dev/null new-session -d -s top -x 132 -y 30 \
        "TERM=xterm-256color TERMINFO_DIRS=/lib/terminfo xl top -d 1; echo \$? > $ts_rc; sleep 120" \
        > $out 2>&1; then
        ok "tmux: a session running xl top"

        ts_need 'sort NAME' && ts_need '^Domain-0 +0 ' && ts_need '^jbb +[0-9]+ ' &&
            { grep -qE '^Q Quit +D Delay' $out || { ts_ok=0; ts_why="no key bar"; }; }
        ts_step "xl top screen: the header, a row for Domain-0 and for jbb"

        ts_keys s
        ts_need 'sort ([^N]|N[^A])'
        ts_step "xl top screen: s sorts by the next column ($(grep -oE 'sort [A-Z/]+' $out | head -n 1))"

        # Back to NAME (Domain-0, jbb): Down past the last row stays on jbb.
        ts_keys Left
        ts_need 'sort NAME'
        ts_keys Down Down Up Down Enter
        ts_need "^Domain jbb \\(id $d\\): log-dirty[^ ]* by PML" &&
            ts_need '^ +VCPU +DIRTY/s ' && ts_need '^ +0 +[0-9]+\.[0-9] ' &&
            ts_need '^Heat map: [0-9]+ blocks of ' && ts_need '^0x0000000000 '
        ts_step "xl top screen: Enter on jbb: its vCPUs and the heat map"

        tmux -S "$ts_sock" resize-window -t top -x 60 -y 20 > /dev/null 2>&1
        ts_need '^Esc/Enter Back' && ts_need '^Domain jbb ' &&
            { awk 'length > 60 { bad = 1 } END { exit bad }' $out ||
                { ts_ok=0; ts_why="lines over 60 columns"; }; }
        ts_step "xl top screen: resized to 60x20, nothing wider"

        # (At 60 columns the header line is cut before "sort NAME".)
        ts_keys Escape
        ts_need '^Q Quit +D Delay' && ts_need '^jbb +[0-9]+ ' &&
            { awk 'length > 60 { bad = 1 } END { exit bad }' $out ||
                { ts_ok=0; ts_why="lines over 60 columns"; }; }
        ts_step "xl top screen: Esc goes back to the rows, still 60 wide"

        ts_keys q
        ts_n=0
        while [ ! -s "$ts_rc" ] && [ $ts_n -lt 60 ]; do sleep 0.5; ts_n=$((ts_n + 1)); done
        if [ "$(cat "$ts_rc" 2> /dev/null)" = 0 ]; then
            ok "xl top screen: q quits with status 0"
        else
            bad "xl top screen: q quits with status 0" \
                "exit status '$(cat "$ts_rc" 2> /dev/null)'"
        fi
    else
        bad "tmux: a session running xl top" "tmux new-session failed"
    fi
    tmux -S "$ts_sock" kill-server > /dev/null 2>&1
    rm -f "$ts_sock" "$ts_rc"
fi
