/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: domains -- information, pause/unpause, shutdown, destroy.
 */
#include "xc_private.h"

static int domctl_simple(xc_interface *xch, uint32_t cmd, uint32_t domid)
{
    struct xen_domctl domctl = {
        .cmd = cmd,
        .domain = domid,
    };

    return do_domctl(xch, &domctl);
}

int xc_domain_pause(xc_interface *xch, uint32_t domid)
{
    return domctl_simple(xch, XEN_DOMCTL_pausedomain, domid);
}

int xc_domain_unpause(xc_interface *xch, uint32_t domid)
{
    return domctl_simple(xch, XEN_DOMCTL_unpausedomain, domid);
}

/* XEN_DOMCTL_setdomainhandle: the domain's UUID. */
int xc_domain_sethandle(xc_interface *xch, uint32_t domid,
                        xen_domain_handle_t handle)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_setdomainhandle,
        .domain = domid,
    };

    memcpy(domctl.u.setdomainhandle.handle, handle, sizeof(xen_domain_handle_t));
    return do_domctl(xch, &domctl);
}

int xc_domain_destroy(xc_interface *xch, uint32_t domid)
{
    return domctl_simple(xch, XEN_DOMCTL_destroydomain, domid);
}

int xc_vcpu_getinfo(xc_interface *xch, uint32_t domid, uint32_t vcpu,
                    xc_vcpuinfo_t *info)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_getvcpuinfo,
        .domain = domid,
        .u.getvcpuinfo.vcpu = vcpu,
    };
    int rc = do_domctl(xch, &domctl);

    if ( !rc )
        *info = domctl.u.getvcpuinfo;
    return rc;
}

int xc_vcpu_getaffinity(xc_interface *xch, uint32_t domid, int vcpu,
                        xc_cpumap_t cpumap_hard, xc_cpumap_t cpumap_soft,
                        uint32_t flags)
{
    DECLARE_HYPERCALL_BOUNCE(cpumap_hard, 0, XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    DECLARE_HYPERCALL_BOUNCE(cpumap_soft, 0, XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_getvcpuaffinity,
        .domain = domid,
        .u.vcpuaffinity.vcpu = vcpu,
        .u.vcpuaffinity.flags = flags,
    };
    int cpusize = xc_get_cpumap_size(xch), rc = -1;

    if ( cpusize <= 0 )
    {
        PERROR("Could not get cpumap size");
        return -1;
    }
    if ( ((flags & XEN_VCPUAFFINITY_HARD) && !cpumap_hard) ||
         ((flags & XEN_VCPUAFFINITY_SOFT) && !cpumap_soft) )
    {
        errno = EINVAL;
        return -1;
    }
    HYPERCALL_BOUNCE_SET_SIZE(cpumap_hard,
                              (flags & XEN_VCPUAFFINITY_HARD) ? cpusize : 0);
    HYPERCALL_BOUNCE_SET_SIZE(cpumap_soft,
                              (flags & XEN_VCPUAFFINITY_SOFT) ? cpusize : 0);
    if ( xc_hypercall_bounce_pre(xch, cpumap_hard) ||
         xc_hypercall_bounce_pre(xch, cpumap_soft) )
    {
        PERROR("Could not allocate hcall buffers for DOMCTL_getvcpuaffinity");
        goto out;
    }
    set_xen_guest_handle(domctl.u.vcpuaffinity.cpumap_hard.bitmap, cpumap_hard);
    domctl.u.vcpuaffinity.cpumap_hard.nr_bits =
        (flags & XEN_VCPUAFFINITY_HARD) ? cpusize * 8 : 0;
    set_xen_guest_handle(domctl.u.vcpuaffinity.cpumap_soft.bitmap, cpumap_soft);
    domctl.u.vcpuaffinity.cpumap_soft.nr_bits =
        (flags & XEN_VCPUAFFINITY_SOFT) ? cpusize * 8 : 0;
    rc = do_domctl(xch, &domctl);
 out:
    xc_hypercall_bounce_post(xch, cpumap_hard);
    xc_hypercall_bounce_post(xch, cpumap_soft);
    return rc;
}

/* sched_op(SCHEDOP_remote_shutdown): as if the domain had asked itself. */
int xc_domain_shutdown(xc_interface *xch, uint32_t domid, int reason)
{
    DECLARE_HYPERCALL_BUFFER(struct sched_remote_shutdown, arg);
    int rc;

    arg = xc_hypercall_buffer_alloc(xch, arg, sizeof(*arg));
    if ( !arg )
    {
        PERROR("Could not allocate memory for xc_domain_shutdown hypercall");
        return -1;
    }

    arg->domain_id = domid;
    arg->reason = reason;
    rc = xencall2(xch->xcall, __HYPERVISOR_sched_op, SCHEDOP_remote_shutdown,
                  HYPERCALL_BUFFER_AS_ARG(arg));

    xc_hypercall_buffer_free(xch, arg);

    return rc;
}

/* The hypervisor's record, decoded the way Xen's xc_domain_getinfo does. */
static void dominfo_decode(xc_dominfo_t *info,
                           const struct xen_domctl_getdomaininfo *di)
{
    uint32_t flags = di->flags;

    info->domid = di->domain;
    info->ssidref = di->ssidref;

    info->dying = !!(flags & XEN_DOMINF_dying);
    info->shutdown = !!(flags & XEN_DOMINF_shutdown);
    info->paused = !!(flags & XEN_DOMINF_paused);
    info->blocked = !!(flags & XEN_DOMINF_blocked);
    info->running = !!(flags & XEN_DOMINF_running);
    info->hvm = !!(flags & XEN_DOMINF_hvm_guest);
    info->debugged = !!(flags & XEN_DOMINF_debugged);
    info->xenstore = !!(flags & XEN_DOMINF_xs_domain);
    info->hap = !!(flags & XEN_DOMINF_hap);
    info->shutdown_reason = (flags >> XEN_DOMINF_shutdownshift) &
                            XEN_DOMINF_shutdownmask;

    /* A crash is reported as crashed, not as a shutdown. */
    if ( info->shutdown && info->shutdown_reason == SHUTDOWN_crash )
    {
        info->shutdown = 0;
        info->crashed = 1;
    }

    info->nr_pages = di->tot_pages;
    info->nr_outstanding_pages = di->outstanding_pages;
    info->nr_shared_pages = di->shr_pages;
    info->nr_paged_pages = di->paged_pages;
    info->max_memkb = di->max_pages << (XC_PAGE_SHIFT - 10);
    info->shared_info_frame = di->shared_info_frame;
    info->cpu_time = di->cpu_time;
    info->nr_online_vcpus = di->nr_online_vcpus;
    info->max_vcpu_id = di->max_vcpu_id;
    info->cpupool = di->cpupool;
    info->gpaddr_bits = di->gpaddr_bits;
    info->arch_config = di->arch_config;
    memcpy(info->handle, di->handle, sizeof(info->handle));
}

int xc_domain_getinfo(xc_interface *xch, uint32_t first_domid,
                      unsigned int max_doms, xc_dominfo_t *info)
{
    uint32_t next = first_domid;
    unsigned int n;
    int rc = 0;

    memset(info, 0, max_doms * sizeof(*info));

    for ( n = 0; n < max_doms; n++ )
    {
        struct xen_domctl domctl = {
            .cmd = XEN_DOMCTL_getdomaininfo,
            .domain = next,
        };

        rc = do_domctl(xch, &domctl);
        if ( rc < 0 )
            break;

        dominfo_decode(&info[n], &domctl.u.getdomaininfo);
        next = (uint16_t)domctl.domain + 1;
    }

    return n ? (int)n : rc;
}

int xc_domain_getinfolist(xc_interface *xch, uint32_t first_domain,
                          unsigned int max_domains, xc_domaininfo_t *info)
{
    DECLARE_HYPERCALL_BOUNCE(info, max_domains * sizeof(*info),
                             XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    struct xen_sysctl sysctl = {
        .cmd = XEN_SYSCTL_getdomaininfolist,
        .u.getdomaininfolist = {
            .first_domain = first_domain,
            .max_domains = max_domains,
        },
    };
    int rc;

    if ( xc_hypercall_bounce_pre(xch, info) )
        return -1;

    set_xen_guest_handle(sysctl.u.getdomaininfolist.buffer, info);

    rc = do_sysctl(xch, &sysctl);
    if ( rc >= 0 )
        rc = sysctl.u.getdomaininfolist.num_domains;

    xc_hypercall_bounce_post(xch, info);

    return rc;
}

/*
 * XEN_DOMCTL_gettscinfo / settscinfo: the domain's TSC mode, the rate and
 * elapsed time it sees and its incarnation (Xen 4.17's names and
 * signatures; the migration stream's X86_TSC_INFO).
 */
int xc_domain_get_tsc_info(xc_interface *xch, uint32_t domid, uint32_t *tsc_mode,
                           uint64_t *elapsed_nsec, uint32_t *gtsc_khz,
                           uint32_t *incarnation)
{
    struct xen_domctl domctl = { .cmd = XEN_DOMCTL_gettscinfo, .domain = domid };
    int rc = do_domctl(xch, &domctl);

    if ( rc )
        return rc;
    *tsc_mode = domctl.u.tsc_info.tsc_mode;
    *elapsed_nsec = domctl.u.tsc_info.elapsed_nsec;
    *gtsc_khz = domctl.u.tsc_info.gtsc_khz;
    *incarnation = domctl.u.tsc_info.incarnation;
    return 0;
}

int xc_domain_set_tsc_info(xc_interface *xch, uint32_t domid, uint32_t tsc_mode,
                           uint64_t elapsed_nsec, uint32_t gtsc_khz,
                           uint32_t incarnation)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_settscinfo,
        .domain = domid,
        .u.tsc_info = {
            .tsc_mode = tsc_mode,
            .gtsc_khz = gtsc_khz,
            .incarnation = incarnation,
            .elapsed_nsec = elapsed_nsec,
        },
    };

    return do_domctl(xch, &domctl);
}
