/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: this project's counters (NOT in Xen) -- dirty tracking per
 * domain and vCPU, and VM exits by reason.  See xenctrl.h and
 * xen/include/public/ext/dirty_stats.h.
 */
#include "xc_private.h"

_Static_assert(sizeof(xen_domctl_dirty_stats_t) <=
               sizeof(((struct xen_domctl *)0)->u),
               "dirty_stats must fit the domctl union");
_Static_assert(sizeof(xen_domctl_exit_counts_t) <=
               sizeof(((struct xen_domctl *)0)->u),
               "exit_counts must fit the domctl union");
_Static_assert(sizeof(xen_domctl_dirty_blocks_t) <=
               sizeof(((struct xen_domctl *)0)->u),
               "dirty_blocks must fit the domctl union");
_Static_assert(sizeof(xen_domctl_dirty_rearm_t) <=
               sizeof(((struct xen_domctl *)0)->u),
               "dirty_rearm must fit the domctl union");

int xc_dirty_stats(xc_interface *xch, uint32_t domid,
                   xen_domctl_dirty_stats_t *stats,
                   xen_dirty_vcpu_stats_t *vcpus, unsigned int *nr_vcpus)
{
    unsigned int room = (vcpus && nr_vcpus) ? *nr_vcpus : 0;
    DECLARE_HYPERCALL_BOUNCE(vcpus, room * sizeof(*vcpus),
                             XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_get_dirty_stats,
        .domain = domid,
    };
    xen_domctl_dirty_stats_t *ds = DOMCTL_EXT(&domctl, xen_domctl_dirty_stats_t);
    int rc;

    if ( xc_hypercall_bounce_pre(xch, vcpus) )
        return -1;

    ds->nr_vcpus = room;
    set_xen_guest_handle(ds->vcpus, vcpus);

    rc = do_domctl(xch, &domctl);
    if ( rc == 0 )
    {
        if ( stats )
        {
            *stats = *ds;
            set_xen_guest_handle_raw(stats->vcpus, NULL);
        }
        if ( nr_vcpus )
            *nr_vcpus = ds->nr_vcpus;
    }

    xc_hypercall_bounce_post(xch, vcpus);

    return rc;
}

int xc_vcpu_exit_counts(xc_interface *xch, uint32_t domid, uint32_t vcpu,
                        uint64_t *counts, unsigned int *nr_reasons)
{
    unsigned int room = counts ? *nr_reasons : 0;
    DECLARE_HYPERCALL_BOUNCE(counts, room * sizeof(*counts),
                             XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_get_exit_counts,
        .domain = domid,
    };
    xen_domctl_exit_counts_t *ec = DOMCTL_EXT(&domctl, xen_domctl_exit_counts_t);
    int rc;

    if ( xc_hypercall_bounce_pre(xch, counts) )
        return -1;

    ec->vcpu = vcpu;
    ec->nr_reasons = room;
    set_xen_guest_handle(ec->counts, counts);

    rc = do_domctl(xch, &domctl);
    if ( rc == 0 )
        *nr_reasons = ec->nr_reasons;

    xc_hypercall_bounce_post(xch, counts);

    return rc;
}

int xc_dirty_stats_all(xc_interface *xch,
                       xen_dirty_sysctl_domain_t *domains, unsigned int *nr_domains,
                       xen_dirty_sysctl_vcpu_t *vcpus, unsigned int *nr_vcpus,
                       uint64_t *now)
{
    bool query = !domains && !vcpus;
    unsigned int droom = query ? 0 : *nr_domains, vroom = query ? 0 : *nr_vcpus;
    DECLARE_HYPERCALL_BOUNCE(domains, droom * sizeof(*domains),
                             XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    DECLARE_HYPERCALL_BOUNCE(vcpus, vroom * sizeof(*vcpus),
                             XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    struct xen_sysctl sysctl = { .cmd = XEN_SYSCTL_get_dirty_stats_all };
    xen_sysctl_dirty_stats_all_t *op = (void *)&sysctl.u;
    int rc = -1;

    if ( !nr_domains || !nr_vcpus || (!query && (!domains || !vcpus)) )
    {
        errno = EINVAL;
        return -1;
    }
    if ( !query && (xc_hypercall_bounce_pre(xch, domains) ||
                    xc_hypercall_bounce_pre(xch, vcpus)) )
        goto out;

    op->max_domains = droom;
    op->max_vcpus = vroom;
    set_xen_guest_handle(op->domains, domains);
    set_xen_guest_handle(op->vcpus, vcpus);

    rc = do_sysctl(xch, &sysctl);
    if ( rc == 0 || errno == ENOBUFS )
    {
        *nr_domains = op->nr_domains;
        *nr_vcpus = op->nr_vcpus;
        if ( now )
            *now = op->now;
    }
 out:
    if ( !query )
    {
        xc_hypercall_bounce_post(xch, domains);
        xc_hypercall_bounce_post(xch, vcpus);
    }
    return rc;
}

int xc_dirty_blocks(xc_interface *xch, uint32_t domid,
                    uint64_t *counts, unsigned int *nr_blocks,
                    xen_domctl_dirty_blocks_t *info)
{
    return xc_dirty_blocks_counter(xch, domid, XEN_DIRTY_BLOCKS_NEWLY, counts,
                                   nr_blocks, info);
}

int xc_dirty_blocks_counter(xc_interface *xch, uint32_t domid, uint32_t counter,
                            uint64_t *counts, unsigned int *nr_blocks,
                            xen_domctl_dirty_blocks_t *info)
{
    unsigned int room = counts && nr_blocks ? *nr_blocks : 0;
    DECLARE_HYPERCALL_BOUNCE(counts, room * sizeof(*counts),
                             XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_get_dirty_blocks,
        .domain = domid,
    };
    xen_domctl_dirty_blocks_t *db = DOMCTL_EXT(&domctl, xen_domctl_dirty_blocks_t);
    int rc;

    if ( !nr_blocks || (counts && !room) )
    {
        errno = EINVAL;
        return -1;
    }
    if ( counts && xc_hypercall_bounce_pre(xch, counts) )
        return -1;

    db->nr_blocks = room;
    db->counter = counter;
    set_xen_guest_handle(db->counts, counts);

    rc = do_domctl(xch, &domctl);
    if ( rc == 0 || errno == ENOBUFS )
    {
        *nr_blocks = db->nr_blocks;
        if ( info )
        {
            *info = *db;
            set_xen_guest_handle_raw(info->counts, NULL);
        }
    }

    if ( counts )
        xc_hypercall_bounce_post(xch, counts);

    return rc;
}

int xc_dirty_rearm(xc_interface *xch, uint32_t domid, uint64_t *pages)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_dirty_rearm,
        .domain = domid,
    };
    xen_domctl_dirty_rearm_t *ra = DOMCTL_EXT(&domctl, xen_domctl_dirty_rearm_t);
    int rc = do_domctl(xch, &domctl);

    if ( rc == 0 && pages )
        *pages = ra->pages;
    return rc;
}
