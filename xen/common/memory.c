/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memory_op: the subset this hypervisor implements.
 *
 * XENMEM_populate_physmap fills a domain's guest frames with memory.
 * XENMEM_add_to_physmap_batch with XENMAPSPACE_gmfn_foreign maps frames
 * of another domain into the caller (the control domain only), which is
 * how privcmd's foreign mapping (and our dom0 test kernels) read a guest's
 * memory; XENMEM_remove_from_physmap undoes it.  Per-entry errors go to
 * the caller's errs array, as in Xen.  Everything else: -ENOSYS.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/string.h>
#include <xen/sched.h>
#include <public/memory.h>
#include <asm/p2m.h>

static struct domain *target_domain(domid_t domid)
{
    return domid == DOMID_SELF ? current->domain : get_domain_by_id(domid);
}

static long add_to_physmap_batch(unsigned long arg)
{
    struct xen_add_to_physmap_batch b;
    struct domain *d, *fd;
    unsigned int i;

    if ( copy_from_guest(&b, arg, sizeof(b)) )
        return -EFAULT;
    if ( b.space != XENMAPSPACE_gmfn_foreign )
        return -EOPNOTSUPP;
    if ( !(d = target_domain(b.domid)) || d != current->domain )
        return -EPERM;              /* only into the caller itself */
    if ( !is_control_domain(d) )
        return -EPERM;
    if ( !(fd = get_domain_by_id(b.u.foreign_domid)) || fd == d )
        return -ESRCH;
    if ( fd->state != DOMSTATE_running )
        return -ESRCH;

    for ( i = 0; i < b.size; i++ )
    {
        xen_ulong_t idx;
        xen_pfn_t gpfn;
        int err;

        if ( copy_from_guest(&idx, (unsigned long)b.idxs.p + i * sizeof(idx), sizeof(idx)) ||
             copy_from_guest(&gpfn, (unsigned long)b.gpfns.p + i * sizeof(gpfn), sizeof(gpfn)) )
            return -EFAULT;
        err = p2m_add_foreign(d, gpfn, fd, idx);
        if ( copy_to_guest((unsigned long)b.errs.p + i * sizeof(err), &err, sizeof(err)) )
            return -EFAULT;
    }
    return 0;
}

static long remove_from_physmap(unsigned long arg)
{
    struct xen_remove_from_physmap r;
    struct domain *d;

    if ( copy_from_guest(&r, arg, sizeof(r)) )
        return -EFAULT;
    if ( !(d = target_domain(r.domid)) || d != current->domain )
        return -EPERM;
    return p2m_remove_foreign(d, r.gpfn);
}

/*
 * Fill guest frames with fresh memory: extents of 2^extent_order frames
 * (order 0 or 9) at the given gfns, within the domain's max_pages.  The
 * control domain may populate any domain (that is how a domain is built),
 * a domain itself only itself.  Returns the number of extents done, as Xen.
 */
static long populate_physmap(unsigned long arg)
{
    struct xen_memory_reservation r;
    struct domain *d;
    unsigned long i;

    if ( copy_from_guest(&r, arg, sizeof(r)) )
        return -EFAULT;
    if ( !(d = target_domain(r.domid)) )
        return -ESRCH;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return -EPERM;
    if ( r.extent_order != 0 && r.extent_order != SUPERPAGE_ORDER )
        return -EINVAL;

    for ( i = 0; i < r.nr_extents; i++ )
    {
        unsigned long n = 1UL << r.extent_order, mfn;
        xen_pfn_t gpfn;
        p2m_type_t t;
        int rc;

        if ( copy_from_guest(&gpfn, (unsigned long)r.extent_start.p + i * sizeof(gpfn),
                             sizeof(gpfn)) )
            return i ? (long)i : -EFAULT;
        if ( gpfn & (n - 1) || d->tot_pages + n > d->max_pages ||
             p2m_get_entry(d, gpfn, &t) != INVALID_MFN )
            break;                  /* misaligned, over the limit, or in use */
        mfn = alloc_domheap_pages(r.extent_order);
        if ( mfn == INVALID_MFN )
            break;
        clear_pages(mfn_to_virt(mfn), r.extent_order);
        if ( (rc = p2m_set_entry(d, gpfn, mfn, r.extent_order, p2m_ram_rw)) )
        {
            free_domheap_pages(mfn, r.extent_order);
            break;
        }
        d->tot_pages += n;
    }
    return i;
}

long do_memory_op(unsigned long cmd, unsigned long arg)
{
    switch ( cmd )
    {
    case XENMEM_populate_physmap:
        return populate_physmap(arg);
    case XENMEM_add_to_physmap_batch:
        return add_to_physmap_batch(arg);
    case XENMEM_remove_from_physmap:
        return remove_from_physmap(arg);
    default:
        return -ENOSYS;
    }
}
