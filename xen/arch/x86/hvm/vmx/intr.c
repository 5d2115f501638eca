/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interrupt delivery into VMX guests (Xen's vmx/intr.c): a pending NMI,
 * the vLAPIC's highest vector above PPR, or the HVM_PARAM_CALLBACK_IRQ
 * vector.
 *
 * Before each VM entry: an NMI goes first.  It is injected unless the
 * guest blocks NMIs (virtual-NMI blocking: an NMI handler that has not
 * executed IRET yet, SDM 24.4.2 and 26.6.1.2), is in an STI or MOV SS
 * shadow, or another event is already queued for this entry; then
 * "NMI-window exiting" asks the CPU to exit as soon as it can take one
 * (without virtual NMIs: interrupt-window exiting, as Xen).  An interrupt
 * is injected if the guest can take it (RFLAGS.IF set, no STI / MOV SS
 * shadow, no event queued); otherwise "interrupt-window exiting" is turned
 * on.  With the TPR shadow the guest changes TPR without exits: the TPR
 * threshold is set to the priority of the highest vector TPR holds back,
 * so lowering TPR below it exits and the vector is delivered.
 *
 * Each entry makes one decision, so a guest can make the hypervisor
 * inject at most one event per VM entry, and every entry runs the guest
 * (docs/misc/security.md).
 *
 * After each VM exit: an event whose delivery the exit interrupted (an
 * EPT violation on the guest stack while delivering the upcall, say) is
 * in IDT_VECTORING_INFO and is queued again, so nothing is lost; for an
 * NMI the CPU's virtual-NMI blocking is cleared first, as the redelivery
 * sets it again (SDM 27.2.4, Xen's vmx_idtv_reinject).  An exit in the
 * middle of an IRET that had already unblocked NMIs (EPT violation, PML
 * full: exit qualification bit 12; an exception: its interruption
 * information) re-blocks them, since the IRET will be executed again
 * (SDM 27.2.3, Xen's undo_nmis_unblocked_by_iret).
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/vlapic.h>
#include <asm/hvm/vmx/vmcs.h>
#include <asm/hvm/vmx/vmx.h>
#include <asm/processor.h>

#define cpu_has_vmx_vnmi (vmx_caps.pin_based & PIN_BASED_VIRTUAL_NMIS)

/* Interrupt- and NMI-window exiting: one VMCS write when they change. */
static void set_windows(bool intr, bool nmi)
{
    unsigned long ctl = __vmread(CPU_BASED_VM_EXEC_CONTROL);
    unsigned long want = ctl & ~(unsigned long)(CPU_BASED_VIRTUAL_INTR_PENDING |
                                                CPU_BASED_VIRTUAL_NMI_PENDING);

    if ( nmi && !cpu_has_vmx_vnmi )
    {
        nmi = false;
        intr = true;
    }
    if ( intr )
        want |= CPU_BASED_VIRTUAL_INTR_PENDING;
    if ( nmi )
        want |= CPU_BASED_VIRTUAL_NMI_PENDING;
    if ( want != ctl )
        __vmwrite(CPU_BASED_VM_EXEC_CONTROL, want);
}

static void vmx_update_tpr_threshold(struct vcpu *v)
{
    int blocked;

    if ( !(vmx_caps.cpu_based & CPU_BASED_TPR_SHADOW) )
        return;
    blocked = vlapic_tpr_blocked_irq(v);
    __vmwrite(TPR_THRESHOLD, blocked < 0 ? 0 : blocked >> 4);
}

static void inject(unsigned int vector, unsigned int type)
{
    __vmwrite(VM_ENTRY_INTR_INFO, vector | (type << INTR_INFO_INTR_TYPE_SHIFT) |
                                  INTR_INFO_VALID_MASK);
}

void vmx_intr_assist(struct vcpu *v, struct cpu_user_regs *regs)
{
    struct hvm_intack ia = hvm_vcpu_has_pending_irq(v);
    unsigned long shadow;
    bool queued;

    ASSERT(vmx_vmcs_is_loaded(v));
    vmx_update_tpr_threshold(v);
    if ( ia.source == hvm_intsrc_none )
    {
        set_windows(false, false);
        return;
    }
    queued = __vmread(VM_ENTRY_INTR_INFO) & INTR_INFO_VALID_MASK;
    shadow = __vmread(GUEST_INTERRUPTIBILITY_INFO);

    if ( ia.source == hvm_intsrc_nmi )
    {
        if ( queued || (shadow & (VMX_INTR_SHADOW_STI | VMX_INTR_SHADOW_MOV_SS |
                                  VMX_INTR_SHADOW_NMI)) )
        {
            set_windows(false, true);
            return;
        }
        inject(X86_EXC_NMI, X86_EVENTTYPE_NMI);
        hvm_vcpu_ack_pending_irq(v, ia);
        /* An interrupt behind it waits for the next entry. */
        set_windows(hvm_vcpu_has_pending_irq(v).source != hvm_intsrc_none, false);
        return;
    }

    if ( queued || !(regs->rflags & X86_EFLAGS_IF) ||
         (shadow & (VMX_INTR_SHADOW_STI | VMX_INTR_SHADOW_MOV_SS)) )
    {
        set_windows(true, false);
        return;
    }
    inject(ia.vector, X86_EVENTTYPE_EXT_INTR);
    hvm_vcpu_ack_pending_irq(v, ia);
    set_windows(false, false);
}

/* An IRET the exit interrupted had unblocked NMIs: it runs again, block them again. */
static void nmi_iret_reblock(void)
{
    unsigned int reason = VMX_EXIT_REASON_BASIC(__vmread(VM_EXIT_REASON));
    unsigned long info;

    if ( !cpu_has_vmx_vnmi )
        return;
    switch ( reason )
    {
    case EXIT_REASON_EPT_VIOLATION:
    case EXIT_REASON_PML_FULL:
        info = __vmread(EXIT_QUALIFICATION) & EXIT_QUAL_NMI_UNBLOCKED_BY_IRET;
        break;
    case EXIT_REASON_EXCEPTION_NMI:
        info = __vmread(VM_EXIT_INTR_INFO) & INTR_INFO_NMI_UNBLOCKED_BY_IRET;
        break;
    default:
        return;
    }
    if ( info )
        __vmwrite(GUEST_INTERRUPTIBILITY_INFO,
                  __vmread(GUEST_INTERRUPTIBILITY_INFO) | VMX_INTR_SHADOW_NMI);
}

void vmx_idtv_reinject(void)
{
    unsigned long idtv = __vmread(IDT_VECTORING_INFO);
    unsigned int type = (idtv >> INTR_INFO_INTR_TYPE_SHIFT) & 7;

    if ( !(idtv & INTR_INFO_VALID_MASK) )
    {
        nmi_iret_reblock();
        return;
    }
    __vmwrite(VM_ENTRY_INTR_INFO, idtv & ~(unsigned long)INTR_INFO_NMI_UNBLOCKED_BY_IRET);
    if ( idtv & INTR_INFO_DELIVER_CODE_MASK )
        __vmwrite(VM_ENTRY_EXCEPTION_ERROR_CODE, __vmread(IDT_VECTORING_ERROR_CODE));
    if ( type == X86_EVENTTYPE_SW_INTERRUPT || type == X86_EVENTTYPE_PRI_SW_EXCEPTION ||
         type == X86_EVENTTYPE_SW_EXCEPTION )
        __vmwrite(VM_ENTRY_INSTRUCTION_LEN, __vmread(VM_EXIT_INSTRUCTION_LEN));
    /* The NMI's redelivery blocks NMIs again; entering with them blocked fails. */
    if ( type == X86_EVENTTYPE_NMI )
        __vmwrite(GUEST_INTERRUPTIBILITY_INFO,
                  __vmread(GUEST_INTERRUPTIBILITY_INFO) & ~(unsigned long)VMX_INTR_SHADOW_NMI);
}
