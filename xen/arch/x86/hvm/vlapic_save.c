/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A vCPU's local APIC in the HVM context: Xen's LAPIC record (code 5:
 * IA32_APIC_BASE, the disabled flags, the timer's divisor, the TSC
 * deadline) and LAPIC_REGS (code 6: the first 1 KiB of the register
 * page, TMCCT as it reads now).
 *
 * Loading replays the guest-visible registers through the same path as a
 * guest's own writes (vlapic_load_reg), so every value is masked and
 * acted on exactly as a write would be: the ID and version stay this
 * vCPU's, LVTs are masked while the APIC is software-disabled, the timer
 * starts again.  As Xen's lapic_rearm, a TMICT count starts again from
 * its full period (the remaining count is not carried); a TSC deadline
 * is armed for the same TSC value (the guest's TSC is the host's).  The
 * IRR, ISR and TMR are taken as they were (vectors 0-15 dropped: they
 * cannot be raised).  ICR is stored, never sent; EOI and ESR are not
 * replayed.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <public/hvm/save.h>
#include <asm/apic.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/vlapic.h>
#include <asm/msr.h>

#define APIC_BASE_BITS (MSR_IA32_APICBASE_BASE_MASK | MSR_IA32_APICBASE_ENABLE | \
                        MSR_IA32_APICBASE_EXTD | MSR_IA32_APICBASE_BSP)
#define APIC_BASE_MODES (MSR_IA32_APICBASE_ENABLE | MSR_IA32_APICBASE_EXTD)

static uint32_t reg_of(const struct hvm_hw_lapic_regs *r, unsigned int reg)
{
    uint32_t val;

    memcpy(&val, r->data + reg, sizeof(val));
    return val;
}

void vlapic_save(struct vcpu *v, struct hvm_hw_lapic *h, struct hvm_hw_lapic_regs *r)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    uint32_t tmcct = vlapic_timer_tmcct(vlapic);

    memset(h, 0, sizeof(*h));
    h->apic_base_msr = vlapic->apic_base_msr;
    if ( !vlapic_hw_enabled(vlapic) )
        h->disabled |= VLAPIC_HW_DISABLED;
    if ( !(vlapic->spiv & APIC_SPIV_ENABLE) )
        h->disabled |= VLAPIC_SW_DISABLED;
    h->timer_divisor = vlapic_timer_divisor(vlapic_get_reg(vlapic, APIC_TDCR));
    h->tdt_msr = vlapic->tdt_msr;
    memcpy(r->data, vlapic->regs, sizeof(r->data));
    memcpy(r->data + APIC_TMCCT, &tmcct, sizeof(tmcct));
}

/* Before anything changes: what this APIC could never have been. */
int vlapic_check_hidden(const struct vcpu *v, const struct hvm_hw_lapic *h)
{
    uint64_t base = h->apic_base_msr, modes = base & APIC_BASE_MODES;
    uint32_t div = h->timer_divisor;

    if ( base & ~APIC_BASE_BITS )
        return -EINVAL;                 /* reserved bits */
    if ( modes == MSR_IA32_APICBASE_EXTD )
        return -EINVAL;                 /* x2APIC while disabled */
    if ( modes == MSR_IA32_APICBASE_ENABLE &&
         (base & MSR_IA32_APICBASE_BASE_MASK) != APIC_DEFAULT_BASE )
        return -EINVAL;                 /* a moved xAPIC: not supported */
    if ( !!(base & MSR_IA32_APICBASE_BSP) != (v->vcpu_id == 0) )
        return -EINVAL;                 /* vCPU 0 is the BSP */
    if ( h->disabled & ~(VLAPIC_HW_DISABLED | VLAPIC_SW_DISABLED) ||
         !(h->disabled & VLAPIC_HW_DISABLED) != !!(base & MSR_IA32_APICBASE_ENABLE) )
        return -EINVAL;
    if ( !div || div > 128 || (div & (div - 1)) )
        return -EINVAL;
    return 0;
}

void vlapic_load_hidden(struct vcpu *v, const struct hvm_hw_lapic *h)
{
    uint64_t bsp = v->vcpu_id == 0 ? MSR_IA32_APICBASE_BSP : 0;

    /*
     * Through the transitions a guest could make from any state: off
     * (the INIT state), on in xAPIC mode, then the saved value.
     */
    vlapic_load_apic_base(v, bsp);
    vlapic_load_apic_base(v, APIC_DEFAULT_BASE | MSR_IA32_APICBASE_ENABLE | bsp);
    vlapic_load_apic_base(v, h->apic_base_msr);
    vcpu_vlapic(v)->tdt_msr = h->tdt_msr;   /* armed by vlapic_load_regs */
}

void vlapic_load_regs(struct vcpu *v, const struct hvm_hw_lapic_regs *r)
{
    static const unsigned int lvts[] = {
        APIC_LVTT, APIC_LVTTHMR, APIC_LVTPC, APIC_LVT_LINT0, APIC_LVT_LINT1, APIC_LVT_ERROR,
    };
    struct vlapic *vlapic = vcpu_vlapic(v);
    uint64_t tdt = vlapic->tdt_msr;
    unsigned int i;

    if ( !vlapic_hw_enabled(vlapic) )
        return;                         /* the INIT state: nothing to take */
    vlapic_load_reg(v, APIC_TPR, reg_of(r, APIC_TPR));
    if ( !vlapic_x2apic_mode(vlapic) )
    {
        vlapic_load_reg(v, APIC_LDR, reg_of(r, APIC_LDR));
        vlapic_load_reg(v, APIC_DFR, reg_of(r, APIC_DFR));
    }
    vlapic_load_reg(v, APIC_SPIV, reg_of(r, APIC_SPIV));
    vlapic_load_reg(v, APIC_TDCR, reg_of(r, APIC_TDCR));
    for ( i = 0; i < ARRAY_SIZE(lvts); i++ )
        vlapic_load_reg(v, lvts[i], reg_of(r, lvts[i]));
    vlapic_load_reg(v, APIC_ICR2, reg_of(r, APIC_ICR2));
    vlapic_set_reg(vlapic, APIC_ICR, reg_of(r, APIC_ICR) & ~APIC_ICR_BUSY);
    for ( i = 0; i < 8; i++ )
    {
        uint32_t mask = i ? ~0u : ~0xffffu;

        vlapic_set_reg(vlapic, APIC_ISR + 0x10 * i, reg_of(r, APIC_ISR + 0x10 * i) & mask);
        vlapic_set_reg(vlapic, APIC_TMR + 0x10 * i, reg_of(r, APIC_TMR + 0x10 * i) & mask);
        vlapic_set_reg(vlapic, APIC_IRR + 0x10 * i, reg_of(r, APIC_IRR + 0x10 * i) & mask);
    }
    vlapic_get_ppr(vlapic);
    if ( (vlapic->lvtt & APIC_TIMER_MODE_MASK) == APIC_TIMER_TSC_DEADLINE )
        vlapic_timer_set_deadline(vlapic, tdt);
    else
        vlapic_load_reg(v, APIC_TMICT, reg_of(r, APIC_TMICT));
    if ( vlapic_has_pending_irq(v) >= 0 )
        vcpu_kick(v);
}
