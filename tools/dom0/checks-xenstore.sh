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
