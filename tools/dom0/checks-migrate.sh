# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by checks.sh (its helpers: ok, bad, run, shown, ...): xl migrate
# cut half-way (the source runs on), xl migrate to localhost (through the
# ssh shim, /usr/bin/ssh), xl save and xl restore, all of the migration
# writer (tests/mig-writer, /etc/xen/migw.cfg), whose copy checks every
# page against its own record and reports on the hypervisor console.

# The steps domain $1's mig-writer has made.
steps() {
    xen-logdirty-check -M "$1" 2> /dev/null | awk '{ print $NF }'
}

# progress NAME DOM: the writer in DOM makes steps.
progress() {
    s0=$(steps "$2")
    sleep 1
    s1=$(steps "$2")
    if [ -n "$s0" ] && [ -n "$s1" ] && [ "$s1" -gt "$s0" ]; then
        ok "$1 ($s0 -> $s1 steps)"
    else
        : > $out
        bad "$1" "steps '$s0' then '$s1'"
    fi
}

# copied NAME OLD: the copy of writer domain OLD (restored or migrated)
# noticed its new domain id, checked its pages and reported SUCCESS.
copied() {
    n=$1 old=$2 i=0 new=
    while [ $i -lt 60 ]; do
        xl dmesg > $out 2>&1
        new=$(sed -n "s/.*(d\([0-9]*\)) \(\[[^]]*\] \)\{0,1\}now d[0-9]* (was d$old).*/\1/p" $out | tail -n 1)
        [ -n "$new" ] && grep -qE "\\(d$new\\) (\\[[^]]*\\] )?Test result: " $out && break
        sleep 1
        i=$((i + 1))
    done
    [ -n "$new" ] && grep "(d$new) " $out | grep -v -- '---' | sed 's/^/    | /'
    if [ -n "$new" ] && grep -qE "\\(d$new\\) (\\[[^]]*\\] )?Test result: SUCCESS" $out; then
        ok "$n (d$old -> d$new)"
    else
        bad "$n" "no SUCCESS from a copy of d$old in 60 s"
        return
    fi
    # The copy powers itself off; the monitor that xl restore or xl
    # migrate-receive left (as xl create's) destroys it.
    i=0
    while [ $i -lt 20 ] && xl list 2> /dev/null | grep -qE "^[^ ]+ +$new "; do
        sleep 1
        i=$((i + 1))
    done
    nomatch "the copy d$new, powered off, destroyed by its monitor" "^[^ ]+ +$new " xl list
}

run "xl create migw.cfg" xl create /etc/xen/migw.cfg
m=$(xl domid migw 2> /dev/null)
sleep 1

# The transport dies after 2 MiB (half of the first round): the receiver
# refuses the cut stream and destroys its copy, the sender gets EPIPE and
# resumes its domain.
xl migrate -s "" "$m" "head -c 2097152 | xl migrate-receive" > $out 2>&1
rc=$?
sed 's/^/    | /' $out
if [ $rc -ne 0 ] && grep -q 'Migration failed, resuming at sender' $out; then
    ok "xl migrate cut after 2 MiB fails"
else
    bad "xl migrate cut after 2 MiB fails" "exit status $rc"
fi
# Neither paused nor shut down: "r-----", "-b----", or "------"
# (runnable, waiting for the CPU dom0 holds while it runs xl list).
match "source runs on after the cut (not paused)" '^[r-][b-]----' state "$m"
nomatch "no copy left after the cut" 'migw--' xl list
count "one migw domain after the cut" 1 sh -c "xl list | grep -c '^migw'"
progress "source writer makes progress after the cut" "$m"

# Live migration to this host: "ssh localhost xl migrate-receive".
shown "xl migrate migw localhost" xl migrate "$m" localhost
copied "migrated copy checked its pages" "$m"
nomatch "source gone after migrate" '^migw(--migratedaway)? +'"$m"' ' xl list

# Save to dom0's tmpfs, restore from it.
run "xl create migw.cfg again" xl create /etc/xen/migw.cfg
m=$(xl domid migw 2> /dev/null)
sleep 1
progress "new writer makes progress" "$m"
shown "xl save migw" xl save "$m" /tmp/migw.save
nomatch "saved domain gone" '^migw ' xl list
count "save file holds the guest (KiB)" 4096 sh -c 'echo $(( $(stat -c %s /tmp/migw.save) / 1024 ))'
shown "xl restore" xl restore /tmp/migw.save
copied "restored copy checked its pages" "$m"
rm -f /tmp/migw.save
