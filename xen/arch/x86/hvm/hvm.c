/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Vendor-independent HVM emulation: control registers and EFER, HLT, and
 * vCPU/domain set-up.  Port I/O is dispatched by hvm/intercept.c.  The CPUID and MSR policies are in
 * arch/x86/cpuid.c and arch/x86/msr.c.
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <public/xen.h>
#include <asm/debugreg.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/support.h>
#include <asm/hvm/validate.h>
#include <asm/hvm/vlapic.h>
#include <asm/msr.h>
#include <asm/p2m.h>
#include <asm/paging.h>
#include <asm/processor.h>

const struct hvm_function_table *hvm_funcs;
extern const struct hvm_function_table vmx_function_table;

int hvm_enable(void)
{
    int rc = vmx_cpu_up();

    if ( rc )
        return rc;
    hvm_funcs = &vmx_function_table;
    hvm_validate_init();
    msr_policy_init();
    printk(XENLOG_INFO "HVM: %s enabled, HAP (EPT) in use\n", hvm_funcs->name);
    return 0;
}

int hvm_cpu_up(void)
{
    return hvm_funcs ? hvm_funcs->cpu_up() : 0;
}

/* ---- control registers and EFER ------------------------------------------ */

/*
 * MOV to CR0 (and CLTS, LMSW).  As the hardware: #GP for reserved bits
 * (including 63:32), PG without PE, NW without CD, clearing PG in 64-bit
 * code or with CR4.PCIDE set, and turning on long-mode paging without PAE.
 */
int hvm_set_cr0(struct vcpu *v, unsigned long value)
{
    struct hvm_vcpu *hvm = &v->arch.hvm;
    unsigned long old = hvm->guest_cr0;

    /* Bits 63:32 fault; reserved bits 31:0 are ignored (as hardware, and Xen). */
    if ( value >> 32 )
        goto gpf;
    value = (value & HVM_CR0_GUEST_DEFINED) | X86_CR0_ET;
    if ( !hvm_cr0_bits_valid(value) )
        goto gpf;

    if ( (value & X86_CR0_PG) && !(old & X86_CR0_PG) && (hvm->guest_efer & EFER_LME) )
    {
        /* Entering long mode needs PAE. */
        if ( !(hvm->guest_cr4 & X86_CR4_PAE) )
            goto gpf;
        hvm->guest_efer |= EFER_LMA;
        hvm_funcs->update_guest_efer(v);
    }
    else if ( !(value & X86_CR0_PG) && (old & X86_CR0_PG) )
    {
        /* Leaving paging: only from compatibility mode, never with PCIDE. */
        if ( (hvm->guest_cr4 & X86_CR4_PCIDE) || hvm_funcs->long_mode_code(v) )
            goto gpf;
        if ( hvm->guest_efer & EFER_LMA )
        {
            hvm->guest_efer &= ~EFER_LMA;
            hvm_funcs->update_guest_efer(v);
        }
    }
    else if ( (value & X86_CR0_PG) && !(old & X86_CR0_PG) &&
              (hvm->guest_cr4 & X86_CR4_PAE) )
    {
        /* Legacy PAE paging would need the PDPTEs loaded: not supported. */
        return -1;
    }

    hvm->guest_cr0 = value;
    hvm_funcs->update_guest_cr(v, 0);
    return 0;

 gpf:
    hvm_funcs->inject_exception(X86_EXC_GP, 0);
    return 1;
}

/*
 * MOV to CR4: #GP for bits the domain's CPUID does not advertise (or that
 * are not emulated: OSXSAVE, PKE, LA57, CET...), clearing PAE in long
 * mode, and setting PCIDE outside long mode or with CR3[11:0] non-zero.
 */
int hvm_set_cr4(struct vcpu *v, unsigned long value)
{
    struct hvm_vcpu *hvm = &v->arch.hvm;
    bool lma = hvm->guest_efer & EFER_LMA;

    if ( (value & ~hvm_cr4_guest_valid_bits(v->domain)) ||
         (lma && !(value & X86_CR4_PAE)) )
        goto gpf;
    if ( (value & X86_CR4_PCIDE) && !(hvm->guest_cr4 & X86_CR4_PCIDE) &&
         (!lma || (hvm_funcs->get_guest_cr3(v) & 0xfff)) )
        goto gpf;
    hvm->guest_cr4 = value;
    hvm_funcs->update_guest_cr(v, 4);
    return 0;

 gpf:
    hvm_funcs->inject_exception(X86_EXC_GP, 0);
    return 1;
}

int hvm_set_efer(struct vcpu *v, uint64_t value)
{
    struct hvm_vcpu *hvm = &v->arch.hvm;

    if ( !hvm_efer_valid(value) )
        return -EINVAL;
    /* LME may not change while paging is on; LMA is read-only. */
    if ( ((value ^ hvm->guest_efer) & EFER_LME) && (hvm->guest_cr0 & X86_CR0_PG) )
        return -EINVAL;
    hvm->guest_efer = (value & ~(uint64_t)EFER_LMA) | (hvm->guest_efer & EFER_LMA);
    hvm_funcs->update_guest_efer(v);
    return 0;
}

void hvm_context_switch(struct vcpu *prev, struct vcpu *next)
{
    const struct hvm_vcpu *h = &next->arch.hvm;

    if ( prev == next )
        return;
    /* The hypervisor never uses the FPU: switch the guests' state eagerly. */
    if ( prev )
    {
        asm volatile ( "fxsave64 %0" : "=m" (prev->arch.hvm.fpu) );
        /*
         * SWAPGS changes the shadow GS base without an exit (Xen's
         * vmx_save_guest_msrs reads it back too): a guest switched out in
         * user mode has its kernel's GS base there, and losing it faults
         * the next kernel entry (Linux: recursive page faults on the
         * per-CPU area until the entry stack's guard page).
         */
        prev->arch.hvm.msr_shadow_gs = rdmsr(MSR_SHADOW_GS_BASE);
        hvm_funcs->ctxt_switch_from(prev);
    }
    asm volatile ( "fxrstor64 %0" :: "m" (next->arch.hvm.fpu) );
    wrmsr(MSR_STAR, h->msr_star);
    wrmsr(MSR_LSTAR, h->msr_lstar);
    wrmsr(MSR_CSTAR, h->msr_cstar);
    wrmsr(MSR_SYSCALL_MASK, h->msr_syscall_mask);
    wrmsr(MSR_SHADOW_GS_BASE, h->msr_shadow_gs);
    wrmsr(MSR_TSC_AUX, h->msr_tsc_aux);
}

/* ---- HLT ----------------------------------------------------------- */

void hvm_hlt(struct vcpu *v, struct cpu_user_regs *regs)
{
    /*
     * HLT blocks the vCPU until an event is pending (then the upcall is
     * injected, or the vCPU just resumes after the HLT), as Xen's
     * SCHEDOP_block.  With interrupts off nothing can ever be delivered:
     * that vCPU goes down (Xen's hvm_hlt -> hvm_vcpu_down), and the
     * domain with its last one.
     */
    if ( !(regs->rflags & X86_EFLAGS_IF) )
    {
        /* An NMI is taken with interrupts off: it ends this HLT at once. */
        if ( !v->arch.nmi_pending )
            vcpu_down(v);
        return;
    }
    if ( hvm_vcpu_has_pending_irq(v).source != hvm_intsrc_none )
        return;
    vcpu_block_enable_events(v);
}

/* ---- domain and vCPU --------------------------------------------------------- */

int hvm_domain_initialise(struct domain *d)
{
    int rc;

    spin_lock_init(&d->arch.hvm.memmap_lock);
    hap_domain_init(d);
    hvm_portio_init(d);
    if ( (rc = p2m_init(d)) )
        return rc;
    return vlapic_domain_init(d);
}

void hvm_set_memory_map(struct domain *d, const struct hvm_memmap_table_entry *map,
                        unsigned int nr)
{
    struct hvm_domain *hvm = &d->arch.hvm;

    spin_lock(&hvm->memmap_lock);
    hvm->nr_memmap = min_t(unsigned int, nr, HVM_MAX_MEMMAP);
    memcpy(hvm->memmap, map, hvm->nr_memmap * sizeof(*map));
    spin_unlock(&hvm->memmap_lock);
}

void hvm_domain_destroy(struct domain *d)
{
    if ( d->arch.hvm.mmio_unclaimed )
        printk(XENLOG_INFO "d%u: %lu accesses to guest-physical addresses nothing claims (read as all ones, writes dropped)\n",
               d->domain_id, (unsigned long)d->arch.hvm.mmio_unclaimed);
    paging_teardown(d);
    vlapic_domain_destroy(d);
    p2m_teardown(d);                /* and the paging pool after it */
}

/* The FXSAVE image of a CPU after FNINIT with SSE defaults. */
#define FXSAVE_FCW_OFFSET       0
#define FXSAVE_MXCSR_OFFSET     24
#define FCW_DEFAULT             0x037f
#define MXCSR_DEFAULT           0x1f80

int hvm_vcpu_initialise(struct vcpu *v)
{
    uint16_t fcw = FCW_DEFAULT;
    uint32_t mxcsr = MXCSR_DEFAULT;
    int rc;

    memcpy(v->arch.hvm.fpu + FXSAVE_FCW_OFFSET, &fcw, sizeof(fcw));
    memcpy(v->arch.hvm.fpu + FXSAVE_MXCSR_OFFSET, &mxcsr, sizeof(mxcsr));
    v->arch.hvm.regs.rflags = X86_EFLAGS_MBS;
    memset(v->arch.hvm.dr, 0, sizeof(v->arch.hvm.dr));
    v->arch.hvm.dr6 = X86_DR6_DEFAULT;
    guest_msr_vcpu_init(v);
    if ( (rc = vlapic_init(v)) )
        return rc;
    return hvm_funcs->vcpu_initialise(v);
}

void hvm_vcpu_destroy(struct vcpu *v)
{
    hvm_funcs->vcpu_destroy(v);
    vlapic_destroy(v);
}

bool hvm_hap_nested_page_fault(struct vcpu *v, uint64_t gpa, unsigned long q)
{
    p2m_type_t t;

    /* A write to a write-protected log-dirty page: log it and retry. */
    if ( (q & EPT_WRITE_VIOLATION) && hap_handle_logdirty_fault(v, gpa >> PAGE_SHIFT) )
        return true;
    /*
     * A write to a read-only grant mapping: Xen emulates the instruction
     * and drops the write (p2m_grant_map_ro is a discard-write type); this
     * hypervisor has no instruction emulator to do that, so the writer is
     * crashed, with a line that says why.  The granter's frame is intact.
     */
    if ( (q & EPT_WRITE_VIOLATION) &&
         p2m_get_entry(v->domain, gpa >> PAGE_SHIFT, &t) != INVALID_MFN &&
         t == p2m_grant_map_ro )
    {
        domain_crash(v->domain, "d%uv%u write to a read-only grant mapping at gpa %#lx",
                     v->domain->domain_id, v->vcpu_id, (unsigned long)gpa);
        return true;
    }
    return false;
}
