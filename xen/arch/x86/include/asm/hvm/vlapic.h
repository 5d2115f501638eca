/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The emulated local APIC of HVM/PVH vCPUs (Xen's hvm/vlapic.c, trimmed).
 *
 * The registers live in one page per vCPU laid out as the xAPIC page;
 * with VMX's "use TPR shadow" that page is also the virtual-APIC page, so
 * the guest reads most registers (and writes TPR) without an exit.
 */
#ifndef __ASM_X86_HVM_VLAPIC_H__
#define __ASM_X86_HVM_VLAPIC_H__

#include <xen/timer.h>
#include <xen/types.h>

struct vcpu;
struct domain;

struct vlapic {
    void            *regs;          /* one page: the register file */
    uint64_t         apic_base_msr; /* IA32_APIC_BASE as the guest sees it */
    uint32_t         pending_esr;   /* errors since the last ESR write */
    bool             in_error;      /* delivering the error LVT */
    uint32_t         lvtt, spiv;    /* the last validated LVTT and SVR */
    /* The timer: TMICT/LVTT modes, or the TSC deadline (MSR 0x6e0). */
    struct timer     timer;
    s_time_t         timer_start;   /* when the count was (re)loaded */
    s_time_t         timer_period;  /* ns for one full count, 0: stopped */
    uint64_t         tdt_msr;       /* IA32_TSC_DEADLINE, 0: disarmed */
    uint64_t         timer_irqs;    /* expiries delivered (for the log) */
};

/* Xen's vLAPIC version register: version 0x14, 6 LVT entries (max LVT 5). */
#define VLAPIC_VERSION          0x00050014u
/* The timer counts at 1 GHz before the divider (Xen's APIC_BUS_CYCLE_NS). */
#define APIC_BUS_CYCLE_NS       1

#define MSR_X2APIC_FIRST        0x800
#define MSR_X2APIC_LAST         0x8ff

int vlapic_init(struct vcpu *v);
void vlapic_destroy(struct vcpu *v);
/* The domain's APIC-access page (VMX "virtualize APIC accesses"). */
int vlapic_domain_init(struct domain *d);
void vlapic_domain_destroy(struct domain *d);
unsigned long vlapic_access_mfn(const struct domain *d);

bool vlapic_enabled(const struct vlapic *vlapic);     /* hw and sw enabled */
bool vlapic_x2apic_mode(const struct vlapic *vlapic);

/* Latch vector in the IRR and kick the vCPU (vectors < 16: ESR). */
void vlapic_set_irq(struct vcpu *v, unsigned int vec);
/* The vector to inject (> PPR), or -1; vlapic_ack_pending_irq moves it IRR->ISR. */
int vlapic_has_pending_irq(struct vcpu *v);
void vlapic_ack_pending_irq(struct vcpu *v, unsigned int vec);
/* The highest IRR vector held back by TPR alone, for the TPR threshold (-1: none). */
int vlapic_tpr_blocked_irq(struct vcpu *v);

/* xAPIC MMIO: offset in the page, a 32-bit value. */
void vlapic_mmio_write(struct vcpu *v, unsigned int offset, uint32_t val);
uint32_t vlapic_mmio_read(struct vcpu *v, unsigned int offset);
/* A trap-like APIC-write exit: the new value is already in the page. */
void vlapic_apic_write(struct vcpu *v, unsigned int offset);

/* MSRs: APIC_BASE, TSC_DEADLINE and the x2APIC range; false: #GP. */
bool vlapic_rdmsr(struct vcpu *v, uint32_t msr, uint64_t *val);
bool vlapic_wrmsr(struct vcpu *v, uint32_t msr, uint64_t val);

/* CR8 (TPR bits 7:4) when the CPU has no TPR shadow. */
/* One line of the vLAPIC's state for the dump_domains log. */
void vlapic_dump(struct vcpu *v);
uint8_t vlapic_get_cr8(struct vcpu *v);
void vlapic_set_cr8(struct vcpu *v, uint8_t cr8);

#endif /* __ASM_X86_HVM_VLAPIC_H__ */
