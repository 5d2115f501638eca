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
#include <asm/cpuid.h>
#include <asm/hvm/support.h>
#include <asm/processor.h>

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

void guest_cpuid(const struct vcpu *v, uint32_t leaf, uint32_t subleaf,
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
