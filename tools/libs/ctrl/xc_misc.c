/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: the host -- console ring and physical information.
 */
#include "xc_private.h"

int xc_readconsolering(xc_interface *xch, char *buffer,
                       unsigned int *pnr_chars, int clear, int incremental,
                       uint32_t *pindex)
{
    unsigned int nr_chars = *pnr_chars;
    DECLARE_HYPERCALL_BOUNCE(buffer, nr_chars,
                             XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    struct xen_sysctl sysctl = {
        .cmd = XEN_SYSCTL_readconsole,
        .u.readconsole = {
            .count = nr_chars,
            .clear = clear,
        },
    };
    int rc;

    if ( xc_hypercall_bounce_pre(xch, buffer) )
        return -1;

    set_xen_guest_handle(sysctl.u.readconsole.buffer, buffer);
    /* Incremental reads need somewhere to keep the position. */
    if ( pindex )
    {
        sysctl.u.readconsole.index = *pindex;
        sysctl.u.readconsole.incremental = incremental;
    }

    rc = do_sysctl(xch, &sysctl);
    if ( rc == 0 )
    {
        *pnr_chars = sysctl.u.readconsole.count;
        if ( pindex )
            *pindex = sysctl.u.readconsole.index;
    }

    xc_hypercall_bounce_post(xch, buffer);

    return rc;
}

int xc_physinfo(xc_interface *xch, xc_physinfo_t *info)
{
    struct xen_sysctl sysctl = {
        .cmd = XEN_SYSCTL_physinfo,
    };
    int rc;

    rc = do_sysctl(xch, &sysctl);
    if ( rc )
        return rc;

    *info = sysctl.u.physinfo;

    return 0;
}

/* XEN_SYSCTL_sched_id: the scheduler's XEN_SCHEDULER_* (Xen's signature). */
int xc_sched_id(xc_interface *xch, int *sched_id)
{
    struct xen_sysctl sysctl = {
        .cmd = XEN_SYSCTL_sched_id,
    };
    int rc;

    rc = do_sysctl(xch, &sysctl);
    if ( rc )
        return rc;

    *sched_id = sysctl.u.sched_id.sched_id;

    return 0;
}

int xc_get_max_cpus(xc_interface *xch)
{
    xc_physinfo_t info;

    if ( xc_physinfo(xch, &info) )
        return -1;
    return info.max_cpu_id + 1;
}

int xc_get_online_cpus(xc_interface *xch)
{
    xc_physinfo_t info;

    if ( xc_physinfo(xch, &info) )
        return -1;
    return info.nr_cpus;
}

int xc_get_cpumap_size(xc_interface *xch)
{
    int max_cpus = xc_get_max_cpus(xch);

    if ( max_cpus < 0 )
        return -1;
    return (max_cpus + 7) / 8;
}

xc_cpumap_t xc_cpumap_alloc(xc_interface *xch)
{
    int sz = xc_get_cpumap_size(xch);

    if ( sz <= 0 )
        return NULL;
    return calloc(1, sz);
}

int xc_send_debug_keys(xc_interface *xch, const char *keys)
{
    size_t len = strlen(keys);
    DECLARE_HYPERCALL_BOUNCE(keys, len, XC_HYPERCALL_BUFFER_BOUNCE_IN);
    struct xen_sysctl sysctl = {
        .cmd = XEN_SYSCTL_debug_keys,
        .u.debug_keys.nr_keys = len,
    };
    int rc;

    if ( xc_hypercall_bounce_pre(xch, keys) )
        return -1;
    set_xen_guest_handle(sysctl.u.debug_keys.keys, keys);
    rc = do_sysctl(xch, &sysctl);
    xc_hypercall_bounce_post(xch, keys);
    return rc;
}
