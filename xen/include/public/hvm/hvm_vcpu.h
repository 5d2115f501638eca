/* SPDX-License-Identifier: MIT */
/*
 * Initial register state for an HVM/PVH vCPU, passed to VCPUOP_initialise.
 * The vCPU starts in the mode the fields describe (32-bit protected, or
 * 64-bit long mode) with flat segments unless stated otherwise.
 */

#ifndef __LOCAL_PUBLIC_HVM_HVM_VCPU_H__
#define __LOCAL_PUBLIC_HVM_HVM_VCPU_H__

#include "../xen.h"

#ifndef __ASSEMBLY__

struct vcpu_hvm_x86_32 {
    uint32_t eax;
    uint32_t ecx;
    uint32_t edx;
    uint32_t ebx;
    uint32_t esp;
    uint32_t ebp;
    uint32_t esi;
    uint32_t edi;
    uint32_t eip;
    uint32_t eflags;

    uint32_t cr0;
    uint32_t cr3;
    uint32_t cr4;

    uint32_t pad1;

    /* Only EFER.LME/LMA/NX are honoured here. */
    uint64_t efer;

    uint32_t cs_base;
    uint32_t ds_base;
    uint32_t ss_base;
    uint32_t es_base;
    uint32_t tr_base;
    uint32_t cs_limit;
    uint32_t ds_limit;
    uint32_t ss_limit;
    uint32_t es_limit;
    uint32_t tr_limit;
    /* Access rights in the packed 12-bit VMX-style form. */
    uint16_t cs_ar;
    uint16_t ds_ar;
    uint16_t ss_ar;
    uint16_t es_ar;
    uint16_t tr_ar;

    uint16_t pad2[3];
};
typedef struct vcpu_hvm_x86_32 xen_vcpu_hvm_x86_32_t;

/* Long mode: segments are implied flat; CR0.PG/CR4.PAE/EFER.LME required. */
struct vcpu_hvm_x86_64 {
    uint64_t rax;
    uint64_t rcx;
    uint64_t rdx;
    uint64_t rbx;
    uint64_t rsp;
    uint64_t rbp;
    uint64_t rsi;
    uint64_t rdi;
    uint64_t rip;
    uint64_t rflags;

    uint64_t cr0;
    uint64_t cr3;
    uint64_t cr4;
    uint64_t efer;
};
typedef struct vcpu_hvm_x86_64 xen_vcpu_hvm_x86_64_t;

struct vcpu_hvm_context {
#define VCPU_HVM_MODE_32B 0             /* use cpu_regs.x86_32 */
#define VCPU_HVM_MODE_64B 1             /* use cpu_regs.x86_64 */
    uint32_t mode;
    uint32_t pad;
    union {
        struct vcpu_hvm_x86_32 x86_32;
        struct vcpu_hvm_x86_64 x86_64;
    } cpu_regs;
};
typedef struct vcpu_hvm_context vcpu_hvm_context_t;
DEFINE_XEN_GUEST_HANDLE(vcpu_hvm_context_t);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_HVM_HVM_VCPU_H__ */
