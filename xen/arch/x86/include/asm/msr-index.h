/* SPDX-License-Identifier: GPL-2.0-only */
/* Model-specific register numbers (usable from assembly). */
#ifndef __ASM_X86_MSR_INDEX_H__
#define __ASM_X86_MSR_INDEX_H__

#define MSR_IA32_TSC                0x00000010
#define MSR_IA32_PLATFORM_ID        0x00000017
#define MSR_IA32_APICBASE           0x0000001b
#define MSR_IA32_FEATURE_CONTROL    0x0000003a
#define MSR_IA32_TSC_ADJUST         0x0000003b
#define MSR_IA32_SPEC_CTRL          0x00000048
#define MSR_IA32_BIOS_SIGN_ID       0x0000008b
#define MSR_MTRRcap                 0x000000fe
#define MSR_IA32_ARCH_CAPABILITIES  0x0000010a
#define MSR_IA32_SYSENTER_CS        0x00000174
#define MSR_IA32_SYSENTER_ESP       0x00000175
#define MSR_IA32_SYSENTER_EIP       0x00000176
#define MSR_IA32_MCG_CAP            0x00000179
#define MSR_IA32_MCG_STATUS         0x0000017a
#define MSR_IA32_MISC_ENABLE        0x000001a0
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

/* IA32_FEATURE_CONTROL bits */
#define IA32_FEATURE_CONTROL_LOCK           0x1
#define IA32_FEATURE_CONTROL_VMXON_OUTSIDE_SMX 0x4

#endif /* __ASM_X86_MSR_INDEX_H__ */
