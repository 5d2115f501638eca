/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Vendor-independent HVM emulation: the CPUID policy, control registers
 * and EFER, MSRs, port I/O, HLT, and vCPU/domain set-up.
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/version.h>
#include <public/arch-x86/cpuid.h>
#include <public/xen.h>
#include <asm/apic.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/support.h>
#include <asm/hvm/validate.h>
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
    printk(XENLOG_INFO "HVM: %s enabled, HAP (EPT) in use\n", hvm_funcs->name);
    return 0;
}

/* ---- CPUID ---------------------------------------------------------------- */

#define XEN_CPUID_MAX_LEAF  XEN_CPUID_LEAF(4)

/* Leaf 1 ECX features a guest must not see: we do not virtualise them. */
#define CPUID1_ECX_HIDDEN  (X86_FEATURE_VMX_ECX | X86_FEATURE_MONITOR_ECX | \
                            (1u << 6) /* SMX */ | (1u << 7) /* EST */ |     \
                            (1u << 8) /* TM2 */ | (1u << 15) /* PDCM */ |   \
                            X86_FEATURE_X2APIC_ECX | X86_FEATURE_TSC_DEADLINE_ECX | \
                            X86_FEATURE_XSAVE_ECX | X86_FEATURE_OSXSAVE_ECX |   \
                            X86_FEATURE_AVX_ECX)
/* Leaf 7 EBX: AVX2 (5) and the AVX-512 family need XSAVE state we do not switch. */
#define CPUID7_EBX_HIDDEN  ((1u << 5) | (1u << 16) | (1u << 17) | (1u << 21) | \
                            (1u << 26) | (1u << 27) | (1u << 28) | (1u << 30) | \
                            (1u << 31))

/*
 * Leaf 7 ECX: what needs XSAVE state we do not switch (AVX-512 VBMI/VBMI2/
 * VNNI/BITALG/VPOPCNTDQ, VAES, VPCLMULQDQ), PKU/OSPKE (Xen: PKU depends on
 * XSAVE), CET shadow stacks, LA57 (five-level paging is not emulated: a
 * CR4.LA57 write faults), and WAITPKG (UMWAIT is not intercepted).
 */
#define CPUID7_ECX_HIDDEN  ((1u << 1) | (1u << 3) | (1u << 4) | (1u << 5) | \
                            (1u << 6) | (1u << 7) | (1u << 9) | (1u << 10) | \
                            (1u << 11) | (1u << 12) | (1u << 14) | (1u << 16))
/* Leaf 7 EDX: AVX-512 4VNNIW/4FMAPS/VP2INTERSECT/FP16, CET IBT, AMX. */
#define CPUID7_EDX_HIDDEN  ((1u << 2) | (1u << 3) | (1u << 8) | (1u << 20) | \
                            (1u << 22) | (1u << 23) | (1u << 24))

void hvm_cpuid(struct vcpu *v, uint32_t leaf, uint32_t subleaf,
               struct cpuid_leaf *res)
{
    if ( leaf >= XEN_CPUID_FIRST_LEAF && leaf < XEN_CPUID_FIRST_LEAF + 0x10000 )
    {
        memset(res, 0, sizeof(*res));
        switch ( leaf )
        {
        case XEN_CPUID_LEAF(0):
            res->a = XEN_CPUID_MAX_LEAF;
            res->b = XEN_CPUID_SIGNATURE_EBX;
            res->c = XEN_CPUID_SIGNATURE_ECX;
            res->d = XEN_CPUID_SIGNATURE_EDX;
            break;
        case XEN_CPUID_LEAF(1):
            res->a = (XEN_VERSION << 16) | XEN_SUBVERSION;
            break;
        case XEN_CPUID_LEAF(2):
            res->a = 1;                         /* hypercall pages */
            res->b = HVM_HYPERCALL_PAGE_MSR;
            break;
        case XEN_CPUID_LEAF(4):
            res->a = XEN_HVM_CPUID_VCPU_ID_PRESENT | XEN_HVM_CPUID_DOMID_PRESENT;
            res->b = v->vcpu_id;
            res->c = v->domain->domain_id;
            break;
        }
        return;
    }

    cpuid_count(leaf, subleaf, res);
    switch ( leaf )
    {
    case 1:
        res->c &= ~CPUID1_ECX_HIDDEN;
        res->c |= X86_FEATURE_HYPERVISOR_ECX;
        /* Initial APIC id = vCPU id; logical processor count = vCPUs. */
        res->b = (res->b & 0x0000ffff) | (v->vcpu_id << 24) |
                 ((v->domain->max_vcpus & 0xff) << 16);
        break;
    case 7:
        if ( subleaf == 0 )
        {
            res->b &= ~CPUID7_EBX_HIDDEN;
            res->c &= ~CPUID7_ECX_HIDDEN;
            res->d &= ~CPUID7_EDX_HIDDEN;
        }
        else
            memset(res, 0, sizeof(*res));
        break;
    case 0xd:                                   /* XSAVE state: hidden */
    case 5:                                     /* MONITOR/MWAIT */
        memset(res, 0, sizeof(*res));
        break;
    case 6:                                     /* thermal and power */
        memset(res, 0, sizeof(*res));
        break;
    case 0xa:                                   /* performance monitoring */
        memset(res, 0, sizeof(*res));
        break;
    }
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

static int hvm_set_efer(struct vcpu *v, uint64_t value)
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

/* ---- MSRs ------------------------------------------------------------------ */

int hvm_msr_read(struct vcpu *v, uint32_t msr, uint64_t *val)
{
    struct hvm_vcpu *hvm = &v->arch.hvm;
    bool ok = true;

    switch ( msr )
    {
    case MSR_EFER:              *val = hvm->guest_efer; break;
    case MSR_STAR:              *val = hvm->msr_star; break;
    case MSR_LSTAR:             *val = hvm->msr_lstar; break;
    case MSR_CSTAR:             *val = hvm->msr_cstar; break;
    case MSR_SYSCALL_MASK:      *val = hvm->msr_syscall_mask; break;
    case MSR_SHADOW_GS_BASE:    *val = hvm->msr_shadow_gs; break;
    case MSR_TSC_AUX:           *val = hvm->msr_tsc_aux; break;
    case MSR_IA32_TSC:          *val = rdtsc(); break;
    case MSR_IA32_APICBASE:
        *val = APIC_DEFAULT_BASE | (v->vcpu_id == 0 ? (1u << 8) : 0);
        break;
    case MSR_IA32_MISC_ENABLE:  *val = 1; break;    /* fast strings */
    case MSR_IA32_PLATFORM_ID:
    case MSR_IA32_BIOS_SIGN_ID:
    case MSR_MTRRcap:
    case MSR_MTRRdefType:
    case MSR_IA32_MCG_CAP:
    case MSR_IA32_MCG_STATUS:
        *val = 0;
        break;
    default:
        *val = hvm_funcs->get_msr(v, msr, &ok);
        if ( ok )
            break;
        printk(XENLOG_G_DEBUG "d%uv%u RDMSR %#x unimplemented\n",
               v->domain->domain_id, v->vcpu_id, msr);
        return -EINVAL;
    }
    return 0;
}

int hvm_msr_write(struct vcpu *v, uint32_t msr, uint64_t val)
{
    struct hvm_vcpu *hvm = &v->arch.hvm;

    if ( !hvm_msr_value_valid(msr, val) )
        return -EINVAL;

    switch ( msr )
    {
    case MSR_EFER:
        return hvm_set_efer(v, val);
    case HVM_HYPERCALL_PAGE_MSR:
        /* Low 12 bits: index of the hypercall page; we have one. */
        if ( val & ~PAGE_MASK )
            return -EINVAL;
        return hvm_init_hypercall_page(v->domain, val) ? -EINVAL : 0;
    /*
     * These go straight into the host MSRs while the vCPU runs: a value
     * the hardware would refuse (non-canonical, reserved bits) must never
     * get there.  The guest gets the #GP its own WRMSR would have raised.
     */
    case MSR_STAR:              hvm->msr_star = val; wrmsr(msr, val); break;
    case MSR_LSTAR:             hvm->msr_lstar = val; wrmsr(msr, val); break;
    case MSR_CSTAR:             hvm->msr_cstar = val; wrmsr(msr, val); break;
    case MSR_SYSCALL_MASK:      hvm->msr_syscall_mask = val; wrmsr(msr, val); break;
    case MSR_SHADOW_GS_BASE:    hvm->msr_shadow_gs = val; wrmsr(msr, val); break;
    case MSR_TSC_AUX:           hvm->msr_tsc_aux = val; wrmsr(msr, val); break;
    case MSR_IA32_TSC:
    case MSR_IA32_APICBASE:
    case MSR_IA32_BIOS_SIGN_ID:
    case MSR_MTRRdefType:
    case MSR_IA32_MISC_ENABLE:
        break;                  /* accepted and ignored */
    default:
        if ( hvm_funcs->set_msr(v, msr, val) )
            break;
        printk(XENLOG_G_DEBUG "d%uv%u WRMSR %#x unimplemented\n",
               v->domain->domain_id, v->vcpu_id, msr);
        return -EINVAL;
    }
    return 0;
}

void hvm_context_switch(struct vcpu *prev, struct vcpu *next)
{
    const struct hvm_vcpu *h = &next->arch.hvm;

    if ( prev == next )
        return;
    /* The hypervisor never uses the FPU: switch the guests' state eagerly. */
    if ( prev )
        asm volatile ( "fxsave64 %0" : "=m" (prev->arch.hvm.fpu) );
    asm volatile ( "fxrstor64 %0" :: "m" (next->arch.hvm.fpu) );
    wrmsr(MSR_STAR, h->msr_star);
    wrmsr(MSR_LSTAR, h->msr_lstar);
    wrmsr(MSR_CSTAR, h->msr_cstar);
    wrmsr(MSR_SYSCALL_MASK, h->msr_syscall_mask);
    wrmsr(MSR_SHADOW_GS_BASE, h->msr_shadow_gs);
    wrmsr(MSR_TSC_AUX, h->msr_tsc_aux);
}

/* ---- port I/O, HLT ----------------------------------------------------------- */

/* Xen's debug port: bytes written to 0xE9 appear on the console as "(dN) ..." */
#define XEN_HVM_DEBUG_PORT 0xe9

void hvm_portio(struct vcpu *v, unsigned int port, unsigned int bytes, bool in,
                unsigned long *val)
{
    if ( in )
    {
        unsigned long mask = bytes == 4 ? 0xffffffffUL : (1UL << (bytes * 8)) - 1;

        /* Nothing is emulated: reads float high. */
        *val = (*val & ~mask) | mask;
        if ( bytes == 4 )
            *val = (uint32_t)*val;
        return;
    }
    if ( port == XEN_HVM_DEBUG_PORT )
    {
        char c = (char)*val;

        guest_console_write(v->domain, &c, 1);
    }
    /* Other writes go nowhere. */
}

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
        vcpu_down(v);
        return;
    }
    if ( hvm_vcpu_upcall_vector(v) >= 0 )
        return;
    vcpu_block_enable_events(v);
}

/* ---- domain and vCPU --------------------------------------------------------- */

int hvm_domain_initialise(struct domain *d)
{
    hap_domain_init(d);
    return p2m_init(d);
}

void hvm_domain_destroy(struct domain *d)
{
    paging_teardown(d);
    p2m_drop_foreign_mappings_of(d);
    p2m_teardown(d);
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

    memcpy(v->arch.hvm.fpu + FXSAVE_FCW_OFFSET, &fcw, sizeof(fcw));
    memcpy(v->arch.hvm.fpu + FXSAVE_MXCSR_OFFSET, &mxcsr, sizeof(mxcsr));
    v->arch.hvm.regs.rflags = X86_EFLAGS_MBS;
    return hvm_funcs->vcpu_initialise(v);
}

void hvm_vcpu_destroy(struct vcpu *v)
{
    hvm_funcs->vcpu_destroy(v);
}

bool hvm_hap_nested_page_fault(struct vcpu *v, uint64_t gpa, unsigned long q)
{
    /* A write to a write-protected log-dirty page: log it and retry. */
    if ( (q & EPT_WRITE_VIOLATION) && hap_handle_logdirty_fault(v, gpa >> PAGE_SHIFT) )
        return true;
    return false;
}
