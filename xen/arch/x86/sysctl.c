/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The x86 sysctls (Xen's arch/x86/sysctl.c): this project's
 * XEN_SYSCTL_get_dirty_stats_all (public/ext/dirty_sysctl.h), every
 * domain's dirty-tracking and exit counters in one call, for xentop.
 * common/sysctl.c has checked the caller (the control domain) and the
 * interface version.  Read only: no bitmap is cleaned or peeked.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/time.h>
#include <public/domctl.h>
#include <public/sysctl.h>
#include <public/ext/dirty_sysctl.h>
#include <asm/cpu-policy.h>
#include <asm/dirty_stats.h>
#include <asm/paging.h>

_Static_assert(sizeof(struct xen_sysctl_dirty_stats_all) <=
               sizeof(((struct xen_sysctl *)0)->u), "must fit the union");

static void fill_domain(const struct domain *d, unsigned int first_vcpu,
                        struct xen_dirty_sysctl_domain *r)
{
    struct xen_domctl_getdomaininfo info;

    memset(r, 0, sizeof(*r));
    r->domid = d->domain_id;
    if ( !fill_domaininfo_from(d->domain_id, &info) )
        r->flags = info.flags;
    r->first_vcpu = first_vcpu;
    dirty_stats_get_sysctl_domain(d, r);
}

static int dirty_stats_all(struct xen_sysctl_dirty_stats_all *op)
{
    unsigned int nd = 0, nv = 0;
    const struct domain *d;
    const struct vcpu *v;

    /* What every domain needs now (nothing changes until we return). */
    for_each_domain ( d )
    {
        nd++;
        for_each_vcpu ( d, v )
            nv++;
    }
    op->nr_domains = nd;
    op->nr_vcpus = nv;
    op->now = NOW();

    if ( guest_handle_is_null(op->domains) && guest_handle_is_null(op->vcpus) )
        return 0;                               /* a size query */
    if ( guest_handle_is_null(op->domains) || guest_handle_is_null(op->vcpus) ||
         !op->max_domains || !op->max_vcpus ||
         op->max_domains > XEN_DIRTY_SYSCTL_MAX_DOMAINS ||
         op->max_vcpus > XEN_DIRTY_SYSCTL_MAX_VCPUS )
        return -EINVAL;
    if ( !guest_handle_okay(op->domains, op->max_domains) ||
         !guest_handle_okay(op->vcpus, op->max_vcpus) )
        return -EFAULT;
    if ( nd > op->max_domains || nv > op->max_vcpus )
        return -ENOBUFS;

    nd = nv = 0;
    for_each_domain ( d )
    {
        struct xen_dirty_sysctl_domain r;

        fill_domain(d, nv, &r);
        for_each_vcpu ( d, v )
        {
            struct xen_dirty_sysctl_vcpu rv;

            dirty_stats_get_sysctl_vcpu(v, &rv);
            if ( copy_to_guest_offset(op->vcpus, nv, &rv, 1) )
                return -EFAULT;
            nv++;
        }
        if ( copy_to_guest_offset(op->domains, nd, &r, 1) )
            return -EFAULT;
        nd++;
    }
    return 0;
}

long arch_do_sysctl(struct xen_sysctl *op, bool *copyback)
{
    long rc;

    switch ( op->cmd )
    {
    case XEN_SYSCTL_get_dirty_stats_all:
        rc = dirty_stats_all((struct xen_sysctl_dirty_stats_all *)&op->u);
        /* The sizes go back with -ENOBUFS too (Xen's cputopoinfo). */
        *copyback = !rc || rc == -ENOBUFS;
        break;

    case XEN_SYSCTL_get_cpu_featureset:
        rc = sysctl_get_cpu_featureset(&op->u.cpu_featureset);
        *copyback = !rc || rc == -ENOBUFS;  /* what fitted, and how much */
        break;

    case XEN_SYSCTL_get_cpu_policy:
        rc = sysctl_get_cpu_policy(&op->u.cpu_policy);
        break;

    default:
        rc = -ENOSYS;
        break;
    }
    return rc;
}
