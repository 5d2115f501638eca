/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pause-spin: a tight PAUSE loop, long enough that pause-loop exiting (when
 * enabled) must fire.  The hypervisor counts PAUSE_INSTRUCTION exits per
 * vCPU and prints them when the domain ends; the test list checks that log.
 *
 * Guest command line: iterations=<n> (default 2000000).
 */

#include "test.h"

const char test_title[] = "PAUSE spin loop";

void test_main(void)
{
    unsigned long n = cmdline_ulong("iterations", 2000000);
    unsigned long i;
    uint64_t t0, t1;

    printk("Spinning %lu PAUSE iterations\n", n);

    t0 = rdtsc();
    for ( i = 0; i < n; i++ )
        asm volatile ( "pause" );
    t1 = rdtsc();

    printk("%lu iterations in %lu TSC ticks (%lu per iteration)\n",
           n, (unsigned long)(t1 - t0),
           n ? (unsigned long)((t1 - t0) / n) : 0);

    xtf_success(NULL);
}
