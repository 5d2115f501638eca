/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interprocessor interrupts of the emulated local APIC (Xen's vlapic_ipi,
 * vlapic_accept_irq, vlapic_lowest_prio, vlapic_init_sipi_one): a write of
 * the ICR's low half (xAPIC) or of the 64-bit ICR (x2APIC) sends one.
 *
 * Destinations (SDM 10.6.2): a shorthand (self, all including self, all
 * excluding self) wins over the destination field; physically an APIC ID
 * or the broadcast (0xff, x2APIC 0xffffffff); logically the LDR, in the
 * flat or cluster model (DFR) in xAPIC mode, cluster:bits in x2APIC mode
 * (0xffffffff a broadcast there too).  A hardware-disabled APIC receives
 * nothing.
 *
 * Delivery modes, as Xen:
 *   fixed        to every target whose APIC is enabled (hw and sw); a
 *                vector below 16 is not sent and sets ESR "send illegal";
 *   lowest       to the one enabled target with the lowest PPR, ties taken
 *                in turn (a round robin over the domain's vCPUs);
 *   NMI          latched in each target (one NMI pending at most, as the
 *                CPU holds one) and injected through VMX with virtual-NMI
 *                blocking (vmx/intr.c); it wakes a target that went down
 *                with CLI; HLT, as Xen;
 *   INIT         resets each target to wait-for-SIPI: the vCPU goes down
 *                (a domain whose last vCPU does so is powered off, as Xen)
 *                and its APIC takes its INIT state; a level de-assert (the
 *                second INIT old bring-up code sends) does nothing;
 *   start-up     starts each target that waits for SIPI in real mode at
 *                CS:IP = vector<<8:0 (the page vector<<12), Xen's
 *                hvm_vcpu_reset_state(); a target already started ignores it;
 *   SMI          ignored, as Xen (no SMM here), logged once;
 *   reserved     (3 and 7, "ExtINT" in an LVT) ignored, logged once: the
 *                ICR has no such modes.  (Xen crashes the domain for 7.)
 * The ICR's delivery status bit always reads 0: delivery is done when the
 * write returns.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <asm/apic.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/vlapic.h>

static bool match_logical(const struct vcpu *t, uint32_t mda)
{
    const struct vlapic *vlapic = vcpu_vlapic(t);
    uint32_t ldr = vlapic_get_reg(vlapic, APIC_LDR);

    if ( vlapic_x2apic_mode(vlapic) )
        return mda == 0xffffffffu ||
               ((mda >> 16) == (ldr >> 16) && (mda & ldr & 0xffff));
    mda &= 0xff;
    ldr >>= 24;
    if ( (vlapic_get_reg(vlapic, APIC_DFR) >> 28) == 0xf )      /* flat */
        return mda & ldr;
    /* Cluster: the cluster in the high nibble (0xf: every cluster), a bit of four. */
    return ((mda >> 4) == 0xf || (mda >> 4) == (ldr >> 4)) && (mda & ldr & 0xf);
}

static bool match_dest(const struct vcpu *t, const struct vcpu *src,
                       uint32_t shorthand, uint32_t dest, bool logical)
{
    const struct vlapic *vlapic = vcpu_vlapic(t);

    if ( !vlapic_hw_enabled(vlapic) )
        return false;
    switch ( shorthand )
    {
    case APIC_DEST_SELF:    return t == src;
    case APIC_DEST_ALLINC:  return true;
    case APIC_DEST_ALLBUT:  return t != src;
    }
    if ( logical )
        return match_logical(t, dest);
    if ( vlapic_x2apic_mode(vlapic) )
        return dest == 0xffffffffu || dest == t->vcpu_id;
    return (dest & 0xff) == 0xff || (dest & 0xff) == t->vcpu_id;
}

/* Lowest priority: the lowest PPR among the enabled targets, in turn from the last one. */
static struct vcpu *lowest_prio(struct vcpu *src, uint32_t shorthand, uint32_t dest,
                                bool logical)
{
    struct domain *d = src->domain;
    unsigned int start = d->arch.hvm.lowest_prio_next, i;
    struct vcpu *t, *best = NULL;
    uint32_t ppr, best_ppr = ~0u;

    for ( i = 0; i < d->max_vcpus; i++ )
    {
        t = d->vcpu[(start + i) % d->max_vcpus];
        if ( !t || !match_dest(t, src, shorthand, dest, logical) ||
             !vlapic_enabled(vcpu_vlapic(t)) )
            continue;
        ppr = vlapic_get_ppr(vcpu_vlapic(t)) & 0xf0;
        if ( ppr < best_ppr )
        {
            best = t;
            best_ppr = ppr;
        }
    }
    if ( best )
        d->arch.hvm.lowest_prio_next = (best->vcpu_id + 1) % d->max_vcpus;
    return best;
}

static void deliver_nmi(struct vcpu *t)
{
    if ( t->arch.nmi_pending )
        return;                         /* one pending at most */
    t->arch.nmi_pending = true;
    /* As Xen: an NMI wakes a vCPU that went down with CLI; HLT. */
    if ( t->is_initialised && !t->is_up )
    {
        t->is_up = true;
        vcpu_runstate_update(t);
    }
    if ( t->is_blocked )
        vcpu_wake(t);
}

/* INIT: back to wait-for-SIPI (Xen's vlapic_init_sipi_one, APIC_DM_INIT). */
static void deliver_init(struct vcpu *t)
{
    if ( !t->is_initialised )
        return;                         /* waits for SIPI already */
    t->arch.nmi_pending = false;
    t->arch.hvm.hcall_preempted = false;    /* no continuation survives INIT */
    t->is_blocked = false;
    t->is_polling = false;
    t->is_initialised = false;
    vlapic_do_init(t);
    vcpu_down(t);                       /* the last one down: powered off */
}

/* Start-up: real mode at vector << 12 for a vCPU that waits for SIPI. */
static void deliver_sipi(struct vcpu *t, unsigned int vec)
{
    if ( t->is_initialised || t->domain->state != DOMSTATE_running )
        return;
    hvm_funcs->vcpu_reset_state(t, vec << 8, 0);
    t->is_initialised = true;
    t->is_up = true;
    vcpu_runstate_update(t);
}

static void log_once(struct vcpu *v, bool *logged, const char *what)
{
    if ( *logged )
        return;
    *logged = true;
    printk(XENLOG_G_WARNING "d%uv%u vLAPIC: %s IPI ignored (logged once)\n",
           v->domain->domain_id, v->vcpu_id, what);
}

void vlapic_ipi(struct vcpu *v, uint32_t icr_low, uint32_t dest)
{
    static bool smi_logged, reserved_logged;
    unsigned int vec = icr_low & APIC_ICR_VECTOR;
    uint32_t dm = icr_low & APIC_ICR_DM_MASK;
    uint32_t shorthand = icr_low & APIC_SHORT_MASK;
    bool logical = icr_low & APIC_DEST_LOGICAL;
    struct vcpu *t;

    switch ( dm )
    {
    case APIC_DM_FIXED:
    case APIC_DM_LOWEST:
        if ( vec < 16 )
        {
            vlapic_set_error(v, APIC_ESR_SENDILL);
            return;
        }
        if ( dm == APIC_DM_LOWEST )
        {
            if ( (t = lowest_prio(v, shorthand, dest, logical)) )
                vlapic_set_irq(t, vec);
            return;
        }
        break;
    case APIC_DM_SMI:
        log_once(v, &smi_logged, "SMI");
        return;
    case APIC_DM_INIT:
        /* INIT level de-assert: nothing to do on this APIC (Xen: "P4-type"). */
        if ( (icr_low & (APIC_INT_LEVELTRIG | APIC_INT_ASSERT)) == APIC_INT_LEVELTRIG )
            return;
        break;
    case APIC_DM_NMI:
    case APIC_DM_STARTUP:
        break;
    default:
        log_once(v, &reserved_logged, "reserved delivery mode (3 or 7)");
        return;
    }

    for_each_vcpu ( v->domain, t )
    {
        if ( !match_dest(t, v, shorthand, dest, logical) )
            continue;
        switch ( dm )
        {
        case APIC_DM_FIXED:
            if ( vlapic_enabled(vcpu_vlapic(t)) )
                vlapic_set_irq(t, vec);
            break;
        case APIC_DM_NMI:
            deliver_nmi(t);
            break;
        case APIC_DM_INIT:
            deliver_init(t);
            break;
        case APIC_DM_STARTUP:
            deliver_sipi(t, vec);
            break;
        }
    }
}
