/* SPDX-License-Identifier: GPL-2.0-only */
/* Where the running CPU's per-CPU area is: its struct cpu_info says. */
#ifndef __ASM_X86_PERCPU_H__
#define __ASM_X86_PERCPU_H__

#include <asm/config.h>

#define SMP_CACHE_BYTES 64

#ifndef __ASSEMBLY__
extern unsigned long __per_cpu_offset[NR_CPUS];

#include <asm/current.h>

static inline unsigned long get_per_cpu_offset(void)
{
    return get_cpu_info()->per_cpu_offset;
}
#endif

#endif /* __ASM_X86_PERCPU_H__ */
