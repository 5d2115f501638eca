/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: a domain's memory after it is built -- its reservation
 * (XENMEM_{increase,decrease}_reservation, claim_pages, current_reservation,
 * maximum_gpfn), its paging pool (XEN_DOMCTL_{get,set}_paging_mempool_size)
 * and, beyond Xen, what it holds of the host (XEN_DOMCTL_get_domain_memory,
 * public/ext/domain_memory.h).  Xen 4.17's names and signatures where Xen
 * has them.
 */
#include "xc_private.h"

/* One XENMEM_*_reservation over the extent list (bounced both ways). */
static int reservation_op(xc_interface *xch, unsigned int cmd, uint32_t domid,
                          unsigned long nr_extents, unsigned int extent_order,
                          unsigned int mem_flags, xen_pfn_t *extent_start)
{
    DECLARE_HYPERCALL_BUFFER(struct xen_memory_reservation, res);
    DECLARE_HYPERCALL_BOUNCE(extent_start, nr_extents * sizeof(*extent_start),
                             XC_HYPERCALL_BUFFER_BOUNCE_BOTH);
    int rc;

    if ( extent_start && xc_hypercall_bounce_pre(xch, extent_start) )
    {
        PERROR("Could not bounce the extent list for memory_op %u", cmd);
        return -1;
    }
    res = xc_hypercall_buffer_alloc(xch, res, sizeof(*res));
    if ( !res )
    {
        if ( extent_start )
            xc_hypercall_bounce_post(xch, extent_start);
        PERROR("Could not allocate memory for memory_op %u", cmd);
        return -1;
    }

    memset(res, 0, sizeof(*res));
    if ( extent_start )
        set_xen_guest_handle(res->extent_start, extent_start);
    res->nr_extents = nr_extents;
    res->extent_order = extent_order;
    res->mem_flags = mem_flags;
    res->domid = domid;
    rc = xencall2(xch->xcall, __HYPERVISOR_memory_op, cmd,
                  HYPERCALL_BUFFER_AS_ARG(res));

    xc_hypercall_buffer_free(xch, res);
    if ( extent_start )
        xc_hypercall_bounce_post(xch, extent_start);
    return rc;
}

/* The _exact forms: all extents or -1 with errno ENOMEM (as Xen's). */
static int exact(xc_interface *xch, const char *what, uint32_t domid, int rc,
                 unsigned long nr_extents, unsigned int extent_order)
{
    if ( rc < 0 )
        return rc;
    if ( (unsigned long)rc != nr_extents )
    {
        ERROR("Failed %s for d%u: %d of %lu extents of order %u", what, domid, rc,
              nr_extents, extent_order);
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

int xc_domain_increase_reservation(xc_interface *xch, uint32_t domid,
                                   unsigned long nr_extents, unsigned int extent_order,
                                   unsigned int mem_flags, xen_pfn_t *extent_start)
{
    return reservation_op(xch, XENMEM_increase_reservation, domid, nr_extents,
                          extent_order, mem_flags, extent_start);
}

int xc_domain_increase_reservation_exact(xc_interface *xch, uint32_t domid,
                                         unsigned long nr_extents,
                                         unsigned int extent_order,
                                         unsigned int mem_flags,
                                         xen_pfn_t *extent_start)
{
    return exact(xch, "increase_reservation", domid,
                 xc_domain_increase_reservation(xch, domid, nr_extents, extent_order,
                                                mem_flags, extent_start),
                 nr_extents, extent_order);
}

int xc_domain_decrease_reservation(xc_interface *xch, uint32_t domid,
                                   unsigned long nr_extents, unsigned int extent_order,
                                   xen_pfn_t *extent_start)
{
    if ( !extent_start )
    {
        ERROR("decrease_reservation extent_start is NULL!");
        errno = EINVAL;
        return -1;
    }
    return reservation_op(xch, XENMEM_decrease_reservation, domid, nr_extents,
                          extent_order, 0, extent_start);
}

int xc_domain_decrease_reservation_exact(xc_interface *xch, uint32_t domid,
                                         unsigned long nr_extents,
                                         unsigned int extent_order,
                                         xen_pfn_t *extent_start)
{
    int rc = xc_domain_decrease_reservation(xch, domid, nr_extents, extent_order,
                                            extent_start);

    if ( rc >= 0 && (unsigned long)rc != nr_extents )
    {
        /* Xen: the extents not done were not the domain's. */
        ERROR("Failed deallocation for d%u: %d of %lu extents", domid, rc, nr_extents);
        errno = EINVAL;
        return -1;
    }
    return rc < 0 ? rc : 0;
}

int xc_domain_claim_pages(xc_interface *xch, uint32_t domid, unsigned long nr_pages)
{
    int rc = reservation_op(xch, XENMEM_claim_pages, domid, nr_pages, 0, 0, NULL);

    /* Xen's: a hypervisor without claims is not an error to the builder. */
    if ( rc < 0 && errno == ENOSYS )
        rc = 0;
    return rc;
}

/* XENMEM_current_reservation / maximum_gpfn: a value or -1. */
static long domain_query(xc_interface *xch, unsigned int cmd, uint32_t domid)
{
    DECLARE_HYPERCALL_BUFFER(struct xen_memory_domain, md);
    long rc;

    md = xc_hypercall_buffer_alloc(xch, md, sizeof(*md));
    if ( !md )
    {
        PERROR("Could not allocate memory for memory_op %u", cmd);
        return -1;
    }
    md->domid = domid;
    rc = xencall2(xch->xcall, __HYPERVISOR_memory_op, cmd, HYPERCALL_BUFFER_AS_ARG(md));
    xc_hypercall_buffer_free(xch, md);
    return rc;
}

int xc_domain_get_tot_pages(xc_interface *xch, uint32_t domid)
{
    return domain_query(xch, XENMEM_current_reservation, domid);
}

int xc_domain_maximum_gpfn(xc_interface *xch, uint32_t domid, xen_pfn_t *gpfns)
{
    long rc = domain_query(xch, XENMEM_maximum_gpfn, domid);

    if ( rc < 0 )
        return rc;
    *gpfns = rc;
    return 0;
}

int xc_get_paging_mempool_size(xc_interface *xch, uint32_t domid, uint64_t *size)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_get_paging_mempool_size,
        .domain = domid,
    };
    int rc = do_domctl(xch, &domctl);

    if ( rc )
        return rc;
    *size = domctl.u.paging_mempool.size;
    return 0;
}

int xc_set_paging_mempool_size(xc_interface *xch, uint32_t domid, uint64_t size)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_set_paging_mempool_size,
        .domain = domid,
        .u.paging_mempool.size = size,
    };

    return do_domctl(xch, &domctl);
}

int xc_domain_get_memory(xc_interface *xch, uint32_t domid,
                         struct xen_domctl_domain_memory *mem)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_get_domain_memory,
        .domain = domid,
    };
    int rc;

    _Static_assert(sizeof(*mem) <= sizeof(domctl.u), "must fit the union");
    rc = do_domctl(xch, &domctl);
    if ( rc )
        return rc;
    memcpy(mem, &domctl.u, sizeof(*mem));
    return 0;
}

/*
 * XEN_DOMCTL_getpageframeinfo3: each of arr[0..num) comes back with its
 * type in the top nibble (XEN_DOMCTL_PFINFO_*: NOTAB for RAM, XTAB for a
 * hole or a page the hypervisor owns); at most 1024 at a time.  Xen's
 * name and signature (xc_private.c there).
 */
int xc_get_pfn_type_batch(xc_interface *xch, uint32_t dom,
                          unsigned int num, xen_pfn_t *arr)
{
    DECLARE_HYPERCALL_BOUNCE(arr, sizeof(*arr) * num, XC_HYPERCALL_BUFFER_BOUNCE_BOTH);
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_getpageframeinfo3,
        .domain = dom,
        .u.getpageframeinfo3.num = num,
    };
    int rc;

    if ( xc_hypercall_bounce_pre(xch, arr) )
        return -1;
    set_xen_guest_handle(domctl.u.getpageframeinfo3.array, arr);
    rc = do_domctl(xch, &domctl);
    xc_hypercall_bounce_post(xch, arr);
    return rc;
}
