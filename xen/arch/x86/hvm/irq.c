/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interrupt sources of HVM/PVH vCPUs: the emulated local APIC and the
 * event channel upcall.
 *
 * Two ways to ask for the upcall, as in Xen: a per-vCPU vector
 * (HVMOP_set_evtchn_upcall_vector), latched in the vLAPIC's IRR each time
 * evtchn_upcall_pending goes from 0 to 1 and acknowledged with an EOI, as
 * any local APIC interrupt (Linux EOIs it); or the domain-wide
 * HVM_PARAM_CALLBACK_IRQ of the vector type, which bypasses the local
 * APIC: injected whenever evtchn_upcall_pending is set and the vCPU can
 * take an interrupt (the guest clears it in its handler; no EOI).  The
 * per-vCPU vector wins if both are set.  Either way a blocked vCPU is woken.
 *
 * An NMI (v->arch.nmi_pending, set by an NMI IPI: hvm/vlapic_ipi.c) comes
 * before any of them, as on hardware; acknowledging it clears the latch.
 */
#include <xen/event.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/vlapic.h>

void hvm_assert_evtchn_irq(struct vcpu *v)
{
    if ( v->arch.hvm.evtchn_upcall_vector )
    {
        vlapic_set_irq(v, v->arch.hvm.evtchn_upcall_vector);
        return;
    }
    vcpu_kick(v);
}

struct hvm_intack hvm_vcpu_has_pending_irq(struct vcpu *v)
{
    uint8_t via = v->domain->arch.hvm.callback_via_vector;
    struct hvm_intack ia = { hvm_intsrc_none, 0 };
    int vec;

    if ( v->arch.nmi_pending )
    {
        ia.source = hvm_intsrc_nmi;
        ia.vector = X86_EXC_NMI;
    }
    else if ( !v->arch.hvm.evtchn_upcall_vector && via && vcpu_events_pending(v) )
    {
        ia.source = hvm_intsrc_vector;
        ia.vector = via;
    }
    else if ( (vec = vlapic_has_pending_irq(v)) >= 0 )
    {
        ia.source = hvm_intsrc_lapic;
        ia.vector = vec;
    }
    return ia;
}

void hvm_vcpu_ack_pending_irq(struct vcpu *v, struct hvm_intack intack)
{
    if ( intack.source == hvm_intsrc_nmi )
        v->arch.nmi_pending = false;
    else if ( intack.source == hvm_intsrc_lapic )
        vlapic_ack_pending_irq(v, intack.vector);
}
