/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-CPU areas (xen/percpu.h).  CPU 0 uses the image's .bss.percpu; every
 * other CPU gets a zeroed copy of it before it starts, and loses it when it
 * goes away.  A CPU without an area has an offset that faults when used
 * (INVALID_PERCPU_AREA, non-canonical), as in Xen.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/percpu.h>
#include <xen/string.h>

extern char __per_cpu_start[], __per_cpu_data_end[];

#define INVALID_PERCPU_AREA (0x8000000000000000UL - (unsigned long)__per_cpu_start)

unsigned long __per_cpu_offset[NR_CPUS];

static unsigned int percpu_order(void)
{
    unsigned long bytes = __per_cpu_data_end - __per_cpu_start;
    unsigned int order = 0;

    while ( ((unsigned long)PAGE_SIZE << order) < bytes )
        order++;
    return order;
}

void percpu_init_areas(void)
{
    unsigned int cpu;

    BUILD_BUG_ON(sizeof(struct cpu_info) != CPUINFO_SIZE);
    __per_cpu_offset[0] = 0;
    for ( cpu = 1; cpu < NR_CPUS; cpu++ )
        __per_cpu_offset[cpu] = INVALID_PERCPU_AREA;
}

bool cpu_has_percpu_area(unsigned int cpu)
{
    return cpu < NR_CPUS && __per_cpu_offset[cpu] != INVALID_PERCPU_AREA;
}

int init_percpu_area(unsigned int cpu)
{
    char *p;

    if ( cpu >= NR_CPUS )
        return -EINVAL;
    if ( cpu_has_percpu_area(cpu) )
        return 0;
    if ( !(p = alloc_xenheap_pages(percpu_order())) )
        return -ENOMEM;
    memset(p, 0, __per_cpu_data_end - __per_cpu_start);
    __per_cpu_offset[cpu] = p - __per_cpu_start;
    return 0;
}

void free_percpu_area(unsigned int cpu)
{
    if ( cpu == 0 || !cpu_has_percpu_area(cpu) )
        return;
    free_xenheap_pages(__per_cpu_start + __per_cpu_offset[cpu], percpu_order());
    __per_cpu_offset[cpu] = INVALID_PERCPU_AREA;
}
