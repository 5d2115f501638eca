/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypervisor timers (Xen's common/timer.c interface).
 *
 * A timer calls function(data) from TIMER_SOFTIRQ once system time has
 * reached 'expires'.  Active timers sit on one list sorted by deadline;
 * the local APIC timer is programmed to the earliest of them.  One
 * physical CPU: the cpu argument of init_timer() must be 0.
 */
#ifndef __XEN_TIMER_H__
#define __XEN_TIMER_H__

#include <xen/time.h>
#include <xen/types.h>

struct timer {
    s_time_t      expires;
    struct timer *list_next;        /* next active timer, later deadline */
    void        (*function)(void *data);
    void         *data;
    uint8_t       status;
#define TIMER_STATUS_invalid  0     /* not initialised */
#define TIMER_STATUS_inactive 1     /* initialised, not on the list */
#define TIMER_STATUS_killed   2     /* may not be set again */
#define TIMER_STATUS_in_list  3     /* active */
};

void init_timer(struct timer *timer, void (*function)(void *data), void *data,
                unsigned int cpu);
/* (Re)arm: function runs once NOW() >= expires (at once if already past). */
void set_timer(struct timer *timer, s_time_t expires);
void stop_timer(struct timer *timer);
/* Stop for good (before the memory holding the timer is freed). */
void kill_timer(struct timer *timer);

static inline bool timer_is_active(const struct timer *timer)
{
    return timer->status == TIMER_STATUS_in_list;
}

/* The earliest active deadline, STIME_MAX if none. */
s_time_t timer_next_deadline(void);

void timer_init(void);

#endif /* __XEN_TIMER_H__ */
