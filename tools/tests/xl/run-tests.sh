#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The toolstack's host tests (run by "make -C tools/tests/xl"):
#   1. bin/test_units: the xl.cfg parser, xl's config mapping, the
#      generated types (_init/_dispose/_to_json), enums, the command table;
#   2. client.c compiled with -Wall -Werror against our libxl.h and
#      against Debian's /usr/include/libxl.h, and run over the fake
#      hypervisor (tools/tests/fake);
#   3. bin/xl (xl with the real libraries over the fake) end to end:
#      output formats, the calls it makes, and bad input.
# Each case prints FAIL with details when it fails; the last line is
# "N passed, N failed"; the exit status is 1 if anything failed.
set -u
cd "$(dirname "$0")"
. ../lib.sh
CC=${CC:-gcc}
OUR_CFLAGS=${OUR_CFLAGS:-"-I$HERE/../../include -D__XEN_TOOLS__"}

# ---- 1. unit tests -------------------------------------------------------------

units=$("$BIN/test_units")
units_rc=$?
echo "$units"
add_counts "$units" "$units_rc"

# ---- the per-case machinery ------------------------------------------------------

# A fresh fake machine: dom0, guest1 (1), web (5).
machine() {
    rm -rf "$W/run" "$BIN/etc-xen"
    mkdir -p "$W/run"
    cat >"$W/state" <<'EOF'
domain 0 flags=running tot=262144 max=262144 vcpus=2 maxvcpu=1 cpu=41200000000
domain 1 uuid=5a1e0000-0000-4000-8000-000000000001 flags=blocked tot=65536 max=65536 vcpus=1 cpu=3500000000
domain 5 uuid=5a1e0000-0000-4000-8000-000000000005 flags=running tot=32768 max=32768 vcpus=2 maxvcpu=1 cpu=900000000 write=0x100-0x13f
console (XEN) Xen version 4.17 (fake)
console (XEN) VMX: PML enabled
EOF
    xenstore_dom0
    name_domain 1 5a1e0000-0000-4000-8000-000000000001 guest1
    name_domain 5 5a1e0000-0000-4000-8000-000000000005 web
}

# xl create and restore stay, as Xen's, as the monitor of the domain they
# made (a daemon logging to /var/log/xen) unless told -e: the cases that are not
# about the monitor run it with -e; those that are, with -F (section
# "xl create's monitor").
xl() {
    case ${1-} in
    create|restore)
        local cmd=$1
        shift
        run "$BIN/xl" "$cmd" -e "$@" ;;
    *)
        run "$BIN/xl" "$@" ;;
    esac
}

# ---- 2. the libxl client ----------------------------------------------------------

begin "client.c compiles against our libxl.h (-Wall -Werror)"
if ! out=$($CC -Wall -Werror $OUR_CFLAGS -c client.c -o "$W/client-ours.o" 2>&1); then
    problem "$out"
fi
end

begin "client.c compiles against Debian's libxl.h (-Wall -Werror)"
if [ ! -f /usr/include/libxl.h ]; then
    problem "/usr/include/libxl.h missing: install libxen-dev (tools/misc/install-deps.sh)"
elif ! out=$($CC -Wall -Werror -c client.c -o "$W/client-debian.o" 2>&1); then
    problem "$out"
fi
end

begin "client runs against the fake libxenctrl"
machine
"$BIN/client" 5 >"$W/out" 2>"$W/err"
echo $? >"$W/rc"
want_rc 0
want_out <<'EOF'
domain 0: 1048576 KiB, 2 vCPUs
domain 1: 262144 KiB, 1 vCPUs
domain 5: 131072 KiB, 2 vCPUs
domain 5: max 131072 KiB, cpu 900000000 ns
EOF
want_log_has "pause 5"
want_log_has "unpause 5"
end

# ---- 2b. libxl's events (events.c) ------------------------------------------------

begin "events.c compiles against our libxl_event.h and Debian's (-Wall -Werror)"
if ! out=$($CC -Wall -Werror $OUR_CFLAGS -c events.c -o "$W/events-ours.o" 2>&1); then
    problem "$out"
elif [ -f /usr/include/libxl_event.h ] &&
     ! out=$($CC -Wall -Werror -c events.c -o "$W/events-debian.o" 2>&1); then
    problem "$out"
fi
end

# wait_for_line WHO PID REGEX FILE [MORE...]: wait (10 s at most, or
# until PID ends) until FILE has a line matching REGEX; a problem if it
# never does, showing FILE and MORE.
wait_for_line() {
    local who=$1 pid=$2 re=$3 i
    shift 3
    for i in $(seq 200); do
        grep -qE -- "$re" "$1" && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    grep -qE -- "$re" "$1" || problem "$who never printed /$re/:"$'\n'"$(cat "$@")"
}
ev_wait_for() { wait_for_line "events client" "$ev_pid" "$1" "$W/ev.out" "$W/ev.err"; }

# Domains 5 and 1 shut down and die one after the other; 7 never existed.
for mode in wait poll hooks; do
    begin "libxl events ($mode): DOMAIN_DEATH at once for a domain that is not there, DOMAIN_SHUTDOWN with its reason, DOMAIN_DEATH on destroy"
    machine
    "$BIN/events" "$mode" 5 1 7 >"$W/ev.out" 2>"$W/ev.err" &
    ev_pid=$!
    ev_wait_for '^ready$'
    ev_wait_for '^DOMAIN_DEATH 7 user 102$'
    sed -i -E '/^domain 5 /{s/ flags=[^ ]*/ flags=shutdown/; s/ reason=[^ ]*//; s/$/ reason=1/}' "$W/state"
    ev_wait_for '^DOMAIN_SHUTDOWN 5 reason 1 user 100$'
    xl destroy 5
    ev_wait_for '^DOMAIN_DEATH 5 user 100$'
    xl destroy 1
    ev_wait_for '^DOMAIN_DEATH 1 user 101$'
    for i in $(seq 200); do kill -0 "$ev_pid" 2>/dev/null || break; sleep 0.05; done
    if kill -0 "$ev_pid" 2>/dev/null; then
        kill "$ev_pid"
        problem "the events client did not end after the last death"
    fi
    wait "$ev_pid"
    rc=$?
    [ "$rc" = 0 ] || problem "events client exit status $rc: $(cat "$W/ev.out" "$W/ev.err")"
    # Each event exactly once, and no shutdown for a domain destroyed running.
    n=$(grep -c '^DOMAIN_' "$W/ev.out")
    [ "$n" = 4 ] || problem "$n events, want 4:"$'\n'"$(cat "$W/ev.out")"
    grep -q '^DOMAIN_SHUTDOWN 1 ' "$W/ev.out" && problem "a shutdown event for domain 1, destroyed running"
    if [ "$mode" = hooks ]; then
        grep -qx 'registered 1 descriptor(s), 1 timeout(s); still' "$W/ev.out" ||
            problem "hooks: $(grep registered "$W/ev.out")"
        grep -qx 'after evdisable: no descriptor registered' "$W/ev.out" ||
            problem "hooks: the descriptor stayed registered after evdisable"
    fi
    end
done

begin "libxl ao_how: a callback before the call returns, or an OPERATION_COMPLETE event"
machine
run "$BIN/events" ao 5
want_rc 0
want_out <<'EOF'
callback: rc 0, for_callback pause, inside the call
libxl_domain_pause: 0
libxl_domain_unpause: 0
OPERATION_COMPLETE 5 rc 0 user 77
callback: rc -21, for_callback pause 4095, inside the call
libxl_domain_pause(4095): 0
EOF
want_log_has "pause 5"
want_log_has "unpause 5"
end

begin "libxl_event_wait with nothing enabled fails instead of sleeping forever"
machine
run "$BIN/events" wait
want_rc 2
end

# ---- 3. xl end to end ----------------------------------------------------------------

LIST_ALL='Name                                        ID   Mem VCPUs	State	Time(s)
Domain-0                                     0  1024     2     r-----      41.2
guest1                                       1   256     1     -b----       3.5
web                                          5   128     2     r-----       0.9'

begin "xl list: Xen's columns, names, state letters"
machine
xl list
want_rc 0
want_out <<<"$LIST_ALL"
want_err </dev/null
end

begin "xl li: an unambiguous prefix"
machine
xl li
want_rc 0
want_out <<<"$LIST_ALL"
end

begin "xl d: an ambiguous prefix is refused"
machine
xl d
want_rc 1
want_no_out
want_err <<'EOF'
xl: command 'd' is ambiguous: destroy domid domname dmesg debug-keys dirty-rate (see 'xl help')
EOF
end

begin "xl frobnicate: unknown command"
machine
xl frobnicate 1
want_rc 1
want_no_out
want_err <<'EOF'
xl: command 'frobnicate' not implemented (see 'xl help')
EOF
end

begin "xl list <domain>, by id and by name"
machine
xl list web
want_rc 0
want_out <<'EOF'
Name                                        ID   Mem VCPUs	State	Time(s)
web                                          5   128     2     r-----       0.9
EOF
end

begin "xl list: unknown domain"
machine
xl list 42
want_rc 1
want_no_out
want_err <<'EOF'
Error: Domain '42' does not exist.
EOF
end

begin "xl list: paused, shut down (crash) and dying domains"
machine
setfield 1 flags=paused
setfield 5 flags=shutdown,dying
setfield 5 reason=3
xl list
want_rc 0
want_out_has '^guest1 +1 +256 +1 +--p---'
want_out_has '^web +5 +128 +2 +---scd'
end

begin "xl list -v: UUIDs and reason codes"
machine
setfield 5 flags=shutdown
setfield 5 reason=1
xl list -v 5
want_rc 0
want_out <<'EOF'
Name                                        ID   Mem VCPUs	State	Time(s)   UUID                            Reason-Code	Security Label
web                                          5   128     2     ---sr-       0.9 5a1e0000-0000-4000-8000-000000000005        1                -
EOF
end

begin "xl list -l: JSON array of {domid, config}"
machine
xl list -l 1
want_rc 0
want_out <<'EOF'
[
    {
        "domid": 1,
        "config": {
            "c_info": {
                "type": "pvh",
                "name": "guest1",
                "uuid": "5a1e0000-0000-4000-8000-000000000001"
            },
            "b_info": {
                "max_vcpus": 1,
                "avail_vcpus": [
                    0
                ],
                "max_memkb": 262144,
                "target_memkb": 262144,
                "sched_params": {

                },
                "type.pvh": {

                },
                "arch_arm": {

                },
                "arch_x86": {

                }
            }
        }
    }
]

EOF
end

begin "xl pause 1 issues xc_domain_pause(1)"
machine
xl pause 1
want_rc 0
want_no_out
want_err </dev/null
want_log_has "pause 1"
want_state_has '^domain 1 .*flags=[a-z,]*paused'
end

begin "xl unpause <name>"
machine
setfield 5 flags=running,paused
xl unpause web
want_rc 0
want_log_has "unpause 5"
want_state_has '^domain 5 .*flags=running '
end

begin "xl pause: unknown domain, nothing done"
machine
xl pause nosuch
want_rc 1
want_err <<'EOF'
Error: Domain 'nosuch' does not exist.
EOF
want_log_lacks '^pause'
end

begin "xl pause: missing argument"
machine
xl pause
want_rc 2
want_err_has "'xl pause' requires at least 1 argument"
want_log_lacks '^pause'
end

begin "xl pause: hypervisor error reported"
machine
echo "fail pause 1" >>"$W/state"
xl pause 1
want_rc 1
want_err_has '^xl: pausing domain 1 failed \(ERROR_FAIL|fail\)'
end

begin "xl destroy 0 is refused without -f"
machine
xl destroy 0
want_rc 1
want_err_has '^Not destroying domain 0; use -f to force'
want_log_lacks '^destroy'
end

begin "xl destroy <name>"
machine
xl destroy guest1
want_rc 0
want_log_has "destroy 1"
xl list
want_out_has '^web '
grep -q '^guest1' "$W/out" && problem "destroyed domain still listed"
want_xs_lacks '^/local/domain/1/'
want_xs_lacks '^/vm/5a1e0000-0000-4000-8000-000000000001/'
end

begin "xl info: Xen's key : value layout"
machine
xl info
want_rc 0
want_out_has '^nr_cpus                : 1$'
want_out_has '^total_memory           : 2048$'
want_out_has '^free_memory            : 512$'
want_out_has '^virt_caps              : hvm hap$'
want_out_has '^xen_version            : 4\.17\.0-fake$'
want_out_has '^xen_scheduler          : credit2$'
want_out_has '^xen_commandline        : pml=1 ple_gap=64 ple_window=4096$'
want_out_has '^build_id               : deadbeef$'
want_out_has '^xend_config_format     : 4$'
end

begin "xl info <item>"
machine
xl info xen_version
want_rc 0
want_out <<'EOF'
4.17.0-fake
EOF
end

begin "xl dmesg, then xl dmesg -c"
machine
xl dmesg
want_rc 0
want_out <<'EOF'
(XEN) Xen version 4.17 (fake)
(XEN) VMX: PML enabled
EOF
xl dmesg -c
want_out_has 'PML enabled'
xl dmesg
want_no_out
end

begin "xl debug-keys: the keys go to the hypervisor as one sysctl"
machine
xl debug-keys hq
want_rc 0
want_no_out
want_log <<<"debug_keys hq"
xl debug-keys
want_rc 2
xl debug-keys 0123456789012345678901234567890123456789012345678901234567890123456789
want_rc 1
want_err_has 'cannot send debug keys'
end

begin "xl domid / domname"
machine
xl domid web
want_out <<<"5"
xl domname 1
want_out <<<"guest1"
xl domid nosuch
want_rc 1
end

begin "xl list -n: NODE Affinity, all on one node; -c: Pool-0"
machine
xl list -n
want_rc 0
want_out <<'EOF'
Name                                        ID   Mem VCPUs	State	Time(s) NODE Affinity
Domain-0                                     0  1024     2     r-----      41.2 all
guest1                                       1   256     1     -b----       3.5 all
web                                          5   128     2     r-----       0.9 all
EOF
want_err </dev/null
xl list -c web
want_rc 0
want_out <<'EOF'
Name                                        ID   Mem VCPUs	State	Time(s)         Cpupool
web                                          5   128     2     r-----       0.9          Pool-0
EOF
xl list --numa --cpupool 1
want_rc 0
want_out_has '^guest1 +1 +256 +1 +-b---- +3\.5 +Pool-0 all$'
end

# pvh DOMID: libxl's record of a PVH domain (/libxl/<domid>/type), which
# has the PV control interface (Xen's libxl__domain_pvcontrol_available).
pvh() {
    printf '/libxl/%s n0 -\n/libxl/%s/type n0 pvh\n/local/domain/%s/control/shutdown n%s -\n' \
        "$1" "$1" "$1" "$1" >>"$W/xenstore"
}
# guest_acks DOMID CMD [REASON]: in the background, the guest's xenbus
# answering control/shutdown = CMD as Linux's does: it clears the node and
# (with REASON) shuts down with that SHUTDOWN_* code.
guest_acks() {
    (
        for _ in $(seq 400); do
            if grep -q "^/local/domain/$1/control/shutdown [^ ]* $2\$" "$W/xenstore"; then
                sed -i "s|^\(/local/domain/$1/control/shutdown [^ ]*\) .*|\1 -|" "$W/xenstore"
                [ -n "${3:-}" ] &&
                    sed -i "s|^\(domain $1 .*\)flags=[a-z,]*|\1flags=shutdown reason=$3|" "$W/state"
                exit 0
            fi
            sleep 0.05
        done
    ) &
    acker=$!
}

begin "xl shutdown <PVH domain>: control/shutdown = poweroff, acknowledged by the guest"
machine
pvh 5
guest_acks 5 poweroff
xl shutdown web
wait $acker
want_rc 0
want_no_out
want_err <<<"Shutting down domain 5"
want_log </dev/null
want_xs_has '^/local/domain/5/control/shutdown n5 -$'
end

begin "xl reboot -w <PVH domain>: control/shutdown = reboot, then waits for the guest to shut down"
machine
pvh 1
guest_acks 1 reboot 1
xl reboot -w guest1
wait $acker
want_rc 0
want_no_out
want_err <<'EOF'
Rebooting domain 1
Waiting for 1 domains
Domain 1 has been shut down, reason code 1
EOF
want_log </dev/null
end

begin "xl shutdown <PVH domain that never answers>: Xen's 60 s, then ERROR_TIMEDOUT"
machine
pvh 5
run "$BIN/xl-fastclock" shutdown web
want_rc 1
want_no_out
want_err_has '^Shutting down domain 5$'
want_err_has "guest acknowledgement of poweroff request: timed out \(control/shutdown still .poweroff. after 60 s\)"
want_err_has "guest didn't acknowledge control request: -9"
want_err_has '^shutdown failed \(rc=-9\)$'
want_log </dev/null
want_xs_has '^/local/domain/5/control/shutdown n5 poweroff$'
end

begin "xl shutdown <domain without PV control>: Xen's messages, nothing done"
machine
xl shutdown web
want_rc 1
want_no_out
want_err <<'EOF'
Shutting down domain 5
libxl: warning: domain_type: unable to get domain type for domid=5, assuming HVM
PV control interface not available: external graceful shutdown not possible.
Use "-F" to fallback to ACPI power event.
shutdown failed (rc=-10)
EOF
want_log </dev/null
want_xs_lacks '/local/domain/5/control/shutdown'
xl reboot guest1
want_rc 1
want_err_has '^Use "-F" to fallback to ACPI reset event\.$'
want_err_has '^reboot failed \(rc=-10\)$'
end

begin "xl shutdown -F / reboot -F -w without PV control: SCHEDOP_remote_shutdown"
machine
xl shutdown -F web
want_rc 0
want_err_has '^PV control interface not available: no ACPI power button here, SCHEDOP_remote_shutdown \(poweroff\)\.$'
want_log <<<"shutdown 5 0"
want_state_has '^domain 5 .*flags=[a-z,]*shutdown'
end

begin "xl reboot -F -w without PV control: SCHEDOP_remote_shutdown, then waits"
machine
xl reboot -F -w guest1
want_rc 0
want_err_has '^Domain 1 has been shut down, reason code 1$'
want_log <<<"shutdown 1 1"
end

begin "xl shutdown -a -w: every guest, not domain 0"
machine
pvh 1
pvh 5
guest_acks 1 poweroff 0
a1=$acker
guest_acks 5 poweroff 0
xl shutdown -a -w
wait $a1 $acker
want_rc 0
# (the last two in the order their events came)
sort -o "$W/err" "$W/err"
want_err <<'EOF'
Domain 1 has been shut down, reason code 0
Domain 5 has been shut down, reason code 0
Shutting down domain 1
Shutting down domain 5
Waiting for 2 domains
EOF
want_log </dev/null
end

begin "xl shutdown: no domain, unknown domain, hypervisor error"
machine
xl shutdown
want_rc 1
want_err <<'EOF'
You must specify -a or a domain id.

EOF
want_log </dev/null
xl reboot nosuch
want_rc 1
want_err <<<"Error: Domain 'nosuch' does not exist."
want_log </dev/null
echo "fail shutdown 1" >>"$W/state"
xl shutdown -F 5
want_rc 1
want_err_has '^shutdown failed \(rc=-[0-9]+\)$'
end

begin "xl rename: the new name everywhere; taken names and unknown domains refused"
machine
xl rename web www
want_rc 0
want_no_out
want_err </dev/null
xl domid www
want_out <<<"5"
xl list 5
want_out_has '^www +5 '
xl rename guest1 www
want_rc 1
want_err_has "Can't rename domain 'guest1'\.$"
xl domname 1
want_out <<<"guest1"
xl rename nosuch x
want_rc 1
want_err <<<"Error: Domain 'nosuch' does not exist."
xl rename 5
want_rc 2
end

begin "xl vcpu-list: Xen's columns, from getvcpuinfo and getvcpuaffinity"
machine
xl vcpu-list
want_rc 0
want_out <<'EOF'
Name                                ID  VCPU   CPU State   Time(s) Affinity (Hard / Soft)
Domain-0                             0     0    0   r--      41.2  all / all
Domain-0                             0     1    0   -b-       0.0  all / all
guest1                               1     0    0   -b-       3.5  all / all
web                                  5     0    0   r--       0.9  all / all
web                                  5     1    0   -b-       0.0  all / all
EOF
want_err </dev/null
setfield 5 vcpus=1
xl vcpu-list web
want_rc 0
want_out <<'EOF'
Name                                ID  VCPU   CPU State   Time(s) Affinity (Hard / Soft)
web                                  5     0    0   r--       0.9  all / all
web                                  5     1    -   --p       0.0  all / all
EOF
xl vcpu-list nosuch
want_rc 1
want_err <<<"Error: Domain 'nosuch' does not exist."
echo "fail getvcpuinfo 22" >>"$W/state"
xl vcpu-list web
want_rc 0
want_out <<<'Name                                ID  VCPU   CPU State   Time(s) Affinity (Hard / Soft)'
want_err_has 'Getting vcpu info'
end

begin "xl uptime: Xen's columns; -s the short form; domains without a start time skipped"
machine
now=$(date +%s)
printf '/vm/5a1e0000-0000-4000-8000-000000000005/start_time n0,r5 %s.00\n' \
    $((now - 90061)) >>"$W/xenstore"
xl uptime web
want_rc 0
want_out_has '^Name                              +ID Uptime$'
want_out_has '^web                                  5 1 day,  1:01:0[12]$'
xl uptime -s 5
want_rc 0
want_out_has '^ [0-2][0-9]:[0-5][0-9]:[0-5][0-9] up 1 day,  1:01, web \(5\)$'
xl uptime
want_rc 0
want_out_has '^Domain-0                             0 ([0-9]+ days?, )?[ 0-9][0-9]:[0-5][0-9]:[0-5][0-9]$'
want_out_has '^web                                  5 1 day,  1:01:0[12]$'
! grep -q '^guest1' "$W/out" || problem "guest1 has no start time, yet is listed"
want_err_has "Can't get start time of domain"
end

begin "xl network-list / block-list: Xen's headers, no devices yet"
machine
xl network-list web guest1
want_rc 0
want_out <<'EOF'
Idx BE Mac Addr.         handle state evt-ch   tx-/rx-ring-ref BE-path                       
EOF
xl block-list 5
want_rc 0
want_out <<'EOF'
Vdev  BE  handle state evt-ch ring-ref BE-path                       
EOF
xl block-list nosuch
want_rc 1
want_err <<<"Error: Domain 'nosuch' does not exist."
xl network-list
want_rc 2
end

begin "bash completion: subcommands from xl help, domains from xl list"
machine
complete_xl() {   # the words typed; prints the completions
    PATH=$BIN:$PATH bash -c '. "$1"; shift; COMP_WORDS=("$@");
        COMP_CWORD=$(($# - 1)); _xl; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$HERE/../../xl/bash-completion" "$@"
}
[ "$(complete_xl xl shut)" = shutdown ] || problem "xl shut: '$(complete_xl xl shut)'"
[ "$(complete_xl xl -v unp)" = unpause ] || problem "xl -v unp: '$(complete_xl xl -v unp)'"
[ "$(complete_xl xl up)" = uptime ] || problem "xl up: '$(complete_xl xl up)'"
[ "$(complete_xl xl pause g)" = guest1 ] || problem "xl pause g: '$(complete_xl xl pause g)'"
[ "$(complete_xl xl list '' | tr '\n' ' ')" = "Domain-0 guest1 web " ] ||
    problem "xl list: '$(complete_xl xl list '')'"
[ "$(complete_xl xl help vram)" = vram-track ] || problem "xl help vram: '$(complete_xl xl help vram)'"
end

begin "xl help; xl help list; xl list -h"
machine
xl help
want_rc 0
want_out_has '^ log-dirty +Control global log-dirty mode'
xl help list
want_out_has '^Usage: xl \[-v\] list \[options\] \[Domain\]'
xl list -h
want_rc 0
want_out_has '^-l, --long'
end

begin "xl -N pause: not a dry-run command"
machine
xl -N pause 1
want_rc 1
want_err <<'EOF'
command does not implement -N (dryrun) option
EOF
want_log_lacks '^pause'
end

begin "xl list -x: unknown option"
machine
xl list -x
want_rc 2
want_err <<'EOF'
option `x' not supported.
EOF
end

# ---- log-dirty --------------------------------------------------------------------

begin "xl log-dirty 5 peek: not in log-dirty mode: one message, exit 1, nothing done"
machine
xl log-dirty 5 peek
want_rc 1
want_no_out
want_err <<'EOF'
xl: domain 5 is not in log-dirty mode (turn it on with 'xl log-dirty 5 on')
EOF
want_log_lacks '^(logdirty|shadow_op)'
end

begin "xl log-dirty clean/off: not in log-dirty mode"
machine
xl log-dirty web clean
want_rc 1
want_err_lines 1
want_log_lacks '^(logdirty|shadow_op)'
xl log-dirty web off
want_rc 1
want_err_lines 1
want_log_lacks '^(logdirty|shadow_op)'
end

begin "xl log-dirty: unknown operation, unknown domain"
machine
xl log-dirty 5 sideways
want_rc 2
want_err <<'EOF'
xl: unknown log-dirty operation 'sideways' (on, off, peek or clean)
EOF
xl log-dirty 9 on
want_rc 1
want_err <<'EOF'
Error: Domain '9' does not exist.
EOF
want_log_lacks 'shadow_op'
end

begin "xl log-dirty 5 on, then on again"
machine
xl log-dirty 5 on
want_rc 0
want_no_out
want_log_has "shadow_op 5 enable_logdirty"
want_state_has '^domain 5 .*logdirty=1'
xl log-dirty 5 on
want_rc 1
want_err <<'EOF'
xl: domain 5 is already in log-dirty mode
EOF
end

begin "xl log-dirty 5 peek/clean: ranges, counts, JSON"
machine
setfield 5 logdirty=1
setfield 5 dirty=0x10-0x12,0x20,0x7fff
xl log-dirty 5 peek
want_rc 0
want_out <<'EOF'
0x10-0x12
0x20
0x7fff
EOF
want_log_has "logdirty 5 peek pages=65536"
xl log-dirty 5 peek --stats
want_out <<<"5"
xl log-dirty 5 clean --json
want_rc 0
want_out <<'EOF'
{
    "domid": 5,
    "op": "clean",
    "first_pfn": 0,
    "nr_pfns": 32768,
    "dirty_pages": 5,
    "ranges": [
        [
            16,
            18
        ],
        [
            32,
            32
        ],
        [
            32767,
            32767
        ]
    ]
}
EOF
# the guest keeps writing 0x100-0x13f
xl log-dirty 5 clean
want_out <<'EOF'
0x100-0x13f
EOF
xl log-dirty 5 peek -s
want_out <<<"64"
end

begin "xl log-dirty 5 off"
machine
setfield 5 logdirty=1
xl log-dirty 5 off --json
want_rc 0
want_out <<'EOF'
{
    "domid": 5,
    "logdirty": false
}
EOF
want_log_has "shadow_op 5 off"
want_state_has '^domain 5 .*logdirty=0'
end

begin "xl log-dirty on while VRAM tracking: refused, nothing done"
machine
setfield 5 vram=0x100+16
xl log-dirty 5 on
want_rc 1
want_err_lines 1
want_err_has "tracking dirty VRAM"
want_log_lacks 'shadow_op'
end

# ---- VRAM tracking ----------------------------------------------------------------

begin "xl vram-track: a new range reports every page, then the written ones"
machine
xl vram-track 5 0x100 16
want_rc 0
want_out <<'EOF'
0x100-0x10f
EOF
want_log_has "track_dirty_vram 5 first=0x100 nr=16"
xl vram-track 5 0x100 16 --stats
want_out <<<"16"
xl vram-track 5 0x140 4
want_out <<'EOF'
0x140-0x143
EOF
xl vram-track 5 0x140 4
want_rc 0
want_no_out
end

begin "xl vram-track --json"
machine
xl vram-track --json 5 0x100 2
want_out <<'EOF'
{
    "domid": 5,
    "op": "vram",
    "first_pfn": 256,
    "nr_pfns": 2,
    "dirty_pages": 2,
    "ranges": [
        [
            256,
            257
        ]
    ]
}
EOF
end

begin "xl vram-track off"
machine
setfield 5 vram=0x100+16
xl vram-track 5 off
want_rc 0
want_log_has "track_dirty_vram 5 first=0 nr=0"
want_state_has '^domain 5 .*vram=0\+0'
xl vram-track 5 off
want_rc 1
want_err <<'EOF'
xl: domain 5 is not tracking dirty VRAM
EOF
end

begin "xl vram-track: bad input, nothing done"
machine
xl vram-track 5 0x100 0
want_rc 2
want_err_lines 1
xl vram-track 5 zz 4
want_rc 2
want_err_lines 1
xl vram-track 5 0 300000
want_rc 2
want_err_has 'up to 1 GiB'
setfield 5 logdirty=1
xl vram-track 5 0x100 4
want_rc 1
want_err_lines 1
want_err_has 'global log-dirty mode'
want_log_lacks 'track_dirty_vram'
end

# ---- dirty rate ---------------------------------------------------------------------

begin "xl dirty-rate: enables log-dirty, CLEAN, wait, CLEAN, restores"
machine
xl dirty-rate -t 0.05 5
want_rc 0
want_out_has '^Domain: 5 \(web\)$'
want_out_has '^Mode: dirty-bitmap \(pml\)$'
want_out_has '^Period: 0\.0[5-9][0-9] \(sec\)$'
want_out_has '^Dirty pages: 64$'
want_out_has '^Dirty rate: [0-9]+ \(pages/s\), [0-9.]+ \(MiB/s\)$'
want_out_has '^vcpu\[0\], Dirty rate: [0-9]+ \(pages/s\)'
want_out_has '^vcpu\[1\], Dirty rate: [0-9]+ \(pages/s\)'
want_log_has "shadow_op 5 enable_logdirty"
want_log_has "shadow_op 5 off"
[ "$(grep -c '^logdirty 5 clean' "$W/log")" -eq 2 ] || problem "want two CLEANs:"$'\n'"$(cat "$W/log")"
want_state_has '^domain 5 .*logdirty=0'
end

begin "xl dirty-rate --json"
machine
xl dirty-rate --json -t 0.02 web
want_rc 0
want_out_has '^    "domid": 5,$'
want_out_has '^    "mechanism": "pml",$'
want_out_has '^    "dirty_pages": 64,$'
want_out_has '^    "mib_per_sec": [0-9.]+,$'
want_out_has '^            "pages_dirtied": 32,$'
want_out_has '^    "counters": \{$'
end

begin "xl dirty-rate on a domain already in log-dirty mode: PEEK only, mode kept"
machine
setfield 5 logdirty=1
setfield 5 dirty=0x100-0x10f
xl dirty-rate -t 0.02 5
want_rc 0
want_out_has '^Dirty pages: 0$'
want_log_lacks 'clean|shadow_op'
want_state_has '^domain 5 .*logdirty=1'
end

begin "xl dirty-rate: bad duration, VRAM tracking"
machine
xl dirty-rate -t 0 5
want_rc 2
want_err_lines 1
xl dirty-rate -t abc 5
want_rc 2
setfield 5 vram=0x100+16
xl dirty-rate 5
want_rc 1
want_err_lines 1
want_log_lacks 'shadow_op|logdirty'
end

# ---- create -------------------------------------------------------------------------

cat >"$W/good.cfg" <<'EOF'
# a PVH guest
name = "g1"
type = "pvh"
uuid = "5a1e0000-0000-4000-8000-0000000000aa"
memory = 64
vcpus = 2
kernel = "/boot/test.elf"
cmdline = "console=hvc0"
on_crash = "preserve"
EOF

begin "xl create -n: the configuration as JSON"
machine
xl create -n "$W/good.cfg"
want_rc 0
want_err <<EOF
Parsing config from $W/good.cfg
EOF
want_out <<'EOF'
{
    "domid": null,
    "config": {
        "c_info": {
            "type": "pvh",
            "name": "g1",
            "uuid": "5a1e0000-0000-4000-8000-0000000000aa"
        },
        "b_info": {
            "max_vcpus": 2,
            "avail_vcpus": [
                0,
                1
            ],
            "max_memkb": 65536,
            "target_memkb": 65536,
            "sched_params": {

            },
            "claim_mode": "True",
            "kernel": "/boot/test.elf",
            "cmdline": "console=hvc0",
            "type.pvh": {

            },
            "arch_arm": {

            },
            "arch_x86": {

            }
        },
        "on_reboot": "restart",
        "on_crash": "preserve",
        "on_soft_reset": "soft_reset"
    }
}
EOF
end

begin "xl.conf: max_grant_frames, max_maptrack_frames, max_grant_version as xl.cfg's defaults"
machine
mkdir -p "$BIN/etc-xen"
cat >"$BIN/etc-xen/xl.conf" <<'EOF'
# xl.conf(5)
output_format = "json"
max_grant_frames = 8
max_maptrack_frames = 16
max_grant_version = 1
EOF
xl -N create "$W/good.cfg"
want_rc 0
want_out_has '^ +"max_grant_frames": 8,$'
want_out_has '^ +"max_maptrack_frames": 16,$'
want_out_has '^ +"max_grant_version": 1,$'
want_err <<<"Parsing config from $W/good.cfg"
xl -N create "$W/good.cfg" max_grant_frames=4
want_out_has '^ +"max_grant_frames": 4,$'
rm -rf "$BIN/etc-xen"
xl -N create "$W/good.cfg"
want_rc 0
! grep -q max_grant "$W/out" || problem "grant limits without an xl.conf"
end

begin "xl.conf: Xen's keys not acted on and unknown keys warned, the command runs"
machine
mkdir -p "$BIN/etc-xen"
cat >"$BIN/etc-xen/xl.conf" <<'EOF'
autoballoon = "off"
frobnicate = 1
lockfile = "/var/lock/xl"
EOF
xl list web
want_rc 0
want_out <<'EOF'
Name                                        ID   Mem VCPUs	State	Time(s)
web                                          5   128     2     r-----       0.9
EOF
want_err <<EOF
$BIN/etc-xen/xl.conf:1: warning: \`autoballoon' is not supported by this xl yet, ignored
$BIN/etc-xen/xl.conf:2: warning: unknown setting \`frobnicate', ignored
$BIN/etc-xen/xl.conf:3: warning: \`lockfile' is not supported by this xl yet, ignored
EOF
rm -rf "$BIN/etc-xen"
end

begin "xl.conf: bad values and syntax"
machine
mkdir -p "$BIN/etc-xen"
printf 'output_format = "sxp"\n' >"$BIN/etc-xen/xl.conf"
xl list web
want_rc 0
want_err <<<"$BIN/etc-xen/xl.conf: output_format \"sxp\" is not supported by this xl, using json"
printf 'output_format = "yaml"\nmax_grant_version = 7\n' >"$BIN/etc-xen/xl.conf"
xl list web
want_rc 0
want_err_has '^invalid default output format "yaml"$'
want_err_has 'max_grant_version'
printf 'max_grant_frames = = 3\n' >"$BIN/etc-xen/xl.conf"
xl list web
want_rc 1
want_no_out
want_err_has '^Failed to parse config file: '
want_log </dev/null
rm -rf "$BIN/etc-xen"
end

begin "xl create: key=value overrides, -N"
machine
xl -N create "$W/good.cfg" memory=128 'name="g2"'
want_rc 0
want_out_has '"name": "g2"'
want_out_has '"max_memkb": 131072'
end

# A real (small) PVH kernel: tools/tests/guest/image.c.
"$BIN/mkpvh" "$W/k.elf"
sed -e "s|/boot/test.elf|$W/k.elf|" "$W/good.cfg" >"$W/run.cfg"

begin "xl create: builds a PVH domain (libxenguest) and unpauses it"
machine
xl create -q "$W/run.cfg"
want_rc 0
want_no_out
want_err </dev/null
# Xen's special pages (xenstore, console, ...) at 0xfeff8-0xfefff and
# their HVM parameters; max_mem is the memory and LIBXL_MAXMEM_CONSTANT;
# the rings' ports (1 xenstore, 2 console), the grant entries Xen
# reserves written through acquire_resource, the domain introduced to
# xenstored with its ring's gfn and port; the page of ACPI tables libxl
# builds (acpi=1, Xen's default for PVH) at 0xfc000000.
want_log <<'EOF'
create 2 vcpus=2
setmaxmem 2 66560
paging_mempool 2 2621440
alloc_unbound 2 remote=0
alloc_unbound 2 remote=0
populate 2 nr=32 order=9
populate 2 nr=8 order=0
set_param 2 1 0xfeffc
set_param 2 6 0xfeffb
set_param 2 5 0xfeffd
set_param 2 17 0xfefff
set_param 2 27 0xfeff8
set_param 2 28 0xfeff9
set_param 2 29 0xfeffa
set_param 2 12 0xfeffe000
populate 2 nr=1 order=0
set_param 2 18 0x2
set_param 2 2 0x1
setcontext 2 rip=0x100040 rbx=0x3fff000
acquire_resource 2 type=1 id=0 frame=0 nr=1
xs_introduce 2 1044476 1
unpause 2
EOF
want_state_has '^domain 2 uuid=5a1e0000-0000-4000-8000-0000000000aa flags=none .* tot=16393 max=16640 vcpus=1 maxvcpu=1 '
xl list g1
want_rc 0
want_out_has '^g1 +2 +64 +1 '
end

begin "xl create records the start time: xl uptime of a new domain"
machine
xl create -q "$W/run.cfg"
want_rc 0
xl uptime g1
want_rc 0
want_out_has '^g1                                   2  0:00:0[0-2]$'
xl destroy g1
want_xs_lacks '^/vm/5a1e0000-0000-4000-8000-0000000000aa'
end

begin "xl create: the domain's xenstore tree, as Xen's libxl writes it"
machine
xl create -q "$W/run.cfg"
want_rc 0
U=5a1e0000-0000-4000-8000-0000000000aa
# dom0 owns /local/domain/2, the guest may read it; control/shutdown and
# data are the guest's own.
want_xs_has '^/local/domain/2 n0,r2 -$'
want_xs_has '^/local/domain/2/name n0,r2 g1$'
want_xs_has '^/local/domain/2/domid n0,r2 2$'
want_xs_has "^/local/domain/2/vm n0,r2 /vm/$U\$"
want_xs_has '^/local/domain/2/control/shutdown n2 -$'
want_xs_has '^/local/domain/2/control/feature-poweroff n2 -$'
want_xs_has '^/local/domain/2/control/platform-feature-xs_reset_watches n0,r2 1$'
want_xs_has '^/local/domain/2/data n2 -$'
want_xs_has '^/local/domain/2/device n0,r2 -$'
want_xs_has '^/local/domain/2/memory/static-max n0,r2 65536$'
want_xs_has '^/local/domain/2/memory/target n0,r2 65536$'
want_xs_has '^/local/domain/2/cpu/0/availability n0,r2 online$'
want_xs_has '^/local/domain/2/cpu/1/availability n0,r2 online$'
want_xs_has '^/local/domain/2/store/port n0,r2 1$'
want_xs_has '^/local/domain/2/store/ring-ref n0,r2 1044476$'
want_xs_has "^/vm/$U/uuid n0,r2 $U\$"
want_xs_has "^/vm/$U/name n0,r2 g1\$"
want_xs_has "^/vm/$U/start_time n0,r2 [0-9]+\\.[0-9]{2}\$"
want_xs_has '^/libxl/2/type n0 pvh$'
# console 0: xenconsoled's, its ring and port read-only to the guest
want_xs_has '^/local/domain/2/console/type n2,r0 xenconsoled$'
want_xs_has '^/local/domain/2/console/output n2,r0 pty$'
want_xs_has '^/local/domain/2/console/limit n2,r0 1048576$'
want_xs_has '^/local/domain/2/console/backend n2,r0 /local/domain/0/backend/console/2/0$'
want_xs_has '^/local/domain/2/console/port n0,r2 2$'
want_xs_has '^/local/domain/2/console/ring-ref n0,r2 1044479$'
want_xs_has '^/local/domain/0/backend/console/2/0/frontend n0,r2 /local/domain/2/console$'
want_xs_has '^/local/domain/0/backend/console/2/0/protocol n0,r2 vt100$'
want_xs_has '^introduced 2 0xfeffc 1$'
xl destroy g1
want_rc 0
want_xs_lacks '^/local/domain/2'
want_xs_lacks "^/vm/$U"
want_xs_lacks '^/libxl/2'
want_xs_lacks '^/local/domain/0/backend/console/2'
want_xs_has '^/local/domain/0/name n0 Domain-0$'
end

# xl console: xl becomes Xen's xenconsole (a stand-in here, in
# LIBXL_PRIVATE_BINDIR) on the domain's PV console 0.
fake_xenconsole() {
    mkdir -p "$W/bindir"
    cat >"$W/bindir/xenconsole" <<'SH'
#!/bin/sh
echo "xenconsole $*"
while [ $# -gt 0 ]; do
    [ "$1" = --start-notify-fd ] && { eval "printf 'x' >&$2"; shift; }
    shift
done
SH
    chmod +x "$W/bindir/xenconsole"
}

begin "xl console: Xen's xenconsole on the PV console 0"
machine
fake_xenconsole
LIBXL_PRIVATE_BINDIR=$W/bindir xl console web
want_rc 0
want_out <<<"xenconsole 5 --num 0 --type pv"
LIBXL_PRIVATE_BINDIR=$W/bindir xl console -t pv -n 0 5
want_rc 0
want_out <<<"xenconsole 5 --num 0 --type pv"
end

begin "xl console: no such console, type or domain; no xenconsole"
machine
fake_xenconsole
LIBXL_PRIVATE_BINDIR=$W/bindir xl console -t serial web
want_rc 1
want_no_out
want_err_has 'Domain 5:has no serial console 0 \(only pv 0\)'
want_err_has '^Unable to attach console$'
LIBXL_PRIVATE_BINDIR=$W/bindir xl console -t pv -n 1 web
want_rc 1
want_err_has 'has no pv console 1'
LIBXL_PRIVATE_BINDIR=$W/bindir xl console -t vga web
want_rc 1
want_err_has '^console type supported are: pv, serial, vuart$'
LIBXL_PRIVATE_BINDIR=$W/bindir xl console nosuch
want_rc 1
want_err_has "^Error: Domain 'nosuch' does not exist\.$"
LIBXL_PRIVATE_BINDIR=$W/nowhere xl console web
want_rc 1
want_err_has "cannot run $W/nowhere/xenconsole"
end

begin "xl create -c: unpaused once xenconsole is attached"
machine
fake_xenconsole
LIBXL_PRIVATE_BINDIR=$W/bindir xl create -q -c "$W/run.cfg"
want_rc 0
want_out_has '^xenconsole 2 --num 0 --type pv --start-notify-fd [0-9]+$'
want_log_has 'unpause 2'
machine
fake_xenconsole
: >"$W/log"
LIBXL_PRIVATE_BINDIR=$W/bindir xl create -q -c -p "$W/run.cfg"
want_rc 0
want_log_lacks unpause
end

begin "xl create: no xenstored: refused before anything is made"
machine
FAKE_XS_DOWN=1 xl create -q "$W/run.cfg"
want_rc 1
want_err_has 'cannot connect to xenstore: No such file or directory'
want_log_lacks create
end

begin "xl create: xenstored refuses the domain: destroyed, its tree gone"
machine
FAKE_XS_REFUSE_INTRODUCE=1 xl create -q "$W/run.cfg"
want_rc 1
want_err_has 'xs_introduce_domain failed \(ring 0xfeffc, port 1\)'
want_log_has 'destroy 2'
want_xs_lacks '^/local/domain/2'
end

# ---- xl create's monitor (xl_monitor.c) -------------------------------------------

# mon_start [create options] [key=value]: xl create -F in the background,
# until it watches domain 2 (the first free domid of machine's).
mon_start() {
    machine
    "$BIN/xl" create -q -F "$W/run.cfg" "$@" >"$W/mon.out" 2>"$W/mon.err" &
    mon_pid=$!
    mon_wait_for '^Waiting for domain g1 \(domid 2\) to die \[pid [0-9]+\]$'
}
mon_wait_for() { wait_for_line "the monitor" "$mon_pid" "$1" "$W/mon.err"; }
# mon_shutdown DOMID REASON: the fake domain shuts down (SHUTDOWN_* code).
mon_shutdown() {     # in one write: the monitor may look in between
    sed -i -E "/^domain $1 /{s/ (flags|reason)=[^ ]*//g; s/\$/ flags=shutdown reason=$2/}" "$W/state"
}
# mon_end: the monitor must have ended by itself with status 0.
mon_end() {
    local i rc
    for i in $(seq 200); do kill -0 "$mon_pid" 2>/dev/null || break; sleep 0.05; done
    if kill -0 "$mon_pid" 2>/dev/null; then
        kill "$mon_pid"
        problem "the monitor did not end:"$'\n'"$(cat "$W/mon.err")"
    fi
    wait "$mon_pid"
    rc=$?
    [ "$rc" = 0 ] || problem "the monitor's exit status $rc:"$'\n'"$(cat "$W/mon.err")"
}
mon_has() { grep -qE -- "$1" "$W/mon.err" || problem "the monitor did not print /$1/:"$'\n'"$(cat "$W/mon.err")"; }

begin "xl create -F: a poweroff, on_poweroff=destroy (Xen's default): destroyed, its tree gone"
mon_start
mon_shutdown 2 0
mon_end
mon_has '^Domain 2 has shut down, reason code 0 0x0$'
mon_has '^Action for shutdown reason code 0 is destroy$'
mon_has '^Domain 2 needs to be cleaned up: destroying the domain$'
mon_has '^Done\. Exiting now$'
want_log_has 'destroy 2'
want_xs_lacks '^/local/domain/2'
grep -q '^domain 2 ' "$W/state" && problem "domain 2 is still there"
end

begin "xl create -F: a reboot, on_reboot=restart (Xen's default): destroyed, made again with a new domid, watched again"
mon_start
mon_shutdown 2 1
mon_wait_for '^Waiting for domain g1 \(domid 3\) to die \[pid [0-9]+\]$'
mon_has '^Action for shutdown reason code 1 is restart$'
mon_has '^Done\. Rebooting now$'
want_log_has 'destroy 2'
want_log_has 'unpause 3'
want_xs_has '^/local/domain/3/name [^ ]+ g1$'
want_xs_lacks '^/local/domain/2/'
# Then destroyed from outside: Xen's "has been destroyed.", the monitor ends.
xl destroy 3
mon_end
mon_has '^Domain 3 has been destroyed\.$'
end

begin "xl create -F: on_poweroff=preserve: left shut down, the monitor ends"
mon_start 'on_poweroff="preserve"'
mon_shutdown 2 0
mon_end
mon_has '^Action for shutdown reason code 0 is preserve$'
mon_has '^Done\. Exiting now$'
want_log_lacks 'destroy 2'
want_state_has '^domain 2 .*flags=shutdown'
end

begin "xl create -F: a crash, on_crash=rename-restart: the old domain renamed NAME-<UTC time>, a new one made"
mon_start 'on_crash="rename-restart"'
mon_shutdown 2 3
mon_wait_for '^Waiting for domain g1 \(domid 3\) to die'
mon_has '^Preserving domain 2 g1 with suffix-[0-9]{8}T[0-9]{4}Z$'
want_xs_has '^/local/domain/2/name [^ ]+ g1-[0-9]{8}T[0-9]{4}Z$'
want_xs_has '^/local/domain/3/name [^ ]+ g1$'
want_log_lacks 'destroy 2'
mon_shutdown 3 0
mon_end
want_log_has 'destroy 3'
end

begin "xl create -F: on_crash=coredump-destroy: no core dump here (said), destroyed"
mon_start 'on_crash="coredump-destroy"'
mon_shutdown 2 3
mon_end
mon_has '^core dump of domain 2 not taken: not supported by this toolstack$'
want_log_has 'destroy 2'
end

begin "xl create -F: a suspend is not the monitor's business (libxl_domain_suspend's caller acts)"
mon_start
mon_shutdown 2 2
mon_wait_for '^Domain has suspended\.$'
mon_end
want_log_lacks 'destroy 2'
end

begin "xl create -e: no monitor: the shut-down domain stays"
machine
run "$BIN/xl" create -q -e "$W/run.cfg"
want_rc 0
mon_shutdown 2 0
sleep 0.3
want_log_lacks 'destroy 2'
want_state_has '^domain 2 .*flags=shutdown'
end

begin "xl create: the paging pool (libxl's shadow memory) and its records"
machine
xl create -q "$W/run.cfg" shadow_memory=8
want_rc 0
want_log_has 'paging_mempool 2 8388608'
want_xs_has '^/local/domain/2/memory/target n0,r2 65536$'
want_xs_has '^/local/domain/2/memory/static-max n0,r2 65536$'
machine
: >"$W/log"
echo "fail paging_mempool 12" >>"$W/state"
xl create -q "$W/run.cfg"
want_rc 1
want_err_has 'Failed to set paging mempool size to 2560kB'
want_log_has 'destroy 2'
want_log_lacks 'populate'
end

begin "xl mem-set: the target, enforced as max_pages (target + 1 MiB)"
machine
xl mem-set guest1 128
want_rc 0
want_no_out
want_log <<'EOF'
setmaxmem 1 132096
EOF
want_xs_has '^/local/domain/1/memory/target n0,r1 131072$'
: >"$W/log"
xl mem-set 1 64m
want_rc 0
want_log_has 'setmaxmem 1 66560'
: >"$W/log"
xl mem-set 1 512
want_rc 1
want_err_has 'memory_dynamic_max must be less than or equal to memory_static_max'
want_err_has '^cannot set domid 1 dynamic max memory to : 512$'
want_log_lacks setmaxmem
xl mem-set 1 12x
want_rc 1
want_err_has '^invalid memory size: 12x$'
xl mem-set 0 64m
want_rc 1
want_err_has 'below the minimum threshold'
xl destroy 1
want_rc 0
want_xs_lacks '^/local/domain/1/memory'
end

begin "xl mem-max: the static maximum, not below the target"
machine
xl mem-set 1 128m
: >"$W/log"
xl mem-max 1 200m
want_rc 0
want_log_has 'setmaxmem 1 205824'
want_xs_has '^/local/domain/1/memory/static-max n0,r1 204800$'
: >"$W/log"
xl mem-max 1 100m
want_rc 1
want_err_has 'memory_static_max must be greater than or or equal to memory_dynamic_max'
want_err_has '^cannot set domid 1 static max memory to : 100m$'
want_log_lacks setmaxmem
xl mem-set 1 200m
want_rc 0
xl mem-set 1 201m
want_rc 1
end

begin "xl create -p: left paused"
machine
xl create -q -p "$W/run.cfg" memory=5 'cmdline="x"'
want_rc 0
want_log_has "populate 2 nr=2 order=9"
want_log_has "populate 2 nr=256 order=0"
want_log_lacks '^unpause'
want_state_has '^domain 2 .* flags=paused .* tot=1289 '
end

begin "xl create acpi=0: no page of ACPI tables (acpi=1 is the default)"
machine
xl create -q -p "$W/run.cfg" memory=5 acpi=0 'cmdline="x"'
want_rc 0
want_log_lacks "^populate 2 nr=1 order=0"
want_state_has '^domain 2 .* flags=paused .* tot=1288 '
end

begin "xl create: a kernel that is not ELF: one error, the domain destroyed"
machine
printf 'not an ELF file at all, but long enough for a header.........' >"$W/bad.elf"
xl create -q "$W/run.cfg" "kernel=\"$W/bad.elf\""
want_rc 1
want_err_has '^xc: error: kernel image is not an ELF file \(bad magic\)$'
want_err_has "^xl: creating domain 'g1' failed"
want_log <<'EOF'
create 2 vcpus=2
setmaxmem 2 66560
paging_mempool 2 2621440
alloc_unbound 2 remote=0
alloc_unbound 2 remote=0
pause 2
destroy 2
EOF
want_xs_lacks '^/local/domain/2'
want_xs_lacks '^/vm/5a1e0000-0000-4000-8000-0000000000aa'
xl list g1
want_rc 1
end

begin "xl create: missing kernel, memory too small, populate fails: destroyed"
machine
xl create -q "$W/run.cfg" 'kernel="/nonexistent.elf"'
want_rc 1
want_err_has 'cannot open /nonexistent.elf: No such file or directory'
want_log_has "destroy 2"
: >"$W/log"
xl create -q "$W/run.cfg" memory=1
want_rc 1
want_err_has 'memory size 1 MiB out of range'
want_log_has "destroy 2"
want_log_lacks 'populate'
: >"$W/log"
echo "fail populate 12" >>"$W/state"
xl create -q "$W/run.cfg"
want_rc 1
want_err_has "cannot populate d2's RAM"
want_log_has "destroy 2"
want_log_lacks 'setcontext|unpause'
grep -q '^domain 2 ' "$W/state" && problem "domain 2 left behind"
end

begin "xl create: sethvmcontext fails: destroyed"
machine
echo "fail setcontext 22" >>"$W/state"
xl create -q "$W/run.cfg"
want_rc 1
want_err_has "cannot set d2's vCPU 0 context"
want_log_has "destroy 2"
want_log_lacks '^unpause'
end

begin "xl create: a name in use, or no room for a domain: nothing created"
machine
xl create -q "$W/run.cfg" 'name="web"'
want_rc 1
want_err_has 'domain with name "web" already exists'
want_log_lacks 'create|destroy'
echo "fail create 12" >>"$W/state"
xl create -q "$W/run.cfg"
want_rc 1
want_err_has 'domain creation fail'
want_log_lacks 'destroy'
end

begin "xl create: syntax error names file and line, nothing created"
machine
printf 'name = "x"\nmemory = 64\nvcpus = = 2\n' >"$W/bad.cfg"
xl create -q "$W/bad.cfg"
want_rc 1
want_no_out
want_err <<EOF
$W/bad.cfg:3: config parsing error near \`=': syntax error
EOF
end

begin "xl create: bad override, unknown key, missing file, unsupported type"
machine
xl create -q -n "$W/good.cfg" 'memory='
want_rc 1
want_err <<'EOF'
command line:1: config parsing error near <newline>: syntax error
EOF
xl create -q -n "$W/good.cfg" colour=1
want_rc 0
want_err <<'EOF'
command line:1: warning: unknown setting `colour', ignored
EOF
xl create "$W/none.cfg"
want_rc 1
want_err <<EOF
Failed to read config file: $W/none.cfg: No such file or directory
EOF
xl create -q "$W/good.cfg" 'type="hvm"'
want_rc 1
want_err <<'EOF'
xl: domain type hvm is not supported by this hypervisor (only pvh)
EOF
xl create
want_rc 2
end

# ---- save, restore, migrate -------------------------------------------------------
# The real libxl stream and libxenguest's migration stream over the fake hypervisor:
# a small domain "small" (256 pages, its memory a pattern of seed=7) is
# saved, restored and migrated; the copy must have the same memhash (a
# digest of every page), and sr-check (tools/tests/migrate) must accept
# every file written.

SR_CHECK=$HERE/../migrate/bin/sr-check
make -s -C "$HERE/../migrate" sr-check >/dev/null 2>&1

small() {
    machine
    # Its xenstore ring at pfn 0xfe, its console ring at 0xff (HVM params).
    echo "domain 7 uuid=5a1e0000-0000-4000-8000-000000000007 flags=running tot=256 max=256 vcpus=1 maxpfn=0xff seed=7 params=1:0xfe,17:0xff $*" >>"$W/state"
    name_domain 7 5a1e0000-0000-4000-8000-000000000007 small
    "$BIN/xl" pause small && "$BIN/xl" unpause small    # the fake writes memhash
    : >"$W/log"
    SMALL_HASH=$(grep '^domain 7 ' "$W/state" | grep -oE 'memhash=[0-9a-f]+')
    [ -n "$SMALL_HASH" ] || problem "no memhash for the source"
}

# The domain named $1: its state line.
dom_line() {
    local id
    for id in $(sed -nE "s|^/local/domain/([0-9]+)/name [^ ]+ $1\$|\\1|p" "$W/xenstore"); do
        grep "^domain $id " "$W/state" && return
    done
}

want_copy() {   # name: exists, same memory as the source
    local line
    line=$(dom_line "$1")
    [ -n "$line" ] || { problem "no domain named $1"; return; }
    grep -q " $SMALL_HASH" <<<"$line" ||
        problem "the copy's memory differs: $line (source $SMALL_HASH)"
}

begin "xl save: Xen's header, a valid stream, the domain destroyed"
small
xl save small "$W/small.save"
want_rc 0
want_err_has '^Saving to .*small.save new xl format \(info 0x2/0x0/[0-9]+\)$'
head -c 32 "$W/small.save" | cmp -s - <(printf 'Xen saved domain, xl format\n \0 \r') ||
    problem "bad magic"
"$SR_CHECK" "$W/small.save" >"$W/check" || problem "sr-check: $(cat "$W/check")"
grep -q '^domain 7 ' "$W/state" && problem "the saved domain is still there"
want_log_has 'destroy 7'
end

begin "xl restore: the same memory, unpaused; -p left paused"
small
xl save small "$W/small.save"
xl restore "$W/small.save"
want_rc 0
want_err_has '^Loading new save file .*small.save \(new xl fmt info 0x2/0x0/[0-9]+\)$'
want_err_has '^ Savefile contains xl domain config in xl format$'
want_copy small
dom_line small | grep -q 'flags=paused' && problem "not unpaused: $(dom_line small)"
grep -qE '^populate [0-9]+ nr=[0-9]+ order=0$' "$W/log" || problem "no populate: $(cat "$W/log")"
# The rings: the stream's HVM params set, the new domain's own ports in
# STORE_EVTCHN/CONSOLE_EVTCHN, the grant table seeded, xenstore entries
# and the introduction with the carried gfn.
rid=$(sed -nE 's|^/local/domain/([0-9]+)/name [^ ]+ small$|\1|p' "$W/xenstore")
for p in "1 0xfe" "17 0xff" "2 0x1" "18 0x2"; do
    grep -qE "^set_param $rid $p\$" "$W/log" || problem "no set_param $rid $p: $(grep set_param "$W/log")"
done
grep -qE "^acquire_resource $rid type=1 id=0 frame=0 nr=1\$" "$W/log" || problem "grant table not seeded"
want_xs_has "^introduced $rid 0xfe 1\$"
want_xs_has "^/local/domain/$rid/store/ring-ref n0,r$rid 254\$"
want_xs_has "^/local/domain/$rid/store/port n0,r$rid 1\$"
want_xs_has "^/local/domain/$rid/console/ring-ref n0,r$rid 255\$"
want_xs_has "^/local/domain/$rid/console/port n0,r$rid 2\$"
xl destroy small
xl restore -p "$W/small.save"
want_rc 0
dom_line small | grep -q 'flags=[a-z,]*paused' || problem "not paused: $(dom_line small)"
end

begin "xl restore -F: the restored domain watched as xl create's (on_poweroff destroy)"
small
xl save small "$W/small.save"
"$BIN/xl" restore -F "$W/small.save" >"$W/mon.out" 2>"$W/mon.err" &
mon_pid=$!
mon_wait_for '^Waiting for domain small \(domid [0-9]+\) to die \[pid [0-9]+\]$'
rid=$(sed -n 's/^Waiting for domain small (domid \([0-9]*\)).*/\1/p' "$W/mon.err")
mon_shutdown "$rid" 0
mon_end
mon_has "^Domain $rid needs to be cleaned up: destroying the domain\$"
want_log_has "destroy $rid"
dom_line small | grep -q . && problem "the restored domain is still there: $(dom_line small)"
end

begin "xl save -c: the domain runs on; -p: left paused"
small
xl save -c small "$W/small.save"
want_rc 0
dom_line small | grep -q 'flags=running' || problem "not running: $(dom_line small)"
xl save -p small "$W/small2.save"
want_rc 0
dom_line small | grep -q 'flags=[a-z,]*paused' || problem "not paused: $(dom_line small)"
end

begin "xl restore: truncated or corrupt files refused, nothing left behind"
small
xl save small "$W/small.save"
size=$(stat -c %s "$W/small.save")
head -c $((size / 2)) "$W/small.save" >"$W/half.save"
xl restore "$W/half.save"
want_rc 1
want_err_has 'truncated in the body of a PAGE_DATA record'
want_err_has 'restoring domain .small. failed'
dom_line small | grep -q . && problem "a half-restored domain is left"
printf 'Not a save file at all, no no no no no no no no no' >"$W/junk.save"
xl restore "$W/junk.save"
want_rc 1
want_err_has 'File has wrong magic number'
{ head -c 36 "$W/small.save"; printf '\006\0\0\0'; tail -c +41 "$W/small.save"; } >"$W/flags.save"
xl restore "$W/flags.save"
want_rc 1
want_err_has 'Savefile has mandatory flag\(s\) 0x4 which are not supported'
end

mkdir -p "$W/path"
printf '#!/bin/sh\n# A fake ssh: drop the host, run the command here.\nshift\nexec "$@"\n' >"$W/path/ssh"
printf '#!/bin/sh\n# A receiver that dies after 64 KiB.\nprintf %s\nhead -c 65536 >/dev/null\nexit 1\n' \
    "'xl migration receiver ready, send binary domain data.\\n'" >"$W/path/badssh"
ln -sf "$BIN/xl" "$W/path/xl"

# xl migrate with its receiver: a broken stream must fail, never hang.
xl_migrate() {
    # -e: the receiver runs no monitor (xl migrate-receive -e)
    PATH=$W/path:$PATH timeout 60 "$BIN/xl" migrate -e "$@" >"$W/out" 2>"$W/err"
    echo $? >"$W/rc"
}
chmod +x "$W/path/ssh" "$W/path/badssh"

begin "xl migrate: live, through the receiver, the copy takes over"
small "write=0x10-0x1f"
xl_migrate small otherhost
want_rc 0
want_err_has '^migration target: Ready to receive domain\.$'
want_err_has '^migration sender: round 1: 256 pages sent'
want_err_has '^migration sender: round 1: .*, throttle 0% \(paused 0 ms, longest 0\.000 ms\)$'
want_err_has '^migration sender: round [0-9]+ \(final, paused\)'
want_err_has '^migration target: Transfer complete, requesting permission to start domain\.$'
want_err_has '^migration sender: Target has acknowledged transfer\.$'
want_err_has '^migration target: Domain started successsfully\.$'
want_err_has '^Migration successful\.$'
grep -q '^domain 7 ' "$W/state" && problem "the source is still there"
want_copy small
want_log_has 'shadow_op 7 enable_logdirty'
want_log_has 'logdirty 7 clean pages=256'
end

begin "xl migrate --xen-policy: 5 rounds for a busy domain; --non-live: none"
small "write=0x10-0x7f"
xl_migrate --xen-policy small otherhost
want_rc 0
want_err_has '^migration sender: round 5: '
want_err_has '^migration sender: round 6 \(final, paused\)'
want_copy small
small
xl_migrate --non-live small otherhost
want_rc 0
grep -q 'migration sender: round 1:' "$W/err" && problem "pre-copy when not live"
want_copy small
end

begin "xl migrate --bandwidth: rounds at most the cap; a bad cap refused"
small "write=0x10-0x1f"
xl_migrate --bandwidth=2 small otherhost
want_rc 0
want_err_has '^migration sender: round 1: 256 pages sent'
# 2 MiB/s is 2048 KiB/s: no round may report more (uncapped: GB/s).
awk '/^migration sender: round/ { for (i = 1; i < NF; i++) if ($(i + 1) == "KiB/s,") print $i }' \
    "$W/err" | while read -r kibs; do
    [ "$kibs" -le 2048 ] || echo "a round at $kibs KiB/s"
done | grep -q . && problem "a round above the 2 MiB/s cap: $(grep 'round' "$W/err")"
want_copy small
small
for bad in 0 -1 2x ""; do
    xl_migrate --bandwidth="$bad" small otherhost
    want_rc 1
    want_err_has '^xl migrate: --bandwidth needs a number of MiB/s above 0'
done
dom_line small | grep -q 'flags=running.*logdirty=0' ||
    problem "the source does not run on: $(dom_line small)"
end

begin "xl migrate: the receiver dies mid-stream: the source runs on"
small "write=0x10-0x1f"
xl_migrate -s badssh small otherhost
want_rc 1
want_err_has 'Migration failed, resuming at sender\.'
dom_line small | grep -q 'flags=running.*logdirty=0' ||
    problem "the source does not run on: $(dom_line small)"
end

begin "xl migrate-receive: a corrupt stream: the copy destroyed"
small
xl save -c small "$W/small.save"
size=$(stat -c %s "$W/small.save")
head -c $((size - 100)) "$W/small.save" >"$W/cut.save"
"$BIN/xl" migrate-receive -e <"$W/cut.save" >"$W/out" 2>"$W/err"
[ $? = 1 ] || problem "migrate-receive succeeded"
want_err_has '^migration target: Domain creation failed'
dom_line small--incoming | grep -q . && problem "the incoming copy is left"
end

# ---- the suspend protocol ---------------------------------------------------------
# A guest with PV drivers ("suspend=<how it answers>", tools/tests/fake/
# fake_suspend.c) is asked through xenstore's control/shutdown and must
# suspend itself; xl-fakeclock is xl on the fake clock, so that Xen's 60 s
# limits pass at once.
xlf() { run "$BIN/xl-fakeclock" "$@"; }
control_node() {    # the value of domain 7's control/shutdown
    sed -nE 's|^/local/domain/7/control/shutdown [^ ]+ (.*)$|\1|p' "$W/xenstore"
}
want_running() {
    dom_line small | grep -q 'flags=running.*logdirty=0' ||
        problem "the source does not run on: $(dom_line small)"
}

begin "xl save of a PV guest: asked, it acknowledges and suspends; a valid stream"
small "suspend=ack"
xlf save small "$W/small.save"
want_rc 0
want_log_has 'guest 7 acks suspend'
want_log_has 'guest 7 suspends'
# One pause: xl destroy's (libxl pauses a domain before it destroys it).
[ "$(grep -c '^pause 7$' "$W/log")" = 1 ] || problem "paused, not suspended: $(cat "$W/log")"
"$SR_CHECK" "$W/small.save" >"$W/check" || problem "sr-check: $(cat "$W/check")"
grep -q '^domain 7 ' "$W/state" && problem "the saved domain is still there"
xl restore "$W/small.save"
want_rc 0
want_copy small
end

begin "xl save -c of a PV guest: resumed in place, its suspend call returns 1"
small "suspend=ack"
xlf save -c small "$W/small.save"
want_rc 0
want_log_has 'guest 7 suspends'
want_log_has 'resumedomain 7 rax=0x1'
want_log_has 'xs_resume 7'
want_running
[ "$(control_node)" = "-" ] || problem "control/shutdown is '$(control_node)', not empty"
xlf save -p small "$W/small2.save"
want_rc 0
dom_line small | grep -q 'flags=[a-z,]*paused' || problem "not paused: $(dom_line small)"
dom_line small | grep -q 'shutdown' && problem "still suspended: $(dom_line small)"
end

begin "xl save: a guest that never answers: reported, the request withdrawn, it runs on"
small "suspend=noack"
xlf save small "$W/small.save"
want_rc 1
want_err_has "guest didn't acknowledge suspend, cancelling request"
want_err_has '^Failed to save domain'
want_running
[ "$(control_node)" = "-" ] || problem "the request was not withdrawn: '$(control_node)'"
[ -e "$W/small.save" ] && problem "the save file is left"
want_log_lacks 'resumedomain'
end

begin "xl save: a guest that suspends late (within the limit) is saved"
small "suspend=late"
xlf save small "$W/small.save"
want_rc 0
want_log_has 'guest 7 acks suspend'
want_log_has 'guest 7 suspends'
"$SR_CHECK" "$W/small.save" >"$W/check" || problem "sr-check: $(cat "$W/check")"
end

begin "xl save: acknowledged but never suspended: timed out, it runs on"
small "suspend=nosuspend"
xlf save small "$W/small.save"
want_rc 1
want_err_has 'guest did not suspend, timed out'
want_running
end

begin "xl save: a guest that crashes while suspending is reported"
small "suspend=crash"
xlf save small "$W/small.save"
want_rc 1
want_err_has 'guest we were suspending has shut down with unexpected reason code 3'
want_log_lacks 'resumedomain'
end

begin "xl save: the stream fails after the guest suspended: resumed in place"
small "suspend=ack"
echo "fail getcontext 5" >>"$W/state"
xlf save small "$W/small.save"
want_rc 1
want_log_has 'guest 7 suspends'
# The cooperative resume reads the context too, so it fails; then the
# non-cooperative one: the guest runs on, seeing a new domain.
want_err_has 'resuming it non-cooperatively instead'
want_log_has 'resumedomain 7 rax=0'
want_running
end

begin "xl migrate of a PV guest: live, suspended for the last round, the copy takes over"
small "write=0x10-0x1f suspend=ack"
xl_migrate small otherhost
want_rc 0
want_log_has 'guest 7 suspends'
want_err_has '^Migration successful\.$'
grep -q '^domain 7 ' "$W/state" && problem "the source is still there"
want_copy small
end

begin "xl migrate of a PV guest: the receiver dies after it suspended: resumed in place"
small "suspend=ack"
xl_migrate --non-live -s badssh small otherhost
want_rc 1
want_log_has 'guest 7 suspends'
want_log_has 'resumedomain 7 rax=0x1'
want_err_has 'Migration failed, resuming at sender\.'
want_running
end

# ---- the total ------------------------------------------------------------------------

finish
