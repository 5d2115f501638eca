/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Architectural definitions and instruction wrappers for the guest test
 * kernels.  The #defines are usable from assembly too.
 */
#ifndef GUEST_X86_H
#define GUEST_X86_H

/* Selectors of the guest's own GDT (common/head.S). */
#define GDT_SEL_CS64        0x08
#define GDT_SEL_CS32        0x10
#define GDT_SEL_DS          0x18

#define X86_CR0_PE          (1 << 0)
#define X86_CR0_MP          (1 << 1)
#define X86_CR0_ET          (1 << 4)
#define X86_CR0_NE          (1 << 5)
#define X86_CR0_WP          (1 << 16)
#define X86_CR0_PG          (1 << 31)

#define X86_CR4_PAE         (1 << 5)

#define X86_EFLAGS_MBS      (1 << 1)    /* must be set */
#define X86_EFLAGS_IF       (1 << 9)

#define MSR_EFER            0xc0000080
#define EFER_SCE            (1 << 0)
#define EFER_LME            (1 << 8)
#define EFER_LMA            (1 << 10)
#define EFER_NXE            (1 << 11)

/* CPUID 0x80000001 EDX */
#define CPUID_EXT_EDX_NX    (1 << 20)
#define CPUID_EXT_EDX_LM    (1 << 29)

/* Page table entry bits. */
#define _PAGE_PRESENT       0x001
#define _PAGE_RW            0x002
#define _PAGE_PSE           0x080

#define PAGE_SHIFT          12
#define PAGE_SIZE           (1 << PAGE_SHIFT)
#define L2_PAGETABLE_SHIFT  21

/* Exception vectors. */
#define X86_EXC_DE          0
#define X86_EXC_DB          1
#define X86_EXC_NMI         2
#define X86_EXC_BP          3
#define X86_EXC_OF          4
#define X86_EXC_BR          5
#define X86_EXC_UD          6
#define X86_EXC_NM          7
#define X86_EXC_DF          8
#define X86_EXC_TS          10
#define X86_EXC_NP          11
#define X86_EXC_SS          12
#define X86_EXC_GP          13
#define X86_EXC_PF          14
#define X86_EXC_MF          16
#define X86_EXC_AC          17
#define X86_EXC_MC          18
#define X86_EXC_XM          19
#define X86_EXC_VE          20
#define X86_EXC_CP          21
#define X86_EXC_HV          28
#define X86_EXC_VC          29
#define X86_EXC_SX          30
#define X86_NR_EXCEPTIONS   32

/* Vectors that push an error code. */
#define X86_EXC_HAVE_EC \
    ((1u << X86_EXC_DF) | (1u << X86_EXC_TS) | (1u << X86_EXC_NP) | \
     (1u << X86_EXC_SS) | (1u << X86_EXC_GP) | (1u << X86_EXC_PF) | \
     (1u << X86_EXC_AC) | (1u << X86_EXC_CP) | (1u << X86_EXC_VC) | \
     (1u << X86_EXC_SX))

/* The Bochs/QEMU debug console port (Xen prints it for HVM guests too). */
#define DEBUGCON_PORT       0xe9

#ifndef __ASSEMBLY__

#include <stdint.h>

struct cpuid_leaf {
    uint32_t a, b, c, d;
};

static inline void cpuid_count(uint32_t leaf, uint32_t subleaf,
                               struct cpuid_leaf *l)
{
    asm volatile ( "cpuid"
                   : "=a" (l->a), "=b" (l->b), "=c" (l->c), "=d" (l->d)
                   : "a" (leaf), "c" (subleaf) );
}

static inline void cpuid(uint32_t leaf, struct cpuid_leaf *l)
{
    cpuid_count(leaf, 0, l);
}

static inline uint64_t rdmsr(uint32_t msr)
{
    uint32_t lo, hi;

    asm volatile ( "rdmsr" : "=a" (lo), "=d" (hi) : "c" (msr) );
    return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t val)
{
    asm volatile ( "wrmsr"
                   :: "c" (msr), "a" ((uint32_t)val),
                      "d" ((uint32_t)(val >> 32))
                   : "memory" );
}

static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;

    asm volatile ( "rdtsc" : "=a" (lo), "=d" (hi) );
    return ((uint64_t)hi << 32) | lo;
}

#define DEFINE_READ_CR(n)                                       \
static inline unsigned long read_cr##n(void)                    \
{                                                               \
    unsigned long v;                                            \
    asm volatile ( "mov %%cr" #n ", %0" : "=r" (v) );           \
    return v;                                                   \
}
DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)
DEFINE_READ_CR(8)
#undef DEFINE_READ_CR

static inline void outb(uint8_t val, uint16_t port)
{
    asm volatile ( "outb %0, %1" :: "a" (val), "Nd" (port) );
}

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;

    asm volatile ( "inb %1, %0" : "=a" (v) : "Nd" (port) );
    return v;
}

static inline uint16_t inw(uint16_t port)
{
    uint16_t v;

    asm volatile ( "inw %1, %0" : "=a" (v) : "Nd" (port) );
    return v;
}

/* The spin-wait hint; a guest spinning on it is what PLE detects. */
static inline void cpu_relax(void)
{
    asm volatile ( "pause" ::: "memory" );
}

static inline void cli(void)
{
    asm volatile ( "cli" ::: "memory" );
}

static inline void halt(void)
{
    asm volatile ( "hlt" ::: "memory" );
}

struct __attribute__((packed)) desc_ptr {
    uint16_t limit;
    uint64_t base;
};

static inline void lidt(const struct desc_ptr *p)
{
    asm volatile ( "lidt %0" :: "m" (*p) : "memory" );
}

static inline void sidt(struct desc_ptr *p)
{
    asm volatile ( "sidt %0" : "=m" (*p) );
}

#endif /* !__ASSEMBLY__ */

#endif /* GUEST_X86_H */
