# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by checks.sh (its helpers: ok, bad, run, shown, ...):
# hypercall buffers of several pages through Linux's privcmd.  A 160 MiB
# writer's log-dirty bitmaps (5 KiB: two pages) checked page by page
# against its record; then, with that writer's heat-map counters,
# xen-hcall-buffer-check: buffers across page boundaries, at odd offsets,
# and on pages Linux has not made present, compared byte for byte with
# what the hypervisor wrote or read (tools/misc/xen-hcall-buffer-check.c).

run "xl create dirtier-big.cfg (160 MiB)" xl create /etc/xen/dirtier-big.cfg
db=$(xl domid dirtier-big 2> /dev/null)
shown "log-dirty bitmaps of 2 pages exact (160 MiB writer)" \
    xen-logdirty-check -r 3 -s 300 -V 0 "$db"
shown "hypercall buffers across pages, at offsets, not present" \
    xen-hcall-buffer-check "$db"
run "xl destroy dirtier-big" xl destroy "$db"
