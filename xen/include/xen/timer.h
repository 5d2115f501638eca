/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypervisor timers (Xen's common/timer.c interface).
 *
 * A timer calls function(data) from TIMER_SOFTIRQ on its CPU (init_timer's
 * cpu, or migrate_timer's) once system time has reached 'expires'.  Each
 * CPU's active timers sit on one list sorted by deadline, under that CPU's
 * lock; its local APIC timer is programmed to the earliest of them.
 * set_timer/stop_timer/kill_timer work from any CPU.
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
    uint16_t      cpu;              /* whose list, whose softirq runs it */
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
/* From now on run on new_cpu (pending or not). */
void migrate_timer(struct timer *timer, unsigned int new_cpu);

static inline bool timer_is_active(const struct timer *timer)
{
    return timer->status == TIMER_STATUS_in_list;
}

/* This CPU's earliest active deadline, STIME_MAX if none. */
s_time_t timer_next_deadline(void);

void timer_init(void);
/* A CPU about to come up (smpboot.c). */
void timer_cpu_init(unsigned int cpu);

#endif /* __XEN_TIMER_H__ */
