/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memory_op: the subset this hypervisor implements.
 *
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

long do_memory_op(unsigned long cmd, unsigned long arg)
{
    switch ( cmd )
    {
    case XENMEM_add_to_physmap_batch:
        return add_to_physmap_batch(arg);
    case XENMEM_remove_from_physmap:
        return remove_from_physmap(arg);
    default:
        return -ENOSYS;
    }
}
