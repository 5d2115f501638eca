/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which CPU this is and which vCPU it runs: struct cpu_info at the top of
 * every CPU's stack, as in Xen.  Each CPU's stack is STACK_SIZE bytes and
 * STACK_SIZE-aligned, so rounding the stack pointer up finds it from any
 * depth with two instructions and no memory access.  The stack proper
 * starts just below it (head.S and the secondary CPUs' entry set %rsp to
 * the struct's address).
 *
 * current is the vCPU this CPU runs or last ran a guest for (NULL before
 * the first); set_current() changes it (the scheduler, only).
 */
#ifndef __ASM_X86_CURRENT_H__
#define __ASM_X86_CURRENT_H__

#include <asm/config.h>

/* sizeof(struct cpu_info), for head.S; checked by a BUILD_BUG_ON. */
#define CPUINFO_SIZE    64

#ifndef __ASSEMBLY__
#include <xen/types.h>

struct vcpu;

struct cpu_info {
    unsigned int processor_id;      /* this CPU's index (0 is the boot CPU) */
    unsigned int apic_id;           /* its local APIC's ID */
    struct vcpu *current_vcpu;
    unsigned long per_cpu_offset;   /* __per_cpu_offset[processor_id] */
    unsigned long stack_top;        /* this struct's address, for checks */
    unsigned long _pad[4];
};

#ifdef XEN_HOST_TEST
/*
 * Host unit tests run on the host's stack: a record per thread, each
 * thread one CPU (tests/unit/harness.h: harness_run_cpus()).
 */
extern __thread struct cpu_info host_test_cpu_info;
static inline struct cpu_info *get_cpu_info(void)
{
    return &host_test_cpu_info;
}
#else
static inline struct cpu_info *get_cpu_info(void)
{
    unsigned long sp;

    __asm__ ( "mov %%rsp, %0" : "=r" (sp) );
    return (struct cpu_info *)((sp | (STACK_SIZE - 1)) + 1 - CPUINFO_SIZE);
}
#endif

#define smp_processor_id()  (get_cpu_info()->processor_id)
#define current             (get_cpu_info()->current_vcpu)

static inline void set_current(struct vcpu *v)
{
    get_cpu_info()->current_vcpu = v;
}
#endif /* __ASSEMBLY__ */

#endif /* __ASM_X86_CURRENT_H__ */
