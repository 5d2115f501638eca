/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPU policy the toolstack reads and sets (arch/x86/cpu-policy.c):
 * XEN_SYSCTL_get_cpu_featureset, XEN_SYSCTL_get_cpu_policy,
 * XEN_DOMCTL_{get,set}_cpu_policy, in Xen 4.17's serialised form.
 */
#ifndef __ASM_X86_CPU_POLICY_H__
#define __ASM_X86_CPU_POLICY_H__

#include <xen/types.h>
#include <asm/processor.h>

/* How many entries Xen 4.17's serialised policy has at most (lib/x86). */
#define CPUID_GUEST_NR_BASIC        (0xdu + 1)
#define CPUID_GUEST_NR_CACHE        (5u + 1)
#define CPUID_GUEST_NR_FEAT         (2u + 1)
#define CPUID_GUEST_NR_TOPO         (1u + 1)
#define CPUID_GUEST_NR_XSTATE       (62u + 1)
#define CPUID_GUEST_NR_EXTD         (0x21u + 1)
#define CPUID_MAX_SERIALISED_LEAVES                                  \
    (CPUID_GUEST_NR_BASIC + CPUID_GUEST_NR_FEAT - 1 +                \
     CPUID_GUEST_NR_CACHE - 1 + CPUID_GUEST_NR_TOPO - 1 +            \
     CPUID_GUEST_NR_XSTATE - 1 + CPUID_GUEST_NR_EXTD + 2)
#define MSR_MAX_SERIALISED_ENTRIES  2
/* Xen 4.17's featureset: 14 words, leaf 1 EDX first (cpufeatureset.h). */
#define FEATURESET_NR_ENTRIES       14

/*
 * The feature registers a domain's policy can take bits away from (the
 * toolstack's set_cpu_policy); guest_cpuid() clears them.  Zero: nothing
 * taken, the default.  Written by the domctl before the domain first runs
 * (the domctl lock), read by the domain's vCPUs after that.
 */
enum cpu_policy_reg {
    POLICY_1C, POLICY_1D, POLICY_7B0, POLICY_7C0, POLICY_7D0, POLICY_E1C, POLICY_E1D,
    NR_POLICY_REGS
};
struct domain_cpu_policy {
    uint32_t hidden[NR_POLICY_REGS];
};

struct domain;
struct xen_domctl_cpu_policy;
struct xen_sysctl_cpu_policy;
struct xen_sysctl_cpu_featureset;
/* Clear what d's policy hides from CPUID(leaf, subleaf). */
void cpu_policy_apply(const struct domain *d, uint32_t leaf, uint32_t subleaf,
                      struct cpuid_leaf *res);
/* The policy's featureset words (physinfo's hw_cap: the first 8). */
void cpu_policy_featureset(uint32_t words[FEATURESET_NR_ENTRIES]);
int sysctl_get_cpu_featureset(struct xen_sysctl_cpu_featureset *fs);
int sysctl_get_cpu_policy(struct xen_sysctl_cpu_policy *cp);
int domctl_get_cpu_policy(struct domain *d, struct xen_domctl_cpu_policy *cp);
int domctl_set_cpu_policy(struct domain *d, struct xen_domctl_cpu_policy *cp);

#endif /* __ASM_X86_CPU_POLICY_H__ */
