/* SPDX-License-Identifier: GPL-2.0-only */
/* Model-specific register numbers (usable from assembly). */
#ifndef __ASM_X86_MSR_INDEX_H__
#define __ASM_X86_MSR_INDEX_H__

#define MSR_IA32_TSC                0x00000010
#define MSR_IA32_PLATFORM_ID        0x00000017
#define MSR_IA32_APICBASE           0x0000001b
#define MSR_SMI_COUNT               0x00000034
#define MSR_IA32_FEATURE_CONTROL    0x0000003a
#define MSR_IA32_TSC_ADJUST         0x0000003b
#define MSR_IA32_SPEC_CTRL          0x00000048
#define MSR_IA32_PRED_CMD           0x00000049
#define MSR_IA32_BIOS_SIGN_ID       0x0000008b
#define MSR_INTEL_PLATFORM_INFO     0x000000ce
#define MSR_MTRRcap                 0x000000fe
#define MSR_IA32_ARCH_CAPABILITIES  0x0000010a
#define MSR_IA32_FLUSH_CMD          0x0000010b
#define MSR_INTEL_MISC_FEATURES_ENABLES 0x00000140
#define MSR_IA32_THERM_INTERRUPT    0x0000019b
#define MSR_IA32_MTRR_PHYSBASE(n)   (0x00000200 + 2 * (n))
#define MSR_IA32_MTRR_PHYSMASK(n)   (0x00000201 + 2 * (n))
#define MSR_MTRRfix64K_00000        0x00000250
#define MSR_MTRRfix16K_80000        0x00000258
#define MSR_MTRRfix16K_A0000        0x00000259
#define MSR_MTRRfix4K_C0000         0x00000268
#define MSR_MTRRfix4K_F8000         0x0000026f
#define MSR_PPERF                   0x0000064e
#define MSR_IA32_SYSENTER_CS        0x00000174
#define MSR_IA32_SYSENTER_ESP       0x00000175
#define MSR_IA32_SYSENTER_EIP       0x00000176
#define MSR_IA32_MCG_CAP            0x00000179
#define MSR_IA32_MCG_STATUS         0x0000017a
#define MSR_IA32_MISC_ENABLE        0x000001a0
#define MSR_IA32_DEBUGCTLMSR        0x000001d9
#define MSR_MTRRdefType             0x000002ff
#define MSR_IA32_CR_PAT             0x00000277
#define MSR_IA32_TSC_DEADLINE       0x000006e0

#define MSR_IA32_VMX_BASIC              0x00000480
#define MSR_IA32_VMX_PINBASED_CTLS      0x00000481
#define MSR_IA32_VMX_PROCBASED_CTLS     0x00000482
#define MSR_IA32_VMX_EXIT_CTLS          0x00000483
#define MSR_IA32_VMX_ENTRY_CTLS         0x00000484
#define MSR_IA32_VMX_MISC               0x00000485
#define MSR_IA32_VMX_CR0_FIXED0         0x00000486
#define MSR_IA32_VMX_CR0_FIXED1         0x00000487
#define MSR_IA32_VMX_CR4_FIXED0         0x00000488
#define MSR_IA32_VMX_CR4_FIXED1         0x00000489
#define MSR_IA32_VMX_VMCS_ENUM          0x0000048a
#define MSR_IA32_VMX_PROCBASED_CTLS2    0x0000048b
#define MSR_IA32_VMX_EPT_VPID_CAP       0x0000048c
#define MSR_IA32_VMX_TRUE_PINBASED_CTLS  0x0000048d
#define MSR_IA32_VMX_TRUE_PROCBASED_CTLS 0x0000048e
#define MSR_IA32_VMX_TRUE_EXIT_CTLS     0x0000048f
#define MSR_IA32_VMX_TRUE_ENTRY_CTLS    0x00000490
#define MSR_IA32_VMX_VMFUNC             0x00000491

#define MSR_EFER                    0xc0000080
#define MSR_STAR                    0xc0000081
#define MSR_LSTAR                   0xc0000082
#define MSR_CSTAR                   0xc0000083
#define MSR_SYSCALL_MASK            0xc0000084
#define MSR_FS_BASE                 0xc0000100
#define MSR_GS_BASE                 0xc0000101
#define MSR_SHADOW_GS_BASE          0xc0000102
#define MSR_TSC_AUX                 0xc0000103
#define MSR_AMD64_DE_CFG            0xc0011029

/* IA32_FEATURE_CONTROL bits */
#define IA32_FEATURE_CONTROL_LOCK           0x1
#define IA32_FEATURE_CONTROL_VMXON_OUTSIDE_SMX 0x4

/* SPEC_CTRL, PRED_CMD and FLUSH_CMD bits */
#define SPEC_CTRL_IBRS                      (1u << 0)
#define SPEC_CTRL_STIBP                     (1u << 1)
#define SPEC_CTRL_SSBD                      (1u << 2)
#define PRED_CMD_IBPB                       (1u << 0)
#define FLUSH_CMD_L1D                       (1u << 0)

/* IA32_ARCH_CAPABILITIES bits: "not affected" and informational ones */
#define ARCH_CAPS_RDCL_NO                   (1ull << 0)
#define ARCH_CAPS_IBRS_ALL                  (1ull << 1)
#define ARCH_CAPS_RSBA                      (1ull << 2)
#define ARCH_CAPS_SKIP_L1DFL                (1ull << 3)
#define ARCH_CAPS_SSB_NO                    (1ull << 4)
#define ARCH_CAPS_MDS_NO                    (1ull << 5)
#define ARCH_CAPS_IF_PSCHANGE_MC_NO         (1ull << 6)
#define ARCH_CAPS_TAA_NO                    (1ull << 8)
#define ARCH_CAPS_SBDR_SSDP_NO              (1ull << 13)
#define ARCH_CAPS_FBSDP_NO                  (1ull << 14)
#define ARCH_CAPS_PSDP_NO                   (1ull << 15)
#define ARCH_CAPS_FB_CLEAR                  (1ull << 17)
#define ARCH_CAPS_RRSBA                     (1ull << 19)
#define ARCH_CAPS_BHI_NO                    (1ull << 20)
#define ARCH_CAPS_PBRSB_NO                  (1ull << 24)
#define ARCH_CAPS_GDS_NO                    (1ull << 26)
#define ARCH_CAPS_RFDS_NO                   (1ull << 27)

/* IA32_APIC_BASE bits */
#define MSR_IA32_APICBASE_BSP               (1u << 8)
#define MSR_IA32_APICBASE_EXTD              (1u << 10)  /* x2APIC mode */
#define MSR_IA32_APICBASE_ENABLE            (1u << 11)
#define MSR_IA32_APICBASE_BASE_MASK         (~0xfffull)

/* IA32_MISC_ENABLE bits */
#define MSR_IA32_MISC_ENABLE_FAST_STRING    (1ull << 0)
#define MSR_IA32_MISC_ENABLE_BTS_UNAVAIL    (1ull << 11)
#define MSR_IA32_MISC_ENABLE_PEBS_UNAVAIL   (1ull << 12)

/* MTRRs */
#define MTRRcap_VCNT_SHIFT                  0
#define MTRRcap_FIX                         (1u << 8)
#define MTRRcap_WC                          (1u << 10)
#define MTRR_VCNT                           8       /* variable ranges offered */
#define MTRR_NUM_FIXED                      11
#define MTRRdefType_TYPE_MASK               0xffu
#define MTRRdefType_FE                      (1u << 10)
#define MTRRdefType_E                       (1u << 11)
#define MTRR_PHYSMASK_VALID                 (1u << 11)
#define MTRR_TYPE_UNCACHABLE                0
#define MTRR_TYPE_WRCOMB                    1
#define MTRR_TYPE_WRTHROUGH                 4
#define MTRR_TYPE_WRPROT                    5
#define MTRR_TYPE_WRBACK                    6

#endif /* __ASM_X86_MSR_INDEX_H__ */
