/* SPDX-License-Identifier: GPL-2.0-only */
/* Thin wrappers around privileged x86 instructions. */
#ifndef __ASM_X86_PROCESSOR_H__
#define __ASM_X86_PROCESSOR_H__

#include <xen/types.h>
#include <asm/x86-defns.h>
#include <asm/msr-index.h>
#include <asm/system.h>

struct cpuid_leaf { uint32_t a, b, c, d; };

static inline void cpuid_count(uint32_t leaf, uint32_t subleaf,
                               struct cpuid_leaf *res)
{
    asm volatile ( "cpuid"
                   : "=a" (res->a), "=b" (res->b), "=c" (res->c), "=d" (res->d)
                   : "a" (leaf), "c" (subleaf) );
}

static inline uint32_t cpuid_ecx(uint32_t leaf)
{
    struct cpuid_leaf r;

    cpuid_count(leaf, 0, &r);
    return r.c;
}

static inline uint64_t rdmsr(uint32_t msr)
{
    uint32_t lo, hi;

    asm volatile ( "rdmsr" : "=a" (lo), "=d" (hi) : "c" (msr) );
    return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t val)
{
    asm volatile ( "wrmsr" :: "c" (msr), "a" ((uint32_t)val),
                   "d" ((uint32_t)(val >> 32)) : "memory" );
}

static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;

    asm volatile ( "rdtsc" : "=a" (lo), "=d" (hi) );
    return ((uint64_t)hi << 32) | lo;
}

#define DEFINE_CR_ACCESS(n)                                           \
static inline unsigned long read_cr##n(void)                          \
{                                                                     \
    unsigned long v;                                                  \
    asm volatile ( "mov %%cr" #n ", %0" : "=r" (v) );                 \
    return v;                                                         \
}                                                                     \
static inline void write_cr##n(unsigned long v)                       \
{                                                                     \
    asm volatile ( "mov %0, %%cr" #n :: "r" (v) : "memory" );         \
}
DEFINE_CR_ACCESS(0)
DEFINE_CR_ACCESS(2)
DEFINE_CR_ACCESS(3)
DEFINE_CR_ACCESS(4)
#undef DEFINE_CR_ACCESS

#ifdef XEN_HOST_TEST
/*
 * tests/unit/harness.c: a pause, and now and then the host CPU for another
 * thread (the CPUs are threads there, more of them than host CPUs: one
 * spinning for a lock its descheduled holder keeps would spin out its
 * whole time slice).
 */
void host_test_cpu_relax(void);
static inline void cpu_relax(void)         { host_test_cpu_relax(); }
#else
static inline void cpu_relax(void)         { asm volatile ( "pause" ::: "memory" ); }
#endif
static inline void halt(void)              { asm volatile ( "hlt" ::: "memory" ); }

/* Enable interrupts and halt atomically (the sti shadow covers the hlt). */
static inline void safe_halt(void)
{
    asm volatile ( "sti; hlt" ::: "memory" );
}

struct desc_ptr {
    uint16_t limit;
    uint64_t base;
} __attribute__((packed));

static inline void lgdt(const struct desc_ptr *p)
{
    asm volatile ( "lgdt %0" :: "m" (*p) );
}

static inline void lidt(const struct desc_ptr *p)
{
    asm volatile ( "lidt %0" :: "m" (*p) );
}

static inline void ltr(uint16_t sel)
{
    asm volatile ( "ltr %0" :: "rm" (sel) );
}

static inline void sgdt(struct desc_ptr *p)
{
    asm volatile ( "sgdt %0" : "=m" (*p) );
}

static inline void sidt(struct desc_ptr *p)
{
    asm volatile ( "sidt %0" : "=m" (*p) );
}

#endif /* __ASM_X86_PROCESSOR_H__ */
