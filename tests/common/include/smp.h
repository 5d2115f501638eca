/* SPDX-License-Identifier: GPL-2.0-only */
/* Secondary vCPUs of a guest test kernel. */
#ifndef GUEST_SMP_H
#define GUEST_SMP_H

#include <stdint.h>

#include "config.h"

/* All vCPU stacks, vCPU 0's first (common/head.S). */
extern uint8_t cpu_stacks[GUEST_MAX_VCPUS][GUEST_STACK_SIZE];

/* The id of the vCPU we run on, from the stack we run on. */
static inline unsigned int smp_processor_id(void)
{
    unsigned long sp;

    asm ( "mov %%rsp, %0" : "=r" (sp) );

    return (sp - (unsigned long)cpu_stacks - 1) / GUEST_STACK_SIZE;
}

/*
 * Start vCPU 'id' in long mode on its own stack, running fn(id); the vCPU
 * halts with interrupts off when fn returns (which Xen treats as going
 * down).  Returns 0 or a negative Xen errno (VCPUOP_initialise/up's).
 */
int vcpu_start(unsigned int id, void (*fn)(unsigned int id));

/* VCPUOP_is_up: 1 up, 0 down, or a negative errno (-ENOENT: no such vCPU). */
long vcpu_is_up(unsigned int id);

/* Number of vCPUs the domain has (probed with VCPUOP_is_up), 0 if unknown. */
unsigned int vcpu_count(void);

#endif /* GUEST_SMP_H */
