# SPDX-License-Identifier: GPL-2.0-only
#
# `xl save` and `xl restore` of Debian's Linux domU (section restore;
# sourced by checks-suspend.sh, whose su_* helpers it uses; in the
# initramfs only with mk-initramfs.sh -L; docs/misc/migration.md, "Linux
# in a new domain").  The domU is created as in section domu, its pattern
# writer started; `xl save debian` suspends it through control/shutdown,
# writes its 128 MiB and destroys it; `xl restore` makes a new domain of
# it.  In the new domain its SCHEDOP_shutdown returns 0 and Linux
# reconnects everything itself; then its shell must answer through `xl
# console`, its pattern writer verify every page, its clock have gone on,
# and the domain have the same name and a new domid.
#
# Space: dom0's tmpfs cannot hold a 128 MiB save file beside the
# initramfs, so the file goes through FIFOs and busybox lzop (the guest's
# free memory is mostly zeros: about 36 MB are kept), one write and one
# read of the stream each.
#
# Section restore-migrate (named explicitly only): the same guest moved
# with `xl migrate debian localhost` (live, then suspended for the last
# round), the copy checked the same way.

# rs_start WHAT: a fresh debian domU, its pattern writer running and its
# clock read (rs_before, rs_d0: dom0's date); d1 its domid.  Fails if its
# shell never came.
rs_start() {
    su_log=/var/log/xen/console/guest-debian.log
    rm -f /var/log/xen/console/guest-debian*.log
    su_session "xl create -c /etc/xen/debian.cfg"
    su_wait "$1: debian domU's shell on hvc0" 900 '^debian-domU: a shell on hvc0' || return 1
    d1=$(xl domid debian 2> /dev/null) || d1=none
    su_keys "pattern -m 16 -s 18 > /tmp/pattern.log 2>&1 & echo pat-started-\$!" Enter
    su_wait "$1: the pattern writer started" 120 '^pat-started-[0-9]+'
    sleep 10
    su_keys "echo before-save up=\$(cut -d' ' -f1 /proc/uptime) date=\$(date +%s)" Enter
    su_wait "$1: its clock before" 120 '^before-save up='
    rs_before=$(grep -E '^before-save up=' $su_log | tail -n 1)
    su_keys C-]
    tmux -S "$su_sock" kill-server > /dev/null 2>&1
    rs_d0=$(date +%s)
}

# rs_copy WHAT: the copy of d1 runs under the name debian with a new
# domid, its rings in xenstore, its shell answers through xl console, its
# clock went on, its pattern writer verified every page; then destroyed.
rs_copy() {
    d2=$(xl domid debian 2> /dev/null) || d2=none
    if [ "$d2" != none ] && [ "$d2" != "$d1" ]; then
        ok "$1: debian is back with a new domid ($d1 -> $d2)"
    else
        bad "$1: debian is back with a new domid" "before $d1, after $d2"
    fi
    match "$1: debian is running" '^debian +[0-9]+ .* [-r][-b]-{4}' xl list
    match "$1: xenstore has its rings" '^[0-9]+$' xenstore-read "/local/domain/$d2/store/ring-ref"
    echo "    | store $(xenstore-read /local/domain/$d2/store/ring-ref 2>&1)/$(xenstore-read /local/domain/$d2/store/port 2>&1)," \
         "console $(xenstore-read /local/domain/$d2/console/ring-ref 2>&1)/$(xenstore-read /local/domain/$d2/console/port 2>&1)," \
         "tty $(xenstore-read /local/domain/$d2/console/tty 2>&1)"
    # xenconsoled names the log after the name the domain had when it came.
    for f in /var/log/xen/console/guest-debian--incoming.log; do
        [ -f "$f" ] && su_log=$f
    done
    su_session "xl console debian"
    sleep 3
    su_keys Enter
    su_keys "echo restored-\$((6 * 7)); echo after-restore up=\$(cut -d' ' -f1 /proc/uptime) date=\$(date +%s)" Enter
    if su_wait "$1: its shell answers through xl console" 600 '^restored-42'; then
        su_wait "$1: its clock after" 60 '^after-restore up='
        rs_after=$(grep -E '^after-restore up=' $su_log | tail -n 1)
        echo "    | $rs_before"
        echo "    |  $rs_after (dom0's clock: $(($(date +%s) - rs_d0)) s from the save to this)"
        b=$(echo "$rs_before" | sed -nE 's/.*date=([0-9]+).*/\1/p')
        a=$(echo "$rs_after" | sed -nE 's/.*date=([0-9]+).*/\1/p')
        if [ -n "$a" ] && [ -n "$b" ] && [ "$a" -gt "$b" ]; then
            ok "$1: its wall clock went on ($((a - b)) s)"
        else
            bad "$1: its wall clock went on" "before '$b', after '$a'"
        fi
        sleep 20
        su_keys "kill \$!; wait \$!; echo pat-rc=\$?; cat /tmp/pattern.log" Enter
        su_wait "$1: the pattern writer stopped" 300 '^pat-rc=[0-9]+'
        sleep 2
        match "$1: its pattern verified across it, 0 errors" \
            '^pattern: [1-9][0-9]* rounds, [1-9][0-9]* pages verified, 0 errors' cat $su_log
        grep -E '^(pattern|pat-rc)' $su_log | sed 's/^/    | /'
        # What it logged from the suspend on (its resume in the new domain).
        su_keys "dmesg | sed -n '/Freezing user space/,\$p' | tail -n 30; echo end-\$((2 + 2))" Enter
        su_wait "$1: its dmesg read back" 120 '^end-4'
        sed -n '/dmesg | sed/,$p' $su_log | tail -n 30 | sed 's/^/    | /'
        nomatch "$1: Linux saw no time going backwards" 'time went backwards|Time went backwards' cat $su_log
    else
        echo "    | its console log ($su_log):"
        tail -n 30 $su_log 2> /dev/null | sed 's/^/    | /'
    fi
    echo "    | xl dmesg (the new domain):"
    xl dmesg 2>&1 | grep -E "d$d2[: v]" | tail -n 25 | sed 's/^/    | /'
    su_keys C-]
    tmux -S "$su_sock" kill-server > /dev/null 2>&1
    # The new domain's rings, mapped by the daemons since its
    # introduction: every frame back and counted after xl destroy.
    destroy_mapped "$1" "$d2"
}

rs_t0=$(su_up)
if want restore && rs_start restore; then
    rm -f /tmp/rs.fifo /tmp/rs-in.fifo /tmp/d.save.lzo
    mkfifo /tmp/rs.fifo
    lzop -c < /tmp/rs.fifo > /tmp/d.save.lzo &
    rs_lzop=$!
    rs_t1=$(su_up)
    timeout 1800 xl -vvv save debian /tmp/rs.fifo > /tmp/rs-save.out 2>&1
    rs_rc=$?
    wait $rs_lzop
    rs_lzrc=$?
    echo "    | xl save: exit status $rs_rc after $(($(su_up) - rs_t1)) s; lzop $rs_lzrc," \
         "$(($(stat -c %s /tmp/d.save.lzo) / 1024)) KiB compressed"
    grep -vE '^libxl: debug: .*(xc_|hypercall)' /tmp/rs-save.out | tail -n 12 | sed 's/^/    | /'
    if [ $rs_rc -eq 0 ] && [ $rs_lzrc -eq 0 ] && grep -q 'guest has suspended' /tmp/rs-save.out; then
        ok "restore: xl save debian: Linux suspended, its memory saved"
    else
        bad "restore: xl save debian: Linux suspended, its memory saved" "exit status $rs_rc, lzop $rs_lzrc"
    fi
    nomatch "restore: the saved domain is gone" '^debian ' xl list

    mkfifo /tmp/rs-in.fifo
    lzop -dc < /tmp/d.save.lzo > /tmp/rs-in.fifo &
    rs_lzop=$!
    rs_t1=$(su_up)
    timeout 1800 xl -vvv restore /tmp/rs-in.fifo > /tmp/rs-restore.out 2>&1
    rs_rc=$?
    wait $rs_lzop
    echo "    | xl restore: exit status $rs_rc after $(($(su_up) - rs_t1)) s"
    grep -E 'rings:|restore: |error|refused|restored' /tmp/rs-restore.out | tail -n 12 | sed 's/^/    | /'
    if [ $rs_rc -eq 0 ]; then ok "restore: xl restore"; else bad "restore: xl restore" "exit status $rs_rc"; fi
    rm -f /tmp/d.save.lzo /tmp/rs.fifo /tmp/rs-in.fifo
    rs_copy restore
fi
case " $sections " in
*" restore-migrate "*)
    if rs_start migrate; then
        rs_t1=$(su_up)
        timeout 2400 xl -vvv migrate debian localhost > /tmp/rs-migrate.out 2>&1
        rs_rc=$?
        echo "    | xl migrate: exit status $rs_rc after $(($(su_up) - rs_t1)) s"
        grep -E 'round|suspend|Migration|migration|error|rings:|restored|converge' /tmp/rs-migrate.out |
            grep -vE '^libxl: debug: .*(xc_|hypercall)' | tail -n 30 | sed 's/^/    | /'
        if [ $rs_rc -eq 0 ] && grep -q 'guest has suspended' /tmp/rs-migrate.out; then
            ok "migrate: xl migrate debian localhost: live, then Linux suspended for the last round"
        else
            bad "migrate: xl migrate debian localhost" "exit status $rs_rc"
        fi
        nomatch "migrate: no debian--incoming left" '^debian--incoming ' xl list
        rs_copy migrate
    fi
    ;;
esac
tmux -S "$su_sock" kill-server > /dev/null 2>&1
echo "    | sections restore: $(($(su_up) - rs_t0)) s of dom0's time"
