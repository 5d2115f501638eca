/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event channel upcall set up the way Linux 6.1 sets it up as a PVH
 * dom0 (arch/x86/xen/enlighten_hvm.c), then its clock event, many times:
 *
 *   vcpu_info registered while the local APIC is still software-disabled
 *     (the hypervisor marks everything pending: the upcall vector is
 *     latched in IRR before the APIC is enabled, Linux's "Stale IRR");
 *   HVMOP_set_evtchn_upcall_vector, then HVM_PARAM_CALLBACK_IRQ = GSI 1
 *     ("trick toolstack to think we are enlightened").  Like Linux, the
 *     per-vCPU vector (and its EOI) is used only if both succeed; else
 *     the domain-wide vector type, whose handler does not EOI;
 *   TPR 0x10, then the APIC software-enabled;
 *   rounds of: singleshot timer 1 ms ahead, STI;HLT until VIRQ_TIMER
 *     arrives, the handler EOIs.  Every round must get its event and
 *     nothing may stay in service.
 *
 * Refusing GSI 1 made Linux take the domain-wide path while the vector it
 * had registered kept going through the vLAPIC: one un-EOIed upcall, then
 * no events and no timers for the rest of dom0's life.
 */
#include "test.h"
#include "check.h"
#include "events.h"

const char test_title[] = "Event channel upcall as Linux sets it up";

#define ROUNDS      100
#define APIC_REG(o) (*(volatile uint32_t *)(0xfee00000UL + (o)))
#define APIC_TPR    0x80
#define APIC_SVR    0xf0
#define APIC_ISR    0x100
#define APIC_IRR    0x200

static bool vec_bit(unsigned int base, unsigned int vec)
{
    return (APIC_REG(base + (vec / 32) * 16) >> (vec % 32)) & 1;
}

void test_main(void)
{
    struct xen_hvm_evtchn_upcall_vector op = { .vcpu = 0, .vector = UPCALL_VECTOR };
    uint64_t via = ((uint64_t)HVM_PARAM_CALLBACK_TYPE_VECTOR << 56) | UPCALL_VECTOR;
    evtchn_port_t t;
    unsigned int r, halts = 0, worst = 0;
    bool percpu;
    long rc;

    cli();
    if ( map_shared_info() )
        return xtf_failure("Fail: cannot map shared_info\n");

    printk("Set-up, APIC software-disabled:\n");
    check_true("SVR: software-disabled", !(APIC_REG(APIC_SVR) & 0x100));
    check_rc("VCPUOP_register_vcpu_info", register_vcpu_info(0), 0);
    set_intr_gate(UPCALL_VECTOR, evtchn_upcall_entry);
    rc = hypercall_hvm_op(HVMOP_set_evtchn_upcall_vector, &op);
    check_rc("HVMOP_set_evtchn_upcall_vector", rc, 0);
    if ( !rc )
        rc = hvm_set_param(DOMID_SELF, HVM_PARAM_CALLBACK_IRQ, 1);
    check_rc("HVM_PARAM_CALLBACK_IRQ = GSI 1 (Linux's toolstack trick)", rc, 0);
    percpu = !rc;
    if ( !percpu )              /* Linux's fallback: no EOI in the handler */
        hvm_set_param(DOMID_SELF, HVM_PARAM_CALLBACK_IRQ, via);
    set_upcall_eoi(0, percpu);
    check_true("the vector latched in IRR before the APIC is enabled",
               vec_bit(APIC_IRR, UPCALL_VECTOR));

    APIC_REG(APIC_TPR) = 0x10;
    APIC_REG(APIC_SVR) = 0x1ff;
    check_rc("bind VIRQ_TIMER", evtchn_bind_virq(VIRQ_TIMER, 0, &t), 0);

    printk("%u rounds of singleshot timer, HLT, upcall, EOI:\n", ROUNDS);
    for ( r = 0; r < ROUNDS; r++ )
    {
        unsigned long c = port_events[t];
        unsigned int h = 0;

        if ( set_singleshot_timer(xen_system_time() + 1000000, 0) )
            break;
        while ( port_events[t] == c && h < 1000 )
        {
            safe_halt();
            cli();
            h++;
        }
        halts += h;
        worst = h > worst ? h : worst;
        if ( port_events[t] == c )
            break;
    }
    printk("  %u rounds delivered, %u HLTs (at most %u in one round), %lu upcalls\n",
           r, halts, worst, upcall_count[0]);
    check_true("every round woken by its VIRQ_TIMER", r == ROUNDS);
    check_true("nothing left in service (ISR)", !vec_bit(APIC_ISR, UPCALL_VECTOR));
    check_true("the upcall was EOIed each time", percpu && upcall_count[0] >= ROUNDS);
}
