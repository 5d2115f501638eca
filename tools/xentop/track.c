/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log-dirty mode switched on by xentop, when asked, for a domain it
 * watches that nothing tracks (no counter moves otherwise), and off again
 * when it stops watching.
 *
 * xentop never CLEANs or PEEKs, not even its own session: a migration
 * that starts meanwhile takes the session over (its ENABLE fails and it
 * goes OFF then ON, as Xen's libxc does), and a CLEAN of ours could then
 * take pages from it.  Instead, while the session is ours, every refresh
 * re-arms the domain's dirtied pages (xc_dirty_rearm, NOT in Xen), which
 * leaves the bitmap as it is: each page written in an interval is logged
 * again, and the rate (of writes_logged) is the pages written per
 * interval rather than falling to 0 once the working set was found.
 * Once the session is someone else's we stop: their CLEANs re-arm.
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

/* The session is still ours: global log-dirty, no CLEAN/PEEK/VRAM since. */
static bool still_ours(const struct top_track *t, const xen_domctl_dirty_stats_t *st)
{
    return st->mode == XEN_DIRTY_MODE_LOGDIRTY && st->clean_calls == t->clean_calls &&
           st->peek_calls == t->peek_calls && st->vram_calls == t->vram_calls;
}

int top_track_rearm(xc_interface *xch, struct top_track *t)
{
    xen_domctl_dirty_stats_t st;
    unsigned int n = 0;

    if (t->domid == ~0u)
        return 0;
    if (xc_dirty_stats(xch, t->domid, &st, NULL, &n))
        return -1;
    if (!still_ours(t, &st))
        return 1;
    return xc_dirty_rearm(xch, t->domid, NULL) ? -1 : 0;
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
    if (!still_ours(t, &st))
        return 1;
    return xc_shadow_control(xch, domid, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0) ? -1 : 0;
}
