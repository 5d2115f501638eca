/* SPDX-License-Identifier: GPL-2.0-only */
/* The local APIC (xAPIC, memory-mapped) as the hypervisor uses it: its timer and IPIs. */
#ifndef __ASM_X86_APIC_H__
#define __ASM_X86_APIC_H__

#include <xen/types.h>

#define APIC_DEFAULT_BASE   0xfee00000UL

/* Register offsets in the xAPIC page; x2APIC MSR = 0x800 + (offset >> 4). */
#define APIC_ID             0x020
#define APIC_VERSION        0x030
#define APIC_TPR            0x080
#define  APIC_TPR_PRI_MASK  0xff
#define APIC_APR            0x090
#define APIC_PPR            0x0a0
#define APIC_EOI            0x0b0
#define APIC_RRR            0x0c0
#define APIC_LDR            0x0d0
#define APIC_DFR            0x0e0
#define  APIC_DFR_FLAT      0xffffffffu
#define  APIC_DFR_CLUSTER   0x0fffffffu
#define APIC_SPIV           0x0f0
#define  APIC_SPIV_VECTOR   0xff
#define  APIC_SPIV_ENABLE   0x100
#define  APIC_SPIV_FOCUS_DISABLED 0x200
#define  APIC_SPIV_DIRECTED_EOI 0x1000
#define APIC_ISR            0x100
#define APIC_TMR            0x180
#define APIC_IRR            0x200
#define APIC_ESR            0x280
#define  APIC_ESR_SENDILL   (1u << 5)
#define  APIC_ESR_RECVILL   (1u << 6)
#define  APIC_ESR_ILLREGA   (1u << 7)
#define APIC_CMCI           0x2f0
#define APIC_ICR            0x300
#define  APIC_ICR_VECTOR    0xffu
#define  APIC_ICR_DM_MASK   (7u << 8)
#define  APIC_DM_FIXED      (0u << 8)
#define  APIC_DM_LOWEST     (1u << 8)
#define  APIC_DM_SMI        (2u << 8)
#define  APIC_DM_NMI        (4u << 8)
#define  APIC_DM_INIT       (5u << 8)
#define  APIC_DM_STARTUP    (6u << 8)
#define  APIC_DM_EXTINT     (7u << 8)
#define  APIC_DEST_LOGICAL  (1u << 11)
#define  APIC_ICR_BUSY      (1u << 12)
#define  APIC_INT_ASSERT    (1u << 14)
#define  APIC_INT_LEVELTRIG (1u << 15)
#define  APIC_SHORT_MASK    (3u << 18)
#define  APIC_DEST_NOSHORT  (0u << 18)
#define  APIC_DEST_SELF     (1u << 18)
#define  APIC_DEST_ALLINC   (2u << 18)
#define  APIC_DEST_ALLBUT   (3u << 18)
#define APIC_ICR2           0x310
#define APIC_LVTT           0x320
#define  APIC_LVT_VECTOR    0xffu
#define  APIC_LVT_DM_MASK   (7u << 8)
#define  APIC_LVT_PENDING   (1u << 12)
#define  APIC_LVT_POLARITY  (1u << 13)
#define  APIC_LVT_REMOTE_IRR (1u << 14)
#define  APIC_LVT_LEVEL     (1u << 15)
#define  APIC_LVT_MASKED    (1u << 16)
#define  APIC_TIMER_MODE_MASK (3u << 17)
#define  APIC_TIMER_ONESHOT (0u << 17)
#define  APIC_TIMER_PERIODIC (1u << 17)
#define  APIC_TIMER_TSC_DEADLINE (2u << 17)
#define APIC_LVTTHMR        0x330
#define APIC_LVTPC          0x340
#define APIC_LVT_LINT0      0x350
#define APIC_LVT_LINT1      0x360
#define APIC_LVT_ERROR      0x370
#define APIC_TMICT          0x380
#define APIC_TMCCT          0x390
#define APIC_TDCR           0x3e0
#define  APIC_TDR_DIV_1     0xb
#define  APIC_TDR_DIV_MASK  0xb
#define APIC_SELF_IPI       0x3f0       /* x2APIC only */

#define MSR_APICBASE_ENABLE (1u << 11)

/* The boot CPU: handlers, mode, and its own local APIC. */
void apic_init(void);
/* A secondary CPU's local APIC, as the boot CPU's. */
void setup_local_APIC(void);
/* Send an IPI: ICR low word (vector, delivery mode...) to an APIC ID. */
void apic_icr_write(uint32_t low, uint32_t dest_apicid);
bool apic_icr_delivered(void);
uint32_t apic_read_esr(void);
void ack_APIC_irq(void);
/* This CPU's local APIC ID (xAPIC: bits 31-24 of the ID register). */
unsigned int get_apic_id(void);

/* Arm the one-shot timer to fire at TSC value 'deadline' (0 = disarm). */
void reprogram_timer(uint64_t deadline);

#endif /* __ASM_X86_APIC_H__ */
