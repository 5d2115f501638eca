/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XEN_DOMCTL_*: the control domain's operations on other domains:
 * creating one (empty and paused; memory comes from populate_physmap,
 * registers from sethvmcontext), querying (the domain, its vCPUs and
 * their affinity), pausing, destroying.  The
 * architecture's operations (HVM context, log-dirty, counters) are in
 * arch_do_domctl (arch/x86/domctl.c), as in Xen.
 *
 * Only the control domain may issue domctls (anyone else: -EPERM), and
 * only with Xen 4.17's interface version (else -EACCES, as Xen).  Pausing,
 * destroying or putting into log-dirty mode the calling domain itself is
 * refused (-EINVAL).
 *
 * One domctl runs at a time, under domctl_lock (Xen's): it is only tried,
 * and a caller that finds it held re-issues the hypercall through a
 * continuation (Xen's domctl_lock_acquire), so a vCPU never spins on it
 * and a domctl that pauses a domain cannot deadlock against that
 * domain's vCPU waiting for the lock.  It is released before a preempted
 * domctl's continuation, so other domctls may run in between.
 */
#include <xen/console.h>
#include <xen/cpumask.h>
#include <xen/errno.h>
#include <xen/grant_table.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/spinlock.h>
#include <xen/string.h>
#include <public/domctl.h>
#include <asm/page-bits.h>
#include <asm/processor.h>
#include <asm/time.h>

static DEFINE_SPINLOCK_LEVEL(domctl_lock, LOCK_LEVEL_DOMCTL);

static void getdomaininfo(const struct domain *d, struct xen_domctl_getdomaininfo *info)
{
    const struct vcpu *v;
    uint64_t cpu_ticks = 0;
    unsigned int online = 0, flags = XEN_DOMINF_hvm_guest | XEN_DOMINF_hap;
    bool running = false, blocked = true;

    for_each_vcpu ( d, v )
    {
        cpu_ticks += v->runtime + (v->is_running ? rdtsc() - v->last_start : 0);
        if ( !v->is_up )
            continue;
        online++;
        if ( v->is_running )
            running = true;
        if ( !v->is_blocked )
            blocked = false;
    }

    if ( d->state == DOMSTATE_dying )
        flags |= XEN_DOMINF_dying;
    if ( d->state == DOMSTATE_shutdown || d->state == DOMSTATE_crashed )
        flags |= XEN_DOMINF_shutdown |
                 ((d->shutdown_code & XEN_DOMINF_shutdownmask) << XEN_DOMINF_shutdownshift);
    if ( d->pause_count )
        flags |= XEN_DOMINF_paused;
    if ( running )
        flags |= XEN_DOMINF_running;
    else if ( blocked && online )
        flags |= XEN_DOMINF_blocked;

    memset(info, 0, sizeof(*info));
    info->domain = d->domain_id;
    info->flags = flags;
    info->tot_pages = d->tot_pages;
    info->max_pages = d->max_pages;
    info->outstanding_pages = d->outstanding_pages;
    /* Where the guest mapped shared_info (Xen: its gfn, via the M2P), or ~0. */
    info->shared_info_frame = d->shared_info_gfn == INVALID_GFN ? ~0ULL : d->shared_info_gfn;
    /* TSC ticks -> ns */
    info->cpu_time = cpu_khz ? cpu_ticks * 1000000ULL / cpu_khz : 0;
    info->nr_online_vcpus = online;
    info->max_vcpu_id = d->max_vcpus - 1;
    memcpy(info->handle, d->handle, sizeof(info->handle));
    arch_get_domain_info(d, info);
}

/*
 * The physical CPU a vCPU runs on, and the CPUs it may run on: every vCPU
 * shares the boot CPU (sched/core.c), so that is CPU 0 for all of them.
 */
static unsigned int vcpu_processor(const struct vcpu *v)
{
    (void)v;
    return 0;
}

/* XEN_DOMCTL_getvcpuinfo: Xen's fields, from what the scheduler keeps. */
static int getvcpuinfo(const struct domain *d,
                       struct xen_domctl_getvcpuinfo *vi)
{
    const struct vcpu *v;
    uint64_t ticks;

    if ( vi->vcpu >= d->max_vcpus || !(v = d->vcpu[vi->vcpu]) )
        return -ESRCH;
    ticks = v->runtime + (v->is_running ? rdtsc() - v->last_start : 0);
    vi->online = v->is_up;
    vi->blocked = v->is_blocked;
    vi->running = v->is_running;
    vi->cpu_time = cpu_khz ? ticks * 1000000ULL / cpu_khz : 0;
    vi->cpu = vcpu_processor(v);
    return 0;
}

/*
 * One CPU map into a caller's xenctl_bitmap (as Xen's
 * cpumask_to_xenctl_bitmap): the caller's nr_bits, bits past ours zero.
 * Ours go in one copy, the zeros past them in copies of up to 256 bytes
 * (Xen writes those a byte per copy); only a control domain gets here,
 * and its nr_bits bounds the work, as in Xen.
 */
int cpumask_to_xenctl_bitmap(struct xenctl_bitmap *b, const cpumask_t *m)
{
    static const uint8_t zeros[256];
    uint8_t bytes[(NR_CPUS + 7) / 8] = { 0 };
    unsigned int n = (b->nr_bits + 7) / 8, ours = min_t(unsigned int, n, sizeof(bytes));
    unsigned int cpu, i;

    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
        if ( cpumask_test_cpu(cpu, m) )
            bytes[cpu / 8] |= 1U << (cpu % 8);
    if ( b->nr_bits % 8 && n <= sizeof(bytes) )
        bytes[n - 1] &= (1U << (b->nr_bits % 8)) - 1;
    if ( ours && copy_to_guest_offset(b->bitmap, 0, bytes, ours) )
        return -EFAULT;
    for ( i = ours; i < n; i += sizeof(zeros) )
        if ( copy_to_guest_offset(b->bitmap, i, zeros,
                                  min_t(unsigned int, n - i, sizeof(zeros))) )
            return -EFAULT;
    return 0;
}

/*
 * XEN_DOMCTL_getvcpuaffinity: hard, the CPUs the vCPU may run on (the
 * boot CPU); soft, its preference (none: every online CPU, Xen's default).
 */
static int getvcpuaffinity(const struct domain *d,
                           struct xen_domctl_vcpuaffinity *va)
{
    cpumask_t hard;
    int rc = 0;

    if ( va->vcpu >= d->max_vcpus || !d->vcpu[va->vcpu] )
        return -ESRCH;
    if ( !(va->flags & (XEN_VCPUAFFINITY_HARD | XEN_VCPUAFFINITY_SOFT)) ||
         (va->flags & ~(XEN_VCPUAFFINITY_HARD | XEN_VCPUAFFINITY_SOFT)) )
        return -EINVAL;
    cpumask_clear(&hard);
    cpumask_set_cpu(vcpu_processor(d->vcpu[va->vcpu]), &hard);
    if ( va->flags & XEN_VCPUAFFINITY_HARD )
        rc = cpumask_to_xenctl_bitmap(&va->cpumap_hard, &hard);
    if ( !rc && (va->flags & XEN_VCPUAFFINITY_SOFT) )
        rc = cpumask_to_xenctl_bitmap(&va->cpumap_soft, &cpu_online_map);
    return rc;
}

/*
 * Whether bit 'bit' is set in a caller's xenctl_bitmap (Xen's
 * xenctl_bitmap_to_bitmap reads it the same way: bits past nr_bits are
 * clear).  -EFAULT if it cannot be read.
 */
static int xenctl_test_bit(const struct xenctl_bitmap *b, unsigned int bit, bool *set)
{
    uint8_t byte;

    *set = false;
    if ( bit >= b->nr_bits )
        return 0;
    if ( copy_from_guest_offset(&byte, b->bitmap, bit / 8, 1) )
        return -EFAULT;
    *set = byte & (1U << (bit % 8));
    return 0;
}

/*
 * XEN_DOMCTL_setvcpuaffinity: the scheduler runs every vCPU on the boot
 * CPU (vcpu_processor), so a hard affinity is taken only if it contains
 * that CPU (-EINVAL otherwise: it could not be honoured; Xen refuses one
 * with no online CPU); a soft one is always taken, as in Xen.  Nothing
 * changes; the effective maps go back, as Xen returns them.
 */
static int setvcpuaffinity(const struct domain *d, struct xen_domctl_vcpuaffinity *va)
{
    const unsigned int f = XEN_VCPUAFFINITY_HARD | XEN_VCPUAFFINITY_SOFT;
    bool set;
    int rc;

    if ( va->vcpu >= d->max_vcpus )
        return -EINVAL;
    if ( !d->vcpu[va->vcpu] )
        return -ESRCH;
    if ( !(va->flags & f) || (va->flags & ~(f | XEN_VCPUAFFINITY_FORCE)) )
        return -EINVAL;
    if ( va->flags & XEN_VCPUAFFINITY_HARD )
    {
        if ( (rc = xenctl_test_bit(&va->cpumap_hard, vcpu_processor(d->vcpu[va->vcpu]), &set)) )
            return rc;
        if ( !set )
            return -EINVAL;
    }
    va->flags &= f;                             /* FORCE: nothing to break here */
    return getvcpuaffinity(d, va);
}

/*
 * XEN_DOMCTL_setnodeaffinity / getnodeaffinity: one node, 0.  A map
 * without it is refused (-EINVAL, as Xen for a map with no online node).
 */
static int setnodeaffinity(struct xen_domctl_nodeaffinity *na)
{
    bool set;
    int rc = xenctl_test_bit(&na->nodemap, 0, &set);

    return rc ?: (set ? 0 : -EINVAL);
}

static int getnodeaffinity(struct xen_domctl_nodeaffinity *na)
{
    cpumask_t node0;

    cpumask_clear(&node0);
    cpumask_set_cpu(0, &node0);                 /* bit 0: node 0 */
    return cpumask_to_xenctl_bitmap(&na->nodemap, &node0);
}

int fill_domaininfo_from(domid_t first, struct xen_domctl_getdomaininfo *info)
{
    struct domain *d;

    for_each_domain ( d )
        if ( d->domain_id >= first )
        {
            getdomaininfo(d, info);
            return 0;
        }
    return -ESRCH;
}

/*
 * The domid createdomain gives, as Xen: the one asked for if it is
 * 1..DOMID_FIRST_RESERVED-1 (-EEXIST if taken); for 0 or anything from
 * DOMID_FIRST_RESERVED up (xl asks 0x7FF4, DOMID_INVALID) the next free
 * one after the last given, wrapping to 1; -ENOMEM if none is free.
 * Called under the domctl lock (the rover is its state).
 */
static int createdomain_domid(domid_t *domid)
{
    static domid_t rover;
    domid_t id = *domid;

    if ( id > 0 && id < DOMID_FIRST_RESERVED )
        return get_domain_by_id(id) ? -EEXIST : 0;
    for ( id = rover + 1; id != rover; id++ )
    {
        if ( id >= DOMID_FIRST_RESERVED )
            id = 1;
        if ( !get_domain_by_id(id) )
            break;
    }
    if ( id == rover )
        return -ENOMEM;
    rover = id;
    *domid = id;
    return 0;
}

/* XEN_DOMCTL_createdomain: an empty, paused PVH/HVM domain. */
static int createdomain(domid_t *domid, const struct xen_domctl_createdomain *cfg)
{
    struct domain *d;
    domid_t id = *domid;
    int rc;

    if ( (cfg->flags & ~(XEN_DOMCTL_CDF_hvm | XEN_DOMCTL_CDF_hap)) ||
         !(cfg->flags & XEN_DOMCTL_CDF_hvm) || !(cfg->flags & XEN_DOMCTL_CDF_hap) )
        return -EINVAL;             /* only HAP (EPT) HVM/PVH domains exist here */
    if ( !cfg->max_vcpus || cfg->max_vcpus > 8 )
        return -EINVAL;
    if ( grant_table_check_config(cfg->max_grant_frames, cfg->max_maptrack_frames,
                                  cfg->grant_opts) )
        return -EINVAL;             /* as Xen's sanitise_domain_config/grant_table_init */

    if ( (rc = createdomain_domid(&id)) )
        return rc;

    d = domain_create(id, "", cfg->max_vcpus, false, cfg);
    if ( !d )
        return -ENOMEM;
    d->pause_count = 1;             /* created paused, as in Xen */
    d->toolstack_owned = true;      /* kept after shutdown until destroyed */
    memcpy(d->handle, cfg->handle, sizeof(d->handle));
    *domid = id;
    printk(XENLOG_G_INFO "d%u: created by d%u, %u vCPU(s)\n", id,
           current->domain->domain_id, cfg->max_vcpus);
    return 0;
}

/*
 * XEN_DOMCTL_resumedomain, as Xen's: -EINVAL for the calling domain
 * itself (Xen: "no domain_pause()"), otherwise domain_resume() and 0,
 * whatever the domain's state (a running domain is left running, and a
 * domain that powered off or crashed runs on from where it stopped, as
 * in Xen).  Only a domain built at boot that shut down for another reason
 * than suspend is already gone (-ESRCH): the scheduler reaped it.
 */
static int resumedomain(struct domain *d)
{
    if ( d == current->domain )
        return -EINVAL;
    domain_resume(d);
    return 0;
}

/*
 * XEN_DOMCTL_max_vcpus: since Xen 4.12 the vCPUs are made by createdomain,
 * and this only confirms their number: -EINVAL unless it is the domain's
 * max_vcpus, or for the caller itself.
 */
static int max_vcpus(const struct domain *d, const struct xen_domctl_max_vcpus *mv)
{
    if ( d == current->domain || mv->max != d->max_vcpus )
        return -EINVAL;
    return 0;
}

/*
 * XEN_DOMCTL_scheduler_op, credit2's (SCHED_ID): getinfo and putinfo of
 * the weight (0 in putinfo: unchanged) and cap (0: none; at most 100 per
 * vCPU, -EINVAL beyond and nothing changed, where Xen's csched2_dom_cntl
 * has set the weight already).  Another scheduler's id:
 * -EINVAL (Xen's sched_adjust); per-vCPU parameters: -EINVAL (credit2
 * has none).
 */
static int scheduler_op(struct domain *d, struct xen_domctl_scheduler_op *op)
{
    if ( op->sched_id != SCHED_ID )
        return -EINVAL;
    switch ( op->cmd )
    {
    case XEN_DOMCTL_SCHEDOP_getinfo:
        op->u.credit2.weight = d->sched_weight;
        op->u.credit2.cap = d->sched_cap;
        return 0;
    case XEN_DOMCTL_SCHEDOP_putinfo:
        if ( op->u.credit2.cap > 100 * d->max_vcpus )
            return -EINVAL;
        if ( op->u.credit2.weight )
            d->sched_weight = op->u.credit2.weight;
        d->sched_cap = op->u.credit2.cap;   /* 0: no cap, as Xen */
        return 0;
    default:
        return -EINVAL;
    }
}

long do_domctl(XEN_GUEST_HANDLE_PARAM(xen_domctl_t) u_domctl)
{
    struct domain *caller = current->domain, *d = NULL;
    struct xen_domctl op;
    bool copyback = false;
    long rc;

    if ( !is_control_domain(caller) )
        return -EPERM;
    if ( copy_from_guest(&op, u_domctl, 1) )
        return -EFAULT;
    if ( op.interface_version != XEN_DOMCTL_INTERFACE_VERSION )
        return -EACCES;

    switch ( op.cmd )
    {
    case XEN_DOMCTL_getdomaininfo:
    case XEN_DOMCTL_createdomain:
        break;                      /* no existing target domain */
    default:
        d = get_domain_by_id(op.domain);
        if ( !d )
            return -ESRCH;
        break;
    }

    /* Busy: come back (Xen's domctl_lock_acquire failing). */
    if ( !spin_trylock(&domctl_lock) )
        return hypercall_create_continuation(__HYPERVISOR_domctl, "h", u_domctl);

    switch ( op.cmd )
    {
    case XEN_DOMCTL_getdomaininfo:
        rc = fill_domaininfo_from(op.domain, &op.u.getdomaininfo);
        if ( !rc )
        {
            op.domain = op.u.getdomaininfo.domain;
            copyback = true;
        }
        break;

    case XEN_DOMCTL_pausedomain:
        rc = d == caller ? -EINVAL : 0;
        if ( !rc )
            domain_pause(d);
        break;

    case XEN_DOMCTL_unpausedomain:
        rc = d == caller ? -EINVAL : 0;
        if ( !rc )
        {
            d->creation_finished = true;
            domain_unpause(d);
        }
        break;

    case XEN_DOMCTL_destroydomain:
        rc = d == caller ? -EINVAL : 0;
        if ( !rc && d->state != DOMSTATE_dying )
        {
            printk(XENLOG_G_INFO "d%u: destroyed by d%u\n", d->domain_id, caller->domain_id);
            guest_console_flush(d);
            d->state = DOMSTATE_dying;  /* the scheduler frees it */
        }
        break;

    case XEN_DOMCTL_resumedomain:
        rc = resumedomain(d);
        break;

    case XEN_DOMCTL_createdomain:
        rc = createdomain(&op.domain, &op.u.createdomain);
        copyback = !rc;
        break;

    case XEN_DOMCTL_setdomainhandle:
        memcpy(d->handle, op.u.setdomainhandle.handle, sizeof(d->handle));
        rc = 0;
        break;

    case XEN_DOMCTL_max_mem:
    {
        uint64_t new_max = op.u.max_mem.max_memkb >> (PAGE_SHIFT - 10);

        /*
         * As Xen (since 4.x): below tot_pages too.  The domain then holds
         * more than it may, and every allocation for it fails until it has
         * given enough back (ballooned down: xl mem-set).
         */
        d->max_pages = min_t(uint64_t, new_max, ~0UL);
        rc = 0;
        break;
    }

    case XEN_DOMCTL_max_vcpus:
        rc = max_vcpus(d, &op.u.max_vcpus);
        break;

    case XEN_DOMCTL_scheduler_op:
        rc = scheduler_op(d, &op.u.scheduler_op);
        copyback = !rc;
        break;

    case XEN_DOMCTL_getvcpuinfo:
        rc = getvcpuinfo(d, &op.u.getvcpuinfo);
        copyback = !rc;
        break;

    case XEN_DOMCTL_getvcpuaffinity:
        rc = getvcpuaffinity(d, &op.u.vcpuaffinity);
        break;

    case XEN_DOMCTL_setvcpuaffinity:
        rc = setvcpuaffinity(d, &op.u.vcpuaffinity);
        break;

    case XEN_DOMCTL_setnodeaffinity:
        rc = setnodeaffinity(&op.u.nodeaffinity);
        break;

    case XEN_DOMCTL_getnodeaffinity:
        rc = getnodeaffinity(&op.u.nodeaffinity);
        break;

    case XEN_DOMCTL_get_paging_mempool_size:
        rc = arch_get_paging_mempool_size(d, &op.u.paging_mempool.size);
        copyback = !rc;
        break;

    case XEN_DOMCTL_set_paging_mempool_size:
        rc = d == caller ? -EINVAL : arch_set_paging_mempool_size(d, op.u.paging_mempool.size);
        break;

    default:
        rc = arch_do_domctl(&op, d, &copyback);
        break;
    }

    spin_unlock(&domctl_lock);

    /* A preempted operation: the caller re-issues this domctl (Xen's way). */
    if ( rc == -ERESTART )
        return hypercall_create_continuation(__HYPERVISOR_domctl, "h", u_domctl);
    if ( copyback && copy_to_guest(u_domctl, &op, 1) )
        rc = -EFAULT;
    return rc;
}
