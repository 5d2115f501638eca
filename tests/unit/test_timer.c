/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/common/timer.c and softirq.c: timers expire in deadline order from
 * TIMER_SOFTIRQ, only once due; stop/kill/re-set work; timer functions may
 * set timers; the hardware timer is always programmed for the earliest
 * deadline (or disarmed when none is left).
 */
#include <xen/lib.h>
#include <xen/softirq.h>
#include <xen/time.h>
#include <xen/timer.h>

#include "harness.h"

/* The clock and the APIC timer, faked: one tick is one ns. */
static s_time_t fake_now;
static uint64_t programmed;
static unsigned int programs;

s_time_t get_s_time(void)
{
    return fake_now;
}

uint64_t stime_to_tsc(s_time_t t)
{
    return t;
}

void reprogram_timer(uint64_t deadline)
{
    programmed = deadline;
    programs++;
}

static char order[32];
static unsigned int nr_fired;

static void record(void *data)
{
    if ( nr_fired < sizeof(order) - 1 )
        order[nr_fired++] = *(const char *)data;
}

static struct timer rearming;
static unsigned int rearm_count;

static void rearm(void *data __attribute__((unused)))
{
    rearm_count++;
    if ( rearm_count < 3 )
        set_timer(&rearming, fake_now + 10);
}

static void run_to(s_time_t t)
{
    fake_now = t;
    raise_softirq(TIMER_SOFTIRQ);
    do_softirq();
}

static void test_order_and_due(void)
{
    static const char a = 'a', b = 'b', c = 'c', d = 'd';
    struct timer ta, tb, tc, td;

    nr_fired = 0;
    fake_now = 1000;
    init_timer(&ta, record, (void *)&a, 0);
    init_timer(&tb, record, (void *)&b, 0);
    init_timer(&tc, record, (void *)&c, 0);
    init_timer(&td, record, (void *)&d, 0);
    CHECK(!timer_is_active(&ta));

    set_timer(&tc, 1300);
    set_timer(&ta, 1100);
    set_timer(&tb, 1200);
    set_timer(&td, 1200);               /* same deadline: after tb */
    CHECK(timer_is_active(&ta));
    CHECK_EQ(timer_next_deadline(), 1100);
    CHECK(softirq_pending(smp_processor_id()));            /* a new earliest deadline */
    do_softirq();
    CHECK_EQ(programmed, 1100);
    CHECK_EQ(nr_fired, 0);               /* nothing due yet */

    run_to(1099);
    CHECK_EQ(nr_fired, 0);
    run_to(1200);
    CHECK_EQ(nr_fired, 3);
    order[nr_fired] = '\0';
    CHECK_STR(order, "abd");
    CHECK(!timer_is_active(&ta) && !timer_is_active(&td));
    CHECK_EQ(programmed, 1300);

    /* Re-set moves it; stop removes it; the hardware follows. */
    set_timer(&tc, 1250);
    do_softirq();
    CHECK_EQ(programmed, 1250);
    stop_timer(&tc);
    CHECK(!timer_is_active(&tc));
    do_softirq();
    CHECK_EQ(programmed, 0);              /* nothing left: disarmed */
    CHECK_EQ(timer_next_deadline(), STIME_MAX);
    run_to(5000);
    CHECK_EQ(nr_fired, 3);

    /* A deadline already past fires at the next softirq. */
    set_timer(&ta, 10);
    do_softirq();
    CHECK_EQ(nr_fired, 4);

    /* Killed: never again. */
    kill_timer(&tb);
    set_timer(&tb, 6000);
    CHECK(!timer_is_active(&tb));
    run_to(7000);
    CHECK_EQ(nr_fired, 4);
    stop_timer(&tb);                      /* harmless */
}

static void test_rearm_from_handler(void)
{
    fake_now = 10000;
    init_timer(&rearming, rearm, NULL, 0);
    set_timer(&rearming, 10010);
    run_to(10010);
    CHECK_EQ(rearm_count, 1);
    CHECK(timer_is_active(&rearming));
    CHECK_EQ(programmed, 10020);
    run_to(10020);
    run_to(10030);
    CHECK_EQ(rearm_count, 3);
    CHECK(!timer_is_active(&rearming));
    /* One softirq runs everything due, even re-armed ones due already. */
    rearm_count = 0;
    set_timer(&rearming, 10040);
    run_to(20000);
    CHECK_EQ(rearm_count, 1);             /* re-armed at now + 10: not due yet */
    CHECK_EQ(programmed, 20010);
}

void test_main(void)
{
    timer_init();
    test_order_and_due();
    test_rearm_from_handler();
}
