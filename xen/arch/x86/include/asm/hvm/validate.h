/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a guest (or the control domain, through VCPUOP_initialise and
 * XEN_DOMCTL_sethvmcontext) may put into a vCPU's state.  Every value that
 * reaches the VMCS, a host register or a host MSR is checked here first,
 * with the architectural rules (Intel SDM) the hardware would apply, so
 * that a bad value is refused where it enters: a #GP for the guest's own
 * instructions, -EINVAL for a hypercall or domctl.  See docs/misc/security.md.
 */
#ifndef __ASM_X86_HVM_VALIDATE_H__
#define __ASM_X86_HVM_VALIDATE_H__

#include <xen/types.h>
#include <asm/x86-defns.h>

struct vcpu;
struct domain;
struct hvm_hw_cpu;

/* Bits 63:47 all equal (48-bit linear addresses; no LA57 here). */
static inline bool is_canonical_address(uint64_t addr)
{
    return ((int64_t)addr >> 47) == ((int64_t)addr >> 63);
}

/* Set up once at boot: the host's MXCSR mask and address widths. */
void hvm_validate_init(void);

/* Guest-physical address width (CPUID 0x80000008 EAX[7:0], at most 48). */
unsigned int hvm_paddr_bits(void);

#define HVM_CR0_GUEST_DEFINED (X86_CR0_PE | X86_CR0_MP | X86_CR0_EM | X86_CR0_TS | \
                               X86_CR0_ET | X86_CR0_NE | X86_CR0_WP | X86_CR0_AM | \
                               X86_CR0_NW | X86_CR0_CD | X86_CR0_PG)

/* Only defined bits, and no invalid combination (PG without PE, NW without CD). */
bool hvm_cr0_bits_valid(uint64_t cr0);
/* The CR4 bits this domain's CPUID policy lets it set. */
uint64_t hvm_cr4_guest_valid_bits(const struct domain *d);
/* EFER bits a guest may set (SCE, LME, LMA, NXE where the CPU has NX). */
bool hvm_efer_valid(uint64_t efer);
/* CR3 without bits beyond the physical-address width (and, unless PCIDE, 11:0 ignored). */
bool hvm_cr3_valid(uint64_t cr3);
/* RFLAGS: reserved bits clear, bit 1 set. */
bool hvm_rflags_valid(uint64_t rflags, bool long_mode);
/* IA32_PAT: eight valid memory types. */
bool hvm_pat_valid(uint64_t pat);
/* MTRRs: memory types UC, WC, WT, WP, WB only; no reserved bits. */
bool hvm_mtrr_def_type_valid(uint64_t val);
bool hvm_mtrr_fixed_valid(uint64_t val);
bool hvm_mtrr_var_valid(bool base, uint64_t val);
/* MXCSR: no bit outside the host's MXCSR_MASK (FXRSTOR would #GP). */
bool hvm_mxcsr_valid(uint32_t mxcsr);

/*
 * May the guest write 'val' to 'msr'?  For the MSRs whose values have
 * architectural rules (canonical addresses, reserved bits, memory types).
 * MSRs without such rules, or unknown ones, return true: whether they
 * exist at all is the MSR handlers' business.
 */
bool hvm_msr_value_valid(uint32_t msr, uint64_t val);

/*
 * A whole CPU save record (XEN_DOMCTL_sethvmcontext, migration): 0 if it
 * describes a state the vCPU can be entered with, else -EINVAL with one
 * log line naming the field.
 */
int hvm_hw_cpu_check(const struct domain *d, const struct hvm_hw_cpu *c);

#endif /* __ASM_X86_HVM_VALIDATE_H__ */
