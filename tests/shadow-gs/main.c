/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SWAPGS and the vCPU context switch: the shadow GS base (MSR
 * 0xc0000102) changes with SWAPGS, without an exit, so the hypervisor
 * must read it back when it switches a vCPU out.  vCPU 0 sets it with
 * WRMSR, swaps, then yields to vCPU 1 (which writes its own) many
 * times; its shadow and GS bases must be what SWAPGS left, as Linux's
 * kernel GS base is while a process runs in user mode.
 */
#include "test.h"
#include "check.h"
#include "fault.h"
#include "smp.h"

const char test_title[] = "Shadow GS base across vCPU switches (SWAPGS)";

#define MSR_GS_BASE         0xc0000101
#define MSR_SHADOW_GS_BASE  0xc0000102
#define KERNEL_GS           0xffff88800f400000UL
#define USER_GS             0x00007f0000001000UL
#define ROUNDS              20

static volatile unsigned long ap_rounds;

static void ap_main(unsigned int id __attribute__((unused)))
{
    for ( ;; )
    {
        wrmsr_ex(MSR_SHADOW_GS_BASE, 0x1234000 + ap_rounds);
        ap_rounds++;
        hypercall_yield();
    }
}

static inline void swapgs(void)
{
    asm volatile ( "swapgs" ::: "memory" );
}

void test_main(void)
{
    uint64_t gs = 0, shadow = 0;
    unsigned int r, bad = 0;

    cli();
    if ( vcpu_count() < 2 )
        return xtf_failure("Fail: this test needs 2 vCPUs\n");
    check_rc("start vCPU 1", vcpu_start(1, ap_main), 0);
    for ( r = 0; r < ROUNDS; r++ )
    {
        unsigned long a = ap_rounds, spins;

        /* As Linux returning to user mode: kernel GS base into the shadow. */
        wrmsr_ex(MSR_GS_BASE, KERNEL_GS);
        wrmsr_ex(MSR_SHADOW_GS_BASE, USER_GS);
        swapgs();                       /* GS = USER_GS, shadow = KERNEL_GS */
        for ( spins = 0; ap_rounds == a && spins < 100000; spins++ )
            hypercall_yield();
        rdmsr_ex(MSR_SHADOW_GS_BASE, &shadow);
        swapgs();                       /* the next kernel entry */
        rdmsr_ex(MSR_GS_BASE, &gs);
        if ( ap_rounds == a || shadow != KERNEL_GS || gs != KERNEL_GS )
        {
            if ( !bad++ )
                printk("  round %u: vCPU 1 ran %lu times, shadow %#lx, GS after SWAPGS %#lx\n",
                       r, ap_rounds - a, (unsigned long)shadow, (unsigned long)gs);
        }
    }
    check_true("vCPU 1 ran between the SWAPGSes", ap_rounds >= ROUNDS);
    check_true("the shadow GS base SWAPGS left survived every switch", bad == 0);
    wrmsr_ex(MSR_GS_BASE, 0);
    wrmsr_ex(MSR_SHADOW_GS_BASE, 0);
}
