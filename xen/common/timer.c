/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypervisor timers.
 *
 * Xen keeps a heap per CPU; with one physical CPU and a handful of timers
 * per vCPU a list sorted by deadline is as good.  set_timer() and
 * stop_timer() only edit the list and raise TIMER_SOFTIRQ when the
 * earliest deadline changed; the softirq runs every expired timer and
 * programs the local APIC timer (TSC-deadline or one-shot) for the next
 * one.  Timer functions run with interrupts disabled and may set timers,
 * their own included.
 */
#include <xen/lib.h>
#include <xen/softirq.h>
#include <xen/timer.h>
#include <asm/apic.h>

static struct timer *timer_list;    /* active timers, earliest first */

static void list_remove(struct timer *timer)
{
    struct timer **pp;

    for ( pp = &timer_list; *pp; pp = &(*pp)->list_next )
        if ( *pp == timer )
        {
            *pp = timer->list_next;
            break;
        }
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
    if ( timer_list == timer )
        raise_softirq(TIMER_SOFTIRQ);   /* a new earliest deadline */
}

void stop_timer(struct timer *timer)
{
    if ( timer->status != TIMER_STATUS_in_list )
        return;
    if ( timer_list == timer )
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
    return timer_list ? timer_list->expires : STIME_MAX;
}

static void timer_softirq_action(void)
{
    struct timer *t;
    s_time_t now = NOW();

    while ( (t = timer_list) && t->expires <= now )
    {
        timer_list = t->list_next;
        t->list_next = NULL;
        t->status = TIMER_STATUS_inactive;
        t->function(t->data);
        now = NOW();
    }

    reprogram_timer(timer_list ? stime_to_tsc(timer_list->expires) : 0);
}

void timer_init(void)
{
    open_softirq(TIMER_SOFTIRQ, timer_softirq_action);
}
