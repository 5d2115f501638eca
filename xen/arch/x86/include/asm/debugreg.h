/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The debug registers (Intel SDM vol. 3 ch. 18, Xen's asm/debugreg.h and
 * x86-defns.h): DR0-DR3 hold breakpoint addresses, DR6 the status, DR7
 * the control; DR4/DR5 alias DR6/DR7 unless CR4.DE is set (then #UD).
 */
#ifndef __ASM_X86_DEBUGREG_H__
#define __ASM_X86_DEBUGREG_H__

/* DR6: what caused the last #DB (B0-B3, BD, BS, BT), the rest fixed. */
#define X86_DR6_B0              (1u << 0)   /* breakpoint 0 condition met */
#define X86_DR6_BP_MASK         0x0000000fu /* B0-B3 */
#define X86_DR6_BLD             (1u << 11)  /* bus lock (inverted polarity) */
#define X86_DR6_BD              (1u << 13)  /* a MOV DR with DR7.GD set */
#define X86_DR6_BS              (1u << 14)  /* single step */
#define X86_DR6_BT              (1u << 15)  /* task switch with T set */
#define X86_DR6_RTM             (1u << 16)  /* #DB/#BP in RTM (inverted) */
#define X86_DR6_DEFAULT         0xffff0ff0u /* reset value; reserved bits read 1 */
#define X86_DR6_ZEROS           0x00001000u /* bit 12 always reads 0 */
/* The status bits, positive polarity (what PENDING_DBG and exits report). */
#define X86_DR6_KNOWN_MASK      (X86_DR6_BP_MASK | X86_DR6_BLD | X86_DR6_BD | \
                                 X86_DR6_BS | X86_DR6_BT | X86_DR6_RTM)

/* DR7: the enables and, per breakpoint n, R/W at 16 + 4n, LEN at 18 + 4n. */
#define X86_DR7_L(n)            (1u << ((n) * 2))
#define X86_DR7_G(n)            (2u << ((n) * 2))
#define X86_DR7_ACTIVE_MASK     0x000000ffu /* any L or G bit: a live breakpoint */
#define X86_DR7_LE              (1u << 8)
#define X86_DR7_GE              (1u << 9)
#define X86_DR7_RTM             (1u << 11)
#define X86_DR7_GD              (1u << 13)  /* general detect: MOV DR faults */
#define X86_DR7_DEFAULT         0x00000400u /* reset value; bit 10 reads 1 */
#define X86_DR7_ZEROS           0x0000d000u /* bits 12, 14, 15 always read 0 */
#define X86_DR7_RW_SHIFT(n)     (16 + (n) * 4)
#define X86_DR7_LEN_SHIFT(n)    (18 + (n) * 4)
#define X86_DR7_RW_EXEC         0u
#define X86_DR7_RW_WRITE        1u
#define X86_DR7_RW_IO           2u          /* needs CR4.DE */
#define X86_DR7_RW_RW           3u

/* IA32_DEBUGCTL bits a guest may set (Xen's choice, without a vPMU). */
#define IA32_DEBUGCTLMSR_LBR    (1u << 0)   /* last branch record */
#define IA32_DEBUGCTLMSR_BTF    (1u << 1)   /* single-step on branches */
#define IA32_DEBUGCTLMSR_RTM    (1u << 15)  /* RTM debugging */

#ifndef __ASSEMBLY__

#include <xen/types.h>

#define read_debugreg(n) ({                                     \
    unsigned long v__;                                          \
    asm volatile ( "mov %%db" #n ", %0" : "=r" (v__) );         \
    v__;                                                        \
})
#define write_debugreg(n, val)                                  \
    asm volatile ( "mov %0, %%db" #n :: "r" ((unsigned long)(val)) )

struct vcpu;

/*
 * The reserved bits of DR6 and DR7 as the hardware presents them to v
 * (Xen's x86_adj_dr{6,7}_rsvd): DR6's read as 1 (but RTM and BLD, which
 * have inverted polarity, only where v's CPUID advertises the feature),
 * bit 12 reads 0; DR7 bit 10 reads 1, bits 12, 14, 15 read 0, RTM only with
 * the feature.  The upper 32 bits of both are not representable: callers
 * refuse them first (#GP for MOV, -EINVAL for a save record).
 */
unsigned int x86_adj_dr6_rsvd(const struct vcpu *v, unsigned int dr6);
unsigned int x86_adj_dr7_rsvd(const struct vcpu *v, unsigned int dr7);

/*
 * Merge the status bits of a new #DB ('pending', positive polarity: the
 * exit qualification or PENDING_DBG layout) into dr6 (Xen's
 * x86_merge_dr6): B0-B3 are replaced, BD/BS/BT/... accumulate.  The SDM:
 * "certain debug exceptions may clear bits 0-3; the remaining contents of
 * DR6 are never cleared by the processor".
 */
unsigned int x86_merge_dr6(const struct vcpu *v, unsigned int dr6,
                           unsigned int pending);

#endif /* !__ASSEMBLY__ */

#endif /* __ASM_X86_DEBUGREG_H__ */
