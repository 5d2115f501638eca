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

