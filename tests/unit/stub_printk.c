/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * printk() for the host tests: appends every message, prefix included, to
 * printk_log so that tests can check what the code under test reported.
 * Built like hypervisor code, with the real vsnprintf().
 */
#include <xen/lib.h>
#include <xen/percpu.h>

#include "harness.h"

/*
 * Each thread of a host test is a CPU (asm/current.h): its id, current,
 * and its per-CPU offset.  The main thread is CPU 0 with the image's own
 * per-CPU copy (offset 0); harness_run_cpus() gives every other CPU a
 * zeroed copy of the section (setup.ld collects it), as Xen's
 * init_percpu_area().
 */
__thread struct cpu_info host_test_cpu_info;
unsigned long __per_cpu_offset[NR_CPUS];
/* The interrupt flag the host tests pretend to have (asm/system.h), per CPU. */
__thread bool host_test_irqs_enabled = true;

extern char __per_cpu_start[], __per_cpu_end[];

void host_test_cpu_enter(unsigned int cpu)
{
    BUG_ON(cpu >= NR_CPUS);
    if ( cpu && !__per_cpu_offset[cpu] )
    {
        char *area = harness_zalloc(__per_cpu_end - __per_cpu_start);

        BUG_ON(!area);
        __per_cpu_offset[cpu] = area - __per_cpu_start;
    }
    host_test_cpu_info.processor_id = cpu;
    host_test_cpu_info.per_cpu_offset = __per_cpu_offset[cpu];
}

/* CPU 0, and the CPUs harness_run_cpus() started; none sends an IPI to itself. */
bool cpu_has_percpu_area(unsigned int cpu)
{
    return cpu == 0 || (cpu < NR_CPUS && __per_cpu_offset[cpu]);
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
