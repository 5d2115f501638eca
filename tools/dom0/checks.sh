#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The control domain's scripted checks (/etc/dom0/checks.sh in the
# initramfs): the toolstack against the real hypervisor through Linux's
# privcmd.  One "PASS <check>" or "FAIL <check>: <why>" line each, then
# "dom0 checks: N passed, N failed" (tests/dom0-linux/run.sh reads them).
# Exits non-zero if any check failed.
#
# xenpml.checks=SECTION,... on Linux's command line runs only those
# sections (base, top, logdirty, migrate, hcall, xenstore, debxl, domu,
# suspend, restore, and suspend-save and restore-migrate only when named; default
# all): for working on one of them (DOM0_CMDLINE=... tools/dom0/run-dom0.sh).
# domu (checks-domu.sh, Debian's Linux as a domU) is there only in an
# initramfs made with mk-initramfs.sh -L (the default; DOM0_LINUX_DOMU=0
# leaves it out).
pass=0
fail=0
out=/tmp/check.out

ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() {
    fail=$((fail + 1))
    echo "FAIL $1: $2"
    [ -s $out ] && tail -n 4 $out | sed 's/^/    | /'
}

# run NAME CMD...: CMD succeeds.
run() {
    n=$1; shift
    "$@" > $out 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then ok "$n"; else bad "$n" "exit status $rc"; fi
}

# match NAME REGEX CMD...: CMD succeeds and a line of its output matches
# REGEX (grep -E).
match() {
    n=$1 re=$2; shift 2
    "$@" > $out 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        bad "$n" "exit status $rc"
    elif grep -qE -- "$re" $out; then
        ok "$n"
    else
        bad "$n" "no line matches /$re/"
    fi
}

# shown NAME CMD...: CMD succeeds; its output goes to the console indented.
shown() {
    n=$1; shift
    "$@" > $out 2>&1
    rc=$?
    sed 's/^/    | /' $out
    if [ $rc -eq 0 ]; then ok "$n"; else bad "$n" "exit status $rc"; fi
}

# failing NAME REGEX CMD...: CMD fails (status 1) and a line matches REGEX.
failing() {
    n=$1 re=$2; shift 2
    "$@" > $out 2>&1
    rc=$?
    if [ $rc -ne 1 ]; then
        bad "$n" "exit status $rc, not 1"
    elif grep -qE -- "$re" $out; then
        ok "$n"
    else
        bad "$n" "no line matches /$re/"
    fi
}

# nomatch NAME REGEX CMD...: CMD succeeds and no line matches REGEX.
nomatch() {
    n=$1 re=$2; shift 2
    "$@" > $out 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        bad "$n" "exit status $rc"
    elif grep -qE -- "$re" $out; then
        bad "$n" "a line matches /$re/"
    else
        ok "$n"
    fi
}

# count NAME MIN CMD...: CMD succeeds and prints one number >= MIN.
count() {
    n=$1 min=$2; shift 2
    "$@" > $out 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        bad "$n" "exit status $rc"
    elif [ "$(cat $out)" -ge "$min" ] 2> /dev/null; then
        ok "$n ($(cat $out))"
    else
        bad "$n" "'$(head -c 60 $out)' is not a count >= $min"
    fi
}

# The state column of domain $1 in `xl list`: "rbpscd" with '-' for
# each flag not set; fails if xl does.
state() {
    xl list "$1" > /tmp/state.out || return
    awk 'NR == 2 { print $5 }' /tmp/state.out
}

# heap_free: the hypervisor's free pages and orphaned frames, exact
# ("F O"), from its debug key 'q' (its first line).
heap_free() {
    xl debug-keys q > /dev/null 2>&1
    xl dmesg | sed -n 's/.*\*\*\* heap: \([0-9]*\) free pages .*, \([0-9]*\) orphaned.*/\1 \2/p' |
        tail -n 1
}

# destroy_mapped NAME DOMID: xl destroy of a running domain whose grants
# dom0 maps (xenstored's map of its store ring and xenconsoled's of its
# console ring, both through gntdev), as Xen's debug key 'g' shows; then
# every frame back and counted: once the daemons have let go of the dead
# domain's pages no frame is orphaned, and the heap gained exactly what
# the hypervisor's "dN: destroyed:" line says the domain held (its RAM,
# shared pages, paging pool and heap), though fewer came back at the
# destroy itself (those dom0 still mapped).
destroy_mapped() {
    xl debug-keys g > /dev/null 2>&1
    dm_pins=$(xl dmesg | awk -v d="$2" '
        /gnttab_usage_print_all \[/ { t = 0; n = 0 }
        /grant-table for remote d/ { t = index($0, "remote d" d " ") > 0 }
        t && /\[0x[0-9a-f]+\] +0 0x/ { n++ }
        END { print n + 0 }')
    if [ "$dm_pins" -ge 2 ]; then
        ok "$1: d$2's grants mapped by dom0 before xl destroy ($dm_pins entries pinned by d0)"
    else
        : > $out
        bad "$1: d$2's grants mapped by dom0 before xl destroy" "$dm_pins entries pinned by d0 in key 'g''s dump"
    fi
    dm_f1=$(heap_free | cut -d' ' -f1)
    run "$1: xl destroy d$2 while dom0 maps its grants" xl destroy "$2"
    dm_i=0
    while [ $dm_i -lt 30 ]; do
        dm_now=$(heap_free)
        [ "${dm_now#* }" = 0 ] && break
        sleep 1
        dm_i=$((dm_i + 1))
    done
    xl dmesg | grep "d$2: destroyed: " | tail -n 1 > $out
    sed 's/^/    | /' $out
    dm_held=$(sed -n 's/.*destroyed: \([0-9]*\) RAM + \([0-9]*\) shared pages, paging pool \([0-9]*\) .*, heap \([0-9]*\) .*/\1 \2 \3 \4/p' $out |
        awk '{ print $1 + $2 + $3 + $4 }')
    dm_back=$(sed -n 's/.*: \([0-9]*\) pages back in the heap.*/\1/p' $out)
    dm_f2=${dm_now% *}
    if [ "${dm_now#* }" = 0 ] && [ -n "$dm_held" ] && [ -n "$dm_f1" ] &&
       [ $((dm_f2 - dm_f1)) -eq "$dm_held" ]; then
        ok "$1: every frame back and counted: $dm_held pages ($dm_back at the destroy, the rest as dom0 let go), 0 orphaned"
    else
        bad "$1: every frame back and counted" \
            "free pages $dm_f1 -> $dm_f2 (+$((dm_f2 - dm_f1))), the domain held '$dm_held', orphaned now '${dm_now#* }'"
    fi
}

sections=all
for w in $(cat /proc/cmdline); do
    case $w in xenpml.checks=*) sections=$(echo "${w#*=}" | tr , ' ') ;; esac
done
# want SECTION: the section is to run.
want() {
    case " $sections " in *" all "*|*" $1 "*) return 0 ;; esac
    return 1
}

echo "dom0 checks: Linux $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPU," \
     "up $(cut -d' ' -f1 /proc/uptime) s"

if want base; then
run "privcmd device" test -c /dev/xen/privcmd
match "xl info" '^xen_major +: [0-9]+' xl info
match "xl info: PML on the command line" '^xen_commandline +: .*pml=1' xl info
match "xl list: Domain-0" '^Domain-0 +0 ' xl list
match "xl dmesg: the hypervisor's banner" 'Xen version' xl dmesg
match "xl dmesg: PML enabled" 'VMX: PML enabled' xl dmesg

# A short-lived guest: it reports on the hypervisor console and powers
# off; the hypervisor keeps it (as Xen's) and xl create's monitor
# destroys it (on_poweroff=destroy, tools/xl/xl_monitor.c).
run "xl create boot.elf" xl create /etc/xen/boot.cfg
sleep 2
match "boot.elf reported SUCCESS" '\(d[0-9]+\) (\[[^]]*\] )?Test result: SUCCESS' xl dmesg
for i in 1 2 3 4 5 6 7 8 9 10; do xl list | grep -q '^boot ' || break; sleep 1; done
nomatch "boot.elf is gone (its monitor destroyed it)" '^boot ' xl list
match "xl create's monitor: on_poweroff destroy" '^Action for shutdown reason code 0 is destroy$' \
    cat /var/log/xen/xl-boot.log

# A long-running writer: jbb writing its working set and a framebuffer.
run "xl create jbb.cfg" xl create /etc/xen/jbb.cfg
match "xl list: jbb" '^jbb +[0-9]+ ' xl list
d=$(xl domid jbb 2> /dev/null) || d=$(xl list 2> /dev/null | awk 'END { print $2 }')
run "xl pause" xl pause "$d"
match "paused" '^..p' state "$d"
run "xl unpause" xl unpause "$d"
match "running again" '^..-' state "$d"

run "log-dirty on" xl log-dirty "$d" on
sleep 1
count "log-dirty peek: pages dirtied" 1 xl log-dirty "$d" peek --stats
count "log-dirty clean" 1 xl log-dirty "$d" clean --stats
sleep 1
count "log-dirty clean: a new round" 1 xl log-dirty "$d" clean --stats
run "log-dirty off" xl log-dirty "$d" off

# jbb draws into 256 framebuffer pages at pfn 0x400 (tests/common/include/bench.h).
count "vram-track: a new range reports every page" 256 xl vram-track "$d" 0x400 256 --stats
sleep 1
count "vram-track: pages drawn since" 1 xl vram-track "$d" 0x400 256 --stats
run "vram-track off" xl vram-track "$d" off

match "dirty-rate" '^Dirty rate: [1-9][0-9]* \(pages/s\)' xl dirty-rate -t 0.5 "$d"

run "xl destroy" xl destroy "$d"
nomatch "jbb is gone" '^jbb ' xl list
fi

if want top; then
# xentop (`xl top`) in batch mode against the jbb writer while a consumer
# CLEANs (xentop itself never does): jbb's row shows a nonzero dirty rate
# under PML, and its detail (-D) a heat map with a dirtied block.
run "xl create jbb.cfg (for xl top)" xl create /etc/xen/jbb.cfg
d=$(xl domid jbb 2> /dev/null) || d=$(xl list 2> /dev/null | awk 'END { print $2 }')
run "log-dirty on (for xl top)" xl log-dirty "$d" on
( while :; do xl log-dirty "$d" clean > /dev/null 2>&1; done ) &
cleaner=$!
match "xl top: jbb's dirty rate under PML" \
    '^jbb +[0-9]+ [-a-z]{6} +[0-9]+ +[0-9]+ log-dirty +PML +[1-9][0-9]*\.[0-9] ' \
    xl top -b -i 2 -d 1
match "xl top -D: jbb's heat map" '^  MAP 0x[0-9a-f]{10} [.V]*[-+*#]' \
    xentop -b -i 2 -d 1 -D "$d"
match "xl top --json -D: jbb's blocks" '"dirtied":\[[0-9,]*[1-9]' \
    xentop --json -i 2 -d 1 -D "$d"
kill "$cleaner"
wait "$cleaner" 2> /dev/null
# The same screen driven in tmux as a person would (checks-top-screen.sh).
. /etc/dom0/checks-top-screen.sh
run "log-dirty off (after xl top)" xl log-dirty "$d" off
run "xl destroy (after xl top)" xl destroy "$d"
fi

# --- Exactness and migration (checks-logdirty.sh, checks-migrate.sh) ---
want logdirty && . /etc/dom0/checks-logdirty.sh
want migrate && . /etc/dom0/checks-migrate.sh
want hcall && . /etc/dom0/checks-hcall-buffer.sh
# --- Xen's xenstored and xenconsoled (checks-xenstore.sh) ---
want xenstore && . /etc/dom0/checks-xenstore.sh
# --- Debian's own xl (checks-debian-xl.sh) ---
want debxl && . /etc/dom0/checks-debian-xl.sh
# --- Debian's Linux as a domU (checks-domu.sh, with -L only) ---
if want domu && [ -f /etc/dom0/checks-domu.sh ]; then
    . /etc/dom0/checks-domu.sh
elif want domu && [ "$sections" != all ]; then
    bad "section domu" "no /etc/dom0/checks-domu.sh (initramfs made without -L: DOM0_LINUX_DOMU=0)"
fi
# --- Xen's suspend protocol with Linux (checks-suspend.sh, with -L only) ---
{ want suspend || want suspend-save || want restore || want restore-migrate; } &&
    [ -f /etc/dom0/checks-suspend.sh ] &&
    . /etc/dom0/checks-suspend.sh
# --- end of exactness and migration ---

echo "dom0 checks: $pass passed, $fail failed"
[ $fail -eq 0 ]
