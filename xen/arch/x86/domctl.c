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
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/time.h>
#include <xen/xmalloc.h>
#include <public/domctl.h>
#include <public/ext/dirty_stats.h>
#include <public/ext/domain_memory.h>
#include <asm/cpu-policy.h>
#include <asm/hvm/hvm.h>
#include <asm/processor.h>
#include <asm/time.h>
#include <asm/hvm/validate.h>
#include <asm/dirty_stats.h>
#include <asm/mm.h>
#include <asm/p2m.h>
#include <asm/paging.h>

void arch_get_domain_info(const struct domain *d, struct xen_domctl_getdomaininfo *info)
{
    info->gpaddr_bits = hvm_paddr_bits();
}

/* XEN_DOMCTL_get_paging_mempool_size: the pool in bytes (Xen's hap_get_allocation_bytes). */
int arch_get_paging_mempool_size(struct domain *d, uint64_t *size)
{
    *size = (uint64_t)d->arch.hvm.p2m.pool.total << PAGE_SHIFT;
    return 0;
}

/*
 * XEN_DOMCTL_set_paging_mempool_size: whole pages that fit 32 bits, as
 * Xen's arch_set_paging_mempool_size; preemptible (-ERESTART continues).
 */
int arch_set_paging_mempool_size(struct domain *d, uint64_t size)
{
    uint64_t pages = size >> PAGE_SHIFT;

    if ( (size & (PAGE_SIZE - 1)) || pages != (uint32_t)pages )
        return -EINVAL;
    return paging_pool_set_size(d, pages, true);
}

/* TSC ticks as nanoseconds, without overflowing for a long uptime. */
static uint64_t tsc_to_ns(uint64_t ticks)
{
    if ( !cpu_khz )
        return 0;
    return ticks / cpu_khz * 1000000ULL + ticks % cpu_khz * 1000000ULL / cpu_khz;
}

/*
 * XEN_DOMCTL_gettscinfo, as Xen's tsc_get_info for a domain on the native
 * TSC: DEFAULT gives the host's rate and the TSC as nanoseconds,
 * NEVER_EMULATE zeros.  Not for the caller itself (-EINVAL, as Xen).
 */
static int gettscinfo(const struct domain *d, struct xen_domctl_tsc_info *ti)
{
    if ( d == current->domain )
        return -EINVAL;
    memset(ti, 0, sizeof(*ti));
    ti->tsc_mode = d->arch.tsc_mode;
    ti->incarnation = d->arch.incarnation;
    if ( ti->tsc_mode == TSC_MODE_DEFAULT )
    {
        ti->gtsc_khz = cpu_khz;
        ti->elapsed_nsec = tsc_to_ns(rdtsc());
    }
    return 0;
}

/*
 * XEN_DOMCTL_settscinfo: the modes Xen knows (else -EINVAL); of them,
 * what needs RDTSC emulation (ALWAYS_EMULATE, DEFAULT at a rate other
 * than the host's) is refused with -EOPNOTSUPP and changes nothing.
 * elapsed_nsec is not used: the guest's TSC is the host's.
 */
static int settscinfo(struct domain *d, const struct xen_domctl_tsc_info *ti)
{
    if ( d == current->domain )
        return -EINVAL;
    switch ( ti->tsc_mode )
    {
    case TSC_MODE_DEFAULT:
        if ( ti->gtsc_khz && ti->gtsc_khz != cpu_khz )
            return -EOPNOTSUPP;
        break;
    case TSC_MODE_NEVER_EMULATE:
        break;
    case TSC_MODE_ALWAYS_EMULATE:
        return -EOPNOTSUPP;
    default:
        return -EINVAL;
    }
    d->arch.tsc_mode = ti->tsc_mode;
    d->arch.incarnation = ti->incarnation + 1;
    return 0;
}

static void domain_memory(const struct domain *d, struct xen_domctl_domain_memory *m)
{
    const struct paging_pool *pool = &d->arch.hvm.p2m.pool;

    memset(m, 0, sizeof(*m));
    m->tot_pages = d->tot_pages;
    m->max_pages = d->max_pages;
    m->xenheap_pages = d->xenheap_pages;
    m->pool_pages = pool->total;
    m->pool_used = pool->used;
    m->pool_peak = pool->peak;
    m->pool_failed = pool->failed;
    m->heap_pages = d->xmem.pages;
    m->heap_peak = d->xmem.peak;
    m->heap_limit = d->xmem.limit;
    m->heap_failed = d->xmem.failed;
    m->max_evtchn_port = d->max_evtchn_port;
    m->evtchn_ports = d->valid_evtchns;
    m->orphaned_pages = orphaned_pages();
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

/*
 * XEN_DOMCTL_getpageframeinfo3 (Xen's, for a translated guest): each gfn
 * of the array comes back with its type in the top nibble: NOTAB for the
 * domain's own RAM, XTAB for anything else -- a hole, MMIO, another
 * domain's frame, and the hypervisor's pages the guest has mapped
 * (shared_info, grant-table frames), which Xen's is_special_page() makes
 * XTAB too: a save leaves them out and the guest maps them again.  At most
 * 1024 gfns (-E2BIG, as Xen); a gfn with type bits set is XTAB.
 */
static int getpageframeinfo3(struct domain *d, struct xen_domctl_getpageframeinfo3 *pf)
{
    xen_pfn_t *gfns;
    unsigned int i, num = pf->num;
    int rc = 0;

    if ( pf->num > 1024 )
        return -E2BIG;
    if ( !num )
        return 0;
    /* Transient (at most 8 KiB), counted against the caller. */
    gfns = domain_xzalloc_bytes(current->domain, num * sizeof(*gfns));
    if ( !gfns )
        return -ENOMEM;
    if ( copy_from_guest(gfns, pf->array, num) )
        rc = -EFAULT;
    for ( i = 0; !rc && i < num; i++ )
    {
        unsigned long mfn = INVALID_MFN;
        p2m_type_t t;

        if ( !(gfns[i] & XEN_DOMCTL_PFINFO_LTAB_MASK) && gfns[i] != d->shared_info_gfn &&
             gfns[i] <= p2m_max_gfn() )
            mfn = get_page_from_gfn(d, gfns[i], &t);
        if ( mfn != INVALID_MFN )
        {
            put_page(mfn);
            gfns[i] |= XEN_DOMCTL_PFINFO_NOTAB;
        }
        else
            gfns[i] |= XEN_DOMCTL_PFINFO_XTAB;
    }
    if ( !rc && copy_to_guest(pf->array, gfns, num) )
        rc = -EFAULT;
    xfree(gfns);
    return rc;
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

    case XEN_DOMCTL_get_domain_memory:
        domain_memory(d, (struct xen_domctl_domain_memory *)&op->u);
        *copyback = true;
        rc = 0;
        break;

    case XEN_DOMCTL_dirty_rearm:
        rc = paging_log_dirty_rearm(d, (struct xen_domctl_dirty_rearm *)&op->u);
        *copyback = !rc;
        break;

    case XEN_DOMCTL_get_cpu_policy:
        rc = domctl_get_cpu_policy(d, &op->u.cpu_policy);
        *copyback = !rc;
        break;

    case XEN_DOMCTL_set_cpu_policy:
        rc = domctl_set_cpu_policy(d, &op->u.cpu_policy);
        *copyback = rc && rc != -EFAULT;    /* err_leaf, err_subleaf, err_msr */
        break;

    case XEN_DOMCTL_getpageframeinfo3:
        rc = d == caller ? -EINVAL : getpageframeinfo3(d, &op->u.getpageframeinfo3);
        break;

    case XEN_DOMCTL_gettscinfo:
        rc = gettscinfo(d, &op->u.tsc_info);
        *copyback = !rc;
        break;

    case XEN_DOMCTL_settscinfo:
        rc = settscinfo(d, &op->u.tsc_info);
        break;

    default:
        rc = subop_enosys(__HYPERVISOR_domctl, op->cmd, NULL);
        break;
    }
    return rc;
}
