/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MSR policy guests see (Xen's arch/x86/msr.c): guest_rdmsr() and
 * guest_wrmsr() decide what exists and what a value may be; MSRs held in
 * the hardware state (segment bases, SYSENTER, PAT) go through the vendor
 * hooks.  0 = done; -EINVAL = the caller injects #GP(0).
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <asm/apic.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/support.h>
#include <asm/hvm/validate.h>
#include <asm/msr.h>
#include <asm/processor.h>

int guest_rdmsr(struct vcpu *v, uint32_t msr, uint64_t *val)
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

int guest_wrmsr(struct vcpu *v, uint32_t msr, uint64_t val)
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
