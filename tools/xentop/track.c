/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log-dirty mode switched on by xentop, when asked, for a domain it
 * watches that nothing tracks (no counter moves otherwise), and off again
 * when it stops watching.
 *
 * xentop never CLEANs or PEEKs, not even its own session: a migration
 * that starts meanwhile takes the session over (its ENABLE fails and it
 * goes OFF then ON, as Xen's libxc does), and a CLEAN of ours could then
 * take pages from it.  So under xentop's own session each page counts
 * once, at its first write after the switch: the rates show the guest's
 * working set being found, then fall.
 *
 * Off again only if the session still looks like ours: global log-dirty
 * only, and no CLEAN, PEEK or VRAM call since we switched it on.
 * Otherwise it is someone else's now and is left alone.
 */
#include <errno.h>

#include "xentop.h"

int top_track_on(xc_interface *xch, struct top_track *t, uint32_t domid)
{
    xen_domctl_dirty_stats_t st;
    unsigned int n = 0;
    int err;

    if (xc_shadow_control(xch, domid, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0))
        return -1;
    if (xc_dirty_stats(xch, domid, &st, NULL, &n)) {
        err = errno;
        /* We cannot tell later whether it is still ours: not on at all. */
        xc_shadow_control(xch, domid, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0);
        errno = err;
        return -1;
    }
    t->domid = domid;
    t->clean_calls = st.clean_calls;
    t->peek_calls = st.peek_calls;
    t->vram_calls = st.vram_calls;
    return 0;
}

int top_track_off(xc_interface *xch, struct top_track *t)
{
    xen_domctl_dirty_stats_t st;
    unsigned int n = 0;
    uint32_t domid = t->domid;

    if (domid == ~0u)
        return 0;
    t->domid = ~0u;
    if (xc_dirty_stats(xch, domid, &st, NULL, &n))
        return errno == ESRCH ? 0 : -1;     /* gone: nothing to switch off */
    if (st.mode != XEN_DIRTY_MODE_LOGDIRTY || st.clean_calls != t->clean_calls ||
        st.peek_calls != t->peek_calls || st.vram_calls != t->vram_calls)
        return 1;
    return xc_shadow_control(xch, domid, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0) ? -1 : 0;
}
