/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The end of a domain a control-domain test kernel made with libxenctrl
 * (XEN_DOMCTL_createdomain).  Once it has shut down or crashed it stays,
 * as in Xen, with its reason in getdomaininfo, until its toolstack -- the
 * test kernel -- destroys it (the hypervisor reaps on its own only the
 * domains built at boot, and every stopped one once no control domain
 * runs: xen/common/sched/core.c domain_to_reap()).
 *
 *   xc_wait_shutdown(xch, domid, max_yields): yield until domid has shut
 *     down: its reason (SHUTDOWN_*); -1 if it still runs after max_yields
 *     yields, -2 if it is gone (or was never there).
 *   xc_destroy_wait(xch, domid, max_yields): destroy it and yield until it
 *     has gone from the domain list: true, or false if it is still there.
 */
#ifndef GUEST_XC_DOMAIN_H
#define GUEST_XC_DOMAIN_H

#include <errno.h>
#include <stdbool.h>
#include <xenctrl.h>
#include "hypercall.h"

static inline bool xc_domain_listed(xc_interface *xch, uint32_t domid,
                                    xc_domaininfo_t *info)
{
    return xc_domain_getinfolist(xch, domid, 1, info) == 1 && info->domain == domid;
}

static inline int xc_wait_shutdown(xc_interface *xch, uint32_t domid,
                                   unsigned long max_yields)
{
    xc_domaininfo_t info;
    unsigned long i;

    for ( i = 0; ; i++ )
    {
        if ( !xc_domain_listed(xch, domid, &info) )
            return -2;
        if ( info.flags & XEN_DOMINF_shutdown )
            return (info.flags >> XEN_DOMINF_shutdownshift) & XEN_DOMINF_shutdownmask;
        if ( i == max_yields )
            return -1;
        hypercall_yield();
    }
}

static inline bool xc_destroy_wait(xc_interface *xch, uint32_t domid,
                                   unsigned long max_yields)
{
    xc_domaininfo_t info;
    unsigned long i;

    if ( xc_domain_destroy(xch, domid) && errno != ESRCH )
        return false;
    for ( i = 0; i < max_yields && xc_domain_listed(xch, domid, &info); i++ )
        hypercall_yield();
    return !xc_domain_listed(xch, domid, &info);
}

#endif /* GUEST_XC_DOMAIN_H */
