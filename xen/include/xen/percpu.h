/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-CPU data, as Xen's: DEFINE_PER_CPU(type, name) puts one copy of a
 * variable in the per-CPU section; per_cpu(name, cpu) is CPU cpu's copy and
 * this_cpu(name) the running CPU's.
 *
 * The section is .bss.percpu: every copy starts zeroed.  CPU 0 uses the
 * image's own copy (its offset is 0); every other CPU gets a zeroed area of
 * the same size before it is brought up (init_percpu_area()), and
 * __per_cpu_offset[cpu] is the distance from the image's copy to its own.
 * An initialiser in DEFINE_PER_CPU is therefore not allowed (it would hold
 * for CPU 0 only).
 */
#ifndef __XEN_PERCPU_H__
#define __XEN_PERCPU_H__

#include <xen/compiler.h>
#include <asm/percpu.h>

#define DECLARE_PER_CPU(type, name) \
    extern __typeof__(type) per_cpu__##name
#define DEFINE_PER_CPU(type, name) \
    __section(".bss.percpu") __typeof__(type) per_cpu__##name
/* A per-CPU variable that must not share a cache line with another. */
#define DEFINE_PER_CPU_ALIGNED(type, name) \
    __section(".bss.percpu") __aligned(SMP_CACHE_BYTES) __typeof__(type) per_cpu__##name

/* Hide the addition from the compiler, which may not assume the result
 * points into the same object (it does not: it is another CPU's copy). */
#define RELOC_HIDE(ptr, off) ({                                          \
    unsigned long __ptr;                                                 \
    __asm__ ( "" : "=r" (__ptr) : "0" (ptr) );                           \
    (__typeof__(ptr))(__ptr + (off)); })

#define per_cpu(name, cpu) \
    (*RELOC_HIDE(&per_cpu__##name, __per_cpu_offset[cpu]))
#define this_cpu(name) \
    (*RELOC_HIDE(&per_cpu__##name, get_per_cpu_offset()))
#define per_cpu_ptr(name, cpu)  (&per_cpu(name, cpu))
#define this_cpu_ptr(name)      (&this_cpu(name))

/* arch/x86/percpu.c */
void percpu_init_areas(void);
/* Give cpu a zeroed copy of the per-CPU section: 0, or -ENOMEM. */
int init_percpu_area(unsigned int cpu);
void free_percpu_area(unsigned int cpu);
bool cpu_has_percpu_area(unsigned int cpu);

#endif /* __XEN_PERCPU_H__ */
