/* SPDX-License-Identifier: GPL-2.0-only */
/* The local APIC (xAPIC, memory-mapped) as the hypervisor uses it: one timer. */
#ifndef __ASM_X86_APIC_H__
#define __ASM_X86_APIC_H__

#include <xen/types.h>

#define APIC_DEFAULT_BASE   0xfee00000UL

#define APIC_ID             0x020
#define APIC_VERSION        0x030
#define APIC_TPR            0x080
#define APIC_EOI            0x0b0
#define APIC_SPIV           0x0f0
#define  APIC_SPIV_ENABLE   0x100
#define APIC_LVTT           0x320
#define  APIC_LVT_MASKED    (1u << 16)
#define  APIC_TIMER_ONESHOT (0u << 17)
#define  APIC_TIMER_TSC_DEADLINE (2u << 17)
#define APIC_LVT_LINT0      0x350
#define APIC_LVT_LINT1      0x360
#define APIC_LVT_ERROR      0x370
#define APIC_TMICT          0x380
#define APIC_TMCCT          0x390
#define APIC_TDCR           0x3e0
#define  APIC_TDR_DIV_1     0xb

#define MSR_APICBASE_ENABLE (1u << 11)

void apic_init(void);
void ack_APIC_irq(void);

/* Arm the one-shot timer to fire at TSC value 'deadline' (0 = disarm). */
void reprogram_timer(uint64_t deadline);

#endif /* __ASM_X86_APIC_H__ */
