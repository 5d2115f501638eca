/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scheduler: every vCPU of every domain shares the one physical CPU,
 * round robin, with a time slice enforced by the local APIC timer.
 *
 * A vCPU leaves the CPU when its slice ends (timer interrupt), when it
 * yields (SCHEDOP_yield, or a PAUSE-loop exit, as Xen does), when it
 * blocks (SCHEDOP_block, HLT) or when its domain stops.  The next vCPU is
 * the first runnable one after the previous in (domain id, vCPU id) order,
 * so a yield always hands the CPU to someone else if anyone can run.
 * Blocked vCPUs with a wake-up deadline are woken by the same timer.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/param.h>
#include <xen/sched.h>
#include <public/sched.h>
#include <asm/apic.h>
#include <asm/hvm/hvm.h>
#include <asm/irq.h>
#include <asm/processor.h>
#include <asm/time.h>

/* Time slice in milliseconds (Xen's credit scheduler default: 30 ms). */
static unsigned int sched_credit_tslice_ms = 30;
integer_param("sched_credit_tslice_ms", sched_credit_tslice_ms);

struct vcpu *current;
static bool resched_pending;
static uint64_t tslice_ticks;
static uint64_t slice_deadline;         /* TSC at which the current slice ends */

/*
 * How close to the end of its slice a vCPU is no longer entered.  The timer
 * interrupt ends a slice by exiting the guest; one that falls due while the
 * hypervisor runs is taken before the next entry (sched_may_enter_guest), and
 * a slice with less than this left is not worth an entry.
 */
#define SLICE_ENTRY_MARGIN 1000

uint64_t sched_slice_deadline(void)
{
    return slice_deadline;
}

bool sched_may_enter_guest(void)
{
    process_pending_irqs();
    if ( !resched_pending && rdtsc() + SLICE_ENTRY_MARGIN >= slice_deadline )
        raise_resched();
    return !resched_pending;
}

void raise_resched(void)
{
    resched_pending = true;
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

void vcpu_block(struct vcpu *v, uint64_t deadline)
{
    v->is_blocked = true;
    v->wake_deadline = deadline;
    if ( v == current )
        raise_resched();
}

void vcpu_wake(struct vcpu *v)
{
    v->is_blocked = false;
    v->wake_deadline = 0;
}

static void timer_interrupt(struct cpu_user_regs *regs)
{
    ack_APIC_irq();
    raise_resched();
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

/* Wake expired sleepers; return the earliest pending wake-up (0: none). */
static uint64_t wake_sleepers(uint64_t now)
{
    uint64_t earliest = 0;
    struct domain *d;
    struct vcpu *v;

    for_each_domain ( d )
        for_each_vcpu ( d, v )
        {
            if ( !v->is_blocked || !v->wake_deadline )
                continue;
            if ( v->wake_deadline <= now )
                vcpu_wake(v);
            else if ( !earliest || v->wake_deadline < earliest )
                earliest = v->wake_deadline;
        }
    return earliest;
}

/*
 * Domain watchdogs (SCHEDOP_watchdog): a domain that does not re-arm its
 * watchdog in time is shut down with SHUTDOWN_watchdog, as in Xen.  This
 * is what ends a guest that hangs (spinning on one instruction, say) when
 * no toolstack is there to destroy it.  Returns the earliest deadline.
 */
static uint64_t check_watchdogs(uint64_t now)
{
    uint64_t earliest = 0;
    struct domain *d;
    unsigned int i;

    for_each_domain ( d )
        for ( i = 0; i < NR_DOMAIN_WATCHDOG_TIMERS; i++ )
        {
            uint64_t t = d->watchdog_deadline[i];

            if ( !t || d->state != DOMSTATE_running )
                continue;
            if ( t <= now )
            {
                printk(XENLOG_G_INFO "Watchdog timer fired for domain %u\n", d->domain_id);
                d->watchdog_deadline[i] = 0;
                domain_shutdown(d, SHUTDOWN_watchdog);
            }
            else if ( !earliest || t < earliest )
                earliest = t;
        }
    return earliest;
}

static long domain_watchdog(struct domain *d, uint32_t id, uint32_t timeout)
{
    uint64_t now = rdtsc(), ticks, deadline;

    /* Seconds to TSC ticks, saturating: a huge timeout simply never fires. */
    if ( timeout > (~0ULL - now) / 1000 / (cpu_khz ?: 1) )
        ticks = ~0ULL - now;
    else
        ticks = (uint64_t)timeout * 1000 * cpu_khz;
    deadline = now + ticks;

    if ( id > NR_DOMAIN_WATCHDOG_TIMERS )
        return -EINVAL;
    if ( id == 0 )
    {
        for ( id = 0; id < NR_DOMAIN_WATCHDOG_TIMERS; id++ )
            if ( !d->watchdog_deadline[id] )
            {
                d->watchdog_deadline[id] = deadline ?: 1;
                return id + 1;
            }
        return -ENOSPC;
    }
    if ( !d->watchdog_deadline[id - 1] )
        return -EINVAL;
    d->watchdog_deadline[id - 1] = timeout ? deadline : 0;
    return 0;
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
    struct domain *d, *next;

    for ( d = domain_list; d; d = next )
    {
        next = d->next_in_list;
        if ( d->state != DOMSTATE_running )
            domain_destroy(d);      /* powers off after the last one */
    }
}

void scheduler_init(void)
{
    tslice_ticks = (uint64_t)sched_credit_tslice_ms * cpu_khz;
    if ( !tslice_ticks )
        tslice_ticks = cpu_khz;
    set_irq_handler(LOCAL_TIMER_VECTOR, timer_interrupt);
    printk(XENLOG_INFO "Scheduler: round robin, time slice %u ms (%lu TSC ticks)\n",
           sched_credit_tslice_ms, (unsigned long)tslice_ticks);
}

noreturn void scheduler_run(void)
{
    struct vcpu *prev = NULL, *v;
    bool warned_idle = false;

    for ( ;; )
    {
        uint64_t now, wake, dog;

        dog = check_watchdogs(rdtsc());     /* may shut domains down: before reaping */
        reap_domains();
        if ( prev && !get_domain_by_id(prev->domain->domain_id) )
            prev = NULL;            /* its domain was destroyed */

        now = rdtsc();
        wake = wake_sleepers(now);
        if ( dog && (!wake || dog < wake) )
            wake = dog;
        v = pick_next(prev);
        if ( !v )
        {
            if ( !wake && !warned_idle )
            {
                printk(XENLOG_WARNING "All vCPUs are blocked with no wake-up pending: idling\n");
                warned_idle = true;
            }
            reprogram_timer(wake);
            safe_halt();
            local_irq_disable();
            resched_pending = false;
            continue;
        }
        warned_idle = false;

        if ( v != current )
            hvm_context_switch(current, v);
        current = v;
        v->is_running = true;
        resched_pending = false;
        v->last_start = rdtsc();
        slice_deadline = v->last_start + tslice_ticks;
        reprogram_timer(slice_deadline);

        hvm_funcs->do_resume(v);

        if ( current == v )         /* not destroyed underneath us */
        {
            v->is_running = false;
            v->runtime += rdtsc() - v->last_start;
            prev = v;
        }
    }
}

long do_sched_op(int cmd, unsigned long arg)
{
    struct vcpu *v = current;

    switch ( cmd )
    {
    case SCHEDOP_yield:
        vcpu_yield();
        return 0;

    case SCHEDOP_block:
        /* Until an event is pending; no event source exists yet. */
        vcpu_block(v, 0);
        return 0;

    case SCHEDOP_shutdown:
    {
        struct sched_shutdown s;

        if ( copy_from_guest(&s, arg, sizeof(s)) )
            return -EFAULT;
        domain_shutdown(v->domain, s.reason);
        return 0;
    }

    case SCHEDOP_watchdog:
    {
        struct sched_watchdog w;

        if ( copy_from_guest(&w, arg, sizeof(w)) )
            return -EFAULT;
        return domain_watchdog(v->domain, w.id, w.timeout);
    }

    case SCHEDOP_remote_shutdown:
    {
        struct sched_remote_shutdown s;
        struct domain *d;

        if ( copy_from_guest(&s, arg, sizeof(s)) )
            return -EFAULT;
        if ( !is_control_domain(v->domain) )
            return -EPERM;
        if ( !(d = get_domain_by_id(s.domain_id)) )
            return -ESRCH;
        domain_shutdown(d, s.reason);
        return 0;
    }

    default:
        return -ENOSYS;
    }
}
