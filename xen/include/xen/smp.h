/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which CPU this is (smp_processor_id(), from asm/current.h) and what one
 * CPU asks of others (Xen's xen/smp.h; arch/x86/smp.c implements them).
 */
#ifndef __XEN_SMP_H__
#define __XEN_SMP_H__

#include <asm/current.h>

#ifndef __ASSEMBLY__
#include <xen/cpumask.h>

/*
 * Run func(info) on every online CPU in 'selected' (this one included if it
 * is in the mask, with interrupts disabled), from the call-function IPI.
 * With wait, return once func has returned everywhere; without, once every
 * CPU has taken the call (func may still be running).  The caller must not
 * be in an interrupt handler nor hold a spinlock: it waits with interrupts
 * enabled, so that a CPU calling it at the same time still answers.
 */
void on_selected_cpus(const cpumask_t *selected, void (*func)(void *info),
                      void *info, int wait);
/* Every online CPU but this one. */
void smp_call_function(void (*func)(void *info), void *info, int wait);

/* Interrupt a CPU so that it looks at its softirqs (EVENT_CHECK_VECTOR). */
void smp_send_event_check_cpu(unsigned int cpu);
void smp_send_event_check_mask(const cpumask_t *mask);

/*
 * panic(): stop every other CPU (Xen's smp_send_stop), by NMI, so that a
 * CPU spinning with interrupts off stops too; each halts for good with
 * interrupts off.  Returns false if another CPU is stopping them already
 * (a second panic): the caller should stop itself.  *stopped and *others
 * say how many of the other online CPUs stopped within 10 ms.
 */
bool smp_send_stop(unsigned int *stopped, unsigned int *others);
/* An NMI came: true if it is smp_send_stop()'s (the caller then stops). */
bool smp_stopping(void);
noreturn void stop_this_cpu(void);
#endif

#endif /* __XEN_SMP_H__ */
