/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Demo guest for "make run": says hello, tells who it is, has every vCPU
 * report in, draws a small Mandelbrot set and powers off.
 *
 * Guest command line: name=<text> (printed in the greeting).
 */

#include "test.h"
#include "public/arch-x86/cpuid.h"

const char test_title[] = "Demo guest";

static atomic_t checked_in = ATOMIC_INIT(0);

static void hello(unsigned int id)
{
    printk("Hello from vCPU %u\n", id);
    atomic_inc(&checked_in);
}

/* The domid, from Xen's HVM CPUID leaf when it is given, else -1. */
static long domid(void)
{
    struct cpuid_leaf l;

    cpuid(xen_cpuid_base, &l);
    if ( l.a < xen_cpuid_base + 4 )
        return -1;
    cpuid(xen_cpuid_base + 4, &l);

    return (l.a & XEN_HVM_CPUID_DOMID_PRESENT) ? (long)l.c : -1;
}

/* 16.16 fixed point, so no FPU is needed. */
static void mandelbrot(void)
{
    static const char shade[] = " .:-=+*#%@";
    const long one = 1 << 16;
    int row, col;

    for ( row = 0; row < 12; row++ )
    {
        char line[64];
        long ci = -one + row * (2 * one) / 11;

        for ( col = 0; col < 60; col++ )
        {
            long cr = -2 * one + col * (5 * one / 2) / 59;
            long zr = 0, zi = 0;
            int it;

            for ( it = 0; it < 30; it++ )
            {
                long zr2 = (zr * zr) >> 16, zi2 = (zi * zi) >> 16;

                if ( zr2 + zi2 > 4 * one )
                    break;
                zi = ((2 * zr * zi) >> 16) + ci;
                zr = zr2 - zi2 + cr;
            }
            line[col] = it == 30 ? '@' : shade[it % 9];
        }
        line[60] = '\0';
        printk("  %s\n", line);
    }
}

void test_main(void)
{
    char name[32] = "demo";
    unsigned int i, n;

    cmdline_get_str("name", name, sizeof(name));
    printk("Hello, world! I am \"%s\", a guest of this hypervisor.\n", name);

    if ( !hypercall_page_ready )
    {
        mandelbrot();
        return;
    }

    printk("Command line: \"%s\"\n", cmdline);
    if ( domid() >= 0 )
        printk("I am domain %ld\n", domid());

    n = vcpu_count();
    printk("I have %u vCPU(s)\n", n);
    hello(0);
    for ( i = 1; i < n && i < GUEST_MAX_VCPUS; i++ )
    {
        int rc = vcpu_start(i, hello);

        if ( rc )
            printk("Could not start vCPU %u: %d\n", i, rc);
        else
            while ( atomic_read(&checked_in) <= (int)i )
                cpu_relax();
    }

    printk("A Mandelbrot set, in integer arithmetic:\n");
    mandelbrot();

    printk("Goodbye.\n");
    xtf_success(NULL);
}
