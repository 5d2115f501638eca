/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Softirqs.  Interrupt handlers raise them; do_softirq() runs them, lowest
 * number first, until none is pending.  It is called with interrupts
 * disabled before every VM entry and from the idle loop.
 */
#include <xen/lib.h>
#include <xen/softirq.h>

static softirq_handler softirq_handlers[NR_SOFTIRQS];
static volatile unsigned long softirq_mask;

void open_softirq(unsigned int nr, softirq_handler handler)
{
    BUG_ON(nr >= NR_SOFTIRQS);
    softirq_handlers[nr] = handler;
}

void raise_softirq(unsigned int nr)
{
    asm volatile ( "lock btsq %1, %0" : "+m" (softirq_mask) : "Ir" ((unsigned long)nr)
                   : "memory" );
}

bool softirq_pending(void)
{
    return softirq_mask != 0;
}

void do_softirq(void)
{
    unsigned long mask;

    while ( (mask = softirq_mask) != 0 )
    {
        unsigned int nr = __builtin_ctzl(mask);

        asm volatile ( "lock btrq %1, %0" : "+m" (softirq_mask)
                       : "Ir" ((unsigned long)nr) : "memory" );
        if ( softirq_handlers[nr] )
            softirq_handlers[nr]();
    }
}
