/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypervisor timers.
 *
 * Each CPU has its own timers (Xen keeps a heap per CPU; with a handful of
 * timers per vCPU a list sorted by deadline is as good), under that CPU's
 * timer lock.  A timer belongs to the CPU init_timer() or migrate_timer()
 * named (timer->cpu) and its function runs there.  set_timer() and
 * stop_timer() may be called from any CPU: they take the owner's lock,
 * edit its list and raise TIMER_SOFTIRQ on the owner (an event-check IPI
 * if that is another CPU) when the earliest deadline changed; the softirq
 * runs every expired timer of its CPU and programs that CPU's local APIC
 * timer for the next one.  Timer functions run with interrupts disabled,
 * without the lock, and may set timers, their own included.  kill_timer()
 * returns only once the function is not running on another CPU (Xen's
 * timers.running), so the caller may free what the timer points to; a
 * timer function may kill its own timer (it is not waited for on its own
 * CPU).
 *
 * Bounds (docs/misc/security.md), as in Xen's timer_softirq_action():
 *  - one pass reads NOW() once and runs only the timers that had expired
 *    by then, each at most once: they are cut off the list before the
 *    first one runs, so a timer function that re-arms its timer at or
 *    before now (a periodic timer that fell behind, say) puts it back on
 *    the list for the next pass, never into this one;
 *  - the next pass is not programmed earlier than timer_slop ns after the
 *    end of this one (Xen's timer_slop, 50 us by default), so between two
 *    passes the CPU always gets back to what it was doing.
 * A timer set from outside a pass (a guest's WRMSR, a hypercall) with a
 * new earliest deadline still raises TIMER_SOFTIRQ at once: that costs
 * the caller's own time.
 */
#include <xen/lib.h>
#include <xen/param.h>
#include <xen/percpu.h>
#include <xen/smp.h>
#include <xen/softirq.h>
#include <xen/spinlock.h>
#include <xen/timer.h>
#include <asm/apic.h>
#include <asm/processor.h>

/* Xen's timer_slop: the least distance between two timer passes, in ns. */
static unsigned int timer_slop = 50000;
integer_param("timer_slop", timer_slop);

struct timers {
    spinlock_t lock;                /* LOCK_LEVEL_TIMER */
    struct timer *list;             /* active timers, earliest first */
    struct timer *due;              /* this pass's expired timers, in order */
    bool in_pass;                   /* timer_softirq_action() is running */
    struct timer *running;          /* the timer whose function runs now */
    s_time_t pass_floor;            /* no hardware deadline before this */
};
static DEFINE_PER_CPU(struct timers, timers);

/*
 * Lock the CPU the timer belongs to.  Re-checked under the lock: a
 * migrate_timer() on another CPU may have moved it meanwhile.
 */
static struct timers *timer_lock(struct timer *timer, unsigned long *flags)
{
    for ( ;; )
    {
        unsigned int cpu = ACCESS_ONCE(timer->cpu);
        struct timers *ts = &per_cpu(timers, cpu);

        spin_lock_irqsave(&ts->lock, *flags);
        if ( timer->cpu == cpu )
            return ts;
        spin_unlock_irqrestore(&ts->lock, *flags);
    }
}

/* Unlink from whichever list holds it (the due list while a pass runs). */
static void list_remove(struct timers *ts, struct timer *timer)
{
    struct timer **heads[] = { &ts->list, &ts->due };
    struct timer **pp;
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(heads); i++ )
        for ( pp = heads[i]; *pp; pp = &(*pp)->list_next )
            if ( *pp == timer )
            {
                *pp = timer->list_next;
                goto out;
            }
 out:
    timer->list_next = NULL;
    timer->status = TIMER_STATUS_inactive;
}

/* Insert in deadline order (after timers with the same deadline). */
static void list_add(struct timers *ts, struct timer *timer)
{
    struct timer **pp = &ts->list;

    while ( *pp && (*pp)->expires <= timer->expires )
        pp = &(*pp)->list_next;
    timer->list_next = *pp;
    *pp = timer;
    timer->status = TIMER_STATUS_in_list;
}

void init_timer(struct timer *timer, void (*function)(void *data), void *data,
                unsigned int cpu)
{
    BUG_ON(cpu >= NR_CPUS || !cpu_has_percpu_area(cpu));
    timer->cpu = cpu;
    timer->expires = 0;
    timer->list_next = NULL;
    timer->function = function;
    timer->data = data;
    timer->status = TIMER_STATUS_inactive;
}

void set_timer(struct timer *timer, s_time_t expires)
{
    unsigned long flags;
    struct timers *ts = timer_lock(timer, &flags);

    if ( timer->status != TIMER_STATUS_invalid &&
         timer->status != TIMER_STATUS_killed )
    {
        if ( timer->status == TIMER_STATUS_in_list )
            list_remove(ts, timer);
        timer->expires = expires;
        list_add(ts, timer);
        /* A new earliest deadline; a running pass programs the hardware itself. */
        if ( ts->list == timer && !ts->in_pass )
            cpu_raise_softirq(timer->cpu, TIMER_SOFTIRQ);
    }
    spin_unlock_irqrestore(&ts->lock, flags);
}

void stop_timer(struct timer *timer)
{
    unsigned long flags;
    struct timers *ts = timer_lock(timer, &flags);

    if ( timer->status == TIMER_STATUS_in_list )
    {
        if ( ts->list == timer && !ts->in_pass )
            cpu_raise_softirq(timer->cpu, TIMER_SOFTIRQ);
        list_remove(ts, timer);
    }
    spin_unlock_irqrestore(&ts->lock, flags);
}

void kill_timer(struct timer *timer)
{
    unsigned long flags;
    struct timers *ts;
    unsigned int cpu;

    stop_timer(timer);
    ts = timer_lock(timer, &flags);
    timer->status = TIMER_STATUS_killed;
    spin_unlock_irqrestore(&ts->lock, flags);

    /* Killed: it cannot be set again, so once its function is done it is dead. */
    for_each_online_cpu ( cpu )
        if ( cpu != smp_processor_id() )
            while ( ACCESS_ONCE(per_cpu(timers, cpu).running) == timer )
                cpu_relax();
}

/*
 * Move a timer to new_cpu (Xen's migrate_timer): its function runs there
 * from now on.  Both CPUs' locks are held, the lower-numbered first.
 */
void migrate_timer(struct timer *timer, unsigned int new_cpu)
{
    unsigned long flags;
    unsigned int old_cpu;
    struct timers *from, *to;
    bool active;

    BUG_ON(new_cpu >= NR_CPUS || !cpu_has_percpu_area(new_cpu));
    for ( ;; )
    {
        old_cpu = ACCESS_ONCE(timer->cpu);
        if ( old_cpu == new_cpu )
            return;
        from = &per_cpu(timers, old_cpu);
        to = &per_cpu(timers, new_cpu);
        local_irq_save(flags);
        if ( old_cpu < new_cpu )
        {
            spin_lock(&from->lock);
            spin_lock_nested(&to->lock);
        }
        else
        {
            spin_lock(&to->lock);
            spin_lock_nested(&from->lock);
        }
        if ( timer->cpu == old_cpu )
            break;
        spin_unlock(&from->lock);
        spin_unlock(&to->lock);
        local_irq_restore(flags);
    }

    active = timer->status == TIMER_STATUS_in_list;
    if ( active )
        list_remove(from, timer);
    timer->cpu = new_cpu;
    if ( active )
    {
        list_add(to, timer);
        if ( to->list == timer && !to->in_pass )
            cpu_raise_softirq(new_cpu, TIMER_SOFTIRQ);
    }
    spin_unlock(&from->lock);
    spin_unlock(&to->lock);
    local_irq_restore(flags);
}

/* This CPU's earliest active deadline, STIME_MAX if none. */
s_time_t timer_next_deadline(void)
{
    const struct timers *ts = &this_cpu(timers);
    struct timer *t = ACCESS_ONCE(ts->list);

    if ( !t )
        return STIME_MAX;
    return t->expires > ts->pass_floor ? t->expires : ts->pass_floor;
}

static void timer_softirq_action(void)
{
    struct timers *ts = &this_cpu(timers);
    struct timer *t, *rest, **pp;
    s_time_t now = NOW();
    unsigned long flags;

    spin_lock_irqsave(&ts->lock, flags);
    /* Cut off every timer expired by now: they, and only they, run. */
    for ( pp = &ts->list; *pp && (*pp)->expires <= now; pp = &(*pp)->list_next )
        continue;
    rest = *pp;
    *pp = NULL;
    ts->due = ts->list;
    ts->list = rest;

    ts->in_pass = true;
    while ( (t = ts->due) != NULL )
    {
        ts->due = t->list_next;
        t->list_next = NULL;
        t->status = TIMER_STATUS_inactive;
        ts->running = t;
        spin_unlock_irqrestore(&ts->lock, flags);
        t->function(t->data);
        spin_lock_irqsave(&ts->lock, flags);
        ts->running = NULL;
    }
    ts->in_pass = false;

    ts->pass_floor = NOW() + timer_slop;
    reprogram_timer(ts->list ? stime_to_tsc(timer_next_deadline()) : 0);
    spin_unlock_irqrestore(&ts->lock, flags);
}

/* Set up cpu's timer list (its per-CPU area is there; zeroed is empty). */
void timer_cpu_init(unsigned int cpu)
{
    spin_lock_init_level(&per_cpu(timers, cpu).lock, "timers", LOCK_LEVEL_TIMER);
}

void timer_init(void)
{
    open_softirq(TIMER_SOFTIRQ, timer_softirq_action);
    timer_cpu_init(smp_processor_id());
}
