/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/common/timer.c and softirq.c: timers expire in deadline order from
 * TIMER_SOFTIRQ, only once due; stop/kill/re-set work; timer functions may
 * set timers; the hardware timer is always programmed for the earliest
 * deadline (or disarmed when none is left).  The bounds of a pass: a
 * timer re-armed at or before now (while the clock runs on inside the
 * pass, as it does under a storm) runs at most once per pass, timers due
 * behind it still run, and the next pass is never programmed closer than
 * timer_slop to the end of the last one.  On two CPUs (host threads):
 * kill_timer() returns only once the timer's function, running on the
 * other CPU, has returned.
 */
#include <xen/cpumask.h>
#include <asm/processor.h>
#include <xen/lib.h>
#include <xen/param.h>
#include <xen/softirq.h>
#include <xen/time.h>
#include <xen/timer.h>

#include "harness.h"

/*
 * The clock and the APIC timer, faked: one tick is one ns.  clock_step
 * advances the clock at every read, as the real one runs on while timer
 * functions work.
 */
static s_time_t fake_now;
static s_time_t clock_step;
static uint64_t programmed;
static unsigned int programs;

s_time_t get_s_time(void)
{
    s_time_t t = fake_now;

    fake_now += clock_step;
    return t;
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

/*
 * The storm of issue 16: a periodic timer whose function re-arms it at
 * NOW() + period, with a period shorter than the function takes.  Before
 * the fix one pass ran it for ever (the guard below stops it at 1000).
 */
static struct timer storm, bystander, victim, mover;
static unsigned int storm_runs, bystander_runs, victim_runs, mover_runs;

static void storm_fn(void *data __attribute__((unused)))
{
    if ( ++storm_runs < 1000 )
        set_timer(&storm, NOW() + 10);
}

static void at_now_fn(void *data __attribute__((unused)))
{
    if ( ++storm_runs < 1000 )
        set_timer(&storm, storm.expires);       /* the very same deadline */
}

static void count_fn(void *data)
{
    (*(unsigned int *)data)++;
}

static void killer_fn(void *data __attribute__((unused)))
{
    mover_runs++;
    stop_timer(&victim);                        /* due in this pass too */
    set_timer(&bystander, NOW() + 100000);      /* due too: moved out */
}

static void test_storm(void)
{
    unsigned int pass;

    fake_now = 100000;
    clock_step = 50;                            /* each NOW() costs 50 ns */
    init_timer(&storm, storm_fn, NULL, 0);
    init_timer(&bystander, count_fn, &bystander_runs, 0);
    set_timer(&storm, fake_now + 10);
    set_timer(&bystander, fake_now + 20);
    do_softirq();
    fake_now += 100;
    for ( pass = 1; pass <= 5; pass++ )
    {
        raise_softirq(TIMER_SOFTIRQ);
        do_softirq();
        CHECK_EQ(storm_runs, pass);             /* once per pass, not 1000 */
        CHECK(!softirq_pending(smp_processor_id()));              /* and no pass queued behind */
        CHECK(timer_is_active(&storm));
    }
    CHECK_EQ(bystander_runs, 1);                /* due behind it: ran too */

    /* The next pass is programmed timer_slop (here 1000 ns) after this one. */
    CHECK(programmed >= (uint64_t)fake_now - clock_step + 1000 - 2 * clock_step);
    CHECK(timer_next_deadline() > storm.expires);

    /* Re-armed at exactly the pass's now: the next pass, not this one. */
    stop_timer(&storm);
    storm_runs = 0;
    clock_step = 0;
    init_timer(&storm, at_now_fn, NULL, 0);
    set_timer(&storm, fake_now);
    do_softirq();
    CHECK_EQ(storm_runs, 1);
    raise_softirq(TIMER_SOFTIRQ);
    do_softirq();
    CHECK_EQ(storm_runs, 2);
    stop_timer(&storm);

    /* A timer function stops or moves timers due in the same pass. */
    init_timer(&victim, count_fn, &victim_runs, 0);
    init_timer(&mover, killer_fn, NULL, 0);
    bystander_runs = 0;
    set_timer(&mover, fake_now - 3);
    set_timer(&victim, fake_now - 2);
    set_timer(&bystander, fake_now - 1);
    do_softirq();
    CHECK_EQ(mover_runs, 1);
    CHECK_EQ(victim_runs, 0);
    CHECK(!timer_is_active(&victim));
    CHECK_EQ(bystander_runs, 0);
    CHECK(timer_is_active(&bystander));
    CHECK_EQ(timer_next_deadline(), bystander.expires);
    stop_timer(&bystander);
}

/*
 * CPU 1 runs its timer pass; its timer's function goes on for a while
 * after CPU 0 started killing the timer.  kill_timer() must not return
 * before the function did (seen to fail without timers.running: the kill
 * returned with the function still running).
 */
static struct timer slow;
static volatile bool slow_in_fn, kill_started, slow_done, done_at_kill;

static void slow_fn(void *data __attribute__((unused)))
{
    slow_in_fn = true;
    while ( !kill_started )
        cpu_relax();
    for ( volatile unsigned long i = 0; i < 2000000; i++ )
        cpu_relax();
    slow_done = true;
}

static void kill_while_running(unsigned int cpu)
{
    if ( cpu == 1 )
    {
        timer_cpu_init(1);
        init_timer(&slow, slow_fn, NULL, 1);
        set_timer(&slow, fake_now - 1);
        raise_softirq(TIMER_SOFTIRQ);
        do_softirq();
        return;
    }
    while ( !slow_in_fn )
        cpu_relax();
    kill_started = true;
    kill_timer(&slow);
    done_at_kill = slow_done;
}

static void test_kill_waits_for_other_cpu(void)
{
    clock_step = 0;
    cpumask_set_cpu(1, &cpu_online_map);
    harness_run_cpus(2, kill_while_running);
    CHECK(slow_done);
    CHECK(done_at_kill);
    CHECK(!timer_is_active(&slow));
    cpumask_clear_cpu(1, &cpu_online_map);
}

void test_main(void)
{
    timer_init();
    CHECK_EQ(cmdline_parse("timer_slop=0"), 0);
    test_order_and_due();
    test_rearm_from_handler();
    CHECK_EQ(cmdline_parse("timer_slop=1000"), 0);
    test_storm();
    test_kill_waits_for_other_cpu();
}
