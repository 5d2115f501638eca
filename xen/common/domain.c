/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Domain and vCPU lifetime: creation, shutdown, crash, destruction, the
 * shared_info page and vcpu_info areas, and the vcpu_op hypercall.
 *
 * A domain that shuts down or crashes stops running at once.  One the
 * toolstack made stays until the toolstack destroys it, as in Xen; the
 * scheduler destroys one built at boot (frees its memory and prints its
 * vCPUs' exit counters) the next time it runs, and every stopped domain
 * once no control domain runs.  When the last domain is gone the machine
 * powers off, so a test run ends by itself.
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/event.h>
#include <xen/grant_table.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <asm/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/time.h>
#include <xen/xmalloc.h>
#include <public/domctl.h>
#include <public/hvm/hvm_vcpu.h>
#include <public/sched.h>
#include <public/vcpu.h>
#include <asm/hvm/hvm.h>
#include <asm/p2m.h>
#include <xen/shutdown.h>

struct domain *domain_list;

/*
 * The most the hypervisor keeps on the heap for one domain (d->xmem.limit,
 * in pages; xen/xmalloc.h), from its configuration: each vCPU (its struct
 * and its VMCS, vLAPIC and PML pages), the domain's APIC-access page, the
 * event channel buckets up to max_evtchn_port (FIFO's 2^17 ports at most)
 * and their table (twice while it grows), FIFO's per-domain state, the
 * grant table's arrays, active pages and maptrack pages for its limits
 * (its shared frames are pages shared with the guest, xenheap_pages), the
 * dirty-block counters of log-dirty, and a transient HVM context buffer.
 * Every one of those is bounded by itself already; the limit is the
 * backstop that stops a leak at the domain that causes it, not at the
 * host.  A new per-domain structure adds its worst case here.
 */
static unsigned long domain_xmem_limit(unsigned int max_vcpus, unsigned int max_evtchn_port,
                                       int max_grant_frames, int max_maptrack_frames)
{
    unsigned long ports = min_t(unsigned long, max_evtchn_port + 1UL, MAX_EVTCHNS);
    unsigned long buckets = DIV_ROUND_UP(ports, EVTCHNS_PER_BUCKET);

    return max_vcpus * (xmalloc_pages_max(sizeof(struct vcpu)) + 3) /* VMCS, vLAPIC, PML */
           + 1                                  /* the APIC-access page */
           + buckets * xmalloc_pages_max(EVTCHNS_PER_BUCKET * sizeof(struct evtchn))
           + 2 * xmalloc_pages_max(buckets * sizeof(struct evtchn *))
           + 2                                  /* FIFO's per-domain and per-vCPU state */
           + gnttab_heap_pages(max_grant_frames, max_maptrack_frames)
           + 2 * xmalloc_pages_max(8192)        /* the dirty-block counters */
           + xmalloc_pages_max(64 * 1024)       /* an HVM context */
           + 8;                                 /* small objects' partial pages */
}

static struct vcpu *vcpu_create(struct domain *d, unsigned int id)
{
    struct vcpu *v = domain_xzalloc(d, struct vcpu);

    if ( !v )
        return NULL;
    v->vcpu_id = id;
    v->domain = d;
    v->vcpu_info = id < XEN_LEGACY_MAX_VCPUS ? &d->shared_info->vcpu_info[id]
                                             : &v->dummy_vcpu_info;
    v->vcpu_info_gfn = INVALID_GFN;
    v->vcpu_info_mfn = INVALID_MFN;
    sched_init_vcpu(v);
    if ( hvm_vcpu_initialise(v) )
    {
        sched_destroy_vcpu(v);
        hvm_vcpu_destroy(v);
        xfree(v);
        return NULL;
    }
    d->vcpu[id] = v;
    if ( id )
        d->vcpu[id - 1]->next_in_list = v;
    return v;
}

/* The guest's frame that held v's vcpu_info is the guest's alone again. */
static void unmap_vcpu_info(struct vcpu *v)
{
    if ( v->vcpu_info_mfn == INVALID_MFN )
        return;
    v->vcpu_info = &v->dummy_vcpu_info;
    put_page(v->vcpu_info_mfn);
    v->vcpu_info_mfn = INVALID_MFN;
}

/*
 * Everything the domain holds goes back (or, for frames another domain
 * still maps, is orphaned: asm/mm.h), in the order things refer to each
 * other: event channels (they name vCPUs), vCPUs (their vcpu_info frames,
 * VMCS, vLAPIC and PML pages), the p2m and log-dirty trie (into the
 * paging pool, then the pool into the heap), the frames, the shared_info
 * page.  Also for a domain domain_create() only half built.
 */
static void domain_teardown(struct domain *d)
{
    unsigned int i;

    watchdog_domain_destroy(d);
    /* Before the vCPUs go: closing a VIRQ port looks at them (as Xen's domain_kill). */
    evtchn_destroy(d);
    if ( d->vcpu )
    {
        for ( i = 0; i < d->max_vcpus; i++ )
        {
            struct vcpu *v = d->vcpu[i];

            if ( !v )
                continue;
            unmap_vcpu_info(v);
            sched_destroy_vcpu(v);
            hvm_vcpu_destroy(v);
            xfree(v);
        }
        xfree(d->vcpu);
        d->vcpu = NULL;
    }
    /* Others' grants we map, then our own table: before the p2m goes. */
    gnttab_release_mappings(d);
    grant_table_destroy(d);
    hvm_domain_destroy(d);
    relinquish_domain_pages(d);
}

/* After domain_teardown(): nothing of the domain's may be left on the heap. */
static void domain_free(struct domain *d)
{
    grant_table_free(d);            /* the table's structure: its lock lived until now */
    if ( d->xmem.pages )
        printk(XENLOG_ERR "d%u: %lu pages of hypervisor heap not freed (leak)\n",
               d->domain_id, d->xmem.pages);
    xfree(d);
}

struct domain *domain_create(domid_t domid, const char *name,
                             unsigned int max_vcpus, bool privileged,
                             const struct xen_domctl_createdomain *config)
{
    unsigned int i, max_evtchn_port;
    struct domain *d, **pp;
    void *shinfo;

    if ( get_domain_by_id(domid) || !max_vcpus )
        return NULL;
    d = xzalloc(struct domain);
    if ( !d )
        return NULL;
    d->domain_id = domid;
    strlcpy(d->name, name, sizeof(d->name));
    d->max_vcpus = max_vcpus;
    d->is_privileged = privileged;
    spin_lock_init(&d->shutdown_lock);
    d->state = DOMSTATE_running;
    page_list_init(&d->page_list);
    /*
     * Xen's bounds from createdomain; the boot domains get Xen's dom0 and
     * dom0less defaults: every port the ABI allows for the control domain,
     * EVTCHN_DEFAULT_MAX_PORT (libxl's 1023) for the others.
     */
    if ( config )
        max_evtchn_port = config->max_evtchn_port;
    else
        max_evtchn_port = privileged ? MAX_EVTCHNS - 1 : EVTCHN_DEFAULT_MAX_PORT;
    d->max_evtchn_port = min_t(unsigned int, max_evtchn_port, MAX_EVTCHNS - 1);
    xmem_pool_init(&d->xmem, domain_xmem_limit(max_vcpus, d->max_evtchn_port,
                                               config ? config->max_grant_frames : -1,
                                               config ? config->max_maptrack_frames : -1));
    watchdog_domain_init(d);

    d->shared_info_gfn = INVALID_GFN;
    d->sched_weight = SCHED_DEFAULT_WEIGHT;
    if ( !(shinfo = alloc_xenheap_page()) )
        goto fail;
    share_xen_page_with_guest(d, virt_to_mfn(shinfo));
    d->shared_info = shinfo;
    if ( hvm_domain_initialise(d) || evtchn_init(d) )
        goto fail;
    if ( grant_table_init(d, config ? config->max_grant_frames : -1,
                          config ? config->max_maptrack_frames : -1,
                          config ? config->grant_opts
                                 : XEN_DOMCTL_GRANT_version(opt_gnttab_max_version)) )
        goto fail;
    update_domain_wallclock_time(d);
    d->vcpu = domain_xzalloc_array(d, struct vcpu *, max_vcpus);
    if ( !d->vcpu )
        goto fail;
    for ( i = 0; i < max_vcpus; i++ )
        if ( !vcpu_create(d, i) )
            goto fail;

    /* Keep the list sorted by domain id. */
    for ( pp = &domain_list; *pp && (*pp)->domain_id < domid; pp = &(*pp)->next_in_list )
        ;
    d->next_in_list = *pp;
    *pp = d;
    return d;

 fail:
    /* Not in the domain list, and it owns no frames yet. */
    domain_teardown(d);
    domain_free(d);
    return NULL;
}

struct domain *get_domain_by_id(domid_t domid)
{
    struct domain *d;

    for_each_domain ( d )
        if ( d->domain_id == domid )
            return d;
    return NULL;
}

struct domain *get_domain_by_any_id(domid_t domid)
{
    return domid == DOMID_SELF ? current->domain : get_domain_by_id(domid);
}

struct vcpu *domain_vcpu(const struct domain *d, unsigned int vcpu_id)
{
    return vcpu_id < d->max_vcpus ? d->vcpu[vcpu_id] : NULL;
}

static const char *shutdown_reason_str(unsigned int reason)
{
    switch ( reason )
    {
    case SHUTDOWN_poweroff: return "poweroff";
    case SHUTDOWN_reboot:   return "reboot";
    case SHUTDOWN_suspend:  return "suspend";
    case SHUTDOWN_crash:    return "crash";
    case SHUTDOWN_watchdog: return "watchdog";
    default:                return "unknown";
    }
}

/*
 * SCHEDOP_shutdown, SCHEDOP_remote_shutdown, the watchdog, a last vCPU
 * going down.  As in Xen the first reason wins.  The domain's vCPUs stop
 * running (vcpu_runnable()); a vCPU that made the hypercall has its return
 * value (0) in its saved rax already, which is where a cooperative resume
 * (xc_domain_resume(fast=1)) puts 1 instead.  A domain the toolstack
 * made, or a suspended one, stays as in Xen, its memory, event channels
 * and timers untouched, until the toolstack resumes (domain_resume()) or
 * destroys it; one built at boot that shut down for another reason is
 * reaped by the scheduler (sched/core.c domain_to_reap()).
 */
void domain_shutdown(struct domain *d, unsigned int reason)
{
    unsigned long flags;

    spin_lock_irqsave(&d->shutdown_lock, flags);
    if ( d->state != DOMSTATE_running )
    {
        spin_unlock_irqrestore(&d->shutdown_lock, flags);
        return;
    }
    d->state = reason == SHUTDOWN_crash ? DOMSTATE_crashed : DOMSTATE_shutdown;
    d->shutdown_code = reason;
    spin_unlock_irqrestore(&d->shutdown_lock, flags);
    guest_console_flush(d);
    printk(XENLOG_INFO "d%u: shutdown: %s\n", d->domain_id, shutdown_reason_str(reason));
    send_global_virq(VIRQ_DOM_EXC);
    raise_resched();
    if ( is_hardware_domain(d) )
        hwdom_shutdown(d, reason);
}

void domain_crash(struct domain *d, const char *fmt, ...)
{
    char msg[256];
    va_list args;
    unsigned long flags;

    spin_lock_irqsave(&d->shutdown_lock, flags);
    if ( d->state != DOMSTATE_running )
    {
        spin_unlock_irqrestore(&d->shutdown_lock, flags);
        return;
    }
    d->state = DOMSTATE_crashed;
    d->shutdown_code = SHUTDOWN_crash;
    spin_unlock_irqrestore(&d->shutdown_lock, flags);
    va_start(args, fmt);
    vsnprintf(msg, sizeof(msg), fmt, args);
    va_end(args);

    guest_console_flush(d);
    printk(XENLOG_G_ERR "Domain %u crashed: %s\n", d->domain_id, msg);
    send_global_virq(VIRQ_DOM_EXC);
    raise_resched();
    if ( is_hardware_domain(d) )
        hwdom_shutdown(d, SHUTDOWN_crash);
}

/*
 * XEN_DOMCTL_resumedomain (Xen's domain_resume): a domain that is shut
 * down runs on from where it stopped -- for a suspended domain, just
 * after its SCHEDOP_shutdown, which returns what its saved rax holds (0,
 * or 1 if the toolstack resumed it cooperatively).  A running domain is
 * left as it is.  Nothing else changes: its memory, event channels,
 * timers and pause count are those it had.
 */
void domain_resume(struct domain *d)
{
    bool resumed = false;
    unsigned int code = 0;
    unsigned long flags;

    spin_lock_irqsave(&d->shutdown_lock, flags);
    if ( d->state == DOMSTATE_shutdown || d->state == DOMSTATE_crashed )
    {
        code = d->shutdown_code;
        d->state = DOMSTATE_running;
        d->shutdown_code = 0;
        resumed = true;
    }
    spin_unlock_irqrestore(&d->shutdown_lock, flags);
    if ( resumed )
        printk(XENLOG_INFO "d%u: resumed (was shut down: %s)\n", d->domain_id,
               shutdown_reason_str(code));
}

/* The heap's free pages before the first domain was built (heap_check()). */
static unsigned long heap_free_at_start;

void domain_heap_baseline(void)
{
    heap_free_at_start = avail_pages() + xmalloc_global_pages();
}

/*
 * With every domain gone, every page a domain caused to be allocated must
 * be back: the heap holds what it held before the first domain was built,
 * give or take what the hypervisor's own small objects (the global xmalloc
 * pool) took or gave back meanwhile.
 */
static void heap_check(void)
{
    unsigned long now = avail_pages() + xmalloc_global_pages();

    if ( now == heap_free_at_start )
        printk(XENLOG_INFO "Memory: all %lu pages back in the heap\n", now);
    else
        printk(XENLOG_ERR "Memory: %ld pages missing from the heap (%lu free, %lu at start, %lu orphaned)\n",
               (long)(heap_free_at_start - now), now, heap_free_at_start, orphaned_pages());
}

void domain_destroy(struct domain *d)
{
    const struct paging_pool *pool = &d->arch.hvm.p2m.pool;
    unsigned long ram = d->tot_pages, shared = d->xenheap_pages, pool_pages = pool->total;
    unsigned long pool_peak = pool->peak, pool_failed = pool->failed;
    unsigned long heap = d->xmem.pages, heap_peak = d->xmem.peak, heap_failed = d->xmem.failed;
    unsigned long free_before = avail_pages();
    struct domain **pp;
    struct vcpu *v;

    guest_console_flush(d);
    for_each_vcpu ( d, v )
        hvm_funcs->dump_exit_counts(v);
    if ( current && current->domain == d )
        current = NULL;
    domain_set_outstanding_pages(d, 0);     /* what it claimed and never took */
    /* Still in the list while its frames go: put_page() finds their owner. */
    domain_teardown(d);
    for ( pp = &domain_list; *pp; pp = &(*pp)->next_in_list )
        if ( *pp == d )
        {
            *pp = d->next_in_list;
            break;
        }
    printk(XENLOG_INFO "d%u: destroyed: %lu RAM + %lu shared pages, paging pool %lu (peak %lu used%s), "
           "heap %lu (peak %lu of %lu%s): %lu pages back in the heap\n",
           d->domain_id, ram, shared, pool_pages, pool_peak, pool_failed ? ", exhausted" : "",
           heap, heap_peak, d->xmem.limit, heap_failed ? ", refused some" : "",
           avail_pages() - free_before);
    domain_free(d);
    send_global_virq(VIRQ_DOM_EXC);

    if ( !domain_list )
    {
        heap_check();
        printk(XENLOG_INFO "Idle: the CPU halted %lu times waiting for work\n", idle_halts);
        printk(XENLOG_INFO "Frames still referenced with no domain left: %lu\n",
               frames_referenced());
        host_end_no_domains();
    }
}

/*
 * Take v down.  As in Xen, a domain whose last vCPU goes down (VCPUOP_down,
 * or HLT with interrupts disabled) is shut down: nothing could ever run it
 * again, and it must not keep the machine up.
 */
void vcpu_down(struct vcpu *v)
{
    struct domain *d = v->domain;
    struct vcpu *o;

    v->is_up = false;
    if ( v == current )
        raise_resched();
    vcpu_runstate_update(v);
    for_each_vcpu ( d, o )
        if ( o->is_up )
            return;
    printk(XENLOG_G_INFO "d%u: all vCPUs offline -- powering off\n", d->domain_id);
    domain_shutdown(d, SHUTDOWN_poweroff);
}

void domain_pause(struct domain *d)
{
    d->pause_count++;
    raise_resched();
}

void domain_unpause(struct domain *d)
{
    if ( d->pause_count )
        d->pause_count--;
}

/* ---- vcpu_info ------------------------------------------------------------ */

/*
 * VCPUOP_register_vcpu_info: the vCPU's vcpu_info moves to guest frame
 * gfn at offset (as Xen: once per vCPU, on the running vCPU or one that
 * is down, in the domain's RAM, not crossing the page end).  As in Xen the
 * hypervisor takes a reference to the frame (get_page_from_gfn), so that
 * it stays allocated, and counted in the domain's tot_pages, whatever the
 * guest later does to that gfn (ballooning it out, mapping shared_info
 * over it), until the domain dies.
 */
int map_vcpu_info(struct vcpu *v, unsigned long gfn, unsigned int offset)
{
    struct domain *d = v->domain;
    struct vcpu_info *new;
    unsigned long mfn;
    p2m_type_t t;

    if ( offset > PAGE_SIZE - sizeof(struct vcpu_info) )
        return -EINVAL;
    if ( v->vcpu_info_gfn != INVALID_GFN )
        return -EINVAL;
    if ( v != current && v->is_up )
        return -EINVAL;
    if ( gfn > p2m_max_gfn() )
        return -EINVAL;
    mfn = get_page_from_gfn(d, gfn, &t);
    if ( mfn == INVALID_MFN )
        return -EINVAL;
    if ( t == p2m_ram_ro )
    {
        put_page(mfn);
        return -EINVAL;
    }

    new = (struct vcpu_info *)((char *)mfn_to_virt(mfn) + offset);
    memcpy(new, v->vcpu_info, sizeof(*new));
    v->vcpu_info = new;
    v->vcpu_info_gfn = gfn;
    v->vcpu_info_mfn = mfn;

    /* As Xen: everything may be pending after the move, let the guest look. */
    new->evtchn_upcall_pending = 1;
    new->evtchn_pending_sel = ~(xen_ulong_t)0;
    update_vcpu_system_time(v);
    p2m_note_hypervisor_write(d, gfn);
    hvm_assert_evtchn_irq(v);
    return 0;
}

/* ---- vm_assist ------------------------------------------------------------ */

/*
 * HVM/PVH guests may only enable the runstate update flag (Xen's mask for
 * HVM).  Runstate areas are written while the guest cannot run (one CPU),
 * so it never sees XEN_RUNSTATE_UPDATE set; enabling it is still honest.
 */
#define HVM_VM_ASSIST_MASK (1UL << VMASST_TYPE_runstate_update_flag)

long do_vm_assist(unsigned int cmd, unsigned int type)
{
    struct domain *d = current->domain;

    if ( type >= 64 || !(HVM_VM_ASSIST_MASK & (1UL << type)) )
        return -EINVAL;
    switch ( cmd )
    {
    case VMASST_CMD_enable:
        d->vm_assist |= 1UL << type;
        return 0;
    case VMASST_CMD_disable:
        d->vm_assist &= ~(1UL << type);
        return 0;
    default:
        return -ENOSYS;
    }
}

/* ---- vcpu_op -------------------------------------------------------------- */

static const char *const vcpuop_names[] = {
    [VCPUOP_send_nmi]                       = "VCPUOP_send_nmi",
    [VCPUOP_get_physid]                     = "VCPUOP_get_physid",
};

long do_vcpu_op(int cmd, unsigned int vcpuid, XEN_GUEST_HANDLE_PARAM(void) arg)
{
    struct domain *d = current->domain;
    struct vcpu *v;

    if ( vcpuid >= d->max_vcpus || !(v = d->vcpu[vcpuid]) )
        return -ENOENT;

    switch ( cmd )
    {
    case VCPUOP_initialise:
    {
        struct vcpu_hvm_context ctx;
        int rc;

        if ( v->is_initialised )
            return -EEXIST;
        if ( copy_from_guest(&ctx, arg, 1) )
            return -EFAULT;
        rc = hvm_funcs->set_context(v, &ctx);
        if ( rc )
            return rc;
        v->is_initialised = true;
        return 0;
    }

    case VCPUOP_up:
        if ( !v->is_initialised )
            return -EINVAL;
        v->is_up = true;
        vcpu_runstate_update(v);
        return 0;

    case VCPUOP_down:
        vcpu_down(v);
        return 0;

    case VCPUOP_is_up:
        return v->is_up;

    case VCPUOP_get_runstate_info:
    {
        struct vcpu_runstate_info r = v->runstate;
        s_time_t delta = NOW() - r.state_entry_time;

        if ( delta > 0 )            /* the current state's time so far */
            r.time[r.state] += delta;
        return copy_to_guest(arg, &r, 1) ? -EFAULT : 0;
    }

    case VCPUOP_register_runstate_memory_area:
    {
        struct vcpu_register_runstate_memory_area area;

        if ( copy_from_guest(&area, arg, 1) )
            return -EFAULT;
        v->runstate_guest = area.addr.h;
        /* As Xen: a first copy now (in the caller's address space), errors ignored. */
        if ( !guest_handle_is_null(v->runstate_guest) )
            copy_to_guest(v->runstate_guest, &v->runstate, 1);
        return 0;
    }

    case VCPUOP_register_vcpu_time_memory_area:
    {
        struct vcpu_register_time_memory_area area;

        if ( copy_from_guest(&area, arg, 1) )
            return -EFAULT;
        v->time_info_guest = area.addr.h;
        update_vcpu_system_time(v);     /* written before v next runs */
        return 0;
    }

    case VCPUOP_register_vcpu_info:
    {
        struct vcpu_register_vcpu_info info;

        if ( copy_from_guest(&info, arg, 1) )
            return -EFAULT;
        if ( info.rsvd )
            return -EINVAL;
        return map_vcpu_info(v, info.mfn, info.offset);
    }

    case VCPUOP_set_singleshot_timer:
    {
        struct vcpu_set_singleshot_timer t;

        if ( copy_from_guest(&t, arg, 1) )
            return -EFAULT;
        return vcpu_set_singleshot_timer(v, &t);
    }

    case VCPUOP_stop_singleshot_timer:
        if ( v != current )
            return -EINVAL;
        stop_timer(&v->singleshot_timer);
        return 0;

    case VCPUOP_set_periodic_timer:
    {
        struct vcpu_set_periodic_timer t;

        if ( copy_from_guest(&t, arg, 1) )
            return -EFAULT;
        return vcpu_set_periodic_timer(v, t.period_ns);
    }

    case VCPUOP_stop_periodic_timer:
        v->periodic_period = 0;
        stop_timer(&v->periodic_timer);
        return 0;

    default:
        return subop_enosys(__HYPERVISOR_vcpu_op, cmd,
                            cmd >= 0 && (unsigned int)cmd < ARRAY_SIZE(vcpuop_names)
                                       ? vcpuop_names[cmd] : NULL);
    }
}
