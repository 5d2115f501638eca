# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by checks.sh (its helpers: ok, bad, run, match, ...): Debian's own
# xl (xen-utils-4.17, unmodified, on Debian's libraries: tools/dom0/debian-xl)
# against this hypervisor, with Debian's xenstored (checks-xenstore.sh).
# Then our xl on the domain Debian's created, read through xenstore.
# What the hypervisor refused meanwhile is listed at the end (xl dmesg's
# "not implemented" lines), for docs/misc/debian-xl.md.
dxl=/usr/lib/debian-xen/bin/xl

# dxl_run NAME CMD...: as run, showing its output when it fails
# (libxl's messages with -vvv say which call failed and how).
dxl_run() {
    n=$1; shift
    "$@" > $out 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
        ok "$n"
    else
        bad "$n" "exit status $rc"
        grep -v '^xencall:buffer' $out | tail -n 150 | sed 's/^/    | /'
    fi
}

shown "Debian's xl info" $dxl info
match "Debian's xl info: xen_major" '^xen_major +: 4$' $dxl info
match "Debian's xl info: xen_scheduler credit2" '^xen_scheduler +: credit2$' $dxl info
match "Debian's xl info: nr_cpus" '^nr_cpus +: [1-9]' $dxl info
match "Debian's xl info: free_cpus 0 (all in Pool-0)" '^free_cpus +: 0$' $dxl info
match "our xl info: xen_scheduler credit2 too" '^xen_scheduler +: credit2$' xl info
shown "Debian's xl list" $dxl list
match "Debian's xl list: Domain-0" '^Domain-0 +0 ' $dxl list
match "Debian's xl cpupool-list: Pool-0" '^Pool-0 +[1-9][0-9]* +credit2 ' $dxl cpupool-list

dxl_run "Debian's xl create debxl.cfg" $dxl -vvv create /etc/xen/debxl.cfg
match "Debian's xl list: debxl" '^debxl +[1-9][0-9]* ' $dxl list
# It runs: its banner on its PV console, through Debian's xenconsoled
# (which logs each guest's console: /init starts it with --log=guest).
log=/var/log/xen/console/guest-debxl.log
t=0
while [ $t -lt 20 ] && ! grep -q '^console-ring: d' $log 2> /dev/null; do
    sleep 0.5
    t=$((t + 1))
done
match "debxl runs: its banner through xenconsoled" '^console-ring: d[0-9]+ up' cat $log
d=$($dxl domid debxl 2> /dev/null) || d=none
match "our xl list: Debian's debxl (names from xenstore)" "^debxl +$d " xl list
match "xenstore: debxl's name" '^debxl$' xenstore-read /local/domain/$d/name
match "Debian's xl vcpu-list: debxl" "^debxl +$d +0 " $dxl vcpu-list debxl
match "Debian's xl sched-credit2: debxl's weight" "^debxl +$d +256 " $dxl sched-credit2 -d debxl
run "Debian's xl pause debxl" $dxl pause debxl
match "Debian's xl list: debxl paused" '^debxl +[0-9]+ +[0-9]+ +[0-9]+ +..p' $dxl list
match "our xl list: debxl paused too" '^debxl +[0-9]+ +[0-9]+ +[0-9]+ +..p' xl list
run "Debian's xl unpause debxl" $dxl unpause debxl
match "Debian's xl list: debxl not paused" '^debxl +[0-9]+ +[0-9]+ +[0-9]+ +..-' $dxl list
dxl_run "Debian's xl destroy debxl" $dxl destroy debxl
nomatch "Debian's xl list: debxl is gone" '^debxl ' $dxl list
nomatch "our xl list: debxl is gone" '^debxl ' xl list

# What the hypervisor refused (one line per call, logged once each).
xl dmesg 2> /dev/null | grep 'not implemented' | sed 's/^/    | refused: /'
