/* SPDX-License-Identifier: GPL-2.0-only */
/* Busy-wait delays, counted in TSC ticks (Xen's delay.c). */
#include <asm/processor.h>
#include <asm/time.h>

void udelay(unsigned long usecs)
{
    uint64_t start = rdtsc(), ticks = (uint64_t)usecs * cpu_khz / 1000;

    while ( rdtsc() - start < ticks )
        cpu_relax();
}
