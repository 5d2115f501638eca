/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPUID policy guests see (Xen's arch/x86/cpuid.c): the hypervisor
 * leaves at 0x40000000, and the host's leaves with everything hidden that
 * is not emulated or not switched for guests.  The MSR policy
 * (arch/x86/msr.c) and the CR4 checks (hvm/validate.c) follow what this
 * advertises.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/version.h>
#include <public/arch-x86/cpuid.h>
#include <asm/cpu-policy.h>
#include <asm/cpufeature.h>
#include <asm/cpuid.h>
#include <asm/hvm/support.h>
#include <asm/processor.h>

#define XEN_CPUID_MAX_LEAF  XEN_CPUID_LEAF(4)

/*
 * What a guest must not see, because it is not emulated, not switched
 * between vCPUs, or enumerates MSRs that are not in the MSR policy
 * (msr.c): the guest would touch them and get #GP.  Xen hides the same
 * (its cpufeatureset.h annotations) unless it emulates them.
 */

/* Leaf 1 EDX: PSN, debug store, thermal control (ACPI/TM/PBE: the thermal MSRs). */
#define CPUID1_EDX_HIDDEN  (CPUID1D_PSN | CPUID1D_DS | CPUID1D_ACPI | \
                            CPUID1D_TM1 | CPUID1D_PBE)

/*
 * Leaf 1 ECX: VMX, MONITOR, SMX, EIST, TM2, the debug store, xTPR and
 * PDCM (their MSRs), DCA, XSAVE/OSXSAVE/AVX.  x2APIC and the TSC-deadline
 * timer are the vLAPIC's (hvm/vlapic.c), advertised whatever the host has.
 */
#define CPUID1_ECX_HIDDEN  (X86_FEATURE_VMX_ECX | X86_FEATURE_MONITOR_ECX |   \
                            CPUID1C_DTES64 | CPUID1C_DSCPL | CPUID1C_SMX |    \
                            CPUID1C_EIST | CPUID1C_TM2 | CPUID1C_XTPR |       \
                            CPUID1C_PDCM | CPUID1C_DCA |                      \
                            X86_FEATURE_XSAVE_ECX | X86_FEATURE_OSXSAVE_ECX | \
                            X86_FEATURE_AVX_ECX)

/*
 * Leaf 7 EBX: TSC_ADJUST (no TSC offsetting: see msr.c), SGX, RDT
 * monitoring/allocation, MPX, processor trace, and AVX2 and the AVX-512
 * family (XSAVE state we do not switch).
 */
#define CPUID7_EBX_HIDDEN  (CPUID7B_TSC_ADJUST | CPUID7B_SGX | CPUID7B_AVX2 |    \
                            CPUID7B_PQM | CPUID7B_MPX | CPUID7B_PQE |           \
                            CPUID7B_AVX512F | CPUID7B_AVX512DQ |                \
                            CPUID7B_AVX512_IFMA | CPUID7B_PROC_TRACE |          \
                            CPUID7B_AVX512PF | CPUID7B_AVX512ER |               \
                            CPUID7B_AVX512CD | CPUID7B_AVX512BW | CPUID7B_AVX512VL)

/*
 * Leaf 7 ECX: what needs XSAVE state we do not switch (AVX-512 VBMI/VBMI2/
 * VNNI/BITALG/VPOPCNTDQ, VAES, VPCLMULQDQ), PKU/OSPKE (Xen: PKU depends on
 * XSAVE), CET shadow stacks, LA57 (five-level paging is not emulated: a
 * CR4.LA57 write faults), WAITPKG (UMWAIT is not intercepted), TME,
 * Key Locker, bus-lock detection, ENQCMD and SGX launch control.
 */
#define CPUID7_ECX_HIDDEN  (CPUID7C_AVX512_VBMI | CPUID7C_PKU | CPUID7C_OSPKE |  \
                            CPUID7C_WAITPKG | CPUID7C_AVX512_VBMI2 |            \
                            CPUID7C_CET_SS | CPUID7C_VAES | CPUID7C_VPCLMULQDQ | \
                            CPUID7C_AVX512_VNNI | CPUID7C_AVX512_BITALG |       \
                            CPUID7C_TME | CPUID7C_AVX512_VPOPCNTDQ |            \
                            CPUID7C_LA57 | CPUID7C_KEYLOCKER | CPUID7C_BLD |    \
                            CPUID7C_ENQCMD | CPUID7C_SGX_LC)

/*
 * Leaf 7 EDX: SGX keys, AVX-512 4VNNIW/4FMAPS/VP2INTERSECT/FP16, user
 * interrupts, CET IBT, AMX, and the bits that enumerate MSRs outside the
 * policy (SRBDS_CTRL, TSX_FORCE_ABORT, PCONFIG, arch LBR, CORE_CAPS).
 * Kept: IBRSB/STIBP/SSBD (SPEC_CTRL, PRED_CMD), L1D_FLUSH (FLUSH_CMD)
 * and ARCH_CAPS, all in msr.c.
 */
#define CPUID7_EDX_HIDDEN  (CPUID7D_SGX_KEYS | CPUID7D_AVX512_4VNNIW |          \
                            CPUID7D_AVX512_4FMAPS | CPUID7D_UINTR |             \
                            CPUID7D_AVX512_VP2INTERSECT | CPUID7D_SRBDS_CTRL |  \
                            CPUID7D_RTM_ALWAYS_ABORT | CPUID7D_TSX_FORCE_ABORT | \
                            CPUID7D_PCONFIG | CPUID7D_ARCH_LBR |                \
                            CPUID7D_CET_IBT | CPUID7D_AMX_BF16 |                \
                            CPUID7D_AVX512_FP16 | CPUID7D_AMX_TILE |            \
                            CPUID7D_AMX_INT8 | CPUID7D_CORE_CAPS)

void guest_cpuid_max(const struct vcpu *v, uint32_t leaf, uint32_t subleaf,
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
            /* The per-vCPU upcall vector goes through the vLAPIC (needs EOI). */
            res->a = XEN_HVM_CPUID_VCPU_ID_PRESENT | XEN_HVM_CPUID_DOMID_PRESENT |
                     XEN_HVM_CPUID_UPCALL_VECTOR;
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
        res->d &= ~CPUID1_EDX_HIDDEN;
        res->c |= X86_FEATURE_HYPERVISOR_ECX | X86_FEATURE_X2APIC_ECX |
                  X86_FEATURE_TSC_DEADLINE_ECX;
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
    case 0xb:                                   /* x2APIC topology: not described */
    case 0x1f:
    case 0xf:                                   /* RDT monitoring */
    case 0x10:                                  /* RDT allocation */
    case 0x12:                                  /* SGX */
    case 0x14:                                  /* processor trace */
    case 0x19:                                  /* Key Locker */
    case 0x1b:                                  /* PCONFIG */
    case 0x1c:                                  /* architectural LBRs */
    case 0x1d:                                  /* AMX tiles */
    case 0x1e:
        memset(res, 0, sizeof(*res));
        break;
    }
}

/* The above, less what the domain's policy hides (cpu-policy.c). */
void guest_cpuid(const struct vcpu *v, uint32_t leaf, uint32_t subleaf,
                 struct cpuid_leaf *res)
{
    guest_cpuid_max(v, leaf, subleaf, res);
    cpu_policy_apply(v->domain, leaf, subleaf, res);
}
