/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The emulated local APIC of HVM/PVH vCPUs (Xen's hvm/vlapic.c, trimmed).
 *
 * The registers live in one page per vCPU laid out as the xAPIC page;
 * with VMX's "use TPR shadow" that page is also the virtual-APIC page, so
 * the guest reads most registers (and writes TPR) without an exit.
 *
 * The code is split by concern: hvm/vlapic.c (the register file, xAPIC
 * MMIO, x2APIC MSRs, reset), hvm/vlapic_timer.c (the timer), and
 * hvm/vlapic_ipi.c (the ICR: destinations, delivery modes, INIT/SIPI).
 * Docs: docs/misc/dom0-abi.md ("The local APIC").
 */
#ifndef __ASM_X86_HVM_VLAPIC_H__
#define __ASM_X86_HVM_VLAPIC_H__

#include <xen/timer.h>
#include <xen/types.h>

struct vcpu;
struct domain;

struct vlapic {
    struct vcpu     *vcpu;          /* whose APIC this is */
    void            *regs;          /* one page: the register file */
    uint64_t         apic_base_msr; /* IA32_APIC_BASE as the guest sees it */
    uint32_t         pending_esr;   /* errors since the last ESR write */
    bool             in_error;      /* delivering the error LVT */
    uint32_t         lvtt, spiv;    /* the last validated LVTT and SVR */
    /*
     * The timer: TMICT/LVTT modes, or the TSC deadline (MSR 0x6e0).  The
     * count runs from timer_start in steps of timer_div ns; one period
     * (timer_period ns, clamped to VLAPIC_MIN_PERIOD when periodic) ends
     * in an interrupt.  A periodic timer whose last tick the guest has not
     * taken yet (timer_pending) is not re-armed: see vlapic_timer.c.
     */
    struct timer     timer;
    s_time_t         timer_start;   /* when the count was (re)loaded */
    s_time_t         timer_period;  /* ns from one interrupt to the next, 0: stopped */
    uint32_t         timer_tmict;   /* the count loaded (for TMCCT) */
    uint32_t         timer_div;     /* its divisor (ns per count) */
    int              timer_pending; /* vector latched by the timer, -1: none */
    bool             timer_warned;  /* "period too short" logged */
    uint64_t         tdt_msr;       /* IA32_TSC_DEADLINE, 0: disarmed */
    uint64_t         timer_irqs;    /* expiries delivered (for the log) */
    uint64_t         timer_rearms;  /* periodic re-arms at a tick's injection */
    uint64_t         timer_fires_off;   /* expiries while the vCPU was not running */
};

/* Xen's vLAPIC version register: version 0x14, 6 LVT entries (max LVT 5). */
#define VLAPIC_VERSION          0x00050014u
/* The timer counts at 1 GHz before the divider (Xen's APIC_BUS_CYCLE_NS). */
#define APIC_BUS_CYCLE_NS       1
/* The least period of the periodic timer, as Xen's vpt (0.1 ms). */
#define VLAPIC_MIN_PERIOD       MICROSECS(100)

#define MSR_X2APIC_FIRST        0x800
#define MSR_X2APIC_LAST         0x8ff

#define vcpu_vlapic(v)          (&(v)->arch.hvm.vlapic)

static inline uint32_t vlapic_get_reg(const struct vlapic *vlapic, unsigned int reg)
{
    return *(volatile uint32_t *)((char *)vlapic->regs + reg);
}

static inline void vlapic_set_reg(struct vlapic *vlapic, unsigned int reg, uint32_t val)
{
    *(volatile uint32_t *)((char *)vlapic->regs + reg) = val;
}

int vlapic_init(struct vcpu *v);

/* The HVM context's LAPIC and LAPIC_REGS records (vlapic_save.c). */
#define VLAPIC_HW_DISABLED 0x1          /* IA32_APIC_BASE's enable bit clear */
#define VLAPIC_SW_DISABLED 0x2          /* the SVR's enable bit clear */
struct hvm_hw_lapic;
struct hvm_hw_lapic_regs;
void vlapic_save(struct vcpu *v, struct hvm_hw_lapic *h, struct hvm_hw_lapic_regs *r);
int vlapic_check_hidden(const struct vcpu *v, const struct hvm_hw_lapic *h);
void vlapic_load_hidden(struct vcpu *v, const struct hvm_hw_lapic *h);
void vlapic_load_regs(struct vcpu *v, const struct hvm_hw_lapic_regs *r);
void vlapic_load_reg(struct vcpu *v, unsigned int reg, uint32_t val);
bool vlapic_load_apic_base(struct vcpu *v, uint64_t val);
void vlapic_destroy(struct vcpu *v);
/* The domain's APIC-access page (VMX "virtualize APIC accesses"). */
int vlapic_domain_init(struct domain *d);
void vlapic_domain_destroy(struct domain *d);
unsigned long vlapic_access_mfn(const struct domain *d);

bool vlapic_enabled(const struct vlapic *vlapic);     /* hw and sw enabled */
bool vlapic_hw_enabled(const struct vlapic *vlapic);  /* IA32_APIC_BASE.EN */
bool vlapic_x2apic_mode(const struct vlapic *vlapic);
uint32_t vlapic_get_ppr(struct vlapic *vlapic);

/* Latch vector in the IRR and kick the vCPU (vectors < 16: ESR). */
void vlapic_set_irq(struct vcpu *v, unsigned int vec);
/* Set an ESR bit (APIC_ESR_*); the error LVT fires for a new one. */
void vlapic_set_error(struct vcpu *v, uint32_t err);
/* The vector to inject (> PPR), or -1; vlapic_ack_pending_irq moves it IRR->ISR. */
int vlapic_has_pending_irq(struct vcpu *v);
void vlapic_ack_pending_irq(struct vcpu *v, unsigned int vec);
/* The highest IRR vector held back by TPR alone, for the TPR threshold (-1: none). */
int vlapic_tpr_blocked_irq(struct vcpu *v);

/*
 * xAPIC MMIO: 'bytes' (1-8) at 'offset' in the page, as memory behaves:
 * each register is the first 4 bytes of its 16-byte slot; the other 12
 * bytes read as 0 and ignore writes, and a part of an access that falls
 * on a register reads or writes just those bytes of it.
 */
void vlapic_mmio_write(struct vcpu *v, unsigned int offset, unsigned int bytes,
                       uint64_t val);
uint64_t vlapic_mmio_read(struct vcpu *v, unsigned int offset, unsigned int bytes);
/* A trap-like APIC-write exit: the new value is already in the page. */
void vlapic_apic_write(struct vcpu *v, unsigned int offset);

/* MSRs: APIC_BASE, TSC_DEADLINE and the x2APIC range; false: #GP. */
bool vlapic_rdmsr(struct vcpu *v, uint32_t msr, uint64_t *val);
bool vlapic_wrmsr(struct vcpu *v, uint32_t msr, uint64_t val);

/* CR8 (TPR bits 7:4) when the CPU has no TPR shadow. */
uint8_t vlapic_get_cr8(struct vcpu *v);
void vlapic_set_cr8(struct vcpu *v, uint8_t cr8);
/* One line of the vLAPIC's state for the dump_domains log. */
void vlapic_dump(struct vcpu *v);

/* The INIT state of the registers (INIT IPI, software reset; not the base MSR). */
void vlapic_do_init(struct vcpu *v);

/* hvm/vlapic_timer.c */
void vlapic_timer_init(struct vcpu *v);
void vlapic_timer_destroy(struct vcpu *v);
void vlapic_timer_stop(struct vlapic *vlapic);
/* TMICT written (one-shot and periodic modes): load the count. */
void vlapic_timer_load(struct vlapic *vlapic, uint32_t tmict);
/* LVTT written: old is the LVTT before (the page already has the new one). */
void vlapic_timer_lvtt_changed(struct vlapic *vlapic, uint32_t old);
/* TDCR written: the count goes on at the new rate. */
void vlapic_timer_tdcr_changed(struct vlapic *vlapic, uint32_t old_div);
uint32_t vlapic_timer_tmcct(const struct vlapic *vlapic);
uint32_t vlapic_timer_divisor(uint32_t tdcr);
void vlapic_timer_set_deadline(struct vlapic *vlapic, uint64_t tsc);
/* The vCPU takes vector vec (IRR -> ISR): a periodic tick taken re-arms. */
void vlapic_timer_irq_taken(struct vlapic *vlapic, unsigned int vec);

/* hvm/vlapic_ipi.c: the ICR written (low half; dest already decoded). */
void vlapic_ipi(struct vcpu *v, uint32_t icr_low, uint32_t dest);

#endif /* __ASM_X86_HVM_VLAPIC_H__ */
