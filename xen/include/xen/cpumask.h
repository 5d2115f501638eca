/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sets of CPUs, as Xen's xen/cpumask.h: cpumask_t is a bitmap of NR_CPUS
 * bits, one per CPU index (smp_processor_id()).
 *
 *   cpu_present_map  CPUs the ACPI MADT lists as enabled (up to NR_CPUS)
 *   cpu_online_map   CPUs running the hypervisor (set by each CPU itself)
 *   nr_cpu_ids       one more than the highest CPU index in use (Xen's)
 *
 * The single-bit updates (cpumask_set_cpu, cpumask_clear_cpu and the
 * test_and_ forms) are atomic; the whole-mask operations are not and need
 * the caller to own the destination.
 */
#ifndef __XEN_CPUMASK_H__
#define __XEN_CPUMASK_H__

#include <xen/types.h>
#include <asm/bitops.h>
#include <asm/config.h>

#define BITS_TO_LONGS(n)    (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

typedef struct cpumask {
    unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
} cpumask_t;

extern unsigned int nr_cpu_ids;
extern cpumask_t cpu_online_map, cpu_present_map;

static inline unsigned long *cpumask_bits(cpumask_t *m) { return m->bits; }

static inline void cpumask_set_cpu(unsigned int cpu, cpumask_t *m)
{
    set_bit(cpu, m->bits);
}

static inline void cpumask_clear_cpu(unsigned int cpu, cpumask_t *m)
{
    clear_bit(cpu, m->bits);
}

static inline bool cpumask_test_cpu(unsigned int cpu, const cpumask_t *m)
{
    return cpu < NR_CPUS && test_bit(cpu, m->bits);
}

static inline bool cpumask_test_and_set_cpu(unsigned int cpu, cpumask_t *m)
{
    return test_and_set_bit(cpu, m->bits);
}

static inline bool cpumask_test_and_clear_cpu(unsigned int cpu, cpumask_t *m)
{
    return test_and_clear_bit(cpu, m->bits);
}

static inline void cpumask_clear(cpumask_t *m)
{
    unsigned int i;

    for ( i = 0; i < BITS_TO_LONGS(NR_CPUS); i++ )
        m->bits[i] = 0;
}

/* Every CPU below nr_cpu_ids (Xen's cpumask_setall). */
void cpumask_setall(cpumask_t *m);

static inline void cpumask_copy(cpumask_t *d, const cpumask_t *s)
{
    *d = *s;
}

#define CPUMASK_OP2(name, expr)                                            \
static inline void cpumask_##name(cpumask_t *d, const cpumask_t *a,        \
                                  const cpumask_t *b)                      \
{                                                                          \
    unsigned int i;                                                        \
                                                                           \
    for ( i = 0; i < BITS_TO_LONGS(NR_CPUS); i++ )                         \
        d->bits[i] = (expr);                                               \
}
CPUMASK_OP2(and, a->bits[i] & b->bits[i])
CPUMASK_OP2(or, a->bits[i] | b->bits[i])
CPUMASK_OP2(xor, a->bits[i] ^ b->bits[i])
CPUMASK_OP2(andnot, a->bits[i] & ~b->bits[i])
#undef CPUMASK_OP2

static inline bool cpumask_empty(const cpumask_t *m)
{
    unsigned int i;

    for ( i = 0; i < BITS_TO_LONGS(NR_CPUS); i++ )
        if ( m->bits[i] )
            return false;
    return true;
}

static inline bool cpumask_equal(const cpumask_t *a, const cpumask_t *b)
{
    unsigned int i;

    for ( i = 0; i < BITS_TO_LONGS(NR_CPUS); i++ )
        if ( a->bits[i] != b->bits[i] )
            return false;
    return true;
}

static inline bool cpumask_intersects(const cpumask_t *a, const cpumask_t *b)
{
    unsigned int i;

    for ( i = 0; i < BITS_TO_LONGS(NR_CPUS); i++ )
        if ( a->bits[i] & b->bits[i] )
            return true;
    return false;
}

static inline bool cpumask_subset(const cpumask_t *a, const cpumask_t *b)
{
    unsigned int i;

    for ( i = 0; i < BITS_TO_LONGS(NR_CPUS); i++ )
        if ( a->bits[i] & ~b->bits[i] )
            return false;
    return true;
}

/* Bits set in w (the compiler's popcount needs libgcc without POPCNT). */
static inline unsigned int hweight_long(unsigned long w)
{
    w -= (w >> 1) & 0x5555555555555555UL;
    w = (w & 0x3333333333333333UL) + ((w >> 2) & 0x3333333333333333UL);
    w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
    return (w * 0x0101010101010101UL) >> 56;
}

static inline unsigned int cpumask_weight(const cpumask_t *m)
{
    unsigned int i, w = 0;

    for ( i = 0; i < BITS_TO_LONGS(NR_CPUS); i++ )
        w += hweight_long(m->bits[i]);
    return w;
}

/* The first CPU in m after n (n = -1: the first), nr_cpu_ids if none. */
unsigned int cpumask_next(int n, const cpumask_t *m);
#define cpumask_first(m)    cpumask_next(-1, m)
/* The highest CPU in m, nr_cpu_ids if none. */
unsigned int cpumask_last(const cpumask_t *m);
/* The first CPU in m other than cpu, nr_cpu_ids if none. */
unsigned int cpumask_any_but(const cpumask_t *m, unsigned int cpu);

/* A mask holding cpu alone (read-only). */
const cpumask_t *cpumask_of(unsigned int cpu);

#define for_each_cpu(cpu, m)                                                \
    for ( (cpu) = cpumask_first(m); (cpu) < nr_cpu_ids;                     \
          (cpu) = cpumask_next(cpu, m) )
#define for_each_online_cpu(cpu)    for_each_cpu(cpu, &cpu_online_map)
#define for_each_present_cpu(cpu)   for_each_cpu(cpu, &cpu_present_map)

#define cpu_online(cpu)     cpumask_test_cpu(cpu, &cpu_online_map)
#define cpu_present(cpu)    cpumask_test_cpu(cpu, &cpu_present_map)
#define num_online_cpus()   cpumask_weight(&cpu_online_map)
#define num_present_cpus()  cpumask_weight(&cpu_present_map)

#endif /* __XEN_CPUMASK_H__ */
