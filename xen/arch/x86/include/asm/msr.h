/* SPDX-License-Identifier: GPL-2.0-only */
/* The MSR policy guests see (arch/x86/msr.c). */
#ifndef __ASM_X86_MSR_H__
#define __ASM_X86_MSR_H__

#include <xen/types.h>
#include <asm/msr-index.h>

struct vcpu;

/* RDMSR/WRMSR by v: 0 done, -EINVAL the guest gets #GP(0). */
int guest_rdmsr(struct vcpu *v, uint32_t msr, uint64_t *val);
int guest_wrmsr(struct vcpu *v, uint32_t msr, uint64_t val);

#endif /* __ASM_X86_MSR_H__ */
