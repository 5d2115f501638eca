/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The emulated local APIC (Xen's hvm/vlapic.c, trimmed): one per vCPU,
 * xAPIC (MMIO at 0xfee00000) and x2APIC (MSRs 0x800-0x8ff) modes.  This
 * file holds the register file, delivery into IRR/ISR, and the two access
 * paths; the timer is in vlapic_timer.c, the ICR in vlapic_ipi.c.
 *
 * The register file is one page laid out as the xAPIC page.  Where VMX
 * has "use TPR shadow" it is the vCPU's virtual-APIC page: the guest
 * reads registers and writes TPR with no exit, writes to other registers
 * land in the page and exit trap-like (APIC-write), and vlapic_reg_write()
 * then validates and acts on the value found there.  Accesses the CPU
 * does not virtualize (reads of PPR and TMCCT, accesses outside the first
 * four bytes of a register, writes to read-only registers) exit
 * fault-like and are emulated (x86_emulate.c: MOV and read-modify-write
 * instructions of every width) against vlapic_mmio_read/write().
 *
 * The registers, as the SDM (vol. 3A, 10.4-10.12) gives them; the table
 * in docs/misc/dom0-abi.md has every one:
 *  - reserved bits read 0; in xAPIC mode writes to them are ignored, in
 *    x2APIC mode they #GP, as do reserved and write-only registers read
 *    and read-only registers written (read-only bits such as delivery
 *    status are ignored, not faulted);
 *  - in xAPIC mode an access to a reserved register sets ESR bit 7
 *    (illegal register address), which x2APIC mode never sets;
 *  - with the APIC software-disabled every LVT is masked and stays so.
 *
 * Delivery: vlapic_set_irq() latches a vector in IRR and kicks the vCPU;
 * before each VM entry the vendor code asks vlapic_has_pending_irq() for
 * the highest IRR vector above PPR and acknowledges it (IRR -> ISR) when it
 * injects it.  EOI clears the highest ISR bit.
 *
 * Deviations from Xen: the APIC ID is the vCPU id (the MADT says so) and
 * read-only; no directed EOI, no IO-APIC (so TMR stays 0), no CMCI LVT
 * (the version register says 6 LVTs, as Xen's); the APIC cannot be moved
 * from 0xfee00000 (#GP, as Xen).
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

/* Writable bits of each LVT (reserved and read-only bits read as 0). */
#define LVT_MASK_TIMER      (APIC_LVT_VECTOR | APIC_LVT_MASKED | APIC_TIMER_MODE_MASK)
#define LVT_MASK_THMR_PC    (APIC_LVT_VECTOR | APIC_LVT_DM_MASK | APIC_LVT_MASKED)
#define LVT_MASK_LINT       (APIC_LVT_VECTOR | APIC_LVT_DM_MASK | APIC_LVT_POLARITY | \
                             APIC_LVT_LEVEL | APIC_LVT_MASKED)
#define LVT_MASK_ERROR      (APIC_LVT_VECTOR | APIC_LVT_MASKED)
/* Bits an x2APIC WRMSR may set in an LVT: the writable ones and the read-only ones. */
#define LVT_RO_BITS         (APIC_LVT_PENDING | APIC_LVT_REMOTE_IRR)
#define ICR_LOW_MASK        (APIC_ICR_VECTOR | APIC_ICR_DM_MASK | APIC_DEST_LOGICAL | \
                             APIC_INT_ASSERT | APIC_INT_LEVELTRIG | APIC_SHORT_MASK)
#define SPIV_MASK           (APIC_SPIV_VECTOR | APIC_SPIV_ENABLE | APIC_SPIV_FOCUS_DISABLED)

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

/* Bit vec of the 256-bit array at base (IRR, ISR, TMR): 8 registers 16 bytes apart. */
static uint32_t *vec_word(struct vlapic *vlapic, unsigned int base, unsigned int vec)
{
    return (uint32_t *)((char *)vlapic->regs + base + (vec / 32) * 16);
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

bool vlapic_hw_enabled(const struct vlapic *vlapic)
{
    return vlapic->apic_base_msr & MSR_IA32_APICBASE_ENABLE;
}

static bool vlapic_sw_enabled(const struct vlapic *vlapic)
{
    return vlapic->spiv & APIC_SPIV_ENABLE;
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

uint32_t vlapic_get_ppr(struct vlapic *vlapic)
{
    uint32_t tpr = vlapic_get_reg(vlapic, APIC_TPR) & APIC_TPR_PRI_MASK;
    int isr = find_highest_vec(vlapic, APIC_ISR);
    uint32_t isrv = isr < 0 ? 0 : isr;
    uint32_t ppr = (tpr & 0xf0) >= (isrv & 0xf0) ? tpr : isrv & 0xf0;

    vlapic_set_reg(vlapic, APIC_PPR, ppr);
    return ppr;
}

/* ---- errors and delivery --------------------------------------------------- */

void vlapic_set_error(struct vcpu *v, uint32_t err)
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
    vlapic_timer_irq_taken(vlapic, vec);
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
    uint32_t old_lvtt = vlapic->lvtt, old_div;
    bool sw = vlapic_sw_enabled(vlapic);

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
        /* Stored first: an INIT to ourselves resets the register file. */
        vlapic_set_reg(vlapic, APIC_ICR, val & ICR_LOW_MASK);   /* never busy */
        vlapic_ipi(v, val & ICR_LOW_MASK, vlapic_x2apic_mode(vlapic)
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
        vlapic_timer_lvtt_changed(vlapic, old_lvtt);
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
        if ( (vlapic->lvtt & APIC_TIMER_MODE_MASK) == APIC_TIMER_TSC_DEADLINE )
        {
            vlapic_set_reg(vlapic, APIC_TMICT, 0);          /* ignored */
            break;
        }
        vlapic_set_reg(vlapic, APIC_TMICT, val);
        vlapic_timer_load(vlapic, val);
        break;
    case APIC_TDCR:
        old_div = vlapic->timer_div;
        vlapic_set_reg(vlapic, APIC_TDCR, val & APIC_TDR_DIV_MASK);
        vlapic_timer_tdcr_changed(vlapic, old_div);
        break;
    case APIC_SELF_IPI:
        if ( (val & APIC_ICR_VECTOR) < 16 )
            vlapic_set_error(v, APIC_ESR_SENDILL);
        else
            vlapic_set_irq(v, val & APIC_ICR_VECTOR);
        break;
    default:
        break;
    }
}

/* ---- xAPIC MMIO ---------------------------------------------------------- */

/* How an xAPIC-mode register behaves: reserved, readable, writable. */
#define XR  1                   /* readable */
#define XW  2                   /* writable (acts on a write) */

static unsigned int xapic_reg_access(unsigned int reg)
{
    switch ( reg )
    {
    case APIC_ID: case APIC_TPR: case APIC_LDR: case APIC_DFR: case APIC_SPIV:
    case APIC_ESR: case APIC_ICR: case APIC_ICR2: case APIC_LVTT ... APIC_LVT_ERROR:
    case APIC_TMICT: case APIC_TDCR:
        return XR | XW;
    case APIC_VERSION: case APIC_APR: case APIC_PPR: case APIC_RRR:
    case APIC_ISR ... APIC_IRR + 0x70: case APIC_TMCCT:
        return XR;
    case APIC_EOI:
        return XR | XW;         /* write-only; reads 0, as Xen */
    }
    return 0;                   /* reserved (CMCI and SELF_IPI included) */
}

static uint32_t vlapic_read_reg(struct vlapic *vlapic, unsigned int reg)
{
    switch ( reg )
    {
    case APIC_PPR:   return vlapic_get_ppr(vlapic);
    case APIC_TMCCT: return vlapic_timer_tmcct(vlapic);
    case APIC_EOI:   return 0;
    }
    return vlapic_get_reg(vlapic, reg);
}

/* Every 16-byte slot an access touches, as memory: [offset, offset + bytes). */
#define for_each_slot(off, end, reg) \
    for ( (reg) = (off) & ~0xfu; (reg) < (end); (reg) += 16 )

uint64_t vlapic_mmio_read(struct vcpu *v, unsigned int offset, unsigned int bytes)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    unsigned int end = offset + bytes, reg, i;
    uint64_t val = 0;
    bool illegal = false;

    ASSERT(bytes >= 1 && bytes <= 8 && end <= PAGE_SIZE);
    for_each_slot ( offset, end, reg )
    {
        unsigned int acc = xapic_reg_access(reg);
        uint32_t r;

        if ( !acc )
        {
            illegal = true;
            continue;           /* reads as 0 */
        }
        r = vlapic_read_reg(vlapic, reg);
        for ( i = 0; i < 4; i++ )
            if ( reg + i >= offset && reg + i < end )
                val |= (uint64_t)((r >> (8 * i)) & 0xff) << (8 * (reg + i - offset));
    }
    if ( illegal )
        vlapic_set_error(v, APIC_ESR_ILLREGA);
    return val;
}

void vlapic_mmio_write(struct vcpu *v, unsigned int offset, unsigned int bytes,
                       uint64_t val)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    unsigned int end = offset + bytes, reg, i;
    bool illegal = false, touched;

    ASSERT(bytes >= 1 && bytes <= 8 && end <= PAGE_SIZE);
    for_each_slot ( offset, end, reg )
    {
        unsigned int acc = xapic_reg_access(reg);
        uint32_t r;

        if ( !acc )
        {
            illegal = true;
            continue;
        }
        if ( !(acc & XW) )
            continue;           /* read-only: ignored */
        /* Merge the bytes written into the register's 4 (Xen does the same). */
        r = vlapic_read_reg(vlapic, reg);
        touched = false;
        for ( i = 0; i < 4; i++ )
            if ( reg + i >= offset && reg + i < end )
            {
                r &= ~(0xffu << (8 * i));
                r |= (uint32_t)((val >> (8 * (reg + i - offset))) & 0xff) << (8 * i);
                touched = true;
            }
        if ( touched )          /* only bytes 4-15 of the slot: nothing */
            vlapic_reg_write(v, reg, r);
    }
    if ( illegal )
        vlapic_set_error(v, APIC_ESR_ILLREGA);
}

void vlapic_apic_write(struct vcpu *v, unsigned int offset)
{
    unsigned int reg = offset & 0xff0;

    /*
     * The CPU wrote the bytes into the page (virtualized writes are of
     * registers it knows, within their first 4 bytes), so the register's
     * dword holds the merged value.
     */
    if ( xapic_reg_access(reg) & XW )
        vlapic_reg_write(v, reg, vlapic_get_reg(vcpu_vlapic(v), reg));
}

/* ---- MSRs ---------------------------------------------------------------------- */

/* Which x2APIC registers RDMSR may read; others #GP (SDM table 10-6). */
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
    if ( reg == APIC_ICR )
        *val = vlapic_get_reg(vlapic, APIC_ICR) |
               ((uint64_t)vlapic_get_reg(vlapic, APIC_ICR2) << 32);
    else
        *val = vlapic_read_reg(vlapic, reg);
    return true;
}

/* WRMSR in x2APIC mode: reserved bits, read-only and reserved registers #GP. */
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
    case APIC_LVTT:      mask = LVT_MASK_TIMER | APIC_LVT_PENDING; break;
    case APIC_LVTTHMR:
    case APIC_LVTPC:     mask = LVT_MASK_THMR_PC | APIC_LVT_PENDING; break;
    case APIC_LVT_LINT0:
    case APIC_LVT_LINT1: mask = LVT_MASK_LINT | LVT_RO_BITS; break;
    case APIC_LVT_ERROR: mask = LVT_MASK_ERROR | APIC_LVT_PENDING; break;
    case APIC_TMICT:     mask = 0xffffffffu; break;
    case APIC_TDCR:      mask = APIC_TDR_DIV_MASK; break;
    case APIC_SELF_IPI:  mask = APIC_ICR_VECTOR; break;
    default:
        return false;           /* read-only or not a register */
    }
    if ( val & ~mask )
        return false;
    /* Timer mode 3 is reserved: a reserved value #GPs like a reserved bit. */
    if ( reg == APIC_LVTT && (val & APIC_TIMER_MODE_MASK) == APIC_TIMER_MODE_MASK )
        return false;
    if ( reg == APIC_ICR )
        vlapic_set_reg(vlapic, APIC_ICR2, val >> 32);
    vlapic_reg_write(v, reg, val);
    return true;
}

/* The INIT state (SDM 10.4.7.3): all but IA32_APIC_BASE, the ID and, in x2APIC mode, LDR. */
void vlapic_do_init(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);
    uint32_t ldr = vlapic_get_reg(vlapic, APIC_LDR);

    vlapic_timer_stop(vlapic);
    vlapic->pending_esr = 0;
    memset(vlapic->regs, 0, PAGE_SIZE);
    vlapic_set_reg(vlapic, APIC_ID, vlapic_id(v));
    vlapic_set_reg(vlapic, APIC_VERSION, VLAPIC_VERSION);
    if ( vlapic_x2apic_mode(vlapic) )
        vlapic_set_reg(vlapic, APIC_LDR, ldr);
    vlapic_set_reg(vlapic, APIC_DFR, APIC_DFR_FLAT);
    vlapic->spiv = APIC_SPIV_VECTOR;
    vlapic_set_reg(vlapic, APIC_SPIV, vlapic->spiv);
    vlapic->lvtt = 0;
    vlapic_mask_lvts(vlapic);
    vlapic->timer_div = vlapic_timer_divisor(0);
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
    /* As Xen: an enabled xAPIC stays at 0xfee00000 (moving it #GPs). */
    if ( nm == MSR_IA32_APICBASE_ENABLE &&
         (val & MSR_IA32_APICBASE_BASE_MASK) != APIC_DEFAULT_BASE )
    {
        static bool logged;

        if ( !logged )
        {
            logged = true;
            printk(XENLOG_G_WARNING "d%uv%u vLAPIC: cannot move the APIC to %#lx (#GP; logged once)\n",
                   v->domain->domain_id, v->vcpu_id,
                   (unsigned long)(val & MSR_IA32_APICBASE_BASE_MASK));
        }
        return false;
    }
    vlapic->apic_base_msr = val;
    if ( om == nm )
        return true;
    if ( !nm )
        vlapic_do_init(v);              /* hardware disable: the INIT state */
    else if ( nm == modes )
    {
        /* Into x2APIC mode: the 32-bit id and the derived logical id. */
        vlapic_set_reg(vlapic, APIC_ID, vlapic_id(v));
        vlapic_set_reg(vlapic, APIC_LDR, x2apic_ldr(v));
    }
    else
        vlapic_set_reg(vlapic, APIC_ID, vlapic_id(v));   /* disabled -> xAPIC */
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
        *val = (vlapic->lvtt & APIC_TIMER_MODE_MASK) == APIC_TIMER_TSC_DEADLINE
               ? vlapic->tdt_msr : 0;
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
        vlapic_timer_set_deadline(vlapic, val);
        return true;
    }
    return x2apic_wrmsr(v, (msr - MSR_X2APIC_FIRST) << 4, val);
}

/* For the HVM context (vlapic_save.c): a guest's write, a guest's MSR write. */
void vlapic_load_reg(struct vcpu *v, unsigned int reg, uint32_t val)
{
    vlapic_reg_write(v, reg, val);
}

bool vlapic_load_apic_base(struct vcpu *v, uint64_t val)
{
    return vlapic_set_apic_base(v, val);
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
           "IRR[7] %#x ISR[7] %#x LVTT %#x timer %s%ld ns irqs %lu NMI %d\n",
           (unsigned long)vlapic->apic_base_msr, vlapic_get_reg(vlapic, APIC_SPIV),
           vlapic_get_reg(vlapic, APIC_TPR), vlapic_get_ppr(vlapic),
           find_highest_vec(vlapic, APIC_IRR), find_highest_vec(vlapic, APIC_ISR),
           vlapic_get_reg(vlapic, APIC_IRR + 0x70), vlapic_get_reg(vlapic, APIC_ISR + 0x70),
           vlapic->lvtt, timer_is_active(&vlapic->timer) ? "in " : "off ",
           timer_is_active(&vlapic->timer) ? (long)(vlapic->timer.expires - NOW()) : 0L,
           (unsigned long)vlapic->timer_irqs, v->arch.nmi_pending);
}

/* ---- set-up ---------------------------------------------------------------- */

int vlapic_init(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    vlapic->vcpu = v;
    vlapic->regs = domain_alloc_xenheap_pages(v->domain, 0);   /* counted against it */
    if ( !vlapic->regs )
        return -ENOMEM;
    /* Enabled, xAPIC mode, where the MADT says; vCPU 0 is the BSP. */
    vlapic->apic_base_msr = APIC_DEFAULT_BASE | MSR_IA32_APICBASE_ENABLE |
                            (v->vcpu_id == 0 ? MSR_IA32_APICBASE_BSP : 0);
    vlapic_timer_init(v);
    vlapic_do_init(v);
    return 0;
}

void vlapic_destroy(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    if ( !vlapic->regs )
        return;
    vlapic_timer_destroy(v);
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
