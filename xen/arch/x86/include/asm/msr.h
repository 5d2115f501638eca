/* SPDX-License-Identifier: GPL-2.0-only */
/* The MSR policy guests see (arch/x86/msr.c). */
#ifndef __ASM_X86_MSR_H__
#define __ASM_X86_MSR_H__

#include <xen/types.h>
#include <asm/msr-index.h>

struct vcpu;

/* Per-vCPU MSR state the policy keeps (struct hvm_vcpu's msrs). */
struct vcpu_msrs {
    uint64_t spec_ctrl;
    uint64_t mtrr_def_type;
    uint64_t mtrr_fixed[MTRR_NUM_FIXED];
    uint64_t mtrr_var[2 * MTRR_VCNT];       /* PHYSBASE0, PHYSMASK0, ... */
};

/* Once at boot, after the CPU is known: what guests' ARCH_CAPABILITIES says. */
void msr_policy_init(void);
/* A new vCPU's MSRs (MTRRs write-back by default). */
void guest_msr_vcpu_init(struct vcpu *v);

/* RDMSR/WRMSR by v: 0 done, -EINVAL the guest gets #GP(0). */
int guest_rdmsr(struct vcpu *v, uint32_t msr, uint64_t *val);
int guest_wrmsr(struct vcpu *v, uint32_t msr, uint64_t val);

#endif /* __ASM_X86_MSR_H__ */
