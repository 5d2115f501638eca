/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypervisor timers.
 *
 * Xen keeps a heap per CPU; with one physical CPU and a handful of timers
 * per vCPU a list sorted by deadline is as good.  set_timer() and
 * stop_timer() only edit the list and raise TIMER_SOFTIRQ when the
 * earliest deadline changed; the softirq runs the expired timers and
 * programs the local APIC timer (TSC-deadline or one-shot) for the next
 * one.  Timer functions run with interrupts disabled and may set timers,
 * their own included.
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
#include <xen/softirq.h>
#include <xen/timer.h>
#include <asm/apic.h>

/* Xen's timer_slop: the least distance between two timer passes, in ns. */
static unsigned int timer_slop = 50000;
integer_param("timer_slop", timer_slop);

static struct timer *timer_list;    /* active timers, earliest first */
static struct timer *timer_due;     /* this pass's expired timers, in order */
static bool in_pass;                /* timer_softirq_action() is running */
static s_time_t pass_floor;         /* no hardware deadline before this */

/* Unlink from whichever list holds it (the due list while a pass runs). */
static void list_remove(struct timer *timer)
{
    struct timer **heads[] = { &timer_list, &timer_due };
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
static void list_add(struct timer *timer)
{
    struct timer **pp = &timer_list;

    while ( *pp && (*pp)->expires <= timer->expires )
        pp = &(*pp)->list_next;
    timer->list_next = *pp;
    *pp = timer;
    timer->status = TIMER_STATUS_in_list;
}

void init_timer(struct timer *timer, void (*function)(void *data), void *data,
                unsigned int cpu)
{
    BUG_ON(cpu != 0);
    timer->expires = 0;
    timer->list_next = NULL;
    timer->function = function;
    timer->data = data;
    timer->status = TIMER_STATUS_inactive;
}

void set_timer(struct timer *timer, s_time_t expires)
{
    if ( timer->status == TIMER_STATUS_invalid ||
         timer->status == TIMER_STATUS_killed )
        return;
    if ( timer->status == TIMER_STATUS_in_list )
        list_remove(timer);
    timer->expires = expires;
    list_add(timer);
    /* A new earliest deadline; a running pass programs the hardware itself. */
    if ( timer_list == timer && !in_pass )
        raise_softirq(TIMER_SOFTIRQ);
}

void stop_timer(struct timer *timer)
{
    if ( timer->status != TIMER_STATUS_in_list )
        return;
    if ( timer_list == timer && !in_pass )
        raise_softirq(TIMER_SOFTIRQ);
    list_remove(timer);
}

void kill_timer(struct timer *timer)
{
    stop_timer(timer);
    timer->status = TIMER_STATUS_killed;
}

s_time_t timer_next_deadline(void)
{
    if ( !timer_list )
        return STIME_MAX;
    return timer_list->expires > pass_floor ? timer_list->expires : pass_floor;
}

static void timer_softirq_action(void)
{
    struct timer *t, *rest, **pp;
    s_time_t now = NOW();

    /* Cut off every timer expired by now: they, and only they, run. */
    for ( pp = &timer_list; *pp && (*pp)->expires <= now; pp = &(*pp)->list_next )
        continue;
    rest = *pp;
    *pp = NULL;
    timer_due = timer_list;
    timer_list = rest;

    in_pass = true;
    while ( (t = timer_due) != NULL )
    {
        timer_due = t->list_next;
        t->list_next = NULL;
        t->status = TIMER_STATUS_inactive;
        t->function(t->data);
    }
    in_pass = false;

    pass_floor = NOW() + timer_slop;
    reprogram_timer(timer_list ? stime_to_tsc(timer_next_deadline()) : 0);
}

void timer_init(void)
{
    open_softirq(TIMER_SOFTIRQ, timer_softirq_action);
}
