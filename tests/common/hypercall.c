/* SPDX-License-Identifier: GPL-2.0-only */
/* Finding Xen, the hypercall page, and the hypercall primitives. */

#include "test.h"
#include "public/arch-x86/cpuid.h"

uint32_t xen_cpuid_base;
bool hypercall_page_ready;

/*
 * Xen's leaves start at 0x40000000, or at a multiple of 0x100 above it when
 * another interface (e.g. Viridian) sits first; look like Linux does.
 */
bool xen_detect(void)
{
    uint32_t base;

    for ( base = XEN_CPUID_FIRST_LEAF; base < XEN_CPUID_FIRST_LEAF + 0x10000;
          base += 0x100 )
    {
        struct cpuid_leaf l;

        cpuid(base, &l);
        if ( l.b == XEN_CPUID_SIGNATURE_EBX &&
             l.c == XEN_CPUID_SIGNATURE_ECX &&
             l.d == XEN_CPUID_SIGNATURE_EDX &&
             l.a - base >= 2 && l.a - base < 0x100 )
        {
            xen_cpuid_base = base;
            return true;
        }
    }

    return false;
}

int hypercall_page_init(void)
{
    struct cpuid_leaf l;

    if ( !xen_cpuid_base )
        return -XEN_ENODEV;

    /* Leaf 2: EAX = number of hypercall pages, EBX = the MSR to write. */
    cpuid(xen_cpuid_base + 2, &l);
    if ( l.a < 1 )
        return -XEN_ENODEV;

    wrmsr(l.b, (unsigned long)hypercall_page);
    hypercall_page_ready = true;

    return 0;
}

long hypercall6(unsigned int nr, unsigned long a1, unsigned long a2,
                unsigned long a3, unsigned long a4, unsigned long a5)
{
    register unsigned long r10 asm ( "r10" ) = a4;
    register unsigned long r8 asm ( "r8" ) = a5;
    void *stub = hypercall_page + nr * HYPERCALL_STUB_SIZE;
    long ret;

    if ( !hypercall_page_ready || nr >= PAGE_SIZE / HYPERCALL_STUB_SIZE )
        return -XEN_ENOSYS;

    /* Xen may clobber the argument registers (debug builds do). */
    asm volatile ( "call *%[stub]"
                   : "=a" (ret), "+D" (a1), "+S" (a2), "+d" (a3),
                     "+r" (r10), "+r" (r8)
                   : [stub] "rm" (stub)
                   : "memory" );

    return ret;
}

long hypercall_vmcall(unsigned long nr, unsigned long a1, unsigned long a2,
                      unsigned long a3, unsigned long a4, unsigned long a5)
{
    register unsigned long r10 asm ( "r10" ) = a4;
    register unsigned long r8 asm ( "r8" ) = a5;
    long ret = nr;

    if ( !under_xen )
        return -XEN_ENOSYS;

    asm volatile ( "vmcall"
                   : "+a" (ret), "+D" (a1), "+S" (a2), "+d" (a3),
                     "+r" (r10), "+r" (r8)
                   :: "memory" );

    return ret;
}
