/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Crash: triple-fault on purpose.  With an empty IDT, #UD cannot be
 * delivered, nor the #GP that follows, nor the #DF: the vCPU triple-faults
 * and the hypervisor must crash this domain, and only this one.  No
 * "Test result:" line is expected from it.
 */

#include "test.h"

const char test_title[] = "Crash: deliberate triple fault";

void test_main(void)
{
    static const struct desc_ptr empty_idt = { .limit = 0, .base = 0 };

    printk("Loading an empty IDT and executing UD2\n");

    lidt(&empty_idt);
    asm volatile ( "ud2" );

    /* Not reached: the domain is gone. */
    xtf_failure("Fail: survived a triple fault\n");
}
