/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A domU taking part in its own suspend, as Linux does (drivers/xen/
 * manage.c, do_suspend -> HYPERVISOR_suspend): it calls
 * SCHEDOP_shutdown(SHUTDOWN_suspend) and records what it sees when the
 * call returns.  The control domain (tests/dom0-suspend) sees it shut
 * down with reason suspend and resumes it in place with
 * xc_domain_resume: fast=1 first (the call must return 1, "cancelled",
 * when the guest has PV drivers, i.e. HVM_PARAM_CALLBACK_IRQ set), then
 * fast=0 (the call returns 0).
 *
 * Before each suspend it writes a pattern over 64 pages, binds an IPI
 * channel and arms a singleshot timer (VIRQ_TIMER) to expire during the
 * suspension; after each resume it checks every word of the pattern, that
 * its event channels are still bound and deliver (an IPI sent now, the
 * timer armed before), and that a new timer fires.
 *
 * Guest command line: [rounds=N] (default 2) [expect=R,R...] the return
 * value expected from each suspend (default 1,0) [nocallback]: leave
 * HVM_PARAM_CALLBACK_IRQ 0 (a guest without PV drivers by Xen's rule: a
 * cooperative resume does not change its return value).
 */
#include "test.h"
#include "check.h"
#include "events.h"

#include <public/sched.h>

const char test_title[] = "SCHEDOP_shutdown(SHUTDOWN_suspend) and resume in place";

#define PATTERN_PAGES 64
#define WORDS         (PATTERN_PAGES * PAGE_SIZE / sizeof(uint64_t))
#define MS            1000000ULL
#define MAX_ROUNDS    4

static uint64_t pattern[WORDS] __attribute__((aligned(PAGE_SIZE)));

static uint64_t word(unsigned long i, unsigned int round)
{
    uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)round << 56);

    x ^= x >> 29;
    return x * 0xbf58476d1ce4e5b9ULL;
}

/* Wait (interrupts off) for port to be pending; false if it never is. */
static bool wait_port(evtchn_port_t port)
{
    unsigned int n;

    for ( n = 0; n < 1000 && !evtchn_pending(port); n++ )
        sched_block();
    return evtchn_pending(port);
}

static void round_trip(unsigned int round, long expected, evtchn_port_t ipi,
                       evtchn_port_t timer)
{
    struct sched_shutdown s = { .reason = SHUTDOWN_suspend };
    struct evtchn_status st;
    unsigned long i, bad = 0;
    uint64_t before;
    long rc;

    printk("Round %u:\n", round);
    for ( i = 0; i < WORDS; i++ )
        pattern[i] = word(i, round);
    evtchn_clear(ipi);
    evtchn_clear(timer);
    evtchn_ack_upcall();
    before = xen_system_time();
    /* Long enough to expire while the control domain looks at us. */
    check_rc("arm a singleshot timer (2 ms)", set_singleshot_timer(before + 2 * MS, 0), 0);

    printk("Suspending (SCHEDOP_shutdown, SHUTDOWN_suspend)\n");
    rc = hypercall_sched_op(SCHEDOP_shutdown, &s);
    printk("Resumed: SCHEDOP_shutdown returned %ld (%s)\n", rc,
           rc == 1 ? "cancelled: the same domain" : rc == 0 ? "a new domain" : "an error");
    check_rc("SCHEDOP_shutdown(SHUTDOWN_suspend)'s return value", rc, expected);
    check_true("time went on across the suspension", xen_system_time() > before);

    for ( i = 0; i < WORDS; i++ )
        if ( pattern[i] != word(i, round) )
            bad++;
    printk("  %lu of %lu words of the pattern changed\n", bad, (unsigned long)WORDS);
    check_true("the memory pattern survived", bad == 0);

    check_rc("the IPI channel is still bound", evtchn_status(DOMID_SELF, ipi, &st), 0);
    check_true("  ... as an IPI", st.status == EVTCHNSTAT_ipi);
    check_rc("the timer channel is still bound", evtchn_status(DOMID_SELF, timer, &st), 0);
    check_true("  ... as VIRQ_TIMER", st.status == EVTCHNSTAT_virq && st.u.virq == VIRQ_TIMER);
    check_true("the timer armed before the suspend fired", wait_port(timer));
    evtchn_clear(timer);
    check_rc("send on the IPI channel", evtchn_send(ipi), 0);
    check_true("the IPI arrived", wait_port(ipi));
    evtchn_clear(ipi);
    check_rc("arm a new timer (1 ms)", set_singleshot_timer(xen_system_time() + MS, 0), 0);
    check_true("the new timer fired", wait_port(timer));
    evtchn_clear(timer);
    evtchn_ack_upcall();
}

void test_main(void)
{
    long expected[MAX_ROUNDS] = { 1, 0, 0, 0 };
    unsigned int rounds = cmdline_ulong("rounds", 2), r;
    evtchn_port_t ipi, timer;
    char buf[64];

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    if ( rounds > MAX_ROUNDS )
        rounds = MAX_ROUNDS;
    if ( cmdline_get_str("expect", buf, sizeof(buf)) )
    {
        const char *p = buf;

        for ( r = 0; r < MAX_ROUNDS && *p; r++ )
        {
            expected[r] = *p == '1';
            while ( *p && *p != ',' )
                p++;
            if ( *p == ',' )
                p++;
        }
    }

    cli();
    printk("Set-up:\n");
    check_rc("map shared_info", map_shared_info(), 0);
    check_rc("VCPUOP_register_vcpu_info", register_vcpu_info(0), 0);
    check_rc("HVMOP_set_evtchn_upcall_vector", setup_upcall_vector(0), 0);
    if ( !cmdline_get_str("nocallback", NULL, 0) )
        /* What Linux does with a per-vCPU vector: "Trick toolstack to think we are enlightened". */
        check_rc("HVM_PARAM_CALLBACK_IRQ = 1", hvm_set_param(DOMID_SELF, HVM_PARAM_CALLBACK_IRQ, 1), 0);
    else
        printk("  HVM_PARAM_CALLBACK_IRQ left 0 (no PV drivers)\n");
    check_rc("bind an IPI channel", evtchn_bind_ipi(0, &ipi), 0);
    check_rc("bind VIRQ_TIMER", evtchn_bind_virq(VIRQ_TIMER, 0, &timer), 0);

    for ( r = 0; r < rounds; r++ )
        round_trip(r, expected[r], ipi, timer);
    printk("All %u suspend rounds done\n", rounds);
}
