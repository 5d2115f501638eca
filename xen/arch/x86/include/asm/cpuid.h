/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPUID policy guests see (arch/x86/cpuid.c). */
#ifndef __ASM_X86_CPUID_H__
#define __ASM_X86_CPUID_H__

#include <xen/types.h>
#include <asm/processor.h>

struct vcpu;

/* What CPUID(leaf, subleaf) returns to v. */
void guest_cpuid(const struct vcpu *v, uint32_t leaf, uint32_t subleaf,
                 struct cpuid_leaf *res);
/* The same before the domain's policy hides anything: what it may be offered. */
void guest_cpuid_max(const struct vcpu *v, uint32_t leaf, uint32_t subleaf,
                     struct cpuid_leaf *res);

#endif /* __ASM_X86_CPUID_H__ */
