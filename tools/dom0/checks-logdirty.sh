# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by checks.sh (its helpers: ok, bad, run, match, shown, ...): log-dirty
# bitmaps checked page by page against what a writer guest recorded
# (xen-logdirty-check, tools/misc/xen-logdirty-check.c; the writer is
# tests/dirtier, /etc/xen/dirtier.cfg).

run "xl create dirtier.cfg" xl create /etc/xen/dirtier.cfg
dd=$(xl domid dirtier 2> /dev/null)
# 4 rounds of CLEAN (round 2 a PEEK first), then 4 VRAM reads of 256
# pages; every bitmap against the writer's record.
shown "log-dirty bitmaps exact (CLEAN, PEEK, VRAM)" xen-logdirty-check -r 4 -s 300 -V 256 "$dd"
# The checker must be able to fail: one written page dropped, one
# never-written page added.
failing "log-dirty check fails on a dropped page" 'MISSING from the bitmap' \
    xen-logdirty-check -r 1 -V 0 -i miss "$dd"
failing "log-dirty check fails on an added page" 'in the bitmap but not written' \
    xen-logdirty-check -r 1 -V 0 -i spurious "$dd"
# Stop the writer: it reports its steps and powers off.
run "dirtier told to stop" xen-logdirty-check -r 1 -V 0 -S "$dd"
i=0
while xl list dirtier > /dev/null 2>&1 && [ $i -lt 20 ]; do sleep 1; i=$((i + 1)); done
match "dirtier reported SUCCESS" "^\\(d$dd\\) (\\[[^]]*\\] )?Test result: SUCCESS" xl dmesg
