# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's Linux as a PVH domU (sourced by checks.sh, section domu; in the
# initramfs only with mk-initramfs.sh -L, DOM0_LINUX_DOMU=1): the same
# kernel package as dom0's, unmodified, started by `xl create -c
# /etc/xen/debian.cfg` in tmux (xenconsole reads keys only from a
# terminal).  Its console comes through its console ring and Debian's
# xenconsoled, which /init runs with --log=guest: what the domU printed
# is read from /var/log/xen/console/guest-debian.log (its /init's banner,
# then its shell answering a command typed to it through `xl console`).
# `xl list` shows it by name with the UUID libxl gave it; `xl destroy`
# gives the hypervisor its memory back.
du_log=/var/log/xen/console/guest-debian.log
du_up() { cut -d' ' -f1 /proc/uptime | cut -d. -f1; }
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
                 "$(wc -l < $du_log 2> /dev/null || echo no) lines: $(tail -n 1 $du_log 2> /dev/null | cut -c1-100)"
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
    rm -f $du_log
    tmux -S "$du_sock" kill-server > /dev/null 2>&1
    du_t0=$(du_up)
    tmux -S "$du_sock" -f /dev/null new-session -d -s du -x 160 -y 50 \
        "TERM=xterm xl create -c /etc/xen/debian.cfg; echo \$? > /tmp/domu.rc; sleep 3600"
    du_wait "debian domU: its first words on hvc0 (xenconsoled's log)" 900 '.' &&
    du_wait "debian domU: its /init's banner on hvc0" 900 '^debian-domU: a shell on hvc0' &&
        grep -E '^debian-domU: Linux' $du_log | sed 's/^/    | /'
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
    sed 's/^/    | /' $du_log | tail -n 30
    echo
    d=$(xl domid debian 2> /dev/null) || d=none
    # xenbus connected: Linux wrote its shutdown features to xenstore through
    # its store ring (drivers/xen/manage.c, once xenbus is up).
    match "xenstore: the domU wrote control/feature-poweroff (xenbus up)" '^1$' \
        xenstore-read "/local/domain/$d/control/feature-poweroff"
    match "xl list: debian by name" "^debian +[0-9]+ +1[0-9][0-9] +$du_vcpus " xl list
    match "xl list -v: debian's UUID" \
        '^debian +[0-9]+ .* [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}( |$)' xl list -v
    match "xenstore: debian's name" '^debian$' xenstore-read "/local/domain/$d/name"
    du_keys C-]
    tmux -S "$du_sock" kill-server > /dev/null 2>&1
    run "xl destroy debian" xl destroy "$d"
    nomatch "debian is gone" '^debian ' xl list
    sleep 1
    du_free1=$(du_free)
    if [ -n "$du_free0" ] && [ "$du_free1" = "$du_free0" ]; then
        ok "xl destroy: the hypervisor's free memory back ($du_free1 MiB)"
    else
        bad "xl destroy: the hypervisor's free memory back" "$du_free0 MiB before, $du_free1 MiB after"
    fi
fi
