/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPUID feature bits the guest policy (arch/x86/cpuid.c) and the MSR
 * policy (arch/x86/msr.c) look at, by leaf and register, with Xen's
 * feature names (xen/include/public/arch-x86/cpufeatureset.h).
 */
#ifndef __ASM_X86_CPUFEATURE_H__
#define __ASM_X86_CPUFEATURE_H__

#include <asm/x86-defns.h>

/* Leaf 1 EDX */
#define CPUID1D_MCE             (1u << 7)
#define CPUID1D_MTRR            (1u << 12)
#define CPUID1D_MCA             (1u << 14)
#define CPUID1D_PSN             (1u << 18)
#define CPUID1D_DS              (1u << 21)
#define CPUID1D_ACPI            (1u << 22)
#define CPUID1D_TM1             (1u << 29)
#define CPUID1D_PBE             (1u << 31)

/* Leaf 1 ECX (besides x86-defns.h's) */
#define CPUID1C_DTES64          (1u << 2)
#define CPUID1C_DSCPL           (1u << 4)
#define CPUID1C_SMX             (1u << 6)
#define CPUID1C_EIST            (1u << 7)
#define CPUID1C_TM2             (1u << 8)
#define CPUID1C_XTPR            (1u << 14)
#define CPUID1C_PDCM            (1u << 15)
#define CPUID1C_PCID            (1u << 17)
#define CPUID1C_DCA             (1u << 18)

/* Leaf 7 subleaf 0 EBX */
#define CPUID7B_FSGSBASE        (1u << 0)
#define CPUID7B_TSC_ADJUST      (1u << 1)
#define CPUID7B_SGX             (1u << 2)
#define CPUID7B_AVX2            (1u << 5)
#define CPUID7B_SMEP            (1u << 7)
#define CPUID7B_RTM             (1u << 11)
#define CPUID7B_PQM             (1u << 12)
#define CPUID7B_MPX             (1u << 14)
#define CPUID7B_PQE             (1u << 15)
#define CPUID7B_AVX512F         (1u << 16)
#define CPUID7B_AVX512DQ        (1u << 17)
#define CPUID7B_SMAP            (1u << 20)
#define CPUID7B_AVX512_IFMA     (1u << 21)
#define CPUID7B_PROC_TRACE      (1u << 25)
#define CPUID7B_AVX512PF        (1u << 26)
#define CPUID7B_AVX512ER        (1u << 27)
#define CPUID7B_AVX512CD        (1u << 28)
#define CPUID7B_AVX512BW        (1u << 30)
#define CPUID7B_AVX512VL        (1u << 31)

/* Leaf 7 subleaf 0 ECX */
#define CPUID7C_AVX512_VBMI     (1u << 1)
#define CPUID7C_UMIP            (1u << 2)
#define CPUID7C_PKU             (1u << 3)
#define CPUID7C_OSPKE           (1u << 4)
#define CPUID7C_WAITPKG         (1u << 5)
#define CPUID7C_AVX512_VBMI2    (1u << 6)
#define CPUID7C_CET_SS          (1u << 7)
#define CPUID7C_VAES            (1u << 9)
#define CPUID7C_VPCLMULQDQ      (1u << 10)
#define CPUID7C_AVX512_VNNI     (1u << 11)
#define CPUID7C_AVX512_BITALG   (1u << 12)
#define CPUID7C_TME             (1u << 13)
#define CPUID7C_AVX512_VPOPCNTDQ (1u << 14)
#define CPUID7C_LA57            (1u << 16)
#define CPUID7C_RDPID           (1u << 22)
#define CPUID7C_KEYLOCKER       (1u << 23)
#define CPUID7C_BLD             (1u << 24)
#define CPUID7C_ENQCMD          (1u << 29)
#define CPUID7C_SGX_LC          (1u << 30)

/* Leaf 7 subleaf 0 EDX */
#define CPUID7D_SGX_KEYS        (1u << 1)
#define CPUID7D_AVX512_4VNNIW   (1u << 2)
#define CPUID7D_AVX512_4FMAPS   (1u << 3)
#define CPUID7D_UINTR           (1u << 5)
#define CPUID7D_AVX512_VP2INTERSECT (1u << 8)
#define CPUID7D_SRBDS_CTRL      (1u << 9)
#define CPUID7D_RTM_ALWAYS_ABORT (1u << 11)
#define CPUID7D_TSX_FORCE_ABORT (1u << 13)
#define CPUID7D_PCONFIG         (1u << 18)
#define CPUID7D_ARCH_LBR        (1u << 19)
#define CPUID7D_CET_IBT         (1u << 20)
#define CPUID7D_AMX_BF16        (1u << 22)
#define CPUID7D_AVX512_FP16     (1u << 23)
#define CPUID7D_AMX_TILE        (1u << 24)
#define CPUID7D_AMX_INT8        (1u << 25)
#define CPUID7D_IBRSB           (1u << 26)
#define CPUID7D_STIBP           (1u << 27)
#define CPUID7D_L1D_FLUSH       (1u << 28)
#define CPUID7D_ARCH_CAPS       (1u << 29)
#define CPUID7D_CORE_CAPS       (1u << 30)
#define CPUID7D_SSBD            (1u << 31)

/* Leaf 0x80000001 EDX, leaf 0x80000008 EBX */
#define CPUIDe1D_RDTSCP         (1u << 27)
#define CPUIDe8B_IBPB           (1u << 12)

#endif /* __ASM_X86_CPUFEATURE_H__ */
