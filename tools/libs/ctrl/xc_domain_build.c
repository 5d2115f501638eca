/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: the primitives a domain builder (and a migration receiver)
 * uses -- create an empty domain, set its memory limit, populate its
 * guest-physical memory, and get/set its HVM context (Xen's save format,
 * public/hvm/save.h).  Xen 4.17's names and signatures.
 */
#include "xc_private.h"

int xc_domain_create(xc_interface *xch, uint32_t *pdomid,
                     struct xen_domctl_createdomain *config)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_createdomain,
        .domain = *pdomid,
    };
    int rc;

    domctl.u.createdomain = *config;
    rc = do_domctl(xch, &domctl);
    if ( rc )
        return rc;
    *pdomid = (uint16_t)domctl.domain;
    *config = domctl.u.createdomain;
    return 0;
}

int xc_domain_setmaxmem(xc_interface *xch, uint32_t domid, uint64_t max_memkb)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_max_mem,
        .domain = domid,
        .u.max_mem.max_memkb = max_memkb,
    };

    return do_domctl(xch, &domctl);
}

/*
 * XENMEM_populate_physmap for nr_extents extents of 2^extent_order frames
 * at the gfns in extent_start.  Returns the number of extents done, or -1.
 */
int xc_domain_populate_physmap(xc_interface *xch, uint32_t domid,
                               unsigned long nr_extents,
                               unsigned int extent_order,
                               unsigned int mem_flags,
                               xen_pfn_t *extent_start)
{
    DECLARE_HYPERCALL_BUFFER(struct xen_memory_reservation, res);
    DECLARE_HYPERCALL_BOUNCE(extent_start, nr_extents * sizeof(*extent_start),
                             XC_HYPERCALL_BUFFER_BOUNCE_BOTH);
    int rc;

    if ( xc_hypercall_bounce_pre(xch, extent_start) )
    {
        PERROR("Could not bounce the extent list for populate_physmap");
        return -1;
    }
    res = xc_hypercall_buffer_alloc(xch, res, sizeof(*res));
    if ( !res )
    {
        xc_hypercall_bounce_post(xch, extent_start);
        PERROR("Could not allocate memory for populate_physmap");
        return -1;
    }

    memset(res, 0, sizeof(*res));
    set_xen_guest_handle(res->extent_start, extent_start);
    res->nr_extents = nr_extents;
    res->extent_order = extent_order;
    res->mem_flags = mem_flags;
    res->domid = domid;
    rc = xencall2(xch->xcall, __HYPERVISOR_memory_op, XENMEM_populate_physmap,
                  HYPERCALL_BUFFER_AS_ARG(res));

    xc_hypercall_buffer_free(xch, res);
    xc_hypercall_bounce_post(xch, extent_start);
    return rc;
}

/* All or nothing: -1 with errno EBUSY if only some extents were filled. */
int xc_domain_populate_physmap_exact(xc_interface *xch, uint32_t domid,
                                     unsigned long nr_extents,
                                     unsigned int extent_order,
                                     unsigned int mem_flags,
                                     xen_pfn_t *extent_start)
{
    int rc = xc_domain_populate_physmap(xch, domid, nr_extents, extent_order,
                                        mem_flags, extent_start);

    if ( rc < 0 )
        return rc;
    if ( (unsigned long)rc != nr_extents )
    {
        errno = EBUSY;
        ERROR("Failed to populate physmap of d%u: %d of %lu extents",
              domid, rc, nr_extents);
        return -1;
    }
    return 0;
}

/*
 * The domain's HVM context into ctxt_buf (size bytes of room).  With a
 * NULL buffer, returns the size needed.  Returns the size used, or -1.
 */
int xc_domain_hvm_getcontext(xc_interface *xch, uint32_t domid,
                             uint8_t *ctxt_buf, uint32_t size)
{
    DECLARE_HYPERCALL_BOUNCE(ctxt_buf, size, XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_gethvmcontext,
        .domain = domid,
        .u.hvmcontext.size = ctxt_buf ? size : 0,
    };
    int rc;

    if ( ctxt_buf && xc_hypercall_bounce_pre(xch, ctxt_buf) )
        return -1;
    set_xen_guest_handle(domctl.u.hvmcontext.buffer, ctxt_buf);
    rc = do_domctl(xch, &domctl);
    if ( ctxt_buf )
        xc_hypercall_bounce_post(xch, ctxt_buf);
    return rc ? rc : (int)domctl.u.hvmcontext.size;
}

int xc_domain_hvm_setcontext(xc_interface *xch, uint32_t domid,
                             uint8_t *hvm_ctxt, uint32_t size)
{
    DECLARE_HYPERCALL_BOUNCE(hvm_ctxt, size, XC_HYPERCALL_BUFFER_BOUNCE_IN);
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_sethvmcontext,
        .domain = domid,
        .u.hvmcontext.size = size,
    };
    int rc;

    if ( xc_hypercall_bounce_pre(xch, hvm_ctxt) )
        return -1;
    set_xen_guest_handle(domctl.u.hvmcontext.buffer, hvm_ctxt);
    rc = do_domctl(xch, &domctl);
    xc_hypercall_bounce_post(xch, hvm_ctxt);
    return rc;
}
