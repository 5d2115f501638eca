/* SPDX-License-Identifier: MIT */
/*
 * x86 HVM save records (see ../../hvm/save.h): the header and the vCPU
 * register state, with Xen's type codes and layouts.  Records this project
 * does not implement (PIC, IOAPIC, LAPIC, MTRR, ...) are not declared.
 */
#ifndef __LOCAL_PUBLIC_ARCH_X86_HVM_SAVE_H__
#define __LOCAL_PUBLIC_ARCH_X86_HVM_SAVE_H__

/* The record machinery; it includes this file back at its end. */
#include "../../hvm/save.h"

#define HVM_FILE_MAGIC   0x54381286
#define HVM_FILE_VERSION 0x00000001

#ifndef __ASSEMBLY__

/* Code 1: first record of every context. */
struct hvm_save_header {
    uint32_t magic;                     /* HVM_FILE_MAGIC */
    uint32_t version;                   /* HVM_FILE_VERSION */
    uint64_t changeset;                 /* of the saving hypervisor */
    uint32_t cpuid;                     /* CPUID 1 EAX of the saving CPU */
    uint32_t gtsc_khz;                  /* the guest's TSC frequency */
};
DECLARE_HVM_SAVE_TYPE(HEADER, 1, struct hvm_save_header);

/* Code 2: one per vCPU (instance = vCPU id). */
struct hvm_hw_cpu {
    uint8_t  fpu_regs[512];             /* FXSAVE image */

    uint64_t rax, rbx, rcx, rdx, rbp, rsi, rdi, rsp;
    uint64_t r8, r9, r10, r11, r12, r13, r14, r15;

    uint64_t rip;
    uint64_t rflags;

    uint64_t cr0, cr2, cr3, cr4;

    uint64_t dr0, dr1, dr2, dr3, dr6, dr7;

    uint32_t cs_sel, ds_sel, es_sel, fs_sel, gs_sel, ss_sel, tr_sel, ldtr_sel;

    uint32_t cs_limit, ds_limit, es_limit, fs_limit, gs_limit, ss_limit;
    uint32_t tr_limit, ldtr_limit, idtr_limit, gdtr_limit;

    uint64_t cs_base, ds_base, es_base, fs_base, gs_base, ss_base;
    uint64_t tr_base, ldtr_base, idtr_base, gdtr_base;

    /*
     * Access rights in Xen's packed form: type, S, DPL, P in bits 0-7;
     * AVL, L, D/B, G in bits 8-11.  A segment that is not present (P = 0)
     * is unusable.
     */
    uint32_t cs_arbytes, ds_arbytes, es_arbytes, fs_arbytes;
    uint32_t gs_arbytes, ss_arbytes, tr_arbytes, ldtr_arbytes;

    uint64_t sysenter_cs, sysenter_esp, sysenter_eip;

    uint64_t shadow_gs;                 /* MSR_SHADOW_GS_BASE */

    uint64_t msr_flags;                 /* obsolete, ignored */
    uint64_t msr_lstar, msr_star, msr_cstar, msr_syscall_mask;
    uint64_t msr_efer, msr_tsc_aux;

    uint64_t tsc;                       /* what RDTSC would return */

    union {
        uint32_t pending_event;         /* VMX interruption-info layout */
        struct {
            uint8_t  pending_vector:8;
            uint8_t  pending_type:3;
            uint8_t  pending_error_valid:1;
            uint32_t pending_reserved:19;
            uint8_t  pending_valid:1;
        };
    };
    uint32_t error_code;

#define _XEN_X86_FPU_INITIALISED 0
#define XEN_X86_FPU_INITIALISED  (1U << _XEN_X86_FPU_INITIALISED)
    uint32_t flags;
    uint32_t pad0;
};
DECLARE_HVM_SAVE_TYPE(CPU, 2, struct hvm_hw_cpu);

/* One vCPU's local APIC, what is not in its registers (Xen's, code 5). */
struct hvm_hw_lapic {
    uint64_t apic_base_msr;             /* IA32_APIC_BASE */
    uint32_t disabled;                  /* VLAPIC_{HW,SW}_DISABLED (Xen's vlapic.h) */
    uint32_t timer_divisor;             /* 1, 2, 4, ... 128 (from TDCR) */
    uint64_t tdt_msr;                   /* IA32_TSC_DEADLINE, 0: disarmed */
};
DECLARE_HVM_SAVE_TYPE(LAPIC, 5, struct hvm_hw_lapic);

/* Its register file, the first 1 KiB of the APIC page (Xen's, code 6). */
struct hvm_hw_lapic_regs {
    uint8_t data[1024];
};
DECLARE_HVM_SAVE_TYPE(LAPIC_REGS, 6, struct hvm_hw_lapic_regs);

/* The MTRR MSRs and PAT of one vCPU (Xen's, code 14). */
struct hvm_hw_mtrr {
#define MTRR_VCNT 8
#define NUM_FIXED_MSR 11
    uint64_t msr_pat_cr;
    uint64_t msr_mtrr_var[MTRR_VCNT * 2];   /* PHYSBASE0, PHYSMASK0, ... */
    uint64_t msr_mtrr_fixed[NUM_FIXED_MSR];
    uint64_t msr_mtrr_cap;
    uint64_t msr_mtrr_def_type;
};
DECLARE_HVM_SAVE_TYPE(MTRR, 14, struct hvm_hw_mtrr);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_ARCH_X86_HVM_SAVE_H__ */
