/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event channel upcall through the guest's IDT, and HLT woken by it:
 *
 *   HVMOP_set_evtchn_upcall_vector: vector < 16, unknown vCPU rejected
 *   per-vCPU vector (vCPU 0): an event sent with interrupts off waits
 *     (interrupt-window exiting) and is taken right after STI; a masked
 *     port does not interrupt, EVTCHNOP_unmask then does
 *   HVM_PARAM_CALLBACK_IRQ: GSI type recorded (as Xen; nothing raises it),
 *     PCI INTx refused (-EOPNOTSUPP), vector < 16 refused, vector type accepted; vCPU 1 (no per-vCPU vector) halted in
 *     STI;HLT is woken by IPIs from vCPU 0 through it, round after round
 *   HLT woken by VIRQ_TIMER from a singleshot timer
 */
#include "test.h"
#include "check.h"
#include "events.h"

const char test_title[] = "Event channel upcall and HLT wake-up";

#define ROUNDS 20

static evtchn_port_t ap_port;
static volatile unsigned long ap_halts;
static volatile bool ap_ready;

static void ap_main(unsigned int id __attribute__((unused)))
{
    cli();
    ap_ready = true;
    for ( ;; )
    {
        safe_halt();                /* an upcall ends it */
        cli();
        ap_halts++;
    }
}

static void sti_nop_cli(void)
{
    asm volatile ( "sti; nop; nop; cli" ::: "memory" );
}

static void test_vector_errors(void)
{
    struct xen_hvm_evtchn_upcall_vector op = { .vcpu = 0, .vector = 0x0f };

    printk("HVMOP_set_evtchn_upcall_vector:\n");
    check_rc("vector 0x0f", hypercall_hvm_op(HVMOP_set_evtchn_upcall_vector, &op), -XEN_EINVAL);
    op.vcpu = 99;
    op.vector = UPCALL_VECTOR;
    check_rc("vCPU 99", hypercall_hvm_op(HVMOP_set_evtchn_upcall_vector, &op), -XEN_ENOENT);
    check_rc("vCPU 0, vector 0xf3", setup_upcall_vector(0), 0);
}

static void test_per_vcpu_vector(void)
{
    evtchn_port_t p;
    unsigned long c0;

    printk("Per-vCPU upcall vector:\n");
    check_rc("bind_ipi to vCPU 0", evtchn_bind_ipi(0, &p), 0);
    sti_nop_cli();                  /* take what registration left pending */
    c0 = upcall_count[0];
    check_rc("send with interrupts off", evtchn_send(p), 0);
    check_true("pending, not delivered yet", evtchn_pending(p) && upcall_count[0] == c0);
    sti_nop_cli();
    check_true("delivered once after STI, port handled",
               upcall_count[0] == c0 + 1 && port_events[p] == 1 && !evtchn_pending(p));

    evtchn_mask(p);
    check_rc("send to the masked port", evtchn_send(p), 0);
    sti_nop_cli();
    check_true("masked: pending, no upcall", evtchn_pending(p) && upcall_count[0] == c0 + 1);
    check_rc("unmask", evtchn_unmask(p), 0);
    sti_nop_cli();
    check_true("unmasked: delivered", upcall_count[0] == c0 + 2 && port_events[p] == 2);
}

static void test_callback_param(void)
{
    uint64_t via = ((uint64_t)HVM_PARAM_CALLBACK_TYPE_VECTOR << 56) | UPCALL_VECTOR, v = 0;
    unsigned int r, spins;

    printk("HVM_PARAM_CALLBACK_IRQ:\n");
    check_rc("GSI type: recorded", hvm_set_param(DOMID_SELF, HVM_PARAM_CALLBACK_IRQ, 5), 0);
    check_rc("GSI type, bits above the GSI",
             hvm_set_param(DOMID_SELF, HVM_PARAM_CALLBACK_IRQ, 0x105), -XEN_EINVAL);
    check_rc("PCI INTx type", hvm_set_param(DOMID_SELF, HVM_PARAM_CALLBACK_IRQ,
                                            (uint64_t)HVM_PARAM_CALLBACK_TYPE_PCI_INTX << 56),
             -XEN_EOPNOTSUPP);
    check_rc("vector 5", hvm_set_param(DOMID_SELF, HVM_PARAM_CALLBACK_IRQ,
                                       ((uint64_t)HVM_PARAM_CALLBACK_TYPE_VECTOR << 56) | 5),
             -XEN_EINVAL);
    check_rc("vector type, 0xf3", hvm_set_param(DOMID_SELF, HVM_PARAM_CALLBACK_IRQ, via), 0);
    check_rc("read back", hvm_get_param(DOMID_SELF, HVM_PARAM_CALLBACK_IRQ, &v), 0);
    check_true("the same value", v == via);

    check_rc("bind_ipi to vCPU 1", evtchn_bind_ipi(1, &ap_port), 0);
    check_rc("start vCPU 1", vcpu_start(1, ap_main), 0);
    for ( spins = 0; !ap_ready && spins < 100000; spins++ )
        hypercall_yield();

    for ( r = 1; r <= ROUNDS; r++ )
    {
        if ( evtchn_send(ap_port) )
            break;
        for ( spins = 0; port_events[ap_port] < r && spins < 100000; spins++ )
            hypercall_yield();
        if ( port_events[ap_port] < r )
            break;
    }
    printk("  %lu IPIs handled by vCPU 1, %lu upcalls, %lu wake-ups from HLT\n",
           port_events[ap_port], upcall_count[1], ap_halts);
    check_true("vCPU 1 handled every IPI", port_events[ap_port] == ROUNDS);
    check_true("vCPU 1 was woken from HLT each round", ap_halts >= ROUNDS);
}

static void test_hlt_timer(void)
{
    evtchn_port_t t;
    unsigned int halts = 0;
    long rc;

    printk("HLT woken by VIRQ_TIMER:\n");
    check_rc("bind VIRQ_TIMER", evtchn_bind_virq(VIRQ_TIMER, 0, &t), 0);
    /* 50 ms: well after the next printk (which costs about a millisecond). */
    rc = set_singleshot_timer(xen_system_time() + 50000000, 0);
    cli();
    while ( !port_events[t] && halts < 1000 )
    {
        safe_halt();
        cli();
        halts++;
    }
    check_rc("singleshot timer in 50 ms", rc, 0);
    check_true("the timer event arrived through HLT", port_events[t] == 1 && halts >= 1);
    printk("  %u HLT(s) until the timer event\n", halts);
}

void test_main(void)
{
    cli();
    if ( map_shared_info() )
        return xtf_failure("Fail: cannot map shared_info\n");
    if ( vcpu_count() < 2 )
        return xtf_failure("Fail: this test needs 2 vCPUs\n");
    test_vector_errors();
    test_per_vcpu_vector();
    test_callback_param();
    test_hlt_timer();
}
