/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VMCS field encodings, VM-execution control bits, the negotiated VMX
 * capabilities and the per-vCPU VMX state.  Every architectural VMX value
 * the hypervisor uses is defined here (exit reasons are in vmx.h).
 */
#ifndef __ASM_X86_HVM_VMX_VMCS_H__
#define __ASM_X86_HVM_VMX_VMCS_H__

#include <xen/types.h>

enum vmcs_field {
    /* 16-bit */
    VIRTUAL_PROCESSOR_ID            = 0x00000000,
    GUEST_ES_SELECTOR               = 0x00000800,
    GUEST_CS_SELECTOR               = 0x00000802,
    GUEST_SS_SELECTOR               = 0x00000804,
    GUEST_DS_SELECTOR               = 0x00000806,
    GUEST_FS_SELECTOR               = 0x00000808,
    GUEST_GS_SELECTOR               = 0x0000080a,
    GUEST_LDTR_SELECTOR             = 0x0000080c,
    GUEST_TR_SELECTOR               = 0x0000080e,
    GUEST_INTR_STATUS               = 0x00000810,
    GUEST_PML_INDEX                 = 0x00000812,
    HOST_ES_SELECTOR                = 0x00000c00,
    HOST_CS_SELECTOR                = 0x00000c02,
    HOST_SS_SELECTOR                = 0x00000c04,
    HOST_DS_SELECTOR                = 0x00000c06,
    HOST_FS_SELECTOR                = 0x00000c08,
    HOST_GS_SELECTOR                = 0x00000c0a,
    HOST_TR_SELECTOR                = 0x00000c0c,
    /* 64-bit */
    IO_BITMAP_A                     = 0x00002000,
    IO_BITMAP_B                     = 0x00002002,
    MSR_BITMAP                      = 0x00002004,
    VM_EXIT_MSR_STORE_ADDR          = 0x00002006,
    VM_EXIT_MSR_LOAD_ADDR           = 0x00002008,
    VM_ENTRY_MSR_LOAD_ADDR          = 0x0000200a,
    PML_ADDRESS                     = 0x0000200e,
    TSC_OFFSET                      = 0x00002010,
    VIRTUAL_APIC_PAGE_ADDR          = 0x00002012,
    APIC_ACCESS_ADDR                = 0x00002014,
    EPT_POINTER                     = 0x0000201a,
    GUEST_PHYSICAL_ADDRESS          = 0x00002400,
    VMCS_LINK_POINTER               = 0x00002800,
    GUEST_IA32_DEBUGCTL             = 0x00002802,
    GUEST_PAT                       = 0x00002804,
    GUEST_EFER                      = 0x00002806,
    GUEST_PDPTE0                    = 0x0000280a,
    HOST_PAT                        = 0x00002c00,
    HOST_EFER                       = 0x00002c02,
    /* 32-bit */
    PIN_BASED_VM_EXEC_CONTROL       = 0x00004000,
    CPU_BASED_VM_EXEC_CONTROL       = 0x00004002,
    EXCEPTION_BITMAP                = 0x00004004,
    PAGE_FAULT_ERROR_CODE_MASK      = 0x00004006,
    PAGE_FAULT_ERROR_CODE_MATCH     = 0x00004008,
    CR3_TARGET_COUNT                = 0x0000400a,
    VM_EXIT_CONTROLS                = 0x0000400c,
    VM_EXIT_MSR_STORE_COUNT         = 0x0000400e,
    VM_EXIT_MSR_LOAD_COUNT          = 0x00004010,
    VM_ENTRY_CONTROLS               = 0x00004012,
    VM_ENTRY_MSR_LOAD_COUNT         = 0x00004014,
    VM_ENTRY_INTR_INFO              = 0x00004016,
    VM_ENTRY_EXCEPTION_ERROR_CODE   = 0x00004018,
    VM_ENTRY_INSTRUCTION_LEN        = 0x0000401a,
    TPR_THRESHOLD                   = 0x0000401c,
    SECONDARY_VM_EXEC_CONTROL       = 0x0000401e,
    PLE_GAP                         = 0x00004020,
    PLE_WINDOW                      = 0x00004022,
    VM_INSTRUCTION_ERROR            = 0x00004400,
    VM_EXIT_REASON                  = 0x00004402,
    VM_EXIT_INTR_INFO               = 0x00004404,
    VM_EXIT_INTR_ERROR_CODE         = 0x00004406,
    IDT_VECTORING_INFO              = 0x00004408,
    IDT_VECTORING_ERROR_CODE        = 0x0000440a,
    VM_EXIT_INSTRUCTION_LEN         = 0x0000440c,
    VMX_INSTRUCTION_INFO            = 0x0000440e,
    GUEST_ES_LIMIT                  = 0x00004800,
    GUEST_CS_LIMIT                  = 0x00004802,
    GUEST_SS_LIMIT                  = 0x00004804,
    GUEST_DS_LIMIT                  = 0x00004806,
    GUEST_FS_LIMIT                  = 0x00004808,
    GUEST_GS_LIMIT                  = 0x0000480a,
    GUEST_LDTR_LIMIT                = 0x0000480c,
    GUEST_TR_LIMIT                  = 0x0000480e,
    GUEST_GDTR_LIMIT                = 0x00004810,
    GUEST_IDTR_LIMIT                = 0x00004812,
    GUEST_ES_AR_BYTES               = 0x00004814,
    GUEST_CS_AR_BYTES               = 0x00004816,
    GUEST_SS_AR_BYTES               = 0x00004818,
    GUEST_DS_AR_BYTES               = 0x0000481a,
    GUEST_FS_AR_BYTES               = 0x0000481c,
    GUEST_GS_AR_BYTES               = 0x0000481e,
    GUEST_LDTR_AR_BYTES             = 0x00004820,
    GUEST_TR_AR_BYTES               = 0x00004822,
    GUEST_INTERRUPTIBILITY_INFO     = 0x00004824,
    GUEST_ACTIVITY_STATE            = 0x00004826,
    GUEST_SYSENTER_CS               = 0x0000482a,
    GUEST_PREEMPTION_TIMER          = 0x0000482e,
    HOST_SYSENTER_CS                = 0x00004c00,
    /* natural width */
    CR0_GUEST_HOST_MASK             = 0x00006000,
    CR4_GUEST_HOST_MASK             = 0x00006002,
    CR0_READ_SHADOW                 = 0x00006004,
    CR4_READ_SHADOW                 = 0x00006006,
    EXIT_QUALIFICATION              = 0x00006400,
    GUEST_LINEAR_ADDRESS            = 0x0000640a,
    GUEST_CR0                       = 0x00006800,
    GUEST_CR3                       = 0x00006802,
    GUEST_CR4                       = 0x00006804,
    GUEST_ES_BASE                   = 0x00006806,
    GUEST_CS_BASE                   = 0x00006808,
    GUEST_SS_BASE                   = 0x0000680a,
    GUEST_DS_BASE                   = 0x0000680c,
    GUEST_FS_BASE                   = 0x0000680e,
    GUEST_GS_BASE                   = 0x00006810,
    GUEST_LDTR_BASE                 = 0x00006812,
    GUEST_TR_BASE                   = 0x00006814,
    GUEST_GDTR_BASE                 = 0x00006816,
    GUEST_IDTR_BASE                 = 0x00006818,
    GUEST_DR7                       = 0x0000681a,
    GUEST_RSP                       = 0x0000681c,
    GUEST_RIP                       = 0x0000681e,
    GUEST_RFLAGS                    = 0x00006820,
    GUEST_PENDING_DBG_EXCEPTIONS    = 0x00006822,
    GUEST_SYSENTER_ESP              = 0x00006824,
    GUEST_SYSENTER_EIP              = 0x00006826,
    HOST_CR0                        = 0x00006c00,
    HOST_CR3                        = 0x00006c02,
    HOST_CR4                        = 0x00006c04,
    HOST_FS_BASE                    = 0x00006c06,
    HOST_GS_BASE                    = 0x00006c08,
    HOST_TR_BASE                    = 0x00006c0a,
    HOST_GDTR_BASE                  = 0x00006c0c,
    HOST_IDTR_BASE                  = 0x00006c0e,
    HOST_SYSENTER_ESP               = 0x00006c10,
    HOST_SYSENTER_EIP               = 0x00006c12,
    HOST_RSP                        = 0x00006c14,
    HOST_RIP                        = 0x00006c16,
};

/* Guest segment registers, in the order of the VMCS encodings. */
enum x86_segment {
    x86_seg_es, x86_seg_cs, x86_seg_ss, x86_seg_ds,
    x86_seg_fs, x86_seg_gs, x86_seg_ldtr, x86_seg_tr,
};

/* Pin-based VM-execution controls */
#define PIN_BASED_EXT_INTR_MASK         0x00000001
#define PIN_BASED_NMI_EXITING           0x00000008
#define PIN_BASED_VIRTUAL_NMIS          0x00000020
#define PIN_BASED_PREEMPT_TIMER         0x00000040
#define PIN_BASED_POSTED_INTERRUPT      0x00000080

/* Primary processor-based VM-execution controls */
#define CPU_BASED_VIRTUAL_INTR_PENDING  0x00000004
#define CPU_BASED_USE_TSC_OFFSETING     0x00000008
#define CPU_BASED_HLT_EXITING           0x00000080
#define CPU_BASED_INVLPG_EXITING        0x00000200
#define CPU_BASED_MWAIT_EXITING         0x00000400
#define CPU_BASED_RDPMC_EXITING         0x00000800
#define CPU_BASED_RDTSC_EXITING         0x00001000
#define CPU_BASED_CR3_LOAD_EXITING      0x00008000
#define CPU_BASED_CR3_STORE_EXITING     0x00010000
#define CPU_BASED_CR8_LOAD_EXITING      0x00080000
#define CPU_BASED_CR8_STORE_EXITING     0x00100000
#define CPU_BASED_TPR_SHADOW            0x00200000
#define CPU_BASED_VIRTUAL_NMI_PENDING   0x00400000
#define CPU_BASED_MOV_DR_EXITING        0x00800000
#define CPU_BASED_UNCOND_IO_EXITING     0x01000000
#define CPU_BASED_ACTIVATE_IO_BITMAP    0x02000000
#define CPU_BASED_MONITOR_TRAP_FLAG     0x08000000
#define CPU_BASED_ACTIVATE_MSR_BITMAP   0x10000000
#define CPU_BASED_MONITOR_EXITING       0x20000000
#define CPU_BASED_PAUSE_EXITING         0x40000000
#define CPU_BASED_ACTIVATE_SECONDARY_CONTROLS 0x80000000

/* Secondary processor-based VM-execution controls */
#define SECONDARY_EXEC_VIRTUALIZE_APIC_ACCESSES 0x00000001
#define SECONDARY_EXEC_ENABLE_EPT               0x00000002
#define SECONDARY_EXEC_DESCRIPTOR_TABLE_EXITING 0x00000004
#define SECONDARY_EXEC_ENABLE_RDTSCP            0x00000008
#define SECONDARY_EXEC_VIRTUALIZE_X2APIC_MODE   0x00000010
#define SECONDARY_EXEC_ENABLE_VPID              0x00000020
#define SECONDARY_EXEC_WBINVD_EXITING           0x00000040
#define SECONDARY_EXEC_UNRESTRICTED_GUEST       0x00000080
#define SECONDARY_EXEC_APIC_REGISTER_VIRT       0x00000100
#define SECONDARY_EXEC_VIRTUAL_INTR_DELIVERY    0x00000200
#define SECONDARY_EXEC_PAUSE_LOOP_EXITING       0x00000400
#define SECONDARY_EXEC_ENABLE_INVPCID           0x00001000
#define SECONDARY_EXEC_ENABLE_VM_FUNCTIONS      0x00002000
#define SECONDARY_EXEC_ENABLE_VMCS_SHADOWING    0x00004000
#define SECONDARY_EXEC_ENABLE_PML               0x00020000
#define SECONDARY_EXEC_ENABLE_VIRT_EXCEPTIONS   0x00040000
#define SECONDARY_EXEC_XSAVES                   0x00100000
#define SECONDARY_EXEC_TSC_SCALING              0x02000000

/* VM-exit controls */
#define VM_EXIT_SAVE_DEBUG_CNTRLS       0x00000004
#define VM_EXIT_IA32E_MODE              0x00000200
#define VM_EXIT_LOAD_PERF_GLOBAL_CTRL   0x00001000
#define VM_EXIT_ACK_INTR_ON_EXIT        0x00008000
#define VM_EXIT_SAVE_GUEST_PAT          0x00040000
#define VM_EXIT_LOAD_HOST_PAT           0x00080000
#define VM_EXIT_SAVE_GUEST_EFER         0x00100000
#define VM_EXIT_LOAD_HOST_EFER          0x00200000

/* VM-entry controls */
#define VM_ENTRY_LOAD_DEBUG_CTLS        0x00000004
#define VM_ENTRY_IA32E_MODE             0x00000200
#define VM_ENTRY_SMM                    0x00000400
#define VM_ENTRY_LOAD_GUEST_PAT         0x00004000
#define VM_ENTRY_LOAD_GUEST_EFER        0x00008000

/* IA32_VMX_BASIC */
#define VMX_BASIC_REVISION_MASK         0x7fffffffULL
#define VMX_BASIC_VMCS_SIZE(b)          (((b) >> 32) & 0x1fff)
#define VMX_BASIC_TRUE_CTLS             (1ULL << 55)

/* IA32_VMX_MISC */
#define VMX_MISC_PREEMPT_TIMER_RATE     0x1fULL     /* timer ticks every 2^n TSC */

/* IA32_VMX_EPT_VPID_CAP */
#define VMX_EPT_EXEC_ONLY_SUPPORTED     (1ULL << 0)
#define VMX_EPT_WALK_LENGTH_4_SUPPORTED (1ULL << 6)
#define VMX_EPT_MEMORY_TYPE_UC          (1ULL << 8)
#define VMX_EPT_MEMORY_TYPE_WB          (1ULL << 14)
#define VMX_EPT_SUPERPAGE_2MB           (1ULL << 16)
#define VMX_EPT_SUPERPAGE_1GB           (1ULL << 17)
#define VMX_EPT_INVEPT_INSTRUCTION      (1ULL << 20)
#define VMX_EPT_AD_BIT                  (1ULL << 21)
#define VMX_EPT_INVEPT_SINGLE_CONTEXT   (1ULL << 25)
#define VMX_EPT_INVEPT_ALL_CONTEXT      (1ULL << 26)
#define VMX_VPID_INVVPID_INSTRUCTION    (1ULL << 32)
#define VMX_VPID_INVVPID_SINGLE_CONTEXT (1ULL << 41)
#define VMX_VPID_INVVPID_ALL_CONTEXT    (1ULL << 42)

/* VM-entry / VM-exit interruption information */
#define INTR_INFO_VECTOR_MASK           0xff
#define INTR_INFO_INTR_TYPE_SHIFT       8
#define INTR_INFO_DELIVER_CODE_MASK     (1u << 11)
#define INTR_INFO_VALID_MASK            (1u << 31)
#define X86_EVENTTYPE_EXT_INTR          0
#define X86_EVENTTYPE_NMI               2
#define X86_EVENTTYPE_HW_EXCEPTION      3
#define X86_EVENTTYPE_SW_INTERRUPT      4
#define X86_EVENTTYPE_PRI_SW_EXCEPTION  5
#define X86_EVENTTYPE_SW_EXCEPTION      6
/* IDT-vectoring information bit 12: undefined there, must be 0 on entry. */
#define INTR_INFO_NMI_UNBLOCKED_BY_IRET (1u << 12)

/* Guest interruptibility state */
#define VMX_INTR_SHADOW_STI             (1u << 0)
#define VMX_INTR_SHADOW_MOV_SS          (1u << 1)
#define VMX_INTR_SHADOW_SMI             (1u << 2)
#define VMX_INTR_SHADOW_NMI             (1u << 3)   /* (virtual-)NMI blocking */
/* Exit qualification (EPT violation, PML full) bit 12: an IRET unblocked NMIs. */
#define EXIT_QUAL_NMI_UNBLOCKED_BY_IRET (1u << 12)

/* Guest activity states */
#define GUEST_ACTIVITY_ACTIVE           0
#define GUEST_ACTIVITY_HLT              1

/* Segment access rights ("AR bytes") */
#define X86_SEG_AR_UNUSABLE             (1u << 16)

#define PML_ENTITY_NUM                  512

/* The capabilities negotiated once at boot from the (TRUE) control MSRs. */
struct vmx_caps {
    uint32_t revision_id;
    uint32_t pin_based;
    uint32_t cpu_based;
    uint32_t secondary;
    uint32_t exit;
    uint32_t entry;
    uint64_t ept_vpid;
    uint64_t cr0_fixed0, cr0_fixed1;
    uint64_t cr4_fixed0, cr4_fixed1;
    unsigned int preempt_timer_shift;
};
extern struct vmx_caps vmx_caps;

#define cpu_has_vmx_secondary(bit) (!!(vmx_caps.secondary & (bit)))
#define cpu_has_vmx_ept         cpu_has_vmx_secondary(SECONDARY_EXEC_ENABLE_EPT)
#define cpu_has_vmx_vpid        cpu_has_vmx_secondary(SECONDARY_EXEC_ENABLE_VPID)
#define cpu_has_vmx_unrestricted_guest \
    cpu_has_vmx_secondary(SECONDARY_EXEC_UNRESTRICTED_GUEST)
#define cpu_has_vmx_ple         cpu_has_vmx_secondary(SECONDARY_EXEC_PAUSE_LOOP_EXITING)
#define cpu_has_vmx_pml         cpu_has_vmx_secondary(SECONDARY_EXEC_ENABLE_PML)
#define cpu_has_vmx_rdtscp      cpu_has_vmx_secondary(SECONDARY_EXEC_ENABLE_RDTSCP)
#define cpu_has_vmx_invpcid     cpu_has_vmx_secondary(SECONDARY_EXEC_ENABLE_INVPCID)
#define cpu_has_vmx_xsaves      cpu_has_vmx_secondary(SECONDARY_EXEC_XSAVES)
#define cpu_has_vmx_virtualize_apic_accesses \
    cpu_has_vmx_secondary(SECONDARY_EXEC_VIRTUALIZE_APIC_ACCESSES)
#define cpu_has_vmx_apic_reg_virt cpu_has_vmx_secondary(SECONDARY_EXEC_APIC_REGISTER_VIRT)
#define cpu_has_vmx_ept_ad      (!!(vmx_caps.ept_vpid & VMX_EPT_AD_BIT))
#define cpu_has_vmx_ept_2mb     (!!(vmx_caps.ept_vpid & VMX_EPT_SUPERPAGE_2MB))

/* Per-vCPU VMX state. */
struct vmx_vcpu {
    void        *vmcs;          /* 4 KiB VMCS region */
    paddr_t      vmcs_pa;       /* its machine address (VMPTRLD's operand) */
    int          active_cpu;    /* CPU it is active on (loaded, not cleared); -1: none */
    bool         launched;      /* VMLAUNCH done since the last VMCLEAR */
    uint16_t     vpid;
    uint32_t     secondary_exec_control;
    uint32_t     entry_control;
    void        *pml_pg;        /* PML buffer, allocated where PML is usable */
    uint64_t     cr4_host_mask; /* CR4 bits the guest may not own */
};

struct vcpu;

int vmx_cpu_up(void);
void vmx_flush_guest_tlbs(void);
int vmx_create_vmcs(struct vcpu *v);
void vmx_destroy_vmcs(struct vcpu *v);

/*
 * The loaded VMCS (current_vmcs.c).  __vmread/__vmwrite act on it.  To
 * touch a VMCS other than the running vCPU's: vmx_vmcs_enter(v), then the
 * accesses, then vmx_vmcs_exit(v); both are no-ops when v is current.
 */
void vmx_vmcs_enter(struct vcpu *v);
bool vmx_vmcs_try_enter(struct vcpu *v);
void vmx_vmcs_exit(struct vcpu *v);
void vmx_vmcs_reload(struct vcpu *v);       /* vmx_do_resume() only */
void vmx_load_vmcs(struct vcpu *v);
void vmx_clear_vmcs(struct vcpu *v);
paddr_t vmx_current_vmcs(void);             /* 0: none loaded */
bool vmx_vmcs_is_loaded(const struct vcpu *v);
/* A guest segment register in the current VMCS (access rights: VMCS layout). */
void vmx_set_segment(enum x86_segment seg, uint16_t sel, uint64_t base,
                     uint32_t limit, uint32_t ar);
void vmx_get_segment(enum x86_segment seg, uint32_t *sel, uint64_t *base,
                     uint32_t *limit, uint32_t *ar);
bool vmx_pml_usable(void);
bool vmx_apic_access_virt(void);
void vmx_vlapic_mode_changed(struct vcpu *v);
unsigned int vmx_ple_gap(void);

struct domain;
void vmx_vcpu_flush_pml_buffer(struct vcpu *v);
void vmx_set_preemption_timer(uint64_t deadline);
int vmx_domain_enable_pml(struct domain *d);
void vmx_domain_disable_pml(struct domain *d);
void vmx_domain_flush_pml_buffers(struct domain *d);

/* Raw VMX instructions.  Failures are hypervisor bugs, reported with the field. */
unsigned long __vmread(unsigned long field);
void __vmwrite(unsigned long field, unsigned long value);
/* Only current_vmcs.c, which keeps the record, loads or clears a VMCS. */
bool __vmptrld(paddr_t pa);
bool __vmpclear(paddr_t pa);

#endif /* __ASM_X86_HVM_VMX_VMCS_H__ */
