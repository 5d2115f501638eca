/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The x86 domctls (Xen's arch/x86/domctl.c): the HVM context
 * (XEN_DOMCTL_{get,set}hvmcontext), log-dirty (XEN_DOMCTL_shadow_op) and
 * this project's counters and the monitor's re-arm (public/ext/dirty_stats.h).  common/domctl.c
 * has checked the caller (the control domain), the interface version and
 * the target domain, and calls arch_do_domctl() for every command it does
 * not know; -ENOSYS for those neither knows.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/time.h>
#include <public/domctl.h>
#include <public/ext/dirty_stats.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/validate.h>
#include <asm/dirty_stats.h>
#include <asm/paging.h>

void arch_get_domain_info(const struct domain *d, struct xen_domctl_getdomaininfo *info)
{
    info->gpaddr_bits = hvm_paddr_bits();
}

static int dirty_stats(struct domain *d, struct xen_domctl_dirty_stats *st)
{
    unsigned int room = st->nr_vcpus;
    struct vcpu *v;

    dirty_stats_get_domain(d, st);
    if ( guest_handle_is_null(st->vcpus) )
        return 0;
    for_each_vcpu ( d, v )
    {
        struct xen_dirty_vcpu_stats vs;

        dirty_stats_get_vcpu(v, &vs);
        if ( v->vcpu_id < room && copy_to_guest_offset(st->vcpus, v->vcpu_id, &vs, 1) )
            return -EFAULT;
    }
    return 0;
}

/* The vendor's exit counters by reason (VMX: EXIT_REASON_*). */
static int exit_counts(struct domain *d, struct xen_domctl_exit_counts *ec)
{
    const uint64_t *counts;
    unsigned int nr, n;
    struct vcpu *v;

    if ( ec->vcpu >= d->max_vcpus || !(v = d->vcpu[ec->vcpu]) )
        return -ENOENT;
    nr = hvm_funcs->get_exit_counts(v, &counts);
    n = min(ec->nr_reasons, nr);
    ec->nr_reasons = nr;
    if ( n && copy_to_guest(ec->counts, counts, n) )
        return -EFAULT;
    return 0;
}

/* Counters only (never the bitmap), either kind; checks as dirty_stats_all's. */
static int dirty_blocks(struct domain *d, struct xen_domctl_dirty_blocks *db)
{
    const struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    bool query = guest_handle_is_null(db->counts);
    unsigned int room = db->nr_blocks;
    const uint64_t *counts;

    if ( query != !room || room > XEN_DIRTY_BLOCKS_MAX || db->pad ||
         db->counter > XEN_DIRTY_BLOCKS_LOGGED )
        return -EINVAL;
    counts = db->counter == XEN_DIRTY_BLOCKS_LOGGED ? ld->block_logged : ld->block_dirty;
    if ( !query && !guest_handle_okay(db->counts, room) )
        return -EFAULT;
    db->nr_blocks = ld->nr_blocks;
    db->block_shift = ld->nr_blocks ? ld->block_shift : 0;
    db->vram_first_pfn = ld->vram_begin;
    db->vram_nr = ld->vram_nr;
    db->now = NOW();
    if ( query )
        return 0;
    if ( room < ld->nr_blocks )
        return -ENOBUFS;
    if ( ld->nr_blocks && copy_to_guest(db->counts, counts, ld->nr_blocks) )
        return -EFAULT;
    return 0;
}

long arch_do_domctl(struct xen_domctl *op, struct domain *d, bool *copyback)
{
    struct domain *caller = current->domain;
    long rc;

    switch ( op->cmd )
    {
    case XEN_DOMCTL_gethvmcontext:
        rc = d == caller ? -EINVAL
                         : hvm_save_context(d, op->u.hvmcontext.buffer,
                                            &op->u.hvmcontext.size);
        *copyback = !rc;
        break;

    case XEN_DOMCTL_sethvmcontext:
        rc = d == caller ? -EINVAL
                         : hvm_load_context(d, op->u.hvmcontext.buffer,
                                            op->u.hvmcontext.size);
        break;

    case XEN_DOMCTL_shadow_op:
        rc = paging_domctl(d, &op->u.shadow_op);
        *copyback = true;
        break;

    case XEN_DOMCTL_get_dirty_stats:
        rc = dirty_stats(d, (struct xen_domctl_dirty_stats *)&op->u);
        *copyback = !rc;
        break;

    case XEN_DOMCTL_get_exit_counts:
        rc = exit_counts(d, (struct xen_domctl_exit_counts *)&op->u);
        *copyback = !rc;
        break;

    case XEN_DOMCTL_get_dirty_blocks:
        rc = dirty_blocks(d, (struct xen_domctl_dirty_blocks *)&op->u);
        *copyback = !rc || rc == -ENOBUFS;     /* the size, as the sysctl */
        break;

    case XEN_DOMCTL_dirty_rearm:
        rc = paging_log_dirty_rearm(d, (struct xen_domctl_dirty_rearm *)&op->u);
        *copyback = !rc;
        break;

    default:
        rc = -ENOSYS;
        break;
    }
    return rc;
}
