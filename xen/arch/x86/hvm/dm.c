/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dm_op: operations a device model performs on a domain.  Ours: dirty-VRAM
 * tracking (XEN_DMOP_track_dirty_vram).  Only the control domain may
 * target a domain (anyone else: -EPERM); unknown ops fail with -EOPNOTSUPP
 * as in Xen.  The first buffer holds struct xen_dm_op; track_dirty_vram
 * returns its bitmap in the second.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <public/hvm/dm_op.h>
#include <asm/paging.h>

#define DMOP_MAX_BUFS 2

long do_dm_op(domid_t domid, unsigned int nr_bufs,
              XEN_GUEST_HANDLE_PARAM(xen_dm_op_buf_t) u_bufs)
{
    struct xen_dm_op_buf bufs[DMOP_MAX_BUFS];
    struct xen_dm_op op;
    struct domain *d;

    if ( !is_control_domain(current->domain) )
        return -EPERM;
    if ( !nr_bufs )
        return -EINVAL;
    if ( copy_from_guest(bufs, u_bufs, min(nr_bufs, (unsigned int)DMOP_MAX_BUFS)) )
        return -EFAULT;
    if ( bufs[0].size < sizeof(op) )
        return -EFAULT;
    if ( copy_from_guest(&op, bufs[0].h, 1) )
        return -EFAULT;
    if ( op.pad )
        return -EINVAL;
    if ( !(d = get_domain_by_id(domid)) )
        return -ESRCH;

    switch ( op.op )
    {
    case XEN_DMOP_track_dirty_vram:
    {
        const struct xen_dm_op_track_dirty_vram *t = &op.u.track_dirty_vram;

        if ( t->pad )
            return -EINVAL;
        if ( t->nr && nr_bufs < 2 )
            return -EINVAL;
        return hap_track_dirty_vram(d, t->first_pfn, t->nr,
                                    t->nr ? bufs[1].h : guest_handle_from_ptr(NULL, void),
                                    t->nr ? bufs[1].size : 0);
    }

    default:
        return -EOPNOTSUPP;
    }
}
