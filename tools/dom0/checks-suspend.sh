# SPDX-License-Identifier: GPL-2.0-only
#
# Xen's suspend protocol with Debian's Linux as a domU (sourced by
# checks.sh, section suspend; in the initramfs only with mk-initramfs.sh
# -L, DOM0_LINUX_DOMU=1; docs/misc/migration.md).  The domU is created as
# in section domu (checks-domu.sh), then `xl migrate --non-live` is sent
# to a receiver that takes 1 MiB and goes away: libxl asks the guest to
# suspend through control/shutdown, Linux acknowledges and calls
# SCHEDOP_shutdown(SHUTDOWN_suspend), the stream is cut after the
# suspend, and libxl resumes the guest in place (xc_domain_resume, fast:
# its call returns 1, "cancelled").  The guest must then be running, its
# shell on hvc0 answering, and its own log says what it did.
#
# Section suspend-save (named explicitly only: it keeps the guest
# suspended while all its memory goes through privcmd, many minutes under
# Bochs) adds a checkpoint: `xl save -c debian /tmp/d.save` (the file a
# link to /dev/null: dom0's tmpfs cannot hold 128 MiB), after which the
# guest must run on, resumed in place, its console answering.
#
# Section restore (checks-restore.sh, sourced from here for the helpers
# below): `xl save` then `xl restore` of it into a new domain.
su_log=/var/log/xen/console/guest-debian.log
su_up() { cut -d' ' -f1 /proc/uptime | cut -d. -f1; }
# su_wait NAME SECONDS REGEX: PASS once a line of the domU's console log matches.
su_wait() {
    su_end=$(($(su_up) + $2))
    while [ "$(su_up)" -lt $su_end ]; do
        if grep -qE -- "$3" $su_log 2> /dev/null; then
            ok "$1 ($(($(su_up) - su_t0)) s)"
            return 0
        fi
        sleep 2
    done
    bad "$1" "its console log never showed /$3/ in $2 s"
    tail -n 5 $su_log 2> /dev/null | sed 's/^/    | /'
    return 1
}
if ! command -v tmux > /dev/null 2>&1; then
    echo "SKIP suspend: no tmux in the initramfs (no tmux on the build host)"
else
    su_sock=/tmp/tmux-suspend.sock
    su_keys() { tmux -S "$su_sock" send-keys -t su "$@"; }
    # su_session CMD: a fresh tmux session running CMD (then a shell's sleep).
    su_session() {
        tmux -S "$su_sock" kill-server > /dev/null 2>&1
        su_t0=$(su_up)
        tmux -S "$su_sock" -f /dev/null new-session -d -s su -x 160 -y 50 \
            "TERM=xterm $1; sleep 3600"
    }
fi
if command -v tmux > /dev/null 2>&1 && { want suspend || want suspend-save; }; then
    rm -f $su_log
    su_session "xl create -c /etc/xen/debian.cfg"
    if su_wait "suspend: debian domU's shell on hvc0" 900 '^debian-domU: a shell on hvc0'; then
        d=$(xl domid debian 2> /dev/null) || d=none
        match "suspend: Linux offers control/feature-suspend" '^1$' \
            xenstore-read "/local/domain/$d/control/feature-suspend"
        # A receiver that reads 1 MiB of the stream and goes away.
        printf '#!/bin/sh\nprintf "xl migration receiver ready, send binary domain data.\\n"\nhead -c 1048576 > /dev/null\nexit 1\n' > /tmp/cutssh
        chmod +x /tmp/cutssh
        su_t1=$(su_up)
        timeout 900 xl -vvv migrate --non-live -s /tmp/cutssh debian localhost > /tmp/su-migrate.out 2>&1
        su_rc=$?
        echo "    | xl migrate: exit status $su_rc after $(($(su_up) - su_t1)) s"
        grep -E 'suspend|Migration|resum|guest|xc_domain' /tmp/su-migrate.out | head -n 30 | sed 's/^/    | /'
        if [ $su_rc -eq 1 ] && grep -q 'guest has suspended' /tmp/su-migrate.out; then
            ok "suspend: Linux acknowledged and suspended; the cut migration failed"
        else
            bad "suspend: Linux acknowledged and suspended; the cut migration failed" "exit status $su_rc"
        fi
        match "suspend: the source resumed in place (xc_domain_resume, fast)" \
            'Migration failed, resuming at sender' cat /tmp/su-migrate.out
        match "suspend: debian is running again (not shut down)" '^debian +[0-9]+ .* [-r][-b]-{4}' xl list
        su_keys "echo resumed-\$((6 * 7)); dmesg | grep -iE 'suspend|resum|freez|xen' | tail -n 25; echo end-\$((1 + 1))" Enter
        su_wait "suspend: its shell answers after the resume" 300 '^resumed-42'
        su_wait "suspend: its dmesg read back" 120 '^end-2'
        sed -n '/resumed-42/,$p' $su_log | head -n 40 | sed 's/^/    | /'
        echo "    | xenstore control/shutdown: '$(xenstore-read "/local/domain/$d/control/shutdown" 2>&1)'"
        case " $sections " in
        *" suspend-save "*)
            ln -sf /dev/null /tmp/d.save
            su_t1=$(su_up)
            timeout 3000 xl -vvv save -c debian /tmp/d.save > /tmp/su-save.out 2>&1
            su_rc=$?
            echo "    | xl save -c: exit status $su_rc after $(($(su_up) - su_t1)) s"
            grep -vE '^libxl: debug: .*(xc_|hypercall)' /tmp/su-save.out | tail -n 12 | sed 's/^/    | /'
            if [ $su_rc -eq 0 ] && grep -q 'guest has suspended' /tmp/su-save.out; then
                ok "suspend: xl save -c: Linux suspended, saved, resumed in place"
            else
                bad "suspend: xl save -c: Linux suspended, saved, resumed in place" "exit status $su_rc"
            fi
            match "suspend: debian runs on after the checkpoint" '^debian +[0-9]+ .* [-r][-b]-{4}' xl list
            su_keys "echo checkpointed-\$((6 * 7)); dmesg | tail -n 12; echo end-\$((2 + 1))" Enter
            su_wait "suspend: its shell answers after the checkpoint" 300 '^checkpointed-42'
            su_wait "suspend: its dmesg read back after the checkpoint" 120 '^end-3'
            sed -n '/checkpointed-42/,$p' $su_log | head -n 16 | sed 's/^/    | /'
            ;;
        esac
        su_keys C-]
        tmux -S "$su_sock" kill-server > /dev/null 2>&1
        # Running, its rings mapped by xenstored and xenconsoled: every
        # frame back and counted after xl destroy (checks.sh).
        destroy_mapped suspend "$d"
    fi
    tmux -S "$su_sock" kill-server > /dev/null 2>&1
fi
# Section restore (checks-restore.sh): xl save and xl restore of it.
if command -v tmux > /dev/null 2>&1 && { want restore || want restore-migrate; } &&
   [ -f /etc/dom0/checks-restore.sh ]; then
    . /etc/dom0/checks-restore.sh
fi
