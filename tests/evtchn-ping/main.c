/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An interdomain event channel between the control domain and a domU, set
 * up the way a toolstack sets up xenstore's channel, plus HVM parameters
 * and VIRQ_DOM_EXC.  The same kernel plays both parts (by domain id).
 *
 * dom0: binds VIRQ_DOM_EXC; allocates an unbound port in domain 1 for
 *   itself; writes it to the domU's HVM_PARAM_STORE_EVTCHN (and a
 *   CONSOLE_PFN); binds to it; answers every ping with a pong, waiting in
 *   SCHEDOP_poll; then waits for VIRQ_DOM_EXC as the domU exits, after
 *   which its end of the channel is unbound again.
 * domU: waits for STORE_EVTCHN; checks what it may and may not get/set
 *   (its own STORE_EVTCHN yes, CONSOLE_PFN read-only, IDENT_PT hidden,
 *   dom0's parameters and ports -EPERM, bad index -EINVAL, unknown domain
 *   -ESRCH); pings ROUNDS times, waiting for each pong in SCHEDOP_block.
 */
#include "test.h"
#include "check.h"
#include "events.h"

const char test_title[] = "Interdomain event channel, HVM params, VIRQ_DOM_EXC";

#define ROUNDS      50
#define DOMU        1
#define CONSOLE_PFN_VALUE 0xfeedUL

static void dom0_main(void)
{
    evtchn_port_t domu_port, port, exc_port;
    struct evtchn_status st;
    unsigned int pings = 0, i;
    uint64_t v;

    printk("Control domain:\n");
    check_rc("bind VIRQ_DOM_EXC", evtchn_bind_virq(VIRQ_DOM_EXC, 0, &exc_port), 0);
    check_rc("alloc_unbound in d1 for us", evtchn_alloc_unbound(DOMU, 0, &domu_port), 0);
    check_rc("status of d1's port", evtchn_status(DOMU, domu_port, &st), 0);
    check_true("unbound, for d0", st.status == EVTCHNSTAT_unbound && st.u.unbound.dom == 0);
    check_rc("set d1 CONSOLE_PFN", hvm_set_param(DOMU, HVM_PARAM_CONSOLE_PFN,
                                                 CONSOLE_PFN_VALUE), 0);
    check_rc("bind_interdomain to it", evtchn_bind_interdomain(DOMU, domu_port, &port), 0);
    evtchn_clear(port);
    check_rc("status of d1's port (we may look)", evtchn_status(DOMU, domu_port, &st), 0);
    check_true("interdomain, to our port",
               st.status == EVTCHNSTAT_interdomain && st.u.interdomain.dom == 0 &&
               st.u.interdomain.port == port);
    /* Last: the domU starts when it sees the parameter. */
    check_rc("set d1 STORE_EVTCHN", hvm_set_param(DOMU, HVM_PARAM_STORE_EVTCHN, domu_port), 0);
    check_rc("read it back", hvm_get_param(DOMU, HVM_PARAM_STORE_EVTCHN, &v), 0);
    check_true("the same port", v == domu_port);
    check_rc("a parameter past HVM_NR_PARAMS", hvm_get_param(DOMU, HVM_NR_PARAMS, &v),
             -XEN_EINVAL);

    while ( pings < ROUNDS )
    {
        if ( sched_poll(&port, 1, 0) )
            break;
        if ( !evtchn_pending(port) )
            continue;
        evtchn_clear(port);
        pings++;
        evtchn_send(port);
    }
    check_true("answered every ping", pings == ROUNDS);

    for ( i = 0; i < 100 && !evtchn_pending(exc_port); i++ )
        sched_poll(&exc_port, 1, 0);
    check_true("VIRQ_DOM_EXC when d1 went away", evtchn_pending(exc_port));
    /* It arrives at shutdown; wait until d1 is gone as well. */
    for ( i = 0; i < 1000 && evtchn_status(DOMU, domu_port, &st) != -XEN_ESRCH; i++ )
        hypercall_yield();
    check_rc("d1 is gone", evtchn_status(DOMU, domu_port, &st), -XEN_ESRCH);
    check_rc("status of our end", evtchn_status(DOMID_SELF, port, &st), 0);
    check_true("our end is unbound again, for d1",
               st.status == EVTCHNSTAT_unbound && st.u.unbound.dom == DOMU);
}

static void domu_main(void)
{
    evtchn_port_t port = 0;
    unsigned int pongs = 0, i, blocks = 0;
    struct evtchn_status st;
    uint64_t v = 0;

    printk("Unprivileged domain:\n");
    for ( i = 0; i < 100000 && !v; i++ )
    {
        if ( hvm_get_param(DOMID_SELF, HVM_PARAM_STORE_EVTCHN, &v) )
            break;
        if ( !v )
            hypercall_yield();
    }
    check_true("HVM_PARAM_STORE_EVTCHN set by dom0", v != 0);
    port = v;
    check_rc("get own CONSOLE_PFN", hvm_get_param(DOMID_SELF, HVM_PARAM_CONSOLE_PFN, &v), 0);
    check_true("dom0's value", v == CONSOLE_PFN_VALUE);
    check_rc("set own CONSOLE_PFN", hvm_set_param(DOMID_SELF, HVM_PARAM_CONSOLE_PFN, 1),
             -XEN_EPERM);
    check_rc("set own STORE_EVTCHN (allowed)",
             hvm_set_param(DOMID_SELF, HVM_PARAM_STORE_EVTCHN, port), 0);
    check_rc("get own IDENT_PT (hidden)", hvm_get_param(DOMID_SELF, HVM_PARAM_IDENT_PT, &v),
             -XEN_EPERM);
    check_rc("get dom0's STORE_EVTCHN", hvm_get_param(0, HVM_PARAM_STORE_EVTCHN, &v),
             -XEN_EPERM);
    check_rc("set dom0's CALLBACK_IRQ", hvm_set_param(0, HVM_PARAM_CALLBACK_IRQ, 0), -XEN_EPERM);
    check_rc("get in domain 0x7000", hvm_get_param(0x7000, HVM_PARAM_STORE_EVTCHN, &v),
             -XEN_ESRCH);
    check_rc("index HVM_NR_PARAMS", hvm_get_param(DOMID_SELF, HVM_NR_PARAMS, &v), -XEN_EINVAL);
    check_rc("status of a dom0 port", evtchn_status(0, 1, &st), -XEN_EPERM);
    check_rc("alloc_unbound in dom0", evtchn_alloc_unbound(0, DOMID_SELF, NULL), -XEN_EPERM);
    {
        struct evtchn_reset r = { .dom = 0 };

        check_rc("reset dom0's ports", hypercall_event_channel_op(EVTCHNOP_reset, &r),
                 -XEN_EPERM);
    }
    check_rc("status of our port", evtchn_status(DOMID_SELF, port, &st), 0);
    check_true("interdomain with d0", st.status == EVTCHNSTAT_interdomain &&
                                      st.u.interdomain.dom == 0);

    evtchn_clear(port);
    while ( pongs < ROUNDS && blocks < 10 * ROUNDS )
    {
        if ( evtchn_send(port) )
            break;
        while ( !evtchn_pending(port) && blocks < 10 * ROUNDS )
        {
            sched_block();
            blocks++;
            evtchn_ack_upcall();
        }
        if ( !evtchn_pending(port) )
            break;
        evtchn_clear(port);
        pongs++;
    }
    printk("  %u pongs, %u blocks\n", pongs, blocks);
    check_true("a pong for every ping", pongs == ROUNDS);
}

void test_main(void)
{
    cli();
    if ( map_shared_info() )
        return xtf_failure("Fail: cannot map shared_info\n");
    if ( cpuid_domid() == 0 )
        dom0_main();
    else
        domu_main();
}
