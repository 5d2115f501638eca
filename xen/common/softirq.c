/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Softirqs.  Interrupt handlers raise them; do_softirq() runs them, lowest
 * number first, until none is pending.  It runs with interrupts enabled
 * (the handlers take locks the interrupt-enabled way), before every VM
 * entry and from the idle loop; the VM-entry path and the idle halt then
 * disable interrupts and look again before they commit (Xen's
 * vmx_asm_do_vmentry and idle loop).
 *
 * The pending mask is per CPU (Xen's irq_stat[cpu].__softirq_pending):
 * raise_softirq() marks work for the CPU it runs on, which runs it at its
 * next safe point; cpu_raise_softirq() for another CPU, which an
 * event-check IPI wakes.  The handlers are shared by every CPU.
 */
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/softirq.h>
#include <asm/system.h>

static softirq_handler softirq_handlers[NR_SOFTIRQS];
static DEFINE_PER_CPU(unsigned long, softirq_mask);

void open_softirq(unsigned int nr, softirq_handler handler)
{
    BUG_ON(nr >= NR_SOFTIRQS);
    softirq_handlers[nr] = handler;
}

void raise_softirq(unsigned int nr)
{
    asm volatile ( "lock btsq %1, %0" : "+m" (this_cpu(softirq_mask))
                   : "Ir" ((unsigned long)nr) : "memory" );
}

/*
 * Mark work for another CPU (Xen's cpu_raise_softirq): it notices at once
 * if it is running hypervisor code, and an event-check IPI wakes it if it
 * halts.  No IPI when the bit was already set (one is on its way or the
 * CPU has yet to run the softirq) or when cpu is this CPU.
 */
void cpu_raise_softirq(unsigned int cpu, unsigned int nr)
{
    bool was_set;

    asm volatile ( "lock btsq %2, %1" : "=@ccc" (was_set), "+m" (per_cpu(softirq_mask, cpu))
                   : "Ir" ((unsigned long)nr) : "memory" );
    if ( was_set || cpu == smp_processor_id() )
        return;
    smp_send_event_check_cpu(cpu);
}

bool softirq_pending(unsigned int cpu)
{
    return ACCESS_ONCE(per_cpu(softirq_mask, cpu)) != 0;
}

void do_softirq(void)
{
    unsigned long *pending = &this_cpu(softirq_mask);
    unsigned long mask;

    ASSERT(local_irq_is_enabled());
    while ( (mask = ACCESS_ONCE(*pending)) != 0 )
    {
        unsigned int nr = __builtin_ctzl(mask);

        asm volatile ( "lock btrq %1, %0" : "+m" (*pending)
                       : "Ir" ((unsigned long)nr) : "memory" );
        if ( softirq_handlers[nr] )
            softirq_handlers[nr]();
    }
}
