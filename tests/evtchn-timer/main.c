/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Xen's vCPU timers, SCHEDOP_block and SCHEDOP_poll:
 *
 *   singleshot timer: VIRQ_TIMER wakes a vCPU blocked in SCHEDOP_block,
 *     round after round, never before its deadline and never without the
 *     event (no busy wait, no early return); VCPU_SSHOTTMR_future with a
 *     past deadline: -ETIME; a stopped timer never fires; another vCPU's
 *     timer cannot be set
 *   periodic timer: several VIRQ_TIMER events, then stopped
 *   SCHEDOP_block with an event already pending returns at once
 *   SCHEDOP_poll: too many ports, a bad port, a bad pointer rejected; a
 *     pending port returns at once; the timeout ends it with nothing
 *     pending; an event on a masked port from vCPU 1 wakes it
 *   while both vCPUs are blocked the hypervisor halts (the case checks
 *   its idle count at power-off)
 */
#include "test.h"
#include "check.h"
#include "events.h"

const char test_title[] = "vCPU timers, SCHEDOP_block and SCHEDOP_poll";

#define ROUNDS      20
#define MS          1000000ULL
#define UNMAPPED_VA 0x8000000000UL

static evtchn_port_t timer_port, ipi_port, go_port;
static volatile bool ap_sent;

/* vCPU 1 sleeps in SCHEDOP_block until vCPU 0 sends go_port, then sends ipi_port. */
static void ap_main(unsigned int id __attribute__((unused)))
{
    cli();
    for ( ;; )
    {
        sched_block();
        evtchn_ack_upcall();
        if ( !evtchn_pending(go_port) )
            continue;
        evtchn_clear(go_port);
        ap_sent = true;
        evtchn_send(ipi_port);
    }
}

static void test_singleshot_block(void)
{
    unsigned int r, woken = 0, early = 0, blocks = 0;
    uint64_t deadline;

    printk("Singleshot timer and SCHEDOP_block:\n");
    for ( r = 0; r < ROUNDS; r++ )
    {
        deadline = xen_system_time() + 3 * MS;
        if ( set_singleshot_timer(deadline, VCPU_SSHOTTMR_future) )
            break;
        /* Interrupts off: the block returns once the event is pending. */
        while ( !evtchn_pending(timer_port) && blocks < 10 * ROUNDS )
        {
            sched_block();
            blocks++;
        }
        if ( evtchn_pending(timer_port) )
            woken++;
        if ( xen_system_time() < deadline )
            early++;
        evtchn_ack_upcall();
        evtchn_clear(timer_port);
    }
    printk("  %u rounds, %u wake-ups by VIRQ_TIMER, %u SCHEDOP_block calls\n",
           ROUNDS, woken, blocks);
    check_true("every round woken by its VIRQ_TIMER", woken == ROUNDS);
    check_true("one block per round: no wake-up without the event", blocks == ROUNDS);
    check_true("never woken before the deadline", early == 0);

    check_rc("VCPU_SSHOTTMR_future in the past",
             set_singleshot_timer(xen_system_time() - 1, VCPU_SSHOTTMR_future), -XEN_ETIME);
    {
        struct vcpu_set_singleshot_timer t = { .timeout_abs_ns = xen_system_time() + MS };

        check_rc("another vCPU's timer",
                 hypercall_vcpu_op(VCPUOP_set_singleshot_timer, 1, &t), -XEN_EINVAL);
    }

    check_rc("pending event: SCHEDOP_block returns", evtchn_send(ipi_port), 0);
    check_rc("SCHEDOP_block", sched_block(), 0);
    check_true("the event is still there to handle", evtchn_pending(ipi_port));
    evtchn_clear(ipi_port);
    evtchn_ack_upcall();
}

static void test_poll(void)
{
    evtchn_port_t ports[129];
    uint64_t t0, deadline;
    unsigned int i;
    long rc1, rc2;

    printk("SCHEDOP_poll:\n");
    for ( i = 0; i < 129; i++ )
        ports[i] = timer_port;
    check_rc("129 ports", sched_poll(ports, 129, 0), -XEN_EINVAL);
    ports[0] = 5000;
    check_rc("a bad port", sched_poll(ports, 1, 0), -XEN_EINVAL);
    check_rc("an unmapped port list", sched_poll((evtchn_port_t *)UNMAPPED_VA, 1, 0),
             -XEN_EFAULT);

    check_rc("stop the timer (none set)", stop_singleshot_timer(), 0);
    /* (A printk costs about a guest millisecond: keep it out of the window.) */
    rc1 = set_singleshot_timer(xen_system_time() + 50 * MS, 0);
    rc2 = stop_singleshot_timer();
    check_rc("set a timer 50 ms ahead ...", rc1, 0);
    check_rc("... and stop it at once", rc2, 0);

    ports[0] = timer_port;
    t0 = xen_system_time();
    deadline = t0 + 100 * MS;
    check_rc("poll the timer port with a 100 ms timeout", sched_poll(ports, 1, deadline), 0);
    t0 = xen_system_time();
    if ( t0 < deadline || evtchn_pending(timer_port) )
        printk("  woke at %lu, deadline %lu, timer port %spending\n", (unsigned long)t0,
               (unsigned long)deadline, evtchn_pending(timer_port) ? "" : "not ");
    check_true("woken by the timeout: after it, nothing pending (the stopped timer never fired)",
               t0 >= deadline && !evtchn_pending(timer_port));

    evtchn_send(ipi_port);
    check_rc("poll a pending port", sched_poll(&ipi_port, 1, 0), 0);
    check_true("it is still pending", evtchn_pending(ipi_port));
    evtchn_clear(ipi_port);

    /* A masked port: only the poll notices it (no upcall). */
    evtchn_mask(ipi_port);
    ap_sent = false;
    evtchn_send(go_port);
    ports[0] = timer_port;
    ports[1] = ipi_port;
    check_rc("poll two ports, no timeout, vCPU 1 sends", sched_poll(ports, 2, 0), 0);
    if ( !ap_sent || !evtchn_pending(ipi_port) || evtchn_pending(timer_port) )
        printk("  sent %d ipi %d timer %d\n", ap_sent, evtchn_pending(ipi_port),
               evtchn_pending(timer_port));
    check_true("woken by vCPU 1's event on the masked port",
               ap_sent && evtchn_pending(ipi_port) && !evtchn_pending(timer_port));
    evtchn_clear(ipi_port);
    evtchn_unmask(ipi_port);
}

static void test_periodic(void)
{
    struct vcpu_set_periodic_timer p = { .period_ns = 100000 };
    unsigned int events = 0, blocks = 0;

    printk("Periodic timer:\n");
    check_rc("period below 1 ms", hypercall_vcpu_op(VCPUOP_set_periodic_timer, 0, &p),
             -XEN_EINVAL);
    p.period_ns = 2 * MS;
    check_rc("period 2 ms", hypercall_vcpu_op(VCPUOP_set_periodic_timer, 0, &p), 0);
    while ( events < 5 && blocks < 50 )
    {
        sched_block();
        blocks++;
        /* Acknowledge the upcall before looking at ports, or a wake-up is lost. */
        evtchn_ack_upcall();
        if ( evtchn_pending(timer_port) )
        {
            events++;
            evtchn_clear(timer_port);
        }
    }
    check_rc("stop it", hypercall_vcpu_op(VCPUOP_stop_periodic_timer, 0, NULL), 0);
    check_true("5 periodic events, one per block", events == 5 && blocks == 5);
    check_rc("poll 10 ms: no more events",
             sched_poll(&timer_port, 1, xen_system_time() + 10 * MS), 0);
    check_true("none pending", !evtchn_pending(timer_port));
}

void test_main(void)
{
    cli();
    if ( map_shared_info() )
        return xtf_failure("Fail: cannot map shared_info\n");
    if ( vcpu_count() < 2 )
        return xtf_failure("Fail: this test needs 2 vCPUs\n");
    if ( evtchn_bind_virq(VIRQ_TIMER, 0, &timer_port) || evtchn_bind_ipi(0, &ipi_port) ||
         evtchn_bind_ipi(1, &go_port) )
        return xtf_failure("Fail: cannot bind the ports\n");
    if ( vcpu_start(1, ap_main) )
        return xtf_failure("Fail: cannot start vCPU 1\n");

    test_singleshot_block();
    test_poll();
    test_periodic();
}
