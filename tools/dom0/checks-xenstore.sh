# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by checks.sh (its helpers: ok, bad, run, match, ...): Xen's own
# xenstored and xenconsoled, Debian's builds, started by /init as Xen's
# xencommons does.

# pidof NAME: the daemon runs.
daemon() {
    pidof "$1" > /dev/null
}
run "xenstored runs (Debian's, unmodified)" daemon xenstored
match "xenstore: dom0's name" '^Domain-0$' xenstore-read /local/domain/0/name
match "xenstore: dom0's domid" '^0$' xenstore-read /local/domain/0/domid
run "xenconsoled runs (Debian's, unmodified)" daemon xenconsoled

# A domU created by libxl (jbb): its tree as Xen's libxl writes it, read
# back from xenstored; introduced (xl create fails otherwise); xenconsoled
# serving its console ring (it writes console/tty once it has mapped the
# ring through grant GNTTAB_RESERVED_CONSOLE and bound the port).
run "xl create jbb.cfg (for xenstore)" xl create /etc/xen/jbb.cfg
d=$(xl domid jbb 2> /dev/null) || d=none
p=/local/domain/$d
match "xl domid jbb: from xenstore's names" '^[1-9][0-9]*$' echo "$d"
match "xenstore: the domU's name" '^jbb$' xenstore-read $p/name
match "xenstore: the domU's domid" "^$d\$" xenstore-read $p/domid
vm=$(xenstore-read $p/vm 2> /dev/null)
match "xenstore: its vm path" '^/vm/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' echo "$vm"
match "xenstore: /vm/<uuid>/name" '^jbb$' xenstore-read "$vm/name"
match "xenstore: /vm/<uuid>/uuid is xl list -l's" \
    "\"uuid\": \"${vm#/vm/}\"" xl list -l "$d"
match "xenstore: memory/target" '^16384$' xenstore-read $p/memory/target
match "xenstore: memory/static-max" '^16384$' xenstore-read $p/memory/static-max
match "xenstore: store/ring-ref (Xen's special page 0xfeffc)" '^1044476$' \
    xenstore-read $p/store/ring-ref
match "xenstore: store/port" '^[1-9][0-9]*$' xenstore-read $p/store/port
match "xenstore: console/ring-ref (0xfefff)" '^1044479$' xenstore-read $p/console/ring-ref
match "xenstore: console/type" '^xenconsoled$' xenstore-read $p/console/type
# Permissions: dom0 owns the domain's directory, the guest reads it;
# control/shutdown is the guest's.
match "xenstore: /local/domain/<domid> owned by dom0, readable by it" \
    "^$d = \"\" .*\(n0,r$d\)\$" xenstore-ls -p /local/domain
match "xenstore: control/shutdown is the guest's" "shutdown = \"\" .*\(n$d\)" \
    xenstore-ls -p $p/control
match "xenstore: dom0's console backend" "^$p/console\$" \
    xenstore-read /local/domain/0/backend/console/$d/0/frontend
# console_tty D: xenconsoled wrote the pty (it polls new domains).
console_tty() {
    t=0
    while [ $t -lt 50 ]; do
        tty=$(xenstore-read /local/domain/$1/console/tty 2> /dev/null)
        [ -n "$tty" ] && { echo "$tty"; return 0; }
        sleep 0.2
        t=$((t + 1))
    done
    return 1
}
match "xenconsoled: the console's pty in xenstore" '^/dev/pts/[0-9]+$' console_tty "$d"
run "xl destroy (xenstore)" xl destroy "$d"
nomatch "xenstore: the domU's tree is gone" "^$d = " xenstore-ls /local/domain
nomatch "xenstore: its /vm is gone" "^${vm#/vm/} = " xenstore-ls /vm
nomatch "xenstore: its console backend is gone" "^$d = " xenstore-ls /local/domain/0/backend/console
match "xenstore: Domain-0's name stays" '^Domain-0$' xenstore-read /local/domain/0/name

# The PV console end to end, in tmux (xenconsole reads keys only from a
# terminal): a console-ring guest (tests/console-ring) writes a banner
# into its ring and answers each line typed to it.  `xl create -c`
# attaches Xen's xenconsole before unpausing it (the banner is not
# missed); a line typed, answered; Ctrl-] back to dom0; `xl console`
# again for a second line.  Each wait polls the screen for up to 60 s.
if ! command -v tmux > /dev/null 2>&1; then
    echo "SKIP xl console: no tmux in the initramfs (no tmux on the build host)"
else
    cs_sock=/tmp/tmux-console.sock
    cs_rc=/tmp/console.rc
    cs_keys() { tmux -S "$cs_sock" send-keys -t con "$@"; }
    # cs_wait NAME REGEX: PASS once a line of the screen matches.
    cs_wait() {
        cs_n=0
        while [ $cs_n -lt 120 ]; do
            tmux -S "$cs_sock" capture-pane -p -t con > $out 2>&1
            grep -qE -- "$2" $out && { ok "$1"; return 0; }
            sleep 0.5
            cs_n=$((cs_n + 1))
        done
        bad "$1" "the screen never showed /$2/"
        return 1
    }
    # cs_left NAME: the command in the session returned, with status 0.
    cs_left() {
        cs_n=0
        while [ ! -s "$cs_rc" ] && [ $cs_n -lt 60 ]; do sleep 0.5; cs_n=$((cs_n + 1)); done
        if [ "$(cat "$cs_rc" 2> /dev/null)" = 0 ]; then ok "$1"; else
            bad "$1" "status '$(cat "$cs_rc" 2> /dev/null)' (none: still attached)"; fi
    }
    # cs_session CMD: a fresh session running CMD, its status to $cs_rc.
    cs_session() {
        rm -f "$cs_rc"
        tmux -S "$cs_sock" kill-server > /dev/null 2>&1
        tmux -S "$cs_sock" -f /dev/null new-session -d -s con -x 100 -y 30 \
            "TERM=xterm $1; echo \$? > $cs_rc; sleep 120"
    }
    cs_session "xl create -c /etc/xen/console.cfg"
    cs_wait "xl create -c: the guest's banner from its console ring" \
        '^console-ring: d[0-9]+ up, ring at gfn 0xfefff, port 2'
    cs_keys "hello through xenconsoled" Enter
    cs_wait "xl create -c: a line typed, answered through the ring" \
        "^console-ring: got 'hello through xenconsoled'"
    cs_keys C-]
    cs_left "xl create -c: Ctrl-] returns to dom0"
    d=$(xl domid console 2> /dev/null) || d=none
    cs_session "xl console console"
    cs_keys "second line" Enter
    cs_wait "xl console: a second line, answered" "^console-ring: got 'second line'"
    cs_keys C-]
    cs_left "xl console: Ctrl-] returns to dom0, status 0"
    tmux -S "$cs_sock" kill-server > /dev/null 2>&1
    failing "xl console -t serial: a PVH domain has none" 'has no serial console' \
        xl console -t serial "$d"
    run "xl destroy (console)" xl destroy "$d"
fi
