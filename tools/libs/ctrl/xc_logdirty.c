/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: paging modes and global log-dirty (XEN_DOMCTL_shadow_op).
 */
#include "xc_private.h"

int xc_shadow_control(xc_interface *xch, uint32_t domid, unsigned int sop,
                      unsigned int *mb, unsigned int mode)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_shadow_op,
        .domain = domid,
        .u.shadow_op = {
            .op = sop,
            .mode = mode,
            .mb = mb ? *mb : 0,
        },
    };
    int rc;

    rc = do_domctl(xch, &domctl);

    if ( mb )
        *mb = domctl.u.shadow_op.mb;

    return rc;
}

long long xc_logdirty_control(xc_interface *xch, uint32_t domid,
                              unsigned int sop,
                              xc_hypercall_buffer_t *dirty_bitmap,
                              unsigned long pages, unsigned int mode,
                              xc_shadow_op_stats_t *stats)
{
    DECLARE_HYPERCALL_BUFFER_ARGUMENT(dirty_bitmap);
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_shadow_op,
        .domain = domid,
        .u.shadow_op = {
            .op = sop,
            .mode = mode,
            .pages = pages,
        },
    };
    int rc;

    /* No bitmap: the handle stays NULL (the counters alone). */
    if ( dirty_bitmap )
        set_xen_guest_handle(domctl.u.shadow_op.dirty_bitmap, dirty_bitmap);

    rc = do_domctl(xch, &domctl);

    if ( stats )
        *stats = domctl.u.shadow_op.stats;

    return rc == 0 ? (long long)domctl.u.shadow_op.pages : rc;
}
