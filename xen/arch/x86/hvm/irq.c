/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event channel upcall of HVM/PVH vCPUs.
 *
 * Two ways to ask for it, as in Xen: a per-vCPU vector
 * (HVMOP_set_evtchn_upcall_vector), latched like an edge-triggered local
 * APIC interrupt each time evtchn_upcall_pending goes from 0 to 1; or the
 * domain-wide HVM_PARAM_CALLBACK_IRQ of the vector type, level-triggered:
 * injected whenever evtchn_upcall_pending is set and the vCPU can take an
 * interrupt (the guest clears it in its handler before scanning).  The
 * per-vCPU vector wins if both are set.  No local APIC is emulated, so no
 * EOI is expected.  Either way a blocked vCPU is woken.
 */
#include <xen/event.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <asm/hvm/hvm.h>

void hvm_assert_evtchn_irq(struct vcpu *v)
{
    if ( v->arch.hvm.evtchn_upcall_vector )
        v->arch.hvm.evtchn_upcall_latched = true;
    vcpu_kick(v);
}

int hvm_vcpu_upcall_vector(struct vcpu *v)
{
    const struct hvm_vcpu *h = &v->arch.hvm;
    uint8_t via = v->domain->arch.hvm.callback_via_vector;

    if ( h->evtchn_upcall_vector )
        return h->evtchn_upcall_latched ? h->evtchn_upcall_vector : -1;
    if ( via && vcpu_events_pending(v) )
        return via;
    return -1;
}

void hvm_upcall_injected(struct vcpu *v)
{
    v->arch.hvm.evtchn_upcall_latched = false;
}
