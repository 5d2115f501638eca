/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interrupt delivery into VMX guests (Xen's vmx/intr.c): the vLAPIC's
 * highest vector above PPR, or the HVM_PARAM_CALLBACK_IRQ vector.
 *
 * Before each VM entry: if an interrupt is due and the guest can take it
 * (RFLAGS.IF set, no STI / MOV SS shadow, no other event already queued
 * for this entry) it is injected through VM_ENTRY_INTR_INFO and
 * acknowledged (IRR -> ISR); otherwise "interrupt-window exiting" is
 * turned on so that the guest exits as soon as it can take it.  With the
 * TPR shadow the guest changes TPR without exits: the TPR threshold is
 * set to the priority of the highest vector TPR holds back, so lowering
 * TPR below it exits and the vector is delivered.
 *
 * After each VM exit: an event whose delivery the exit interrupted (an
 * EPT violation on the guest stack while delivering the upcall, say) is
 * in IDT_VECTORING_INFO and is queued again, so nothing is lost.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/vlapic.h>
#include <asm/hvm/vmx/vmcs.h>
#include <asm/hvm/vmx/vmx.h>
#include <asm/processor.h>

static void set_intr_window_exiting(bool on)
{
    unsigned long ctl = __vmread(CPU_BASED_VM_EXEC_CONTROL);
    unsigned long want = on ? ctl | CPU_BASED_VIRTUAL_INTR_PENDING
                            : ctl & ~(unsigned long)CPU_BASED_VIRTUAL_INTR_PENDING;

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

void vmx_intr_assist(struct vcpu *v, struct cpu_user_regs *regs)
{
    struct hvm_intack ia = hvm_vcpu_has_pending_irq(v);

    ASSERT(vmx_vmcs_is_loaded(v));
    vmx_update_tpr_threshold(v);
    if ( ia.source == hvm_intsrc_none )
    {
        set_intr_window_exiting(false);
        return;
    }
    if ( (__vmread(VM_ENTRY_INTR_INFO) & INTR_INFO_VALID_MASK) ||
         !(regs->rflags & X86_EFLAGS_IF) ||
         (__vmread(GUEST_INTERRUPTIBILITY_INFO) &
          (VMX_INTR_SHADOW_STI | VMX_INTR_SHADOW_MOV_SS)) )
    {
        set_intr_window_exiting(true);
        return;
    }
    __vmwrite(VM_ENTRY_INTR_INFO, ia.vector |
              (X86_EVENTTYPE_EXT_INTR << INTR_INFO_INTR_TYPE_SHIFT) |
              INTR_INFO_VALID_MASK);
    hvm_vcpu_ack_pending_irq(v, ia);
    set_intr_window_exiting(false);
}

void vmx_idtv_reinject(void)
{
    unsigned long idtv = __vmread(IDT_VECTORING_INFO);
    unsigned int type = (idtv >> INTR_INFO_INTR_TYPE_SHIFT) & 7;

    if ( !(idtv & INTR_INFO_VALID_MASK) )
        return;
    __vmwrite(VM_ENTRY_INTR_INFO, idtv & ~(unsigned long)INTR_INFO_NMI_UNBLOCKED_BY_IRET);
    if ( idtv & INTR_INFO_DELIVER_CODE_MASK )
        __vmwrite(VM_ENTRY_EXCEPTION_ERROR_CODE, __vmread(IDT_VECTORING_ERROR_CODE));
    if ( type == X86_EVENTTYPE_SW_INTERRUPT || type == X86_EVENTTYPE_PRI_SW_EXCEPTION ||
         type == X86_EVENTTYPE_SW_EXCEPTION )
        __vmwrite(VM_ENTRY_INSTRUCTION_LEN, __vmread(VM_EXIT_INSTRUCTION_LEN));
}
