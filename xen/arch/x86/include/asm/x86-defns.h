/* SPDX-License-Identifier: GPL-2.0-only */
/* Architectural bits of control registers and flags (usable from assembly). */
#ifndef __ASM_X86_DEFNS_H__
#define __ASM_X86_DEFNS_H__

#define X86_CR0_PE          0x00000001
#define X86_CR0_MP          0x00000002
#define X86_CR0_EM          0x00000004
#define X86_CR0_TS          0x00000008
#define X86_CR0_ET          0x00000010
#define X86_CR0_NE          0x00000020
#define X86_CR0_WP          0x00010000
#define X86_CR0_AM          0x00040000
#define X86_CR0_NW          0x20000000
#define X86_CR0_CD          0x40000000
#define X86_CR0_PG          0x80000000

#define X86_CR4_VME         0x00000001
#define X86_CR4_PVI         0x00000002
#define X86_CR4_TSD         0x00000004
#define X86_CR4_DE          0x00000008
#define X86_CR4_PSE         0x00000010
#define X86_CR4_PAE         0x00000020
#define X86_CR4_MCE         0x00000040
#define X86_CR4_PGE         0x00000080
#define X86_CR4_PCE         0x00000100
#define X86_CR4_OSFXSR      0x00000200
#define X86_CR4_OSXMMEXCPT  0x00000400
#define X86_CR4_UMIP        0x00000800
#define X86_CR4_VMXE        0x00002000
#define X86_CR4_FSGSBASE    0x00010000
#define X86_CR4_PCIDE       0x00020000
#define X86_CR4_OSXSAVE     0x00040000
#define X86_CR4_SMEP        0x00100000
#define X86_CR4_SMAP        0x00200000

#define X86_EFLAGS_CF       0x00000001
#define X86_EFLAGS_MBS      0x00000002  /* must be set */
#define X86_EFLAGS_ZF       0x00000040
#define X86_EFLAGS_TF       0x00000100
#define X86_EFLAGS_IF       0x00000200
#define X86_EFLAGS_DF       0x00000400
#define X86_EFLAGS_VM       0x00020000

#define EFER_SCE            (1 << 0)
#define EFER_LME            (1 << 8)
#define EFER_LMA            (1 << 10)
#define EFER_NXE            (1 << 11)

/* Exception vectors. */
#define X86_EXC_DE          0
#define X86_EXC_DB          1
#define X86_EXC_NMI         2
#define X86_EXC_BP          3
#define X86_EXC_UD          6
#define X86_EXC_NM          7
#define X86_EXC_DF          8
#define X86_EXC_TS          10
#define X86_EXC_NP          11
#define X86_EXC_SS          12
#define X86_EXC_GP          13
#define X86_EXC_PF          14
#define X86_EXC_MC          18
#define X86_NR_EXCEPTIONS   32

/* CPUID feature bits we look at. */
#define X86_FEATURE_VMX_ECX         (1u << 5)   /* leaf 1 ECX */
#define X86_FEATURE_MONITOR_ECX     (1u << 3)
#define X86_FEATURE_X2APIC_ECX      (1u << 21)
#define X86_FEATURE_TSC_DEADLINE_ECX (1u << 24)
#define X86_FEATURE_XSAVE_ECX       (1u << 26)
#define X86_FEATURE_OSXSAVE_ECX     (1u << 27)
#define X86_FEATURE_AVX_ECX         (1u << 28)
#define X86_FEATURE_HYPERVISOR_ECX  (1u << 31)

#endif /* __ASM_X86_DEFNS_H__ */
