# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's Linux as a PVH domU (sourced by checks.sh, section domu; in the
# initramfs unless DOM0_LINUX_DOMU=0, mk-initramfs.sh -L): the same
# kernel package as dom0's, unmodified, started by `xl create -c
# /etc/xen/debian.cfg` in tmux (xenconsole reads keys only from a
# terminal).  Its console comes through its console ring and Debian's
# xenconsoled, which /init runs with --log=guest: what the domU printed
# is read from /var/log/xen/console/guest-debian.log (its /init's banner,
# its boot time, then its shell answering commands typed to it through
# `xl console`).  Then: its xenstore tree against the keys Xen's libxl
# writes, `xl mem-set` against its balloon driver's own view, `xl reboot`
# and (a second boot) `xl shutdown` through control/shutdown with the
# guest's own messages, and the hypervisor's free memory back.
du_log=/var/log/xen/console/guest-debian.log
du_up() { cut -d' ' -f1 /proc/uptime | cut -d. -f1; }
du_upf() { cut -d' ' -f1 /proc/uptime; }
# du_quote: the domU's console lines as dom0 may print them on the serial
# line, where run-dom0.sh stops Bochs at Linux's "reboot: ..." and
# "Kernel panic" (dom0's own end): the domU's are reworded.
du_quote() { tr -d '\r' | sed 's/reboot: /reboot - /; s/Kernel panic/Kernel-panic/'; }
# du_report_boot DOM0_UPTIME: the boot's time, from the banner's "up S s".
du_report_boot() {
    du_mhz=$(xl info | awk '/^cpu_mhz/ { print $3 }')
    du_own=$(sed -n 's/^debian-domU: Linux .*, up \([0-9.]*\) s.*/\1/p' $du_log | tail -n 1)
    if [ -n "$du_own" ] && [ -n "$du_mhz" ]; then
        ok "debian domU: boot time $(awk -v s="$du_own" -v d="$1" -v t0="$du_t0f" -v m="$du_mhz" 'BEGIN {
            printf "%.2f s of its uptime to /init (%.0f M ticks at %d MHz), %.1f s of dom0 time from xl create to its banner (%.0f M ticks)",
                   s, s * m, m, d - t0, (d - t0) * m }')"
    else
        bad "debian domU: boot time" "no 'up S s' in its banner, or no cpu_mhz in xl info ('$du_mhz')"
    fi
}
# du_wait NAME SECONDS REGEX: PASS once a line of the domU's console log
# matches, polled every 2 s (dom0's time is the domU's under Bochs).
du_wait() {
    du_end=$(($(du_up) + $2))
    du_next=$(($(du_up) + 60))
    while [ "$(du_up)" -lt $du_end ]; do
        if grep -qE -- "$3" $du_log 2> /dev/null; then
            ok "$1 ($(($(du_up) - du_t0)) s after xl create)"
            return 0
        fi
        if [ "$(du_up)" -ge $du_next ]; then
            echo "    | ... $(($(du_up) - du_t0)) s, the domU's console log has" \
                 "$(wc -l < $du_log 2> /dev/null || echo no) lines: $(tail -n 1 $du_log 2> /dev/null | du_quote | cut -c1-100)"
            du_next=$(($(du_up) + 60))
        fi
        sleep 2
    done
    bad "$1" "its console log never showed /$3/ in $2 s"
    return 1
}
if ! command -v tmux > /dev/null 2>&1; then
    echo "SKIP debian domU: no tmux in the initramfs (no tmux on the build host)"
else
    du_sock=/tmp/tmux-domu.sock
    du_keys() { tmux -S "$du_sock" send-keys -t du "$@"; }
    du_free() { xl info | awk '/^free_memory/ { print $3 }'; }
    # The vCPUs debian.cfg gives it: the domU must bring up every one.
    du_vcpus=$(sed -n 's/^vcpus *= *\([0-9]*\).*/\1/p' /etc/xen/debian.cfg)
    du_free0=$(du_free)
    du_s0=$(du_upf)
    # du_boot N: xl create -c in a fresh tmux session, the console log anew.
    du_boot() {
        rm -f $du_log
        tmux -S "$du_sock" kill-server > /dev/null 2>&1
        du_t0=$(du_up)
        du_t0f=$(du_upf)
        tmux -S "$du_sock" -f /dev/null new-session -d -s du -x 160 -y 50 \
            "TERM=xterm xl create -c /etc/xen/debian.cfg; echo \$? > /tmp/domu.rc; sleep 3600"
        [ "$1" = 1 ] && return
        du_wait "debian domU (boot $1): its /init's banner on hvc0" 900 '^debian-domU: a shell on hvc0'
    }
    # du_until NAME SECONDS CMD...: PASS once CMD succeeds, polled every 2 s.
    du_until() {
        n=$1 du_end=$(($(du_up) + $2))
        shift 2
        while ! "$@" > /dev/null 2>&1; do
            if [ "$(du_up)" -ge $du_end ]; then
                bad "$n" "not in time"
                return 1
            fi
            sleep 2
        done
        ok "$n"
    }
    du_feature() { [ "$(xenstore-read "/local/domain/$(xl domid debian)/control/feature-poweroff")" = 1 ]; }
    du_boot 1
    du_wait "debian domU: its first words on hvc0 (xenconsoled's log)" 900 '.' &&
    du_wait "debian domU: its /init's banner on hvc0" 900 '^debian-domU: a shell on hvc0' &&
        grep -E '^debian-domU: Linux' $du_log | du_quote | sed 's/^/    | /'
    du_t1=$(du_upf)
    # Its boot time: its own uptime at its /init's banner, and dom0's from
    # xl create to the banner, in seconds and in ticks of the hypervisor's
    # TSC (xl info's cpu_mhz; under Bochs one tick is one instruction).
    du_report_boot "$du_t1"
    match "debian domU: all its $du_vcpus vCPU(s) up" "^debian-domU: Linux .*, $du_vcpus CPU," cat $du_log
    du_keys "echo answer-\$((6 * 7)) from \$(uname -n)" Enter
    du_wait "debian domU: its shell answers a command typed in xl console" 300 '^answer-42 from '
    du_keys "ls /dev/hvc0 /sys/bus/xen/drivers; echo done-\$((1 + 1))" Enter
    du_wait "debian domU: its hvc0 and xenbus drivers" 120 '^done-2'
    # The ACPI tables libxl built (libxl_x86_acpi.c), as the domU saw them:
    # its RSDP through the start info's rsdp_paddr, its vCPUs from the
    # MADT (Linux's log, read with dmesg: the console, at loglevel=6, does
    # not show pr_info), the tables in sysfs.
    du_keys "dmesg | grep -E 'ACPI: (RSDP|Using ACPI)'; ls /sys/firmware/acpi/tables | tr -s ' \\n' ' '; echo; echo acpi-\$((2 + 1))" Enter
    du_wait "debian domU: its ACPI tables" 120 '^acpi-3'
    match "debian domU: its RSDP at 0xfc000000 (libxl's ACPI tables)" \
        'ACPI: RSDP 0x00000000FC000000 ' cat $du_log
    # (no I/O APIC in the MADT: Linux says "for processor (LAPIC)")
    match "debian domU: its vCPUs from the MADT" \
        'ACPI: Using ACPI for processor \(LAPIC\) configuration information' cat $du_log
    match "debian domU: APIC, DSDT and FACP in /sys/firmware/acpi/tables" \
        '^APIC DSDT FACP ' cat $du_log
    du_quote < $du_log | sed 's/^/    | /' | tail -n 30
    echo
    d=$(xl domid debian 2> /dev/null) || d=none
    p=/local/domain/$d
    # xenbus connected: Linux wrote its shutdown features to xenstore through
    # its store ring (drivers/xen/manage.c, once xenbus is up).
    match "xenstore: the domU wrote control/feature-poweroff (xenbus up)" '^1$' \
        xenstore-read "$p/control/feature-poweroff"
    match "xenstore: the domU wrote control/feature-reboot" '^1$' \
        xenstore-read "$p/control/feature-reboot"
    match "xl list: debian by name" "^debian +[0-9]+ +1[0-9][0-9] +$du_vcpus " xl list
    match "xl list -v: debian's UUID" \
        '^debian +[0-9]+ .* [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}( |$)' xl list -v
    # Its tree against the keys Xen's libxl writes for a PVH domU
    # (libxl__domain_make, libxl__build_post, the console's device), each
    # KEY=REGEX, and /vm/<uuid> and /libxl/<domid>.
    du_mem=$(sed -n 's/^memory *= *\([0-9]*\).*/\1/p' /etc/xen/debian.cfg)
    du_kb=$((du_mem * 1024))
    vm=$(xenstore-read $p/vm 2> /dev/null)
    du_tree() {
        du_missing=
        for kv in "$@"; do
            v=$(xenstore-read "${kv%%=*}" 2> /dev/null) || v='<none>'
            echo "$v" | grep -qE -- "${kv#*=}" || du_missing="$du_missing ${kv%%=*}='$v'"
        done
        [ -z "$du_missing" ] && return 0
        echo "not as Xen's libxl writes them:$du_missing"
        return 1
    }
    du_cpus=
    i=0
    while [ $i -lt "$du_vcpus" ]; do
        du_cpus="$du_cpus $p/cpu/$i/availability=^online$"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    run "xenstore: debian's /local/domain/$d as Xen's libxl writes it" du_tree \
        "$p/name=^debian$" "$p/domid=^$d$" \
        "$p/vm=^/vm/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$" \
        "$p/memory/static-max=^$du_kb$" "$p/memory/target=^$du_kb$" "$p/memory/videoram=^0$" \
        "$p/store/port=^[1-9][0-9]*$" "$p/store/ring-ref=^1044476$" \
        "$p/console/ring-ref=^1044479$" "$p/console/port=^[1-9][0-9]*$" \
        "$p/console/type=^xenconsoled$" "$p/console/output=^pty$" "$p/console/tty=^/dev/pts/[0-9]+$" \
        "$p/console/backend=^/local/domain/0/backend/console/$d/0$" "$p/console/backend-id=^0$" \
        "$p/console/limit=^[0-9]+$" \
        "$p/control/shutdown=^$" "$p/control/platform-feature-multiprocessor-suspend=^1$" \
        "$p/control/platform-feature-xs_reset_watches=^1$" \
        "$p/data=^$" "$p/drivers=^$" "$p/feature=^$" "$p/attr=^$" "$p/error=^$" "$p/device=^$" \
        $du_cpus
    run "xenstore: debian's $vm (uuid, name, start_time) and /libxl/$d/type" du_tree \
        "$vm/uuid=^${vm#/vm/}$" "$vm/name=^debian$" "$vm/start_time=^[0-9]+\.[0-9]{2}$" \
        "/libxl/$d/type=^pvh$" \
        "/local/domain/0/backend/console/$d/0/frontend=^$p/console$" \
        "/local/domain/0/backend/console/$d/0/frontend-id=^$d$"
    match "xenstore: dom0 owns debian's directory, debian reads it" \
        "^$d = \"\" .*\(n0,r$d\)\$" xenstore-ls -p /local/domain
    match "xenstore: debian owns control/shutdown" "shutdown = \"\" .*\(n$d\)" \
        xenstore-ls -p $p/control
    # xl mem-set: memory/target in KiB and max_pages (target +
    # LIBXL_MAXMEM_CONSTANT), as Xen's libxl_set_memory_target; Linux's
    # balloon driver reads the target and gives the frames back
    # (XENMEM_decrease_reservation), which its own sysfs and meminfo show.
    # (info/current_kb: what it holds; target_kb: what it aims at, the
    # target less what Linux never had, static-max - current at boot.)
    du_bal=/sys/devices/system/xen_memory/xen_memory0
    du_balance() {
        du_keys "i=0; while [ \$(cat $du_bal/info/current_kb) != \$(cat $du_bal/target_kb) ] && [ \$i -lt 120 ]; do sleep 1; i=\$((i + 1)); done; echo bal-$1 cur=\$(cat $du_bal/info/current_kb) tgt=\$(cat $du_bal/target_kb) \$(grep MemTotal /proc/meminfo | tr -s ' ' =)" Enter
        du_wait "debian domU: its balloon's view ($2)" 300 "^bal-$1 cur=[0-9]+ "
    }
    du_field() { sed -n "s/^bal-$1 .*$2=\([0-9]*\).*/\1/p" $du_log | tr -d '\r' | tail -n 1; }
    du_balance 1 "before xl mem-set"
    du_cur1=$(du_field 1 cur)
    du_tot1=$(du_field 1 MemTotal:)
    run "xl mem-set debian 96m" xl mem-set debian 96m
    match "xenstore: memory/target 98304 (KiB)" '^98304$' xenstore-read $p/memory/target
    # Until its balloon has taken the new target (its xenstore watch) and
    # reached it.
    du_keys "i=0; while [ \$(cat $du_bal/target_kb) = $(du_field 1 tgt) ] && [ \$i -lt 120 ]; do sleep 1; i=\$((i + 1)); done" Enter
    du_balance 2 "after xl mem-set 96m"
    du_cur2=$(du_field 2 cur)
    du_tot2=$(du_field 2 MemTotal:)
    grep -E '^bal-[12] ' $du_log | du_quote | sed 's/^/    | /'
    if [ -n "$du_cur1" ] && [ -n "$du_cur2" ] && [ $((du_cur1 - du_cur2)) -eq 32768 ]; then
        ok "debian domU: its balloon gave back 32768 KiB ($du_cur1 -> $du_cur2 KiB current_kb)"
    else
        bad "debian domU: its balloon gave back 32768 KiB" "current_kb '$du_cur1' -> '$du_cur2'"
    fi
    if [ -n "$du_tot1" ] && [ -n "$du_tot2" ] && [ $((du_tot1 - du_tot2)) -ge 32768 ]; then
        ok "debian domU: its MemTotal dropped ($du_tot1 -> $du_tot2 KiB)"
    else
        bad "debian domU: its MemTotal dropped by 32768 KiB" "'$du_tot1' -> '$du_tot2'"
    fi
    match "xl list: debian at 96 MiB" "^debian +$d +9[67] " xl list debian
    # The pattern writer (domu/pattern.c) keeps a seeded pattern over
    # 16 MiB and verifies it each round while dom0 runs global log-dirty
    # on the domU (CLEAN and PEEK count what it dirtied) and xl top
    # watches it with a cleaner running; then it stops and reports.
    du_keys "pattern -m 16 -s 18 > /tmp/pattern.log 2>&1 & echo pat-started-\$!" Enter
    du_wait "debian domU: the pattern writer started" 120 '^pat-started-[0-9]+'
    run "xl log-dirty debian on" xl log-dirty "$d" on
    sleep 1
    count "xl log-dirty debian clean: pages the domU dirtied" 1 xl log-dirty "$d" clean --stats
    sleep 1
    count "xl log-dirty debian peek: dirtied again since the clean" 1 xl log-dirty "$d" peek --stats
    ( while :; do xl log-dirty "$d" clean > /dev/null 2>&1; done ) &
    du_cleaner=$!
    match "xl top: debian's dirty rate under PML" \
        '^debian +[0-9]+ [-a-z]{6} +[0-9]+ +[0-9]+ log-dirty +PML +[1-9][0-9]*\.[0-9] ' \
        xl top -b -i 2 -d 1
    grep -E '^(NAME|debian) ' $out | sed 's/^/    | /'
    kill "$du_cleaner"
    wait "$du_cleaner" 2> /dev/null
    run "xl log-dirty debian off" xl log-dirty "$d" off
    # VRAM tracking (one range, as a device model's frame buffer) over the
    # domU's whole RAM while the writer runs: the first call reports every
    # page of the range, the next what was written since.
    du_pages=$(( $(sed -n 's/^memory *= *\([0-9]*\).*/\1/p' /etc/xen/debian.cfg) * 256 ))
    count "xl vram-track debian 0 $du_pages: a new range reports every page" "$du_pages" \
        xl vram-track "$d" 0 "$du_pages" --stats
    sleep 1
    count "xl vram-track debian: pages the domU wrote since" 1 xl vram-track "$d" 0 "$du_pages" --stats
    run "xl vram-track debian off" xl vram-track "$d" off
    du_keys "kill \$!; wait \$!; echo pat-rc=\$?; cat /tmp/pattern.log" Enter
    du_wait "debian domU: the pattern writer stopped" 120 '^pat-rc=[0-9]+'
    match "debian domU: its pattern verified in every round, 0 errors (pattern-writer, exit 0)" \
        '^pattern: [1-9][0-9]* rounds, [1-9][0-9]* pages verified, 0 errors' cat $du_log
    grep -E '^(pattern|pat-rc)' $du_log | du_quote | sed 's/^/    | /'
    match "debian domU: the pattern writer's exit status 0" '^pat-rc=0' cat $du_log
    # Exact, against dom0's own bitmaps: a writer of 4 MiB that prints
    # the guest frames its pages are in (pattern -w: mlockall, then
    # /proc/self/pagemap) and writes all of them once per SIGUSR1.  Every
    # one of its frames is in the log-dirty bitmap after a round it wrote,
    # and none after a CLEAN with no round (nothing else writes them).
    pw_expand() {       # hex pfns and inclusive ranges -> decimal, one a line
        while IFS=- read a b; do
            [ -n "$a" ] || continue
            i=$((a)) e=$((${b:-$a}))
            while [ $i -le $e ]; do echo $i; i=$((i + 1)); done
        done
    }
    # pw_missing WANT GOT: how many of WANT's pfns GOT lacks
    pw_missing() { grep -cvxFf "$2" "$1"; true; }
    du_keys "pattern -m 4 -s 7 -w & echo pw-started-\$!" Enter
    if du_wait "debian domU: the writer's 1024 pages' frames (pagemap)" 120 '^pattern: pfns end'; then
        pw_pid=$(sed -n 's/^pw-started-\([0-9]*\).*/\1/p' $du_log | tr -d '\r' | tail -n 1)
        tr -d '\r' < $du_log | sed -n '/^pattern: pfns$/,/^pattern: pfns end$/s/^pfn //p' |
            pw_expand | sort -u > /tmp/pw.want
        count "debian domU: its writer's frames" 1024 wc -l < /tmp/pw.want
        run "xl log-dirty debian on (exactness)" xl log-dirty "$d" on
        xl log-dirty "$d" clean > /dev/null 2>&1
        du_keys "kill -USR1 $pw_pid" Enter
        du_wait "debian domU: the writer's round 1 written" 120 'pattern: round 1 written'
        xl log-dirty "$d" clean 2> /dev/null | pw_expand | sort -u > /tmp/pw.got
        match "log-dirty: every frame the writer wrote is dirty ($(wc -l < /tmp/pw.got) dirty)" \
            '^0$' pw_missing /tmp/pw.want /tmp/pw.got
        sleep 1
        xl log-dirty "$d" peek 2> /dev/null | pw_expand | sort -u > /tmp/pw.idle
        match "log-dirty: none of its frames dirty after a CLEAN with no round" \
            "^$(wc -l < /tmp/pw.want)\$" pw_missing /tmp/pw.want /tmp/pw.idle
        du_keys "kill -USR1 $pw_pid" Enter
        du_wait "debian domU: the writer's round 2 written" 120 'pattern: round 2 written'
        xl log-dirty "$d" peek 2> /dev/null | pw_expand | sort -u > /tmp/pw.got
        match "log-dirty: every frame dirty again after round 2" \
            '^0$' pw_missing /tmp/pw.want /tmp/pw.got
        run "xl log-dirty debian off (exactness)" xl log-dirty "$d" off
        du_keys "kill $pw_pid; wait $pw_pid; echo pw-rc=\$?" Enter
        du_wait "debian domU: the exact writer stopped" 120 '^pw-rc=[0-9]+'
        match "debian domU: its 2 rounds verified, 0 errors" \
            'pattern: 2 rounds, 2048 pages verified, 0 errors' cat $du_log
    fi
    # jbb's transaction loop (tests/jbb/main.c) as a Linux program
    # (domu/jbb/): its standalone mode, 5000 transactions from seed 1.
    du_keys "jbb standalone=5000 seed=1 ws=8; echo jbb-rc=\$?" Enter
    du_wait "debian domU: jbb's transaction loop as a Linux program" 300 '^jbb-rc=[0-9]+'
    match "debian domU: jbb ran its 5000 transactions (exit 0)" \
        '^5000 transactions in [0-9]+ ticks: [0-9]+ ticks each; ' cat $du_log
    grep -E '^(5000 transactions|jbb-rc)' $du_log | du_quote | sed 's/^/    | /'
    match "debian domU: jbb's exit status 0" '^jbb-rc=0' cat $du_log
    # xl reboot: Xen's libxl writes "reboot" to control/shutdown and waits
    # for the guest to clear it; Linux's xenbus (drivers/xen/manage.c)
    # does and restarts (ctrl_alt_del), SCHEDOP_shutdown with
    # SHUTDOWN_reboot.  -w: until the domain has shut down.  The
    # hypervisor keeps the shut-down domain, as Xen's does, for xl
    # create's monitor (tools/xl/xl_monitor.c, a daemon logging to
    # /var/log/xen/xl-debian.log), which acts on it as debian.cfg says
    # (Xen's defaults: on_reboot restart, on_poweroff destroy).
    du_monlog=/var/log/xen/xl-debian.log
    # du_shutdown CMD REASON-CODE REASON OWN-WORDS-REGEX
    du_shutdown() {
        match "xl $1 -w debian: the guest acknowledged control/shutdown, its domain shut down" \
            "^Domain $d has been (shut down, reason code $2|destroyed)\$" timeout 300 xl $1 -w debian
        match "the hypervisor: d$d shut down with reason $3" "d$d: shutdown: $3" xl dmesg
        du_wait "debian domU: its own $3 on hvc0" 120 "$4"
        du_quote < $du_log | tail -n 6 | sed 's/^/    | /'
    }
    # du_monitor NAME REGEX: the monitor's log has a line matching REGEX.
    du_monitor() { du_until "xl create's monitor: $1" 60 grep -qE -- "$2" $du_monlog; }
    du_tree_gone() { ! xenstore-read "/local/domain/$1/name" > /dev/null 2>&1; }
    du_shutdown reboot 1 reboot 'reboot: Restarting system'
    du_monitor "Domain $d has shut down, reason code 1" "^Domain $d has shut down, reason code 1 0x1\$"
    du_monitor "on_reboot is restart: d$d destroyed" "^Domain $d needs to be cleaned up: destroying the domain\$"
    du_until "the old domain's xenstore tree is gone (libxl's destroy)" 60 du_tree_gone "$d"
    # The new domain: the same name, a new domid; the old console client
    # ended with its domain, the log starts anew for the new one.
    d_old=$d
    : > $du_log
    du_monitor "Done. Rebooting now" '^Done\. Rebooting now$'
    du_until "xl create's monitor: watching the new domain" 60 \
        sh -c "[ \$(grep -c '^Waiting for domain debian ' $du_monlog) -ge 2 ]"
    d=$(xl domid debian 2> /dev/null) || d=none
    if [ "$d" != none ] && [ "$d" != "$d_old" ]; then
        ok "debian restarted as d$d (was d$d_old)"
    else
        bad "debian restarted with a new domid" "xl domid debian: '$d' (was d$d_old)"
    fi
    sed 's/^/    | /' $du_monlog
    du_wait "debian domU (restarted): its /init's banner on hvc0" 900 '^debian-domU: a shell on hvc0'
    tmux -S "$du_sock" kill-server > /dev/null 2>&1
    tmux -S "$du_sock" -f /dev/null new-session -d -s du -x 160 -y 50 \
        "TERM=xterm xl console debian; sleep 3600"
    sleep 2
    du_keys "echo again-\$((6 * 7)) from \$(uname -n)" Enter
    du_wait "debian domU (restarted): its shell answers through xl console" 300 '^again-42 from '
    # Again, for xl shutdown: Linux's orderly_poweroff runs /sbin/poweroff
    # (busybox: SIGUSR2 to init), and the domU's /init answers with
    # poweroff -f: Linux halts (no ACPI S5 in a PVH domU), its vCPUs go
    # down and the hypervisor powers the domain off.  on_poweroff
    # destroy: the monitor destroys it and ends.
    du_until "debian domU (restarted): xenbus up (control/feature-poweroff)" 300 du_feature &&
        du_shutdown shutdown 0 poweroff '^debian-domU: power off \(SIGUSR2\)'
    match "debian domU: Linux's halt on hvc0" 'reboot: (Power down|System halted)' cat $du_log
    du_monitor "on_poweroff is destroy: d$d destroyed" "^Domain $d needs to be cleaned up: destroying the domain\$"
    du_monitor "Done. Exiting now" '^Done\. Exiting now$'
    du_until "debian is gone from xl list" 60 sh -c '! xl list | grep -q "^debian "'
    du_until "its xenstore tree is gone (libxl's destroy)" 60 du_tree_gone "$d"
    du_monpid=$(sed -n 's/^Waiting for domain debian .*\[pid \([0-9]*\)\]$/\1/p' $du_monlog | tail -n 1)
    du_until "the monitor (pid ${du_monpid:-none}) has ended" 60 sh -c "[ -n '$du_monpid' ] && [ ! -d /proc/$du_monpid ]"
    du_keys C-]
    tmux -S "$du_sock" kill-server > /dev/null 2>&1
    sleep 1
    du_free1=$(du_free)
    if [ -n "$du_free0" ] && [ "$du_free1" = "$du_free0" ]; then
        ok "the hypervisor's free memory back ($du_free1 MiB)"
    else
        bad "the hypervisor's free memory back" "$du_free0 MiB before, $du_free1 MiB after"
    fi
    awk -v a="$du_s0" -v b="$(du_upf)" -v m="$du_mhz" 'BEGIN {
        printf "    | section domu: %.1f s of dom0 time (%.0f M ticks)\n", b - a, (b - a) * m }'
fi
