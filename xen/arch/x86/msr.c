/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MSR policy guests see (Xen's arch/x86/msr.c): guest_rdmsr() and
 * guest_wrmsr() decide which MSRs exist and what a value may be, from
 * what the guest's CPUID (cpuid.c) advertises.  MSRs held in the hardware
 * state (segment bases, SYSENTER, PAT) go through the vendor hooks.
 * Every value is checked before it is stored (hvm/validate.c).
 * 0 = done; -EINVAL = the caller injects #GP(0).  An MSR outside the
 * policy is a #GP, logged once per MSR and direction at debug level.
 * See docs/misc/platform.md.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/cpuid.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/support.h>
#include <asm/hvm/validate.h>
#include <asm/hvm/vlapic.h>
#include <asm/msr.h>
#include <asm/processor.h>

/*
 * IA32_ARCH_CAPABILITIES as guests see it: the host's "not affected" and
 * informational bits, as Xen passes them on.  Bits that enumerate further
 * MSRs (TSX_CTRL, MCU_CONTROL, FB_CLEAR_CTRL, ...) are dropped: those
 * MSRs are not in the policy.
 */
#define ARCH_CAPS_GUEST_MASK (ARCH_CAPS_RDCL_NO | ARCH_CAPS_IBRS_ALL |          \
                              ARCH_CAPS_RSBA | ARCH_CAPS_SKIP_L1DFL |           \
                              ARCH_CAPS_SSB_NO | ARCH_CAPS_MDS_NO |             \
                              ARCH_CAPS_IF_PSCHANGE_MC_NO | ARCH_CAPS_TAA_NO |  \
                              ARCH_CAPS_SBDR_SSDP_NO | ARCH_CAPS_FBSDP_NO |     \
                              ARCH_CAPS_PSDP_NO | ARCH_CAPS_FB_CLEAR |          \
                              ARCH_CAPS_RRSBA | ARCH_CAPS_BHI_NO |              \
                              ARCH_CAPS_PBRSB_NO | ARCH_CAPS_GDS_NO |           \
                              ARCH_CAPS_RFDS_NO)

/* MISC_ENABLE: fast strings on; no branch trace store, no PEBS. */
#define GUEST_MISC_ENABLE (MSR_IA32_MISC_ENABLE_FAST_STRING |    \
                           MSR_IA32_MISC_ENABLE_BTS_UNAVAIL |   \
                           MSR_IA32_MISC_ENABLE_PEBS_UNAVAIL)

static uint64_t guest_arch_caps;

void msr_policy_init(void)
{
    struct cpuid_leaf l;

    cpuid_count(0, 0, &l);
    if ( l.a < 7 )
        return;
    cpuid_count(7, 0, &l);
    if ( l.d & CPUID7D_ARCH_CAPS )
        guest_arch_caps = rdmsr(MSR_IA32_ARCH_CAPABILITIES) & ARCH_CAPS_GUEST_MASK;
    printk(XENLOG_INFO "MSR policy: guests' ARCH_CAPABILITIES %#lx\n",
           (unsigned long)guest_arch_caps);
}

void guest_msr_vcpu_init(struct vcpu *v)
{
    struct vcpu_msrs *m = &v->arch.hvm.msrs;

    memset(m, 0, sizeof(*m));
    /*
     * There is no firmware to program the MTRRs: everything is write-back
     * by default, as Xen sets them up for a PVH dom0.
     */
    m->mtrr_def_type = MTRRdefType_E | MTRR_TYPE_WRBACK;
}

/* ---- what the guest's CPUID advertises ------------------------------------ */

struct msr_features {
    bool mtrr, mce, ibrsb, ibpb, stibp, ssbd, l1d_flush, arch_caps, tsc_aux;
    bool x2apic, tsc_deadline;
};

static void get_features(const struct vcpu *v, struct msr_features *f)
{
    struct cpuid_leaf l1, l7, e0, e1, e8;

    guest_cpuid(v, 1, 0, &l1);
    guest_cpuid(v, 7, 0, &l7);
    guest_cpuid(v, 0x80000000, 0, &e0);
    guest_cpuid(v, 0x80000001, 0, &e1);
    if ( e0.a >= 0x80000008 )
        guest_cpuid(v, 0x80000008, 0, &e8);
    else
        memset(&e8, 0, sizeof(e8));

    f->mtrr = l1.d & CPUID1D_MTRR;
    f->x2apic = l1.c & X86_FEATURE_X2APIC_ECX;
    f->tsc_deadline = l1.c & X86_FEATURE_TSC_DEADLINE_ECX;
    f->mce = l1.d & (CPUID1D_MCE | CPUID1D_MCA);
    f->ibrsb = l7.d & CPUID7D_IBRSB;
    f->ibpb = f->ibrsb || (e8.b & CPUIDe8B_IBPB);
    f->stibp = l7.d & CPUID7D_STIBP;
    f->ssbd = l7.d & CPUID7D_SSBD;
    f->l1d_flush = l7.d & CPUID7D_L1D_FLUSH;
    f->arch_caps = l7.d & CPUID7D_ARCH_CAPS;
    f->tsc_aux = (e1.d & CPUIDe1D_RDTSCP) || (l7.c & CPUID7C_RDPID);
}

/*
 * SPEC_CTRL bits a guest may set (Xen's msr_spec_ctrl_valid_bits): IBRS,
 * STIBP (architecturally ignored where not enumerated), SSBD if advertised.
 */
static uint64_t spec_ctrl_valid_bits(const struct msr_features *f)
{
    return SPEC_CTRL_IBRS | SPEC_CTRL_STIBP | (f->ssbd ? SPEC_CTRL_SSBD : 0);
}

/* ---- MTRRs ------------------------------------------------------------------ */

static uint64_t *fixed_mtrr(struct vcpu_msrs *m, uint32_t msr)
{
    if ( msr == MSR_MTRRfix64K_00000 )
        return &m->mtrr_fixed[0];
    if ( msr == MSR_MTRRfix16K_80000 || msr == MSR_MTRRfix16K_A0000 )
        return &m->mtrr_fixed[1 + msr - MSR_MTRRfix16K_80000];
    if ( msr >= MSR_MTRRfix4K_C0000 && msr <= MSR_MTRRfix4K_F8000 )
        return &m->mtrr_fixed[3 + msr - MSR_MTRRfix4K_C0000];
    return NULL;
}

static uint64_t *var_mtrr(struct vcpu_msrs *m, uint32_t msr)
{
    if ( msr >= MSR_IA32_MTRR_PHYSBASE(0) && msr <= MSR_IA32_MTRR_PHYSMASK(MTRR_VCNT - 1) )
        return &m->mtrr_var[msr - MSR_IA32_MTRR_PHYSBASE(0)];
    return NULL;
}

/* ---- logging what is not in the policy ---------------------------------- */

#define MSR_LOGGED_MAX 64
static uint32_t msr_logged[MSR_LOGGED_MAX];
static unsigned int msr_nr_logged;

static int msr_unhandled(const struct vcpu *v, uint32_t msr, bool write, uint64_t val)
{
    uint32_t key = write ? msr ^ 0x80000000u : msr;   /* no MSR has both forms */
    unsigned int i;

    for ( i = 0; i < msr_nr_logged; i++ )
        if ( msr_logged[i] == key )
            return -EINVAL;
    if ( msr_nr_logged < MSR_LOGGED_MAX )
        msr_logged[msr_nr_logged++] = key;
    if ( write )
        printk(XENLOG_G_DEBUG "d%uv%u WRMSR %#x val %#lx unimplemented (#GP; logged once)\n",
               v->domain->domain_id, v->vcpu_id, msr, (unsigned long)val);
    else
        printk(XENLOG_G_DEBUG "d%uv%u RDMSR %#x unimplemented (#GP; logged once)\n",
               v->domain->domain_id, v->vcpu_id, msr);
    return -EINVAL;
}

/* ---- RDMSR ------------------------------------------------------------------ */

int guest_rdmsr(struct vcpu *v, uint32_t msr, uint64_t *val)
{
    struct hvm_vcpu *hvm = &v->arch.hvm;
    struct vcpu_msrs *m = &hvm->msrs;
    struct msr_features f;
    uint64_t *p;
    bool ok = true;

    get_features(v, &f);
    switch ( msr )
    {
    case MSR_EFER:              *val = hvm->guest_efer; break;
    case MSR_STAR:              *val = hvm->msr_star; break;
    case MSR_LSTAR:             *val = hvm->msr_lstar; break;
    case MSR_CSTAR:             *val = hvm->msr_cstar; break;
    case MSR_SYSCALL_MASK:      *val = hvm->msr_syscall_mask; break;
    case MSR_SHADOW_GS_BASE:    /* live while v runs: SWAPGS does not exit */
        *val = v == current ? rdmsr(MSR_SHADOW_GS_BASE) : hvm->msr_shadow_gs;
        break;
    case MSR_TSC_AUX:
        if ( !f.tsc_aux )
            goto gp;
        *val = hvm->msr_tsc_aux;
        break;
    case MSR_IA32_TSC:          *val = rdtsc(); break;
    case MSR_IA32_APICBASE:
    case MSR_IA32_TSC_DEADLINE:
    case MSR_X2APIC_FIRST ... MSR_X2APIC_LAST:
        /* The vLAPIC's (hvm/vlapic.c); x2APIC registers #GP in xAPIC mode. */
        if ( (msr == MSR_IA32_TSC_DEADLINE && !f.tsc_deadline) ||
             !vlapic_rdmsr(v, msr, val) )
            goto gp;
        break;
    case MSR_IA32_FEATURE_CONTROL:
        /* Locked, with neither VMX nor SMX enabled (Xen without nested virt). */
        *val = IA32_FEATURE_CONTROL_LOCK;
        break;
    case MSR_IA32_SPEC_CTRL:
        if ( !f.ibrsb )
            goto gp;
        *val = m->spec_ctrl;
        break;
    case MSR_IA32_ARCH_CAPABILITIES:
        if ( !f.arch_caps )
            goto gp;
        *val = guest_arch_caps;
        break;
    case MSR_INTEL_PLATFORM_INFO:
        *val = 0;               /* no CPUID faulting, nothing else to tell */
        break;
    case MSR_INTEL_MISC_FEATURES_ENABLES:
        *val = 0;               /* neither CPUID faulting nor ring-3 MWAIT */
        break;
    case MSR_IA32_MISC_ENABLE:  *val = GUEST_MISC_ENABLE; break;
    case MSR_IA32_PLATFORM_ID:
    case MSR_IA32_BIOS_SIGN_ID:
        *val = 0;
        break;
    case MSR_IA32_MCG_CAP:
    case MSR_IA32_MCG_STATUS:
        if ( !f.mce )
            goto gp;
        *val = 0;               /* no banks, nothing pending */
        break;
    case MSR_MTRRcap:
        if ( !f.mtrr )
            goto gp;
        *val = (MTRR_VCNT << MTRRcap_VCNT_SHIFT) | MTRRcap_FIX | MTRRcap_WC;
        break;
    case MSR_MTRRdefType:
        if ( !f.mtrr )
            goto gp;
        *val = m->mtrr_def_type;
        break;
    case MSR_MTRRfix64K_00000:
    case MSR_MTRRfix16K_80000:
    case MSR_MTRRfix16K_A0000:
    case MSR_MTRRfix4K_C0000 ... MSR_MTRRfix4K_F8000:
    case MSR_IA32_MTRR_PHYSBASE(0) ... MSR_IA32_MTRR_PHYSMASK(MTRR_VCNT - 1):
        if ( !f.mtrr )
            goto gp;
        p = fixed_mtrr(m, msr) ?: var_mtrr(m, msr);
        *val = *p;
        break;
    default:
        *val = hvm_funcs->get_msr(v, msr, &ok);
        if ( ok )
            break;
        goto gp;
    }
    return 0;

 gp:
    return msr_unhandled(v, msr, false, 0);
}

/* ---- WRMSR ------------------------------------------------------------------ */

int guest_wrmsr(struct vcpu *v, uint32_t msr, uint64_t val)
{
    struct hvm_vcpu *hvm = &v->arch.hvm;
    struct vcpu_msrs *m = &hvm->msrs;
    struct msr_features f;

    if ( !hvm_msr_value_valid(msr, val) )
        return -EINVAL;

    get_features(v, &f);
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
    case MSR_TSC_AUX:
        if ( !f.tsc_aux )
            goto gp;
        hvm->msr_tsc_aux = val;
        wrmsr(msr, val);
        break;
    case MSR_IA32_SPEC_CTRL:
        /* Kept per vCPU, not loaded: the hypervisor runs on the host's value. */
        if ( !f.ibrsb || (val & ~spec_ctrl_valid_bits(&f)) )
            goto gp;
        m->spec_ctrl = val;
        break;
    case MSR_IA32_PRED_CMD:
        /* Write-only.  IBPB: a barrier; Bochs does not speculate across it. */
        if ( !f.ibpb || (val & ~(uint64_t)PRED_CMD_IBPB) )
            goto gp;
        break;
    case MSR_IA32_FLUSH_CMD:
        /* Write-only.  L1D flush: nothing cached to flush under emulation. */
        if ( !f.l1d_flush || (val & ~(uint64_t)FLUSH_CMD_L1D) )
            goto gp;
        break;
    case MSR_INTEL_MISC_FEATURES_ENABLES:
        if ( val )
            goto gp;            /* PLATFORM_INFO offers no CPUID faulting */
        break;
    case MSR_IA32_MISC_ENABLE:
        if ( val != GUEST_MISC_ENABLE )
            goto gp;            /* nothing in it may change */
        break;
    case MSR_MTRRdefType:
        if ( !f.mtrr || !hvm_mtrr_def_type_valid(val) )
            goto gp;
        m->mtrr_def_type = val;
        break;
    case MSR_MTRRfix64K_00000:
    case MSR_MTRRfix16K_80000:
    case MSR_MTRRfix16K_A0000:
    case MSR_MTRRfix4K_C0000 ... MSR_MTRRfix4K_F8000:
        if ( !f.mtrr || !hvm_mtrr_fixed_valid(val) )
            goto gp;
        *fixed_mtrr(m, msr) = val;
        break;
    case MSR_IA32_MTRR_PHYSBASE(0) ... MSR_IA32_MTRR_PHYSMASK(MTRR_VCNT - 1):
        if ( !f.mtrr || !hvm_mtrr_var_valid(!(msr & 1), val) )
            goto gp;
        *var_mtrr(m, msr) = val;
        break;
    case MSR_IA32_APICBASE:
        /*
         * Reserved bits (7:0, 9, beyond the address width) and x2APIC mode
         * where CPUID does not advertise it fault; the vLAPIC checks the
         * mode transitions (BSP is read-only, moving an enabled xAPIC #GPs).
         */
        if ( (val & ~(MSR_IA32_APICBASE_BASE_MASK | MSR_IA32_APICBASE_BSP |
                      MSR_IA32_APICBASE_ENABLE | MSR_IA32_APICBASE_EXTD)) ||
             ((val & MSR_IA32_APICBASE_EXTD) && !f.x2apic) ||
             (val >> hvm_paddr_bits()) ||
             !vlapic_wrmsr(v, msr, (val & ~(uint64_t)MSR_IA32_APICBASE_BSP) |
                                   (v->vcpu_id == 0 ? MSR_IA32_APICBASE_BSP : 0)) )
            goto gp;
        break;
    case MSR_IA32_TSC_DEADLINE:
    case MSR_X2APIC_FIRST ... MSR_X2APIC_LAST:
        if ( (msr == MSR_IA32_TSC_DEADLINE && !f.tsc_deadline) ||
             !vlapic_wrmsr(v, msr, val) )
            goto gp;
        break;
    case MSR_IA32_TSC:
    case MSR_IA32_BIOS_SIGN_ID:
        break;                  /* accepted and ignored */
    default:
        if ( hvm_funcs->set_msr(v, msr, val) )
            break;
        goto gp;
    }
    return 0;

 gp:
    return msr_unhandled(v, msr, true, val);
}
