/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPU maps (xen/cpumask.h) and the mask operations that are not inline. */
#include <xen/cpumask.h>

/* Until the MADT is read: the boot CPU alone (Xen's nr_cpu_ids starts at NR_CPUS). */
unsigned int nr_cpu_ids = NR_CPUS;
cpumask_t cpu_online_map, cpu_present_map;

void cpumask_setall(cpumask_t *m)
{
    unsigned int cpu;

    cpumask_clear(m);
    for ( cpu = 0; cpu < nr_cpu_ids && cpu < NR_CPUS; cpu++ )
        cpumask_set_cpu(cpu, m);
}

unsigned int cpumask_next(int n, const cpumask_t *m)
{
    unsigned int cpu = n + 1;
    unsigned int limit = nr_cpu_ids < NR_CPUS ? nr_cpu_ids : NR_CPUS;

    while ( cpu < limit )
    {
        unsigned long w = m->bits[cpu / BITS_PER_LONG] >> (cpu % BITS_PER_LONG);

        if ( w )
        {
            cpu += __builtin_ctzl(w);
            return cpu < limit ? cpu : nr_cpu_ids;
        }
        cpu = (cpu / BITS_PER_LONG + 1) * BITS_PER_LONG;
    }
    return nr_cpu_ids;
}

unsigned int cpumask_last(const cpumask_t *m)
{
    unsigned int cpu, last = nr_cpu_ids;

    for_each_cpu ( cpu, m )
        last = cpu;
    return last;
}

unsigned int cpumask_any_but(const cpumask_t *m, unsigned int cpu)
{
    unsigned int i;

    for_each_cpu ( i, m )
        if ( i != cpu )
            return i;
    return nr_cpu_ids;
}

const cpumask_t *cpumask_of(unsigned int cpu)
{
    static cpumask_t single[NR_CPUS];
    cpumask_t *m = &single[cpu < NR_CPUS ? cpu : 0];

    /* Built on first use; the bit never changes afterwards. */
    if ( !cpumask_test_cpu(cpu, m) )
        cpumask_set_cpu(cpu, m);
    return m;
}
