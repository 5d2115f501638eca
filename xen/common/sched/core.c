/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scheduler: every vCPU of every domain shares the one physical CPU,
 * round robin, with a time slice.
 *
 * A vCPU leaves the CPU when its slice ends (the slice timer, or the VMX
 * preemption timer in guest mode), when it yields (SCHEDOP_yield, or a
 * PAUSE-loop exit, as Xen does), when it blocks (SCHEDOP_block,
 * SCHEDOP_poll, HLT) or when its domain stops.  The next vCPU is the first
 * runnable one after the previous in (domain id, vCPU id) order, so a
 * yield always hands the CPU to someone else if anyone can run.
 *
 * Blocked vCPUs are woken by events (vcpu_wake() from the event channel
 * code) and by timers.  Timers run from TIMER_SOFTIRQ before every VM
 * entry and in the idle loop; when nothing can run the CPU halts with the
 * local APIC timer set for the earliest timer, so an idle machine sleeps.
 */
#include <xen/errno.h>
#include <xen/event.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/param.h>
#include <xen/percpu.h>
#include <xen/sched.h>
#include <xen/softirq.h>
#include <xen/time.h>
#include <xen/timer.h>
#include <xen/xmalloc.h>
#include <public/sched.h>
#include <public/vcpu.h>
#include <asm/apic.h>
#include <asm/irq.h>
#include <asm/mm.h>
#include <asm/processor.h>
#include <asm/time.h>

/* Time slice in milliseconds (Xen's credit scheduler default: 30 ms). */
static unsigned int sched_credit_tslice_ms = 30;
integer_param("sched_credit_tslice_ms", sched_credit_tslice_ms);

static uint64_t tslice_ticks;

/* What the scheduler keeps for each physical CPU (Xen's struct sched_resource). */
struct sched_resource {
    bool resched_pending;       /* leave the guest and pick again */
    uint64_t slice_deadline;    /* TSC at which the current slice ends */
    struct timer s_timer;       /* ends the current slice */
    struct vcpu *prev;          /* ran last: the round robin goes on after it */
};
static DEFINE_PER_CPU(struct sched_resource, sched_res);
#define this_sched() (&this_cpu(sched_res))

/*
 * How close to the end of its slice a vCPU is no longer entered.  The timer
 * interrupt ends a slice by exiting the guest; one that falls due while the
 * hypervisor runs is taken before the next entry (sched_may_enter_guest), and
 * a slice with less than this left is not worth an entry.
 */
#define SLICE_ENTRY_MARGIN 1000

static void update_runstate_area(struct vcpu *v);
static void vcpu_periodic_resume(struct vcpu *v);

uint64_t sched_slice_deadline(void)
{
    uint64_t next = stime_to_tsc(timer_next_deadline());

    /* Leave the guest for the earliest timer too: it may have work for it. */
    return next < this_sched()->slice_deadline ? next : this_sched()->slice_deadline;
}

bool sched_may_enter_guest(void)
{
    do_softirq();
    if ( current )
    {
        update_runstate_area(current);
        update_guest_time_area(current);
    }
    if ( !this_sched()->resched_pending &&
         rdtsc() + SLICE_ENTRY_MARGIN >= this_sched()->slice_deadline )
        raise_resched();
    return !this_sched()->resched_pending;
}

void raise_resched(void)
{
    this_sched()->resched_pending = true;
}

bool vcpu_runnable(const struct vcpu *v)
{
    const struct domain *d = v->domain;

    return v->is_up && v->is_initialised && !v->is_blocked &&
           d->state == DOMSTATE_running && !d->pause_count;
}

void vcpu_yield(void)
{
    raise_resched();
}

/* ---- runstate accounting (VCPUOP_get_runstate_info and the guest area) ---- */

static void vcpu_runstate_change(struct vcpu *v, int new_state)
{
    s_time_t now = NOW(), delta = now - v->runstate.state_entry_time;

    if ( v->runstate.state == new_state )
        return;
    if ( delta > 0 )
        v->runstate.time[v->runstate.state] += delta;
    v->runstate.state_entry_time = now;
    v->runstate.state = new_state;
}

void vcpu_runstate_update(struct vcpu *v)
{
    if ( v->is_running )
        return;
    vcpu_runstate_change(v, !v->is_up ? RUNSTATE_offline :
                            v->is_blocked ? RUNSTATE_blocked : RUNSTATE_runnable);
}

/* Called before entry, in the vCPU's own context (its page tables). */
static void update_runstate_area(struct vcpu *v)
{
    if ( !v->runstate_guest_stale )
        return;
    v->runstate_guest_stale = false;
    if ( !guest_handle_is_null(v->runstate_guest) )
        copy_to_guest(v->runstate_guest, &v->runstate, 1);
}

void vcpu_block(struct vcpu *v)
{
    v->is_blocked = true;
    if ( v == current )
        raise_resched();
    vcpu_runstate_update(v);
}

void vcpu_wake(struct vcpu *v)
{
    v->is_blocked = false;
    vcpu_runstate_update(v);
    if ( v->is_polling )
    {
        v->is_polling = false;
        v->poll_evtchn = 0;
        stop_timer(&v->poll_timer);
    }
}

static void s_timer_fn(void *unused)
{
    raise_resched();                    /* the slice is over */
}

/* The vCPU after v in (domain, vCPU) order, wrapping around; NULL if none exist. */
static struct vcpu *next_vcpu(struct vcpu *v)
{
    struct domain *d;

    if ( v && v->next_in_list )
        return v->next_in_list;
    d = v ? v->domain->next_in_list : NULL;
    if ( !d )
        d = domain_list;
    return d ? d->vcpu[0] : NULL;
}

/*
 * Domain watchdogs (SCHEDOP_watchdog, Xen's semantics): a domain that does
 * not re-arm its watchdog in time is shut down with SHUTDOWN_watchdog.
 * This is what ends a guest that hangs (spinning on one instruction, say)
 * when no toolstack is there to destroy it.
 */
static void domain_watchdog_timeout(void *data)
{
    struct domain *d = data;

    printk(XENLOG_G_INFO "Watchdog timer fired for domain %u\n", d->domain_id);
    domain_shutdown(d, SHUTDOWN_watchdog);
}

void watchdog_domain_init(struct domain *d)
{
    unsigned int i;

    d->watchdog_inuse_map = 0;
    for ( i = 0; i < NR_DOMAIN_WATCHDOG_TIMERS; i++ )
        init_timer(&d->watchdog_timer[i], domain_watchdog_timeout, d, 0);
}

void watchdog_domain_destroy(struct domain *d)
{
    unsigned int i;

    for ( i = 0; i < NR_DOMAIN_WATCHDOG_TIMERS; i++ )
        kill_timer(&d->watchdog_timer[i]);
}

static long domain_watchdog(struct domain *d, uint32_t id, uint32_t timeout)
{
    /* Seconds; at most about 292 years of system time, which never comes. */
    s_time_t expires = NOW() + (timeout > 0x7fffffffU ? STIME_MAX / 2
                                                      : (s_time_t)timeout * 1000000000LL);

    if ( id > NR_DOMAIN_WATCHDOG_TIMERS )
        return -EINVAL;
    if ( id == 0 )
    {
        for ( id = 0; id < NR_DOMAIN_WATCHDOG_TIMERS; id++ )
            if ( !(d->watchdog_inuse_map & (1u << id)) )
            {
                d->watchdog_inuse_map |= 1u << id;
                set_timer(&d->watchdog_timer[id], expires);
                return id + 1;
            }
        return -ENOSPC;
    }
    id--;
    if ( !(d->watchdog_inuse_map & (1u << id)) )
        return -EINVAL;
    if ( timeout == 0 )
    {
        stop_timer(&d->watchdog_timer[id]);
        d->watchdog_inuse_map &= ~(1u << id);
    }
    else
        set_timer(&d->watchdog_timer[id], expires);
    return 0;
}

/*
 * Whether the scheduler destroys d now (before idling; a timer may have
 * shut it down).  One the toolstack destroyed (dying) goes at once.  A
 * domain that shut down or crashed stays, as in Xen, for its toolstack to
 * destroy, resume or read (getdomaininfo's shutdown code, @releaseDomain)
 * if the toolstack made it (toolstack_owned), and if it is suspended
 * whoever made it.  Beyond Xen: a stopped domain built at boot is
 * destroyed here (no toolstack made it), and so is every stopped domain
 * once no control domain is running to destroy it, so that a test run
 * ends by itself (docs/misc/dom0-abi.md, "Domain lifetime").  control is
 * whether a control domain is running, found once per pass by the caller.
 */
static bool domain_to_reap(const struct domain *d, bool control)
{
    if ( d->state == DOMSTATE_dying )
        return true;
    if ( d->state == DOMSTATE_running )
        return false;
    if ( (d->toolstack_owned || domain_is_suspended(d)) && control )
        return false;
    return true;
}

static bool domains_to_reap(void)
{
    bool control = running_control_domain();
    struct domain *d;

    for_each_domain ( d )
        if ( domain_to_reap(d, control) )
            return true;
    return false;
}

static struct vcpu *pick_next(struct vcpu *prev)
{
    struct vcpu *start = next_vcpu(prev), *v = start;

    if ( !v )
        return NULL;
    do {
        if ( vcpu_runnable(v) )
            return v;
        v = next_vcpu(v);
    } while ( v && v != start );
    return NULL;
}

/* Destroy the domains that have shut down or crashed. */
static void reap_domains(void)
{
    bool control = running_control_domain();
    struct domain *d, *next;

    for ( d = domain_list; d; d = next )
    {
        next = d->next_in_list;
        if ( domain_to_reap(d, control) )
            domain_destroy(d);      /* powers off after the last one */
    }
}

/*
 * dump_domains_ms=N (0, the default: never): every N ms of system time,
 * print every vCPU's scheduling, event and interrupt state (Xen's debug
 * key 'q' output, roughly).  For finding out why a guest stopped making
 * progress when there is no console to press a key on.
 */
static unsigned int dump_domains_ms;
integer_param("dump_domains_ms", dump_domains_ms);
static struct timer dump_timer;

/* Times the idle loop halted the CPU (a busy-waiting idle loop would not). */
unsigned long idle_halts;

static long timer_left(const struct timer *t)
{
    return timer_is_active(t) ? (long)(t->expires - NOW()) : -1;
}

void dump_domains(void)
{
    struct domain *d;
    struct vcpu *v;

    printk("*** Dumping domains at %ld ns (idle halts %lu)\n", (long)NOW(), idle_halts);
    /*
     * Exact, for a toolstack's test that every frame of a dead domain came
     * back: the heap's free pages and the hypervisor's own small-object
     * pool (which comes and goes with no domain's doing: heap_check()'s
     * sum), and the frames of destroyed domains someone still holds.
     */
    printk("*** heap: %lu free pages (%lu in the heap, %lu in the global pool), %lu orphaned\n",
           avail_pages() + xmalloc_global_pages(), avail_pages(), xmalloc_global_pages(),
           orphaned_pages());
    for ( d = domain_list; d; d = d->next_in_list )
    {
        const struct shared_info *s = d->shared_info;

        printk("d%u %s state %d pause %u evtchn_pending[0] %#lx mask[0] %#lx\n",
               d->domain_id, d->name, d->state, d->pause_count,
               s ? (unsigned long)s->evtchn_pending[0] : 0UL,
               s ? (unsigned long)s->evtchn_mask[0] : 0UL);
        evtchn_dump(d);
        for_each_vcpu ( d, v )
        {
            const struct vcpu_info *vi = v->vcpu_info;

            printk("  d%uv%u up %d blocked %d polling %d running %d "
                   "upcall pending %u mask %u sel %#lx virq_timer %u "
                   "singleshot %ld periodic %ld poll %ld ns\n",
                   d->domain_id, v->vcpu_id, v->is_up, v->is_blocked, v->is_polling,
                   v->is_running, vi->evtchn_upcall_pending, vi->evtchn_upcall_mask,
                   (unsigned long)vi->evtchn_pending_sel, v->virq_to_evtchn[VIRQ_TIMER],
                   timer_left(&v->singleshot_timer), timer_left(&v->periodic_timer),
                   timer_left(&v->poll_timer));
            arch_dump_vcpu_info(v);
        }
    }
}

static void dump_timer_fn(void *unused)
{
    dump_domains();
    set_timer(&dump_timer, NOW() + MILLISECS(dump_domains_ms));
}

void scheduler_init(void)
{
    tslice_ticks = (uint64_t)sched_credit_tslice_ms * cpu_khz;
    if ( !tslice_ticks )
        tslice_ticks = cpu_khz;
    init_timer(&this_sched()->s_timer, s_timer_fn, NULL, smp_processor_id());
    printk(XENLOG_INFO "Scheduler: round robin, time slice %u ms (%lu TSC ticks)\n",
           sched_credit_tslice_ms, (unsigned long)tslice_ticks);
    init_timer(&dump_timer, dump_timer_fn, NULL, 0);
    if ( dump_domains_ms )
        set_timer(&dump_timer, NOW() + MILLISECS(dump_domains_ms));
}


noreturn void scheduler_run(void)
{
    struct sched_resource *sr = this_sched();
    struct vcpu *v;
    bool warned_idle = false;

    for ( ;; )
    {
        reap_domains();

        do_softirq();               /* expired timers may wake someone */
        v = pick_next(sr->prev);
        if ( !v )
        {
            /*
             * Idle: sleep until the next interrupt, the APIC timer being
             * set (by TIMER_SOFTIRQ) for the earliest timer.  The check and
             * the halt are atomic (interrupts off for the check, then
             * STI; HLT, whose shadow covers the HLT).
             */
            stop_timer(&sr->s_timer);
            do_softirq();
            if ( domains_to_reap() )
                continue;
            /*
             * Said once per boot: with console input on the UART's
             * interrupt, idling with no timer armed is the normal state of
             * a dom0 waiting for a key, not a warning each time.
             */
            if ( timer_next_deadline() == STIME_MAX && !warned_idle )
            {
                printk(XENLOG_INFO "All vCPUs are blocked with no timer pending: idling until an interrupt\n");
                warned_idle = true;
            }
            idle_halts++;
            local_irq_disable();
            if ( !softirq_pending(smp_processor_id()) )
                safe_halt();        /* returns with interrupts enabled */
            else
                local_irq_enable();
            sr->resched_pending = false;
            continue;
        }

        if ( v != current )
            context_switch(current, v);
        set_current(v);
        v->is_running = true;
        sr->resched_pending = false;
        v->last_start = rdtsc();
        sr->slice_deadline = v->last_start + tslice_ticks;
        set_timer(&sr->s_timer, tsc_to_stime(sr->slice_deadline));
        vcpu_periodic_resume(v);
        update_vcpu_system_time(v);
        vcpu_runstate_change(v, RUNSTATE_running);
        v->runstate_guest_stale = true;

        arch_vcpu_run(v);

        if ( current == v )         /* not destroyed underneath us */
        {
            v->is_running = false;
            vcpu_runstate_update(v);
            v->runtime += rdtsc() - v->last_start;
            sr->prev = v;
        }
    }
}

/* ---- blocking, polling and the vCPU timers ---------------------------------- */

/*
 * SCHEDOP_block: enable event delivery and block until an event is
 * pending.  The check comes after the vCPU is marked blocked, and events
 * are only raised from hypervisor context on this one CPU, so an event
 * cannot slip in between: either it is seen here or it wakes the vCPU.
 */
void vcpu_block_enable_events(struct vcpu *v)
{
    v->vcpu_info->evtchn_upcall_mask = 0;
    vcpu_block(v);
    if ( vcpu_events_pending(v) )
        vcpu_wake(v);
}

/* Xen's limit on the ports one SCHEDOP_poll may name. */
#define SCHED_POLL_MAX_PORTS 128

static long do_poll(struct vcpu *v, const struct sched_poll *p)
{
    struct domain *d = v->domain;
    evtchn_port_t port = 0;
    unsigned int i;

    if ( p->nr_ports > SCHED_POLL_MAX_PORTS )
        return -EINVAL;

    for ( i = 0; i < p->nr_ports; i++ )
    {
        if ( copy_from_guest_offset(&port, p->ports, i, 1) )
            return -EFAULT;
        if ( !evtchn_port_valid(d, port) )
            return -EINVAL;
        if ( evtchn_port_is_pending(d, port) )
            return 0;
    }

    v->is_polling = true;
    v->poll_evtchn = p->nr_ports == 1 ? (int)port : -1;
    vcpu_block(v);
    if ( p->timeout )
        set_timer(&v->poll_timer, p->timeout);
    return 0;
}

static void poll_timer_fn(void *data)
{
    struct vcpu *v = data;

    if ( v->is_polling )
        vcpu_wake(v);
}

static void vcpu_singleshot_timer_fn(void *data)
{
    struct vcpu *v = data;

    update_vcpu_system_time(v);
    send_guest_vcpu_virq(v, VIRQ_TIMER);
}

/*
 * The periodic VIRQ_TIMER re-arms itself only while its vCPU runs.  One
 * that is not running (descheduled, or blocked: the tick wakes it) gets
 * this tick and no more until it runs again (vcpu_periodic_resume), so a
 * domain's periodic timers cost the host one tick per period of each vCPU
 * it runs and one per vCPU otherwise (docs/misc/security.md).  Xen stops
 * the periodic timer of a descheduled vCPU outright (and so never wakes a
 * blocked one with it); this keeps the wake-up.
 */
static void vcpu_periodic_timer_fn(void *data)
{
    struct vcpu *v = data;
    s_time_t now = NOW(), next = v->periodic_timer.expires + v->periodic_period;

    update_vcpu_system_time(v);
    send_guest_vcpu_virq(v, VIRQ_TIMER);
    v->periodic_ticks++;
    if ( v->is_running )
        set_timer(&v->periodic_timer, next > now ? next : now + v->periodic_period);
    else
        v->periodic_ticks_off++;
}

/* v is about to run: re-arm its periodic timer if it stopped while v did not. */
static void vcpu_periodic_resume(struct vcpu *v)
{
    s_time_t now = NOW(), next;

    if ( !v->periodic_period || timer_is_active(&v->periodic_timer) )
        return;
    /* The tick it missed is pending already: the next one on the grid. */
    next = v->periodic_timer.expires + v->periodic_period;
    if ( next <= now )
        next += ((now - next) / v->periodic_period + 1) * v->periodic_period;
    set_timer(&v->periodic_timer, next);
}

void sched_init_vcpu(struct vcpu *v)
{
    v->runstate.state = RUNSTATE_offline;
    v->runstate.state_entry_time = NOW();
    init_timer(&v->poll_timer, poll_timer_fn, v, 0);
    init_timer(&v->singleshot_timer, vcpu_singleshot_timer_fn, v, 0);
    init_timer(&v->periodic_timer, vcpu_periodic_timer_fn, v, 0);
}

void sched_destroy_vcpu(struct vcpu *v)
{
    unsigned int cpu;

    /* Never look at a destroyed vCPU again (it was read after free). */
    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
        if ( cpu_has_percpu_area(cpu) && per_cpu(sched_res, cpu).prev == v )
            per_cpu(sched_res, cpu).prev = NULL;
    kill_timer(&v->poll_timer);
    kill_timer(&v->singleshot_timer);
    kill_timer(&v->periodic_timer);
    if ( v->periodic_ticks )
        printk(XENLOG_INFO "d%uv%u VIRQ_TIMER periodic: %lu ticks, %lu while not running\n",
               v->domain->domain_id, v->vcpu_id, v->periodic_ticks, v->periodic_ticks_off);
}

/* VCPUOP_set_singleshot_timer: deliver VIRQ_TIMER at an absolute system time. */
long vcpu_set_singleshot_timer(struct vcpu *v, const struct vcpu_set_singleshot_timer *t)
{
    if ( v != current )
        return -EINVAL;
    if ( (t->flags & VCPU_SSHOTTMR_future) && t->timeout_abs_ns < (uint64_t)NOW() )
        return -ETIME;
    set_timer(&v->singleshot_timer,
              t->timeout_abs_ns > (uint64_t)STIME_MAX ? STIME_MAX : (s_time_t)t->timeout_abs_ns);
    return 0;
}

/* Xen's bounds on VCPUOP_set_periodic_timer's period. */
#define PERIODIC_MIN MILLISECS(1)

long vcpu_set_periodic_timer(struct vcpu *v, uint64_t period_ns)
{
    if ( period_ns < (uint64_t)PERIODIC_MIN || period_ns > (uint64_t)SECONDS(3600) )
        return -EINVAL;
    v->periodic_period = period_ns;
    set_timer(&v->periodic_timer, NOW() + v->periodic_period);
    return 0;
}

static const char *const schedop_names[] = {
    [SCHEDOP_poll]          = "SCHEDOP_poll",
    [SCHEDOP_shutdown_code] = "SCHEDOP_shutdown_code",
    [SCHEDOP_watchdog]      = "SCHEDOP_watchdog",
    [SCHEDOP_pin_override]  = "SCHEDOP_pin_override",
};

long do_sched_op(int cmd, XEN_GUEST_HANDLE_PARAM(void) arg)
{
    struct vcpu *v = current;

    switch ( cmd )
    {
    case SCHEDOP_yield:
        vcpu_yield();
        return 0;

    case SCHEDOP_block:
        vcpu_block_enable_events(v);
        return 0;

    case SCHEDOP_poll:
    {
        struct sched_poll p;

        if ( copy_from_guest(&p, arg, 1) )
            return -EFAULT;
        return do_poll(v, &p);
    }

    case SCHEDOP_shutdown:
    {
        struct sched_shutdown s;

        if ( copy_from_guest(&s, arg, 1) )
            return -EFAULT;
        domain_shutdown(v->domain, s.reason);
        return 0;
    }

    case SCHEDOP_watchdog:
    {
        struct sched_watchdog w;

        if ( copy_from_guest(&w, arg, 1) )
            return -EFAULT;
        return domain_watchdog(v->domain, w.id, w.timeout);
    }

    case SCHEDOP_remote_shutdown:
    {
        struct sched_remote_shutdown s;
        struct domain *d;

        if ( copy_from_guest(&s, arg, 1) )
            return -EFAULT;
        if ( !is_control_domain(v->domain) )
            return -EPERM;
        if ( !(d = get_domain_by_id(s.domain_id)) )
            return -ESRCH;
        domain_shutdown(d, s.reason);
        return 0;
    }

    default:
        return subop_enosys(__HYPERVISOR_sched_op, cmd,
                            cmd >= 0 && (unsigned int)cmd < ARRAY_SIZE(schedop_names)
                                       ? schedop_names[cmd] : NULL);
    }
}
