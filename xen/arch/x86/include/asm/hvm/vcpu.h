/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-vCPU HVM state: guest registers the VMCS does not hold, counters. */
#ifndef __ASM_X86_HVM_VCPU_H__
#define __ASM_X86_HVM_VCPU_H__

#include <xen/types.h>
#include <asm/dirty_stats.h>
#include <asm/regs.h>
#include <asm/hvm/vlapic.h>
#include <asm/hvm/vmx/vmcs.h>
#include <asm/hvm/vmx/vmx.h>
#include <asm/msr.h>

struct hvm_vcpu {
    struct cpu_user_regs regs;      /* guest GPRs; rip/rsp/rflags cached */

    /* The guest's x87/SSE state (FXSAVE image), switched with the vCPU. */
    uint8_t         fpu[512] __attribute__((aligned(16)));

    /* What the guest believes its control registers hold. */
    unsigned long   guest_cr0;
    unsigned long   guest_cr2;      /* not in the VMCS: saved at every exit */
    unsigned long   guest_cr4;
    uint64_t        guest_efer;

    /* MSRs the VMCS does not switch: swapped on context switch. */
    uint64_t        msr_star, msr_lstar, msr_cstar, msr_syscall_mask;
    uint64_t        msr_shadow_gs, msr_tsc_aux;
    /* MSRs only the policy knows (arch/x86/msr.c). */
    struct vcpu_msrs msrs;

    /* Exits by reason (the counters "xl" and the monitor read). */
    uint64_t        exit_count[EXIT_REASON_NR];
    uint64_t        exits_total;

    /* Dirty tracking done on this vCPU's behalf (asm/dirty_stats.h). */
    struct dirty_vcpu_counters dirty;

    /* A hypercall preempted with hypercall_create_continuation(). */
    bool            hcall_preempted;
    unsigned long   hcall_args[5];

    /*
     * Event channel upcall: the vector from HVMOP_set_evtchn_upcall_vector
     * (0: none), delivered through the vLAPIC's IRR.
     */
    uint8_t         evtchn_upcall_vector;

    struct vlapic   vlapic;

    struct vmx_vcpu vmx;
};

#endif /* __ASM_X86_HVM_VCPU_H__ */
