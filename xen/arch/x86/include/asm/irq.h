/* SPDX-License-Identifier: GPL-2.0-only */
/* Interrupt vectors the hypervisor uses, and handler registration. */
#ifndef __ASM_X86_IRQ_H__
#define __ASM_X86_IRQ_H__

#include <asm/regs.h>

/* ISA IRQ n on vector 0x20 + n, as Xen's LEGACY_VECTOR(). */
#define FIRST_LEGACY_VECTOR    0x20
#define LEGACY_VECTOR(irq)     (FIRST_LEGACY_VECTOR + (irq))

/* The local APIC's own interrupts and the IPIs: Xen's vectors. */
#define SPURIOUS_APIC_VECTOR   0xff
#define ERROR_APIC_VECTOR      0xfe
#define INVALIDATE_TLB_VECTOR  0xfd
#define EVENT_CHECK_VECTOR     0xfc
#define CALL_FUNCTION_VECTOR   0xfb
#define LOCAL_TIMER_VECTOR     0xfa

typedef void (*irq_handler_t)(struct cpu_user_regs *regs);

void set_irq_handler(unsigned int vector, irq_handler_t fn);
/* Print how many interrupts each vector took (the 'i' debug key). */
void dump_irq_counts(void);

/* Is this CPU running an interrupt handler? */
#include <xen/percpu.h>
DECLARE_PER_CPU(unsigned int, local_irq_count);
#define in_irq()    (this_cpu(local_irq_count) != 0)

#endif /* __ASM_X86_IRQ_H__ */
