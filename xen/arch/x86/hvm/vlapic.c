/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The emulated local APIC (Xen's hvm/vlapic.c, trimmed): one per vCPU,
 * xAPIC (MMIO at 0xfee00000) and x2APIC (MSRs 0x800-0x8ff) modes.
 *
 * The register file is one page laid out as the xAPIC page.  Where VMX
 * has "use TPR shadow" it is the vCPU's virtual-APIC page: the guest
 * reads registers and writes TPR with no exit, writes to other registers
 * land in the page and exit trap-like (APIC-write), and vlapic_reg_write()
 * then validates and acts on the value found there.
 *
 * Delivery: vlapic_set_irq() latches a vector in IRR and kicks the vCPU;
 * before each VM entry the vendor code asks vlapic_has_pending_irq() for
 * the highest IRR vector above PPR and acknowledges it (IRR -> ISR) when it
 * injects it.  EOI clears the highest ISR bit.
 *
 * The timer (one-shot, periodic, TSC-deadline) runs on the hypervisor's
 * timers (common/timer.c); the count runs at 1 GHz before the divider, as
 * in Xen.
 *
 * Deviations from Xen: the APIC ID is the vCPU id (the MADT says so) and
 * read-only; no directed EOI, no IO-APIC (so TMR stays 0); SMI, NMI, INIT,
 * SIPI and ExtINT IPIs are logged once and dropped (secondary vCPUs are
 * started with VCPUOP_up); the APIC cannot be moved from 0xfee00000.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/param.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/time.h>
#include <xen/timer.h>
#include <asm/apic.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/support.h>
#include <asm/hvm/vlapic.h>
#include <asm/msr.h>
#include <asm/processor.h>

#define vcpu_vlapic(v)      (&(v)->arch.hvm.vlapic)

/* Writable bits of each LVT in xAPIC mode (reserved bits read as 0). */
#define LVT_MASK_TIMER      (APIC_LVT_VECTOR | APIC_LVT_MASKED | APIC_TIMER_MODE_MASK)
#define LVT_MASK_THMR_PC    (APIC_LVT_VECTOR | APIC_LVT_DM_MASK | APIC_LVT_MASKED)
#define LVT_MASK_LINT       (APIC_LVT_VECTOR | APIC_LVT_DM_MASK | (1u << 13) | \
                             APIC_LVT_LEVEL | APIC_LVT_MASKED)
#define LVT_MASK_ERROR      (APIC_LVT_VECTOR | APIC_LVT_MASKED)
#define ICR_LOW_MASK        (APIC_ICR_VECTOR | APIC_ICR_DM_MASK | APIC_DEST_LOGICAL | \
                             APIC_INT_ASSERT | APIC_INT_LEVELTRIG | APIC_SHORT_MASK)
#define SPIV_MASK           (APIC_SPIV_VECTOR | APIC_SPIV_ENABLE | APIC_SPIV_FOCUS_DISABLED)

/* The minimum period of the periodic timer (a guest cannot storm the host). */
#define VLAPIC_MIN_PERIOD   MICROSECS(100)

/*
 * vlapic_trace=N: log the first N interrupt events of the local APICs
 * (latch, inject, EOI, software enable), for debugging delivery.
 */
static unsigned int vlapic_trace;
integer_param("vlapic_trace", vlapic_trace);

#define VLAPIC_TRACE(v, fmt, ...) do {                                          \
    if ( vlapic_trace && vlapic_trace-- )                                       \
        printk("d%uv%u vLAPIC trace: " fmt " rip %#lx\n", (v)->domain->domain_id, \
               (v)->vcpu_id, ##__VA_ARGS__, (unsigned long)(v)->arch.hvm.regs.rip); \
} while ( 0 )

static uint32_t vlapic_get_reg(const struct vlapic *vlapic, unsigned int reg)
{
    return *(volatile uint32_t *)(vlapic->regs + reg);
}

static void vlapic_set_reg(struct vlapic *vlapic, unsigned int reg, uint32_t val)
{
    *(volatile uint32_t *)(vlapic->regs + reg) = val;
}

/* Bit vec of the 256-bit array at base (IRR, ISR, TMR): 8 registers 16 bytes apart. */
static uint32_t *vec_word(struct vlapic *vlapic, unsigned int base, unsigned int vec)
{
    return vlapic->regs + base + (vec / 32) * 16;
}

static void set_vec(struct vlapic *vlapic, unsigned int base, unsigned int vec)
{
    *vec_word(vlapic, base, vec) |= 1u << (vec % 32);
}

static void clear_vec(struct vlapic *vlapic, unsigned int base, unsigned int vec)
{
    *vec_word(vlapic, base, vec) &= ~(1u << (vec % 32));
}

static int find_highest_vec(const struct vlapic *vlapic, unsigned int base)
{
    int i;

    for ( i = 7; i >= 0; i-- )
    {
        uint32_t w = vlapic_get_reg(vlapic, base + i * 16);

        if ( w )
            return i * 32 + 31 - __builtin_clz(w);
    }
    return -1;
}

bool vlapic_x2apic_mode(const struct vlapic *vlapic)
{
    return vlapic->apic_base_msr & MSR_IA32_APICBASE_EXTD;
}

static bool vlapic_hw_enabled(const struct vlapic *vlapic)
{
    return vlapic->apic_base_msr & MSR_IA32_APICBASE_ENABLE;
}

static bool vlapic_sw_enabled(const struct vlapic *vlapic)
{
    return vlapic_get_reg(vlapic, APIC_SPIV) & APIC_SPIV_ENABLE;
}

bool vlapic_enabled(const struct vlapic *vlapic)
{
    return vlapic_hw_enabled(vlapic) && vlapic_sw_enabled(vlapic);
}

static uint32_t vlapic_id(const struct vcpu *v)
{
    return vlapic_x2apic_mode(vcpu_vlapic(v)) ? v->vcpu_id : v->vcpu_id << 24;
}

/* The x2APIC logical id: cluster (id / 16) in 31:16, one bit of 16 in 15:0. */
static uint32_t x2apic_ldr(const struct vcpu *v)
{
    return ((v->vcpu_id >> 4) << 16) | (1u << (v->vcpu_id & 0xf));
}

static uint32_t vlapic_get_ppr(struct vlapic *vlapic)
{
    uint32_t tpr = vlapic_get_reg(vlapic, APIC_TPR) & APIC_TPR_PRI_MASK;
    int isr = find_highest_vec(vlapic, APIC_ISR);
    uint32_t isrv = isr < 0 ? 0 : isr;
    uint32_t ppr = (tpr & 0xf0) >= (isrv & 0xf0) ? tpr : isrv & 0xf0;

    vlapic_set_reg(vlapic, APIC_PPR, ppr);
    return ppr;
}

/* ---- errors and delivery --------------------------------------------------- */

static void vlapic_set_error(struct vcpu *v, uint32_t err)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    uint32_t lvterr = vlapic_get_reg(vlapic, APIC_LVT_ERROR);

    if ( vlapic->pending_esr & err )
        return;
    vlapic->pending_esr |= err;
    /* The error interrupt, unless masked; an illegal vector there cannot recurse. */
    if ( !(lvterr & APIC_LVT_MASKED) && !vlapic->in_error )
    {
        vlapic->in_error = true;
        vlapic_set_irq(v, lvterr & APIC_LVT_VECTOR);
        vlapic->in_error = false;
    }
}

void vlapic_set_irq(struct vcpu *v, unsigned int vec)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    if ( vec < 16 )
    {
        vlapic_set_error(v, APIC_ESR_RECVILL);
        return;
    }
    set_vec(vlapic, APIC_IRR, vec);
    VLAPIC_TRACE(v, "IRR set %#x (enabled %d)", vec, vlapic_enabled(vlapic));
    if ( vlapic_enabled(vlapic) )
        vcpu_kick(v);
}

int vlapic_has_pending_irq(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    int irr;

    if ( !vlapic_enabled(vlapic) )
        return -1;
    irr = find_highest_vec(vlapic, APIC_IRR);
    if ( irr < 0 || (irr & 0xf0) <= (vlapic_get_ppr(vlapic) & 0xf0) )
        return -1;
    return irr;
}

int vlapic_tpr_blocked_irq(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    int irr = vlapic_enabled(vlapic) ? find_highest_vec(vlapic, APIC_IRR) : -1;
    int isr = find_highest_vec(vlapic, APIC_ISR);

    if ( irr < 0 || (isr >= 0 && (irr & 0xf0) <= (isr & 0xf0)) )
        return -1;
    return (irr & 0xf0) <= (vlapic_get_reg(vlapic, APIC_TPR) & 0xf0) ? irr : -1;
}

void vlapic_ack_pending_irq(struct vcpu *v, unsigned int vec)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    clear_vec(vlapic, APIC_IRR, vec);
    set_vec(vlapic, APIC_ISR, vec);
    vlapic_get_ppr(vlapic);
    VLAPIC_TRACE(v, "inject %#x", vec);
}

static void vlapic_eoi(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    int isr = find_highest_vec(vlapic, APIC_ISR);

    if ( isr >= 0 )
        clear_vec(vlapic, APIC_ISR, isr);
    vlapic_get_ppr(vlapic);
    VLAPIC_TRACE(v, "EOI of %#x", isr);
}

/* ---- IPIs -------------------------------------------------------------------- */

static bool vlapic_match_logical(const struct vcpu *t, uint32_t mda)
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
    /* cluster: the cluster in the high nibble, one bit of four in the low */
    return (mda >> 4) == (ldr >> 4) && (mda & ldr & 0xf);
}

static bool vlapic_match_dest(const struct vcpu *t, const struct vcpu *src,
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
        return vlapic_match_logical(t, dest);
    if ( vlapic_x2apic_mode(vlapic) )
        return dest == 0xffffffffu || dest == t->vcpu_id;
    return (dest & 0xff) == 0xff || (dest & 0xff) == t->vcpu_id;
}

static void vlapic_ipi(struct vcpu *v, uint32_t icr_low, uint32_t dest)
{
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
        break;
    default:
    {
        static bool logged;

        if ( !logged )
        {
            logged = true;
            printk(XENLOG_G_WARNING "d%uv%u vLAPIC: IPI delivery mode %u dropped (logged once)\n",
                   v->domain->domain_id, v->vcpu_id, dm >> 8);
        }
        return;
    }
    }

    for_each_vcpu ( v->domain, t )
    {
        if ( !vlapic_match_dest(t, v, shorthand, dest, logical) )
            continue;
        vlapic_set_irq(t, vec);
        /* Lowest priority: every vCPU is as low as any other; the first takes it. */
        if ( dm == APIC_DM_LOWEST && shorthand == APIC_DEST_NOSHORT )
            break;
    }
}

/* ---- the timer ------------------------------------------------------------- */

static uint32_t vlapic_divisor(const struct vlapic *vlapic)
{
    uint32_t tdcr = vlapic_get_reg(vlapic, APIC_TDCR);
    uint32_t div = (tdcr & 3) | ((tdcr & 8) >> 1);

    return div == 7 ? 1 : 2u << div;
}

static uint32_t vlapic_timer_mode(const struct vlapic *vlapic)
{
    return vlapic->lvtt & APIC_TIMER_MODE_MASK;
}

static void vlapic_timer_fn(void *data)
{
    struct vcpu *v = data;
    struct vlapic *vlapic = vcpu_vlapic(v);
    uint32_t lvtt = vlapic->lvtt;

    switch ( lvtt & APIC_TIMER_MODE_MASK )
    {
    case APIC_TIMER_TSC_DEADLINE:
        vlapic->tdt_msr = 0;
        break;
    case APIC_TIMER_PERIODIC:
        if ( vlapic->timer_period )
        {
            vlapic->timer_start += vlapic->timer_period;
            /* Fell far behind (the vCPU did not run): do not replay every period. */
            if ( vlapic->timer_start + vlapic->timer_period < NOW() )
                vlapic->timer_start = NOW();
            set_timer(&vlapic->timer, vlapic->timer_start + vlapic->timer_period);
        }
        break;
    default:
        break;                  /* one-shot: TMCCT now reads 0 */
    }
    if ( !(lvtt & APIC_LVT_MASKED) )
    {
        vlapic->timer_irqs++;
        vlapic_set_irq(v, lvtt & APIC_LVT_VECTOR);
    }
}

static void vlapic_timer_stop(struct vlapic *vlapic)
{
    stop_timer(&vlapic->timer);
    vlapic->timer_period = 0;
    vlapic->tdt_msr = 0;
}

/* TMICT written (one-shot and periodic modes): load the count. */
static void vlapic_timer_load(struct vlapic *vlapic, uint32_t tmict)
{
    s_time_t period = (s_time_t)tmict * vlapic_divisor(vlapic) * APIC_BUS_CYCLE_NS;

    vlapic_timer_stop(vlapic);
    if ( !tmict || vlapic_timer_mode(vlapic) == APIC_TIMER_TSC_DEADLINE )
        return;
    if ( vlapic_timer_mode(vlapic) == APIC_TIMER_PERIODIC && period < VLAPIC_MIN_PERIOD )
        period = VLAPIC_MIN_PERIOD;
    vlapic->timer_start = NOW();
    vlapic->timer_period = period;
    set_timer(&vlapic->timer, vlapic->timer_start + period);
}

static uint32_t vlapic_get_tmcct(struct vlapic *vlapic)
{
    s_time_t now = NOW(), elapsed, left;

    if ( !vlapic->timer_period || vlapic_timer_mode(vlapic) == APIC_TIMER_TSC_DEADLINE )
        return 0;
    elapsed = now - vlapic->timer_start;
    if ( vlapic_timer_mode(vlapic) == APIC_TIMER_PERIODIC )
        left = vlapic->timer_period - elapsed % vlapic->timer_period;
    else if ( elapsed >= vlapic->timer_period )
        return 0;
    else
        left = vlapic->timer_period - elapsed;
    return left / (vlapic_divisor(vlapic) * APIC_BUS_CYCLE_NS);
}

static void vlapic_set_tsc_deadline(struct vlapic *vlapic, uint64_t tsc)
{
    uint64_t now_tsc = rdtsc();

    if ( vlapic_timer_mode(vlapic) != APIC_TIMER_TSC_DEADLINE )
        return;                 /* ignored outside TSC-deadline mode */
    stop_timer(&vlapic->timer);
    vlapic->tdt_msr = tsc;
    if ( !tsc )
        return;
    set_timer(&vlapic->timer, tsc <= now_tsc ? NOW() : tsc_to_stime(tsc));
}

/* ---- register writes ------------------------------------------------------- */

static void vlapic_mask_lvts(struct vlapic *vlapic)
{
    static const unsigned int lvts[] = {
        APIC_LVTT, APIC_LVTTHMR, APIC_LVTPC, APIC_LVT_LINT0, APIC_LVT_LINT1, APIC_LVT_ERROR,
    };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(lvts); i++ )
        vlapic_set_reg(vlapic, lvts[i], vlapic_get_reg(vlapic, lvts[i]) | APIC_LVT_MASKED);
    vlapic->lvtt |= APIC_LVT_MASKED;
}

/*
 * Validate and act on a register write.  val is what the guest wrote
 * (after the x2APIC checks); the register gets only its defined bits.
 * The page may already hold the raw new value (APIC-write exits): what a
 * write depends on (the timer mode, the software enable) comes from the
 * copies of the last validated LVTT and SVR.
 */
static void vlapic_reg_write(struct vcpu *v, unsigned int reg, uint32_t val)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    uint32_t old_lvtt = vlapic->lvtt;
    bool sw = vlapic->spiv & APIC_SPIV_ENABLE;

    switch ( reg )
    {
    case APIC_ID:
        vlapic_set_reg(vlapic, APIC_ID, vlapic_id(v));      /* read-only here */
        break;
    case APIC_TPR:
        vlapic_set_reg(vlapic, APIC_TPR, val & APIC_TPR_PRI_MASK);
        vlapic_get_ppr(vlapic);
        break;
    case APIC_EOI:
        vlapic_set_reg(vlapic, APIC_EOI, 0);
        vlapic_eoi(v);
        break;
    case APIC_LDR:
        vlapic_set_reg(vlapic, APIC_LDR, val & 0xff000000u);
        break;
    case APIC_DFR:
        vlapic_set_reg(vlapic, APIC_DFR, val | 0x0fffffffu);
        break;
    case APIC_SPIV:
        VLAPIC_TRACE(v, "SVR %#x", val);
        vlapic->spiv = val & SPIV_MASK;
        vlapic_set_reg(vlapic, APIC_SPIV, vlapic->spiv);
        if ( !(val & APIC_SPIV_ENABLE) )
            vlapic_mask_lvts(vlapic);
        else if ( !sw && find_highest_vec(vlapic, APIC_IRR) >= 0 )
            vcpu_kick(v);
        break;
    case APIC_ESR:
        vlapic_set_reg(vlapic, APIC_ESR, vlapic->pending_esr);
        vlapic->pending_esr = 0;
        break;
    case APIC_ICR:
        vlapic_set_reg(vlapic, APIC_ICR, val & ICR_LOW_MASK);   /* never busy */
        vlapic_ipi(v, val, vlapic_x2apic_mode(vlapic)
                           ? vlapic_get_reg(vlapic, APIC_ICR2)
                           : vlapic_get_reg(vlapic, APIC_ICR2) >> 24);
        break;
    case APIC_ICR2:
        vlapic_set_reg(vlapic, APIC_ICR2,
                       vlapic_x2apic_mode(vlapic) ? val : val & 0xff000000u);
        break;
    case APIC_LVTT:
        val &= LVT_MASK_TIMER;
        /* Mode 3 is reserved: the mode stays as it was. */
        if ( (val & APIC_TIMER_MODE_MASK) == APIC_TIMER_MODE_MASK )
            val = (val & ~APIC_TIMER_MODE_MASK) | (old_lvtt & APIC_TIMER_MODE_MASK);
        if ( !sw )
            val |= APIC_LVT_MASKED;
        vlapic->lvtt = val;
        vlapic_set_reg(vlapic, APIC_LVTT, val);
        /* Changing mode disarms the timer (and TMICT reads 0), as hardware. */
        if ( (val ^ old_lvtt) & APIC_TIMER_MODE_MASK )
        {
            vlapic_timer_stop(vlapic);
            vlapic_set_reg(vlapic, APIC_TMICT, 0);
        }
        break;
    case APIC_LVTTHMR:
    case APIC_LVTPC:
        vlapic_set_reg(vlapic, reg, (val & LVT_MASK_THMR_PC) | (sw ? 0 : APIC_LVT_MASKED));
        break;
    case APIC_LVT_LINT0:
    case APIC_LVT_LINT1:
        vlapic_set_reg(vlapic, reg, (val & LVT_MASK_LINT) | (sw ? 0 : APIC_LVT_MASKED));
        break;
    case APIC_LVT_ERROR:
        vlapic_set_reg(vlapic, reg, (val & LVT_MASK_ERROR) | (sw ? 0 : APIC_LVT_MASKED));
        break;
    case APIC_TMICT:
        if ( vlapic_timer_mode(vlapic) == APIC_TIMER_TSC_DEADLINE )
        {
            vlapic_set_reg(vlapic, APIC_TMICT, 0);          /* ignored */
            break;
        }
        vlapic_set_reg(vlapic, APIC_TMICT, val);
        vlapic_timer_load(vlapic, val);
        break;
    case APIC_TDCR:
        vlapic_set_reg(vlapic, APIC_TDCR, val & 0xb);
        break;
    case APIC_SELF_IPI:
        vlapic_set_irq(v, val & APIC_ICR_VECTOR);
        break;
    default:
        break;
    }
}

/* ---- xAPIC MMIO ---------------------------------------------------------- */

static bool xapic_reg_readable(unsigned int reg)
{
    switch ( reg )
    {
    case APIC_ID: case APIC_VERSION: case APIC_TPR: case APIC_APR: case APIC_PPR:
    case APIC_LDR: case APIC_DFR: case APIC_SPIV: case APIC_ESR: case APIC_ICR:
    case APIC_ICR2: case APIC_LVTT ... APIC_TMCCT: case APIC_TDCR:
    case APIC_ISR ... APIC_IRR + 0x70:
        return !(reg & 0xf);
    }
    return false;
}

uint32_t vlapic_mmio_read(struct vcpu *v, unsigned int offset)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    unsigned int reg = offset & 0xff0;
    uint32_t val;

    if ( !xapic_reg_readable(reg) )
        return 0;
    if ( reg == APIC_PPR )
        val = vlapic_get_ppr(vlapic);
    else if ( reg == APIC_TMCCT )
        val = vlapic_get_tmcct(vlapic);
    else
        val = vlapic_get_reg(vlapic, reg);
    return val >> ((offset & 3) * 8);
}

void vlapic_mmio_write(struct vcpu *v, unsigned int offset, uint32_t val)
{
    unsigned int reg = offset & 0xff0;

    if ( offset & 0xf )
        return;                 /* not a register: dropped, as hardware */
    switch ( reg )
    {
    case APIC_VERSION: case APIC_APR: case APIC_PPR: case APIC_RRR:
    case APIC_ISR ... APIC_IRR + 0x70: case APIC_TMCCT: case APIC_SELF_IPI:
        return;                 /* read-only (or x2APIC only): ignored */
    }
    vlapic_reg_write(v, reg, val);
}

void vlapic_apic_write(struct vcpu *v, unsigned int offset)
{
    unsigned int reg = offset & 0xff0;

    /* The value is in the page (a byte write inside a register included). */
    vlapic_mmio_write(v, reg, vlapic_get_reg(vcpu_vlapic(v), reg));
}

/* ---- MSRs ---------------------------------------------------------------------- */

/* Which x2APIC registers RDMSR may read; others #GP. */
static bool x2apic_readable(unsigned int reg)
{
    switch ( reg )
    {
    case APIC_ID: case APIC_VERSION: case APIC_TPR: case APIC_PPR: case APIC_LDR:
    case APIC_SPIV: case APIC_ESR: case APIC_ICR: case APIC_LVTT ... APIC_TMCCT:
    case APIC_TDCR: case APIC_ISR ... APIC_IRR + 0x70:
        return !(reg & 0xf);
    }
    return false;
}

static bool x2apic_rdmsr(struct vcpu *v, unsigned int reg, uint64_t *val)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    if ( !vlapic_x2apic_mode(vlapic) || !x2apic_readable(reg) )
        return false;
    switch ( reg )
    {
    case APIC_PPR:   *val = vlapic_get_ppr(vlapic); break;
    case APIC_TMCCT: *val = vlapic_get_tmcct(vlapic); break;
    case APIC_ICR:
        *val = vlapic_get_reg(vlapic, APIC_ICR) |
               ((uint64_t)vlapic_get_reg(vlapic, APIC_ICR2) << 32);
        break;
    default:         *val = vlapic_get_reg(vlapic, reg); break;
    }
    return true;
}

/* WRMSR in x2APIC mode: reserved bits and read-only registers #GP. */
static bool x2apic_wrmsr(struct vcpu *v, unsigned int reg, uint64_t val)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    uint64_t mask;

    if ( !vlapic_x2apic_mode(vlapic) )
        return false;
    switch ( reg )
    {
    case APIC_TPR:       mask = APIC_TPR_PRI_MASK; break;
    case APIC_EOI:       mask = 0; break;
    case APIC_SPIV:      mask = SPIV_MASK; break;
    case APIC_ESR:       mask = 0; break;
    case APIC_ICR:       mask = ICR_LOW_MASK | (0xffffffffULL << 32); break;
    case APIC_LVTT:      mask = LVT_MASK_TIMER; break;
    case APIC_LVTTHMR:
    case APIC_LVTPC:     mask = LVT_MASK_THMR_PC; break;
    case APIC_LVT_LINT0:
    case APIC_LVT_LINT1: mask = LVT_MASK_LINT; break;
    case APIC_LVT_ERROR: mask = LVT_MASK_ERROR; break;
    case APIC_TMICT:     mask = 0xffffffffu; break;
    case APIC_TDCR:      mask = 0xb; break;
    case APIC_SELF_IPI:  mask = APIC_ICR_VECTOR; break;
    default:
        return false;           /* read-only or not a register */
    }
    if ( val & ~mask )
        return false;
    if ( reg == APIC_ICR )
    {
        vlapic_set_reg(vlapic, APIC_ICR2, val >> 32);
        vlapic_reg_write(v, APIC_ICR, (uint32_t)val);
    }
    else if ( reg == APIC_SELF_IPI && val < 16 )
        vlapic_set_error(v, APIC_ESR_SENDILL);
    else
        vlapic_reg_write(v, reg, val);
    return true;
}

static void vlapic_reset(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    stop_timer(&vlapic->timer);
    vlapic->timer_period = 0;
    vlapic->tdt_msr = 0;
    vlapic->pending_esr = 0;
    memset(vlapic->regs, 0, PAGE_SIZE);
    vlapic_set_reg(vlapic, APIC_ID, vlapic_id(v));
    vlapic_set_reg(vlapic, APIC_VERSION, VLAPIC_VERSION);
    vlapic_set_reg(vlapic, APIC_DFR, APIC_DFR_FLAT);
    vlapic->spiv = APIC_SPIV_VECTOR;
    vlapic_set_reg(vlapic, APIC_SPIV, vlapic->spiv);
    vlapic->lvtt = 0;
    vlapic_mask_lvts(vlapic);
}

/* IA32_APIC_BASE: the transitions the SDM allows (10.12.5), others #GP. */
static bool vlapic_set_apic_base(struct vcpu *v, uint64_t val)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    uint64_t old = vlapic->apic_base_msr;
    uint64_t modes = MSR_IA32_APICBASE_ENABLE | MSR_IA32_APICBASE_EXTD;
    uint64_t om = old & modes, nm = val & modes;

    if ( nm == MSR_IA32_APICBASE_EXTD ||                    /* x2APIC, disabled */
         (om == modes && nm == MSR_IA32_APICBASE_ENABLE) || /* x2APIC -> xAPIC */
         (om == 0 && nm == modes) )                         /* off -> x2APIC */
        return false;
    if ( (val & MSR_IA32_APICBASE_BASE_MASK) != APIC_DEFAULT_BASE )
    {
        static bool logged;

        if ( !logged )
        {
            logged = true;
            printk(XENLOG_G_WARNING "d%uv%u vLAPIC: cannot move the APIC to %#lx (ignored; logged once)\n",
                   v->domain->domain_id, v->vcpu_id,
                   (unsigned long)(val & MSR_IA32_APICBASE_BASE_MASK));
        }
    }
    if ( om == nm )
        return true;

    vlapic->apic_base_msr = (old & ~modes) | nm;
    if ( !nm )
        vlapic_reset(v);                /* hardware disable: power-on state */
    else if ( nm == modes )
    {
        /* Into x2APIC mode: the 32-bit id and the derived logical id. */
        vlapic_set_reg(vlapic, APIC_ID, vlapic_id(v));
        vlapic_set_reg(vlapic, APIC_LDR, x2apic_ldr(v));
    }
    if ( hvm_funcs->vlapic_mode_changed )
        hvm_funcs->vlapic_mode_changed(v);
    return true;
}

bool vlapic_rdmsr(struct vcpu *v, uint32_t msr, uint64_t *val)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    if ( msr == MSR_IA32_APICBASE )
    {
        *val = vlapic->apic_base_msr;
        return true;
    }
    if ( msr == MSR_IA32_TSC_DEADLINE )
    {
        *val = vlapic_timer_mode(vlapic) == APIC_TIMER_TSC_DEADLINE ? vlapic->tdt_msr : 0;
        return true;
    }
    return x2apic_rdmsr(v, (msr - MSR_X2APIC_FIRST) << 4, val);
}

bool vlapic_wrmsr(struct vcpu *v, uint32_t msr, uint64_t val)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    if ( msr == MSR_IA32_APICBASE )
        return vlapic_set_apic_base(v, val);
    if ( msr == MSR_IA32_TSC_DEADLINE )
    {
        vlapic_set_tsc_deadline(vlapic, val);
        return true;
    }
    return x2apic_wrmsr(v, (msr - MSR_X2APIC_FIRST) << 4, val);
}

uint8_t vlapic_get_cr8(struct vcpu *v)
{
    return (vlapic_get_reg(vcpu_vlapic(v), APIC_TPR) >> 4) & 0xf;
}

void vlapic_set_cr8(struct vcpu *v, uint8_t cr8)
{
    vlapic_reg_write(v, APIC_TPR, (cr8 & 0xf) << 4);
}

/* ---- the state dump (dump_domains) ------------------------------------------ */

void vlapic_dump(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    if ( !vlapic->regs )
        return;
    printk("    vLAPIC base %#lx SVR %#x TPR %#x PPR %#x IRR max %d ISR max %d "
           "IRR[7] %#x ISR[7] %#x LVTT %#x timer %s%ld ns irqs %lu\n",
           (unsigned long)vlapic->apic_base_msr, vlapic_get_reg(vlapic, APIC_SPIV),
           vlapic_get_reg(vlapic, APIC_TPR), vlapic_get_ppr(vlapic),
           find_highest_vec(vlapic, APIC_IRR), find_highest_vec(vlapic, APIC_ISR),
           vlapic_get_reg(vlapic, APIC_IRR + 0x70), vlapic_get_reg(vlapic, APIC_ISR + 0x70),
           vlapic->lvtt, vlapic->timer.status == TIMER_STATUS_in_list ? "in " : "off ",
           vlapic->timer.status == TIMER_STATUS_in_list
           ? (long)(vlapic->timer.expires - NOW()) : 0L,
           (unsigned long)vlapic->timer_irqs);
}

/* ---- set-up ---------------------------------------------------------------- */

int vlapic_init(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    vlapic->regs = domain_alloc_xenheap_pages(v->domain, 0);   /* counted against it */
    if ( !vlapic->regs )
        return -ENOMEM;
    /* Enabled, xAPIC mode, where the MADT says; vCPU 0 is the BSP. */
    vlapic->apic_base_msr = APIC_DEFAULT_BASE | MSR_IA32_APICBASE_ENABLE |
                            (v->vcpu_id == 0 ? MSR_IA32_APICBASE_BSP : 0);
    init_timer(&vlapic->timer, vlapic_timer_fn, v, 0);
    vlapic_reset(v);
    return 0;
}

void vlapic_destroy(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    if ( !vlapic->regs )
        return;
    kill_timer(&vlapic->timer);
    if ( vlapic->timer_irqs )
        printk(XENLOG_INFO "d%uv%u vLAPIC: %lu timer interrupts\n",
               v->domain->domain_id, v->vcpu_id, (unsigned long)vlapic->timer_irqs);
    domain_free_xenheap_pages(v->domain, vlapic->regs, 0);
    vlapic->regs = NULL;
}

int vlapic_domain_init(struct domain *d)
{
    void *pg;

    /* Without the CPU's help the page stays a hole: EPT faults, decoded. */
    if ( !hvm_funcs->apic_access_virt() )
        return 0;
    if ( !(pg = domain_alloc_xenheap_pages(d, 0)) )
        return -ENOMEM;
    d->arch.hvm.apic_access_page = pg;
    /* Guest accesses to it are redirected to the virtual-APIC page by the CPU. */
    return p2m_set_entry(d, APIC_DEFAULT_BASE >> PAGE_SHIFT, virt_to_maddr(pg) >> PAGE_SHIFT,
                         0, p2m_mmio_direct);
}

void vlapic_domain_destroy(struct domain *d)
{
    domain_free_xenheap_pages(d, d->arch.hvm.apic_access_page, 0);
    d->arch.hvm.apic_access_page = NULL;
}

unsigned long vlapic_access_mfn(const struct domain *d)
{
    return virt_to_maddr(d->arch.hvm.apic_access_page) >> PAGE_SHIFT;
}
