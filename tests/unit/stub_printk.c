/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * printk() for the host tests: appends every message, prefix included, to
 * printk_log so that tests can check what the code under test reported.
 * Built like hypervisor code, with the real vsnprintf().
 */
#include <xen/lib.h>
#include <xen/percpu.h>

#include "harness.h"

/* The one CPU of the host tests (asm/current.h): current, its id, offset 0. */
struct cpu_info host_test_cpu_info;
unsigned long __per_cpu_offset[NR_CPUS];
/* The interrupt flag the host tests pretend to have (asm/system.h). */
bool host_test_irqs_enabled = true;

/* CPU 0 alone has a per-CPU area; it never sends an IPI to itself. */
bool cpu_has_percpu_area(unsigned int cpu)
{
    return cpu == 0;
}

void smp_send_event_check_cpu(unsigned int cpu __attribute__((unused)))
{
    BUG();
}

char printk_log[16384];
static size_t printk_len;

void printk_reset(void)
{
    printk_len = 0;
    printk_log[0] = '\0';
}

void vprintk(const char *fmt, va_list args)
{
    printk_len += vscnprintf(printk_log + printk_len,
                             sizeof(printk_log) - printk_len, fmt, args);
}

void printk(const char *fmt, ...)
{
    va_list args;

    va_start(args, fmt);
    vprintk(fmt, args);
    va_end(args);
}
