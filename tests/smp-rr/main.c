/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SMP round-robin (kvm-unit-tests' ple-round-robin shape): vCPU 0 and
 * vCPU 1 take turns bumping one shared counter.  Each waits for the other
 * by spinning on PAUSE and never yields, so progress on a shared physical
 * CPU needs the hypervisor's preemption or pause-loop exits.  Prints the TSC
 * ticks per round trip, the figure the PLE benchmark compares.
 *
 * Domain options: vcpus=2.  Guest command line: rounds=<n> (default 200).
 */

#include "test.h"

const char test_title[] = "SMP round-robin on a shared counter";

static unsigned long rounds;
static volatile unsigned long counter;
static atomic_t ap_started = ATOMIC_INIT(0);
static atomic_t ap_done = ATOMIC_INIT(0);

/* Spin with PAUSE until the counter reaches 'value'. */
static void wait_for(unsigned long value)
{
    while ( __atomic_load_n(&counter, __ATOMIC_ACQUIRE) != value )
        cpu_relax();
}

static void bump(void)
{
    __atomic_store_n(&counter, counter + 1, __ATOMIC_RELEASE);
}

/* vCPU 1: bumps odd values to even. */
static void ap_main(unsigned int id)
{
    unsigned long i;

    atomic_set(&ap_started, 1);
    printk("vCPU %u running\n", id);

    for ( i = 0; i < rounds; i++ )
    {
        wait_for(2 * i + 1);
        bump();
    }

    atomic_set(&ap_done, 1);
}

void test_main(void)
{
    uint64_t t0, t1;
    unsigned long i, ticks;
    int rc;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");

    rounds = cmdline_ulong("rounds", 200);
    if ( rounds == 0 )
        rounds = 1;

    rc = vcpu_start(1, ap_main);
    if ( rc == -XEN_ENOENT )
        return xtf_skip("Skip: needs 2 vCPUs (domain option vcpus=2)\n");
    if ( rc )
        return xtf_error("Error: starting vCPU 1: %d\n", rc);

    printk("vCPU 0: waiting for vCPU 1\n");
    while ( !atomic_read(&ap_started) )
        cpu_relax();

    printk("%lu rounds\n", rounds);

    t0 = rdtsc();
    for ( i = 0; i < rounds; i++ )
    {
        wait_for(2 * i);
        bump();
    }
    wait_for(2 * rounds);
    t1 = rdtsc();

    while ( !atomic_read(&ap_done) )
        cpu_relax();

    ticks = t1 - t0;
    printk("%lu round trips in %lu TSC ticks: %lu ticks per round trip\n",
           rounds, ticks, ticks / rounds);

    if ( counter != 2 * rounds )
        return xtf_failure("Fail: counter %lu, expected %lu\n",
                           counter, 2 * rounds);

    xtf_success(NULL);
}
