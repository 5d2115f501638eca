/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Softirqs: work raised from interrupt context (or anywhere) and run later
 * from a safe point, before every VM entry and in the idle loop.
 */
#ifndef __XEN_SOFTIRQ_H__
#define __XEN_SOFTIRQ_H__

#include <xen/smp.h>
#include <xen/types.h>

enum {
    TIMER_SOFTIRQ = 0,
    SERIAL_RX_SOFTIRQ,          /* ns16550.c: hand received bytes on (ours) */
    NR_SOFTIRQS
};

typedef void (*softirq_handler)(void);

void open_softirq(unsigned int nr, softirq_handler handler);
void raise_softirq(unsigned int nr);
/* The same for CPU cpu (an event-check IPI if it is another CPU). */
void cpu_raise_softirq(unsigned int cpu, unsigned int nr);
/* Is work pending on cpu? */
bool softirq_pending(unsigned int cpu);
/* Run every pending softirq (with interrupts enabled, outside handlers). */
void do_softirq(void);

#endif /* __XEN_SOFTIRQ_H__ */
