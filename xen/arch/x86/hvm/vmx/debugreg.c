/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's debug registers under VMX (Xen's vmx_dr_access,
 * __restore_debug_registers, vmx_save_dr / vmx_restore_dr and the #DB
 * intercept of vmx_vmexit_handler).
 *
 * DR7 and IA32_DEBUGCTL are in the VMCS (saved at exit, loaded at entry:
 * the "save/load debug controls" controls).  DR0-DR3 and DR6 are switched
 * lazily: a vCPU starts with MOV DR exiting on; its first MOV DR loads its
 * values into the CPU, turns the intercept off and re-executes the
 * instruction, which the CPU then runs natively with every architectural
 * check (CPL > 0 #GP, DR4/DR5 #UD with CR4.DE, DR7.GD #DB, bits 63:32 of
 * DR6/DR7 #GP, the fixed bits).  When the vCPU leaves the CPU its values are
 * read back; the next vCPU on the CPU exits on MOV DR again, so it never
 * sees another's values.  A vCPU whose DR7 enables a breakpoint has its
 * DR0-DR3 loaded before every entry (they must match when it runs).
 *
 * #DB is always intercepted (XSA-156).  A VM exit for #DB leaves DR6
 * untouched and reports the status bits in the exit qualification; they
 * are merged into the guest's DR6 as the CPU would have (B0-B3 replaced,
 * the rest accumulating), DR7.GD is cleared as delivery does, and the #DB
 * is injected with its original type (a hardware exception, or ICEBP's
 * privileged software exception with its instruction length).
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <asm/debugreg.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/vmx/vmcs.h>
#include <asm/hvm/vmx/vmx.h>
#include <asm/x86-defns.h>

static void set_mov_dr_exiting(bool on)
{
    unsigned long ctl = __vmread(CPU_BASED_VM_EXEC_CONTROL);
    unsigned long want = on ? ctl | CPU_BASED_MOV_DR_EXITING
                            : ctl & ~(unsigned long)CPU_BASED_MOV_DR_EXITING;

    if ( want != ctl )
        __vmwrite(CPU_BASED_VM_EXEC_CONTROL, want);
}

/* Give v's DR0-DR3/DR6 to the CPU and the guest (v's VMCS loaded). */
static void vmx_load_debug_registers(struct vcpu *v)
{
    struct hvm_vcpu *h = &v->arch.hvm;

    ASSERT(vmx_vmcs_is_loaded(v));
    if ( !h->flag_dr_dirty )
    {
        write_debugreg(0, h->dr[0]);
        write_debugreg(1, h->dr[1]);
        write_debugreg(2, h->dr[2]);
        write_debugreg(3, h->dr[3]);
        write_debugreg(6, h->dr6);
        h->flag_dr_dirty = true;
    }
    set_mov_dr_exiting(false);
}

void vmx_save_dr(struct vcpu *v)
{
    struct hvm_vcpu *h = &v->arch.hvm;

    if ( !h->flag_dr_dirty )
        return;
    h->dr[0] = read_debugreg(0);
    h->dr[1] = read_debugreg(1);
    h->dr[2] = read_debugreg(2);
    h->dr[3] = read_debugreg(3);
    h->dr6 = read_debugreg(6);
    h->flag_dr_dirty = false;
    /* The intercept goes back on at v's next vmx_restore_dr(). */
}

void vmx_restore_dr(struct vcpu *v)
{
    ASSERT(vmx_vmcs_is_loaded(v));
    if ( v->arch.hvm.flag_dr_dirty ||
         (__vmread(GUEST_DR7) & X86_DR7_ACTIVE_MASK) )
        vmx_load_debug_registers(v);
    else
        set_mov_dr_exiting(true);
}

void vmx_get_debugregs(struct vcpu *v, unsigned long dr[4], unsigned long *dr6)
{
    const struct hvm_vcpu *h = &v->arch.hvm;

    if ( h->flag_dr_dirty )
    {
        ASSERT(v == current);       /* only the running vCPU's are loaded */
        dr[0] = read_debugreg(0);
        dr[1] = read_debugreg(1);
        dr[2] = read_debugreg(2);
        dr[3] = read_debugreg(3);
        *dr6 = read_debugreg(6);
        return;
    }
    memcpy(dr, h->dr, sizeof(h->dr));
    *dr6 = h->dr6;
}

void vmx_set_debugregs(struct vcpu *v, const unsigned long dr[4], unsigned long dr6)
{
    struct hvm_vcpu *h = &v->arch.hvm;

    memcpy(h->dr, dr, sizeof(h->dr));
    h->dr6 = dr6;
    if ( h->flag_dr_dirty )
    {
        ASSERT(v == current);
        h->flag_dr_dirty = false;
        vmx_load_debug_registers(v);
    }
}

/* MOV DR exit: hand the registers over and run the instruction again. */
void vmx_exit_dr_access(struct vcpu *v, struct cpu_user_regs *regs)
{
    vmx_load_debug_registers(v);
}

/* Inject #DB after merging 'pending' (positive-polarity DR6 bits) into DR6. */
static void vmx_deliver_debug(struct vcpu *v, unsigned int pending,
                              unsigned int type, unsigned int insn_len)
{
    uint32_t info = X86_EXC_DB | (type << INTR_INFO_INTR_TYPE_SHIFT) |
                    INTR_INFO_VALID_MASK;

    vmx_load_debug_registers(v);
    write_debugreg(6, x86_merge_dr6(v, read_debugreg(6), pending));
    /* Delivery clears DR7.GD, so that the handler may use the registers. */
    __vmwrite(GUEST_DR7, __vmread(GUEST_DR7) & ~(unsigned long)X86_DR7_GD);
    if ( type == X86_EVENTTYPE_PRI_SW_EXCEPTION )
        __vmwrite(VM_ENTRY_INSTRUCTION_LEN, insn_len);
    __vmwrite(VM_ENTRY_INTR_INFO, info);
}

void vmx_exit_debug(struct vcpu *v, struct cpu_user_regs *regs, uint32_t intr_info)
{
    unsigned int type = (intr_info >> INTR_INFO_INTR_TYPE_SHIFT) & 7;
    unsigned long q = __vmread(EXIT_QUALIFICATION);
    unsigned long shadow;

    /*
     * A #DB held back by an STI or MOV SS shadow exits when the shadow
     * ends, with the shadow still in the interruptibility state.  With
     * RFLAGS.TF set (and DEBUGCTL.BTF clear) VM entry then requires BS in
     * the pending debug exceptions (SDM 26.3.1.5); Xen sets it likewise.
     */
    shadow = __vmread(GUEST_INTERRUPTIBILITY_INFO);
    if ( (regs->rflags & X86_EFLAGS_TF) &&
         !(__vmread(GUEST_IA32_DEBUGCTL) & IA32_DEBUGCTLMSR_BTF) &&
         (shadow & (VMX_INTR_SHADOW_STI | VMX_INTR_SHADOW_MOV_SS)) )
        __vmwrite(GUEST_PENDING_DBG_EXCEPTIONS,
                  __vmread(GUEST_PENDING_DBG_EXCEPTIONS) | X86_DR6_BS);

    /* ICEBP (INT1) is a privileged software exception: RIP must step over it. */
    vmx_deliver_debug(v, q & X86_DR6_KNOWN_MASK, type,
                      type == X86_EVENTTYPE_PRI_SW_EXCEPTION
                      ? __vmread(VM_EXIT_INSTRUCTION_LEN) : 0);
}

void vmx_singlestep_done(struct vcpu *v, struct cpu_user_regs *regs)
{
    /*
     * An instruction the hypervisor completed for the guest: with TF set
     * the CPU would have raised the single-step trap after it (unless BTF
     * restricts stepping to branches, which emulated instructions are not).
     */
    if ( !(regs->rflags & X86_EFLAGS_TF) ||
         (__vmread(GUEST_IA32_DEBUGCTL) & IA32_DEBUGCTLMSR_BTF) ||
         (__vmread(VM_ENTRY_INTR_INFO) & INTR_INFO_VALID_MASK) )
        return;
    vmx_deliver_debug(v, X86_DR6_BS, X86_EVENTTYPE_HW_EXCEPTION, 0);
}
