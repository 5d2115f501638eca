/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The register file, table-driven (SDM vol. 3A tables 10-1 and 10-6):
 *
 * part=xapic: every 16-byte slot of the xAPIC page (0x000-0xff0), every
 *   offset in it and every width (1, 2, 4, 8 bytes), read with MOV: the
 *   register's bytes where they are (its first four), zeros elsewhere,
 *   ESR bit 7 (illegal register address) for the reserved slots and only
 *   for them; accesses straddling two slots; writes of patterns at every
 *   width and offset to every writable register (only its defined bits
 *   stick, bytes written outside its first four are dropped), to the
 *   read-only ones (ignored) and to reserved slots (ESR bit 7); then
 *   read-modify-write instructions (OR, AND, XOR, ADD, SUB, INC, DEC,
 *   NOT, NEG, BTS/BTR/BTC, shifts, rotates, XCHG, XADD, CMPXCHG, LOCK,
 *   byte and word forms) on writable, read-only and reserved registers,
 *   each against the same instruction on RAM: the flags must agree and
 *   the register hold the RAM result within its defined bits.
 *   With apicv=1 the CPU virtualizes most of these (the APIC-write exit
 *   validates), with apicv=0 every one is emulated (x86_emulate.c).
 *
 * part=x2apic: every MSR 0x800-0x8ff: RDMSR and WRMSR #GP exactly where
 *   the SDM says (reserved, write-only, read-only registers, reserved bits,
 *   bits 63:32 of 32-bit registers), values read back within their
 *   defined bits; the ICR as one 64-bit register; SELF IPI; the
 *   IA32_APIC_BASE transitions.
 */
#include "vlapic.h"

/* ---- xAPIC: the model ------------------------------------------------------- */

enum kind { K_RSVD, K_RO, K_RW, K_EOI, K_ESR, K_ICR, K_SVR, K_LVTT };

struct xreg {
    uint16_t off;
    uint8_t kind;
    uint32_t mask;              /* bits that stick (RW) */
    uint32_t fixed;             /* bits that read 1 whatever is written */
    const char *name;
};

static const struct xreg xregs[] = {
    { 0x020, K_RO,  0, 0, "ID" },
    { 0x030, K_RO,  0, 0, "version" },
    { 0x080, K_RW,  0xff, 0, "TPR" },
    { 0x090, K_RO,  0, 0, "APR" },
    { 0x0a0, K_RO,  0, 0, "PPR" },
    { 0x0b0, K_EOI, 0, 0, "EOI" },
    { 0x0c0, K_RO,  0, 0, "RRD" },
    { 0x0d0, K_RW,  0xff000000, 0, "LDR" },
    { 0x0e0, K_RW,  0xf0000000, 0x0fffffff, "DFR" },
    { 0x0f0, K_SVR, 0x3ff, 0, "SVR" },
    { 0x100, K_RO, 0, 0, "ISR" }, { 0x110, K_RO, 0, 0, "ISR" }, { 0x120, K_RO, 0, 0, "ISR" },
    { 0x130, K_RO, 0, 0, "ISR" }, { 0x140, K_RO, 0, 0, "ISR" }, { 0x150, K_RO, 0, 0, "ISR" },
    { 0x160, K_RO, 0, 0, "ISR" }, { 0x170, K_RO, 0, 0, "ISR" },
    { 0x180, K_RO, 0, 0, "TMR" }, { 0x190, K_RO, 0, 0, "TMR" }, { 0x1a0, K_RO, 0, 0, "TMR" },
    { 0x1b0, K_RO, 0, 0, "TMR" }, { 0x1c0, K_RO, 0, 0, "TMR" }, { 0x1d0, K_RO, 0, 0, "TMR" },
    { 0x1e0, K_RO, 0, 0, "TMR" }, { 0x1f0, K_RO, 0, 0, "TMR" },
    { 0x200, K_RO, 0, 0, "IRR" }, { 0x210, K_RO, 0, 0, "IRR" }, { 0x220, K_RO, 0, 0, "IRR" },
    { 0x230, K_RO, 0, 0, "IRR" }, { 0x240, K_RO, 0, 0, "IRR" }, { 0x250, K_RO, 0, 0, "IRR" },
    { 0x260, K_RO, 0, 0, "IRR" }, { 0x270, K_RO, 0, 0, "IRR" },
    { 0x280, K_ESR, 0, 0, "ESR" },
    { 0x300, K_ICR, 0x000ccfff, 0, "ICR low" },
    { 0x310, K_RW,  0xff000000, 0, "ICR high" },
    { 0x320, K_LVTT, 0x000700ff, 0, "LVT timer" },
    { 0x330, K_RW,  0x000107ff, 0, "LVT thermal" },
    { 0x340, K_RW,  0x000107ff, 0, "LVT PMC" },
    { 0x350, K_RW,  0x0001a7ff, 0, "LVT LINT0" },
    { 0x360, K_RW,  0x0001a7ff, 0, "LVT LINT1" },
    { 0x370, K_RW,  0x000100ff, 0, "LVT error" },
    { 0x380, K_RW,  0xffffffff, 0, "TMICT" },
    { 0x390, K_RO,  0, 0, "TMCCT" },
    { 0x3e0, K_RW,  0x0000000b, 0, "TDCR" },
};

/* What each register holds now (the test keeps it in step). */
static uint32_t model[256];

static const struct xreg *xreg_at(unsigned int off)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(xregs); i++ )
        if ( xregs[i].off == (off & 0xff0) )
            return &xregs[i];
    return NULL;                    /* reserved */
}

static uint64_t mmio_read(unsigned int off, unsigned int w)
{
    volatile void *p = (volatile void *)(APIC + off);

    switch ( w )
    {
    case 1: return *(volatile uint8_t *)p;
    case 2: return *(volatile uint16_t *)p;
    case 4: return *(volatile uint32_t *)p;
    default: return *(volatile uint64_t *)p;
    }
}

static void mmio_write(unsigned int off, unsigned int w, uint64_t val)
{
    volatile void *p = (volatile void *)(APIC + off);

    switch ( w )
    {
    case 1: *(volatile uint8_t *)p = val; break;
    case 2: *(volatile uint16_t *)p = val; break;
    case 4: *(volatile uint32_t *)p = val; break;
    default: *(volatile uint64_t *)p = val; break;
    }
}

/* The bytes [off, off + w) of the page as the model has them. */
static uint64_t model_bytes(unsigned int off, unsigned int w)
{
    uint64_t v = 0;
    unsigned int i, b;

    for ( i = 0; i < w; i++ )
    {
        b = off + i;
        if ( (b & 0xf) < 4 && xreg_at(b) )
            v |= (uint64_t)((model[b >> 4] >> (8 * (b & 3))) & 0xff) << (8 * i);
    }
    return v;
}

/* Does [off, off + w) touch a reserved slot? */
static bool touches_reserved(unsigned int off, unsigned int w)
{
    unsigned int s;

    for ( s = off & ~0xfu; s < off + w; s += 16 )
        if ( !xreg_at(s) )
            return true;
    return false;
}

/* The register after 'bytes' of val were written at off (its model updated). */
static void model_write(unsigned int off, unsigned int w, uint64_t val)
{
    unsigned int s;

    for ( s = off & ~0xfu; s < off + w; s += 16 )
    {
        const struct xreg *r = xreg_at(s);
        uint32_t v = model[s >> 4];
        bool touched = false;
        unsigned int i;

        if ( !r || r->kind == K_RO || r->kind == K_EOI )
            continue;
        for ( i = 0; i < 4; i++ )
            if ( s + i >= off && s + i < off + w )
            {
                v = (v & ~(0xffu << (8 * i))) | (uint32_t)((val >> (8 * (s + i - off)) & 0xff) << (8 * i));
                touched = true;
            }
        if ( !touched )
            continue;
        switch ( r->kind )
        {
        case K_ESR:
            v = 0;                          /* the errors since the last write */
            break;
        case K_RW:
            if ( s == 0x380 && (model[0x32] & 0x60000) == 0x40000 )
                v = 0;                      /* TMICT: ignored in TSC-deadline mode */
            v = (v & r->mask) | r->fixed;
            break;
        case K_LVTT:
            if ( (v & 0x60000) == 0x60000 )  /* reserved mode: stays */
                v = (v & ~0x60000) | (model[s >> 4] & 0x60000);
            if ( ((v ^ model[s >> 4]) & 0x60000) &&
                 (((v & 0x60000) == 0x40000) != ((model[s >> 4] & 0x60000) == 0x40000)) )
                model[0x38] = 0;            /* in or out of TSC-deadline: TMICT 0 */
            v = (v & r->mask) | r->fixed;
            break;
        default:
            v = (v & r->mask) | r->fixed;
            break;
        }
        model[s >> 4] = v;
        if ( s == 0x80 )
            model[0xa] = v;                 /* PPR follows TPR (nothing in service) */
    }
}

static void set_reg(unsigned int off, uint32_t val)
{
    REG(off) = val;
    model_write(off, 4, val);
}

/* A known state: each writable register holds something distinctive. */
static void xapic_setup(void)
{
    unsigned int i;

    for ( i = 0; i < 256; i++ )
        model[i] = 0;
    model[0x03] = REG(0x30);                /* version */
    check_val("version", model[0x03] & 0xff00ff, 0x050014);
    model[0x0e] = 0xffffffff;               /* DFR */
    model[0x0f] = 0xff;
    for ( i = 0x32; i <= 0x37; i++ )
        model[i] = 0x10000;
    set_reg(0xf0, 0x1ff);
    set_reg(0x80, 0x45);
    set_reg(0xd0, 0x01000000);
    set_reg(0xe0, 0xffffffff);
    set_reg(0x310, 0x03000000);
    set_reg(0x300, 0x00000200);             /* an SMI IPI: ignored */
    set_reg(0x320, 0x10061);
    set_reg(0x330, 0x10062);
    set_reg(0x340, 0x10063);
    set_reg(0x350, 0x10700);
    set_reg(0x360, 0x10400);
    set_reg(0x370, 0x100fe);
    set_reg(0x3e0, 0x9);
    esr_latch();
}

/* Every slot, every offset, every width: reads. */
static void xapic_reads(void)
{
    static const unsigned int widths[] = { 1, 2, 4, 8 };
    unsigned int slot, o, wi, w;

    for ( slot = 0; slot < 256; slot++ )
        for ( wi = 0; wi < ARRAY_SIZE(widths); wi++ )
            for ( w = widths[wi], o = 0; o + w <= 16; o++ )
            {
                unsigned int off = slot * 16 + o;
                bool rsvd = touches_reserved(off, w);

                expect_eq("read", off | (w << 12), mmio_read(off, w), model_bytes(off, w));
                expect_eq("ESR after read", off | (w << 12), esr_latch(), rsvd ? 0x80 : 0);
            }
    table_summary("xAPIC reads: 256 slots x every offset x widths 1, 2, 4, 8");

    /* Straddling two slots: the bytes of each. */
    for ( o = 0x2c; o < 0x34; o++ )
        for ( wi = 1; wi < ARRAY_SIZE(widths); wi++ )
        {
            w = widths[wi];
            expect_eq("straddling read", o | (w << 12), mmio_read(o, w), model_bytes(o, w));
            esr_latch();
        }
    expect_eq("read across a reserved slot into TPR", 0x7c, mmio_read(0x7c, 8), model_bytes(0x7c, 8));
    expect_eq("ESR: the reserved slot counted", 0x7c, esr_latch(), 0x80);
    table_summary("xAPIC reads across slot boundaries");
}

/*
 * The value to write w bytes at register offset o so that the register's
 * byte 'byte' (if the write covers it) has (b & mask) == want.
 */
static uint64_t keep_bits(uint64_t v, unsigned int o, unsigned int w, unsigned int byte,
                          uint8_t mask, uint8_t want)
{
    unsigned int idx;

    if ( o > byte || o + w <= byte )
        return v;
    idx = byte - o;
    return (v & ~((uint64_t)mask << (8 * idx))) | ((uint64_t)want << (8 * idx));
}

/* Patterns written at every width and offset. */
static void xapic_writes(void)
{
    static const uint32_t pat[] = { 0xffffffff, 0x5a5b5a5a, 0xa5a5a5a5, 0 };
    unsigned int i, p, w, o;

    for ( i = 0; i < ARRAY_SIZE(xregs); i++ )
    {
        const struct xreg *r = &xregs[i];

        for ( p = 0; p < ARRAY_SIZE(pat); p++ )
            for ( w = 1; w <= 8; w <<= 1 )
                for ( o = 0; o + w <= 16; o += (w < 4 ? 1 : 4) )
                {
                    uint64_t v = pat[p] | ((uint64_t)pat[p] << 32);
                    unsigned int off = r->off + o;

                    /*
                     * Keep the ICR an SMI (ignored), SVR software-enabled
                     * and the LVTs masked, whatever bytes are written.
                     */
                    if ( r->kind == K_ICR )
                        v = keep_bits(v, o, w, 1, 0x07, 0x02);
                    else if ( r->kind == K_SVR )
                        v = keep_bits(v, o, w, 1, 0x01, 0x01);
                    else if ( r->off >= 0x320 && r->off <= 0x370 )
                        v = keep_bits(v, o, w, 2, 0x01, 0x01);
                    mmio_write(off, w, v);
                    model_write(off, w, v);
                    expect_eq(r->name, off | (w << 12), REG(r->off), model[r->off >> 4]);
                    expect_eq("no ESR error", off | (w << 12), esr_latch(), 0);
                    if ( r->off == 0x380 )
                        set_reg(0x380, 0);      /* TMICT: no count left running */
                }
    }
    /* Reserved slots: ignored, and ESR bit 7. */
    for ( o = 0; o < 0x1000; o += 16 )
        if ( !xreg_at(o) )
        {
            mmio_write(o, 4, 0xffffffff);
            expect_eq("reserved write: ESR", o, esr_latch(), 0x80);
            expect_eq("reserved write: reads 0", o, mmio_read(o, 4), 0);
            esr_latch();
        }
    /* Straddling: the bytes that fall on a register are written. */
    mmio_write(0x7e, 4, 0x12345678);
    model_write(0x7e, 4, 0x12345678);
    expect_eq("straddling write into TPR", 0x7e, REG(0x80), model[0x8]);
    expect_eq("ESR: the reserved slot counted", 0x7e, esr_latch(), 0x80);
    table_summary("xAPIC writes: every register x patterns x widths x offsets");
}

/* Read-modify-write instructions, on RAM and on the register. */
#define RMW(name, insn)                                                       \
static unsigned long name(volatile void *p)                                   \
{                                                                             \
    unsigned long f, a = 0x11, c = 3;                                         \
                                                                              \
    asm volatile ( "push $0x2; popf; " insn "; pushf; pop %0"                 \
                   : "=&r" (f), "+m" (*(volatile uint32_t *)p), "+a" (a), "+c" (c) \
                   :: "cc", "memory" );                                       \
    return f & 0x8d5;                                                         \
}
RMW(rmw_or,    "orl $0x5a, %1")
RMW(rmw_and,   "andl $0xf0f0f0f0, %1")
RMW(rmw_xor,   "xorl $0x3c, %1")
RMW(rmw_add,   "addl $0x11, %1")
RMW(rmw_sub,   "subl $0x23, %1")
RMW(rmw_inc,   "incl %1")
RMW(rmw_dec,   "decl %1")
RMW(rmw_not,   "notl %1")
RMW(rmw_neg,   "negl %1")
RMW(rmw_bts,   "btsl $3, %1")
RMW(rmw_btr,   "btrl $0, %1")
RMW(rmw_btc,   "btcl $25, %1")
RMW(rmw_btsr,  "btsl %%ecx, %1")
RMW(rmw_shl,   "shll $4, %1")
RMW(rmw_shr,   "shrl %%cl, %1")
RMW(rmw_rol,   "roll $8, %1")
RMW(rmw_xchg,  "xchgl %%eax, %1")
RMW(rmw_xadd,  "lock xaddl %%eax, %1")
RMW(rmw_cmpx,  "cmpxchgl %%ecx, %1")
RMW(rmw_lock,  "lock orl $0x80, %1")
RMW(rmw_orb,   "orb $0x0f, %1")
RMW(rmw_andw,  "andw $0x00ff, %1")
RMW(rmw_adcb,  "stc; adcb $1, %1")
RMW(rmw_cmp,   "cmpl $0x45, %1")
RMW(rmw_test,  "testl $0x40, %1")
RMW(rmw_bt,    "btl $6, %1")

static const struct {
    const char *name;
    unsigned long (*fn)(volatile void *p);
} rmws[] = {
    { "or", rmw_or }, { "and", rmw_and }, { "xor", rmw_xor }, { "add", rmw_add },
    { "sub", rmw_sub }, { "inc", rmw_inc }, { "dec", rmw_dec }, { "not", rmw_not },
    { "neg", rmw_neg }, { "bts", rmw_bts }, { "btr", rmw_btr }, { "btc", rmw_btc },
    { "bts r", rmw_btsr }, { "shl", rmw_shl }, { "shr cl", rmw_shr }, { "rol", rmw_rol },
    { "xchg", rmw_xchg }, { "lock xadd", rmw_xadd }, { "cmpxchg", rmw_cmpx },
    { "lock or", rmw_lock }, { "orb", rmw_orb }, { "andw", rmw_andw }, { "adcb", rmw_adcb },
    { "cmp", rmw_cmp }, { "test", rmw_test }, { "bt", rmw_bt },
};

static void xapic_rmw(void)
{
    /* Writable, read-only (virtualized read, and one whose read exits), reserved. */
    static const unsigned int targets[] = { 0x80, 0xd0, 0x3e0, 0x350, 0x360, 0x30, 0x390,
                                            0x100, 0x40, 0x3f0 };
    unsigned int t, i, off;

    for ( t = 0; t < ARRAY_SIZE(targets); t++ )
        for ( i = 0; i < ARRAY_SIZE(rmws); i++ )
        {
            volatile uint32_t ram;
            unsigned long fr, fa;
            bool rsvd;

            off = targets[t];
            rsvd = !xreg_at(off);
            /* LINT0/1 unmasked deliver nothing here: any value will do. */
            ram = rsvd ? 0 : REG(off);
            fr = rmws[i].fn(&ram);
            fa = rmws[i].fn((volatile void *)(APIC + off));
            expect_eq(rmws[i].name, off, fa, fr);
            /* What the instruction wrote: byte and word forms write fewer bytes. */
            if ( rmws[i].fn == rmw_orb || rmws[i].fn == rmw_adcb )
                model_write(off, 1, ram);
            else if ( rmws[i].fn == rmw_andw )
                model_write(off, 2, ram);
            else if ( rmws[i].fn != rmw_cmp && rmws[i].fn != rmw_test && rmws[i].fn != rmw_bt )
                model_write(off, 4, ram);
            if ( !rsvd )
                expect_eq(rmws[i].name, off, REG(off), model[off >> 4]);
            expect_eq("ESR", off, esr_latch(), rsvd ? 0x80 : 0);
        }
    table_summary("xAPIC read-modify-write: 26 instructions x 10 registers");
}

void part_xapic(void)
{
    printk("xAPIC register file (MMIO):\n");
    xapic_setup();
    xapic_reads();
    xapic_writes();
    xapic_setup();
    xapic_rmw();
    set_reg(0xf0, 0xff);
}

/* ---- x2APIC MSRs ------------------------------------------------------------ */

enum { X_GP = 0, X_R = 1, X_W = 2, X_RW = 3 };

struct x2reg {
    uint16_t msr;
    uint8_t acc;
    uint64_t mask;              /* WRMSR: bits that may be set */
    uint64_t ro;                /* of those, bits that read back 0 (read-only) */
    uint64_t probe;             /* a value inside mask to write and read back */
};

static const struct x2reg x2regs[] = {
    { 0x802, X_R, 0, 0, 0 }, { 0x803, X_R, 0, 0, 0 },
    { 0x808, X_RW, 0xff, 0, 0xa5 },
    { 0x80a, X_R, 0, 0, 0 },
    { 0x80b, X_W, 0, 0, 0 },                        /* EOI: 0 only */
    { 0x80d, X_R, 0, 0, 0 },
    { 0x80f, X_RW, 0x3ff, 0, 0x3a5 },
    { 0x810, X_R, 0, 0, 0 }, { 0x811, X_R, 0, 0, 0 }, { 0x812, X_R, 0, 0, 0 }, { 0x813, X_R, 0, 0, 0 },
    { 0x814, X_R, 0, 0, 0 }, { 0x815, X_R, 0, 0, 0 }, { 0x816, X_R, 0, 0, 0 }, { 0x817, X_R, 0, 0, 0 },
    { 0x818, X_R, 0, 0, 0 }, { 0x819, X_R, 0, 0, 0 }, { 0x81a, X_R, 0, 0, 0 }, { 0x81b, X_R, 0, 0, 0 },
    { 0x81c, X_R, 0, 0, 0 }, { 0x81d, X_R, 0, 0, 0 }, { 0x81e, X_R, 0, 0, 0 }, { 0x81f, X_R, 0, 0, 0 },
    { 0x820, X_R, 0, 0, 0 }, { 0x821, X_R, 0, 0, 0 }, { 0x822, X_R, 0, 0, 0 }, { 0x823, X_R, 0, 0, 0 },
    { 0x824, X_R, 0, 0, 0 }, { 0x825, X_R, 0, 0, 0 }, { 0x826, X_R, 0, 0, 0 }, { 0x827, X_R, 0, 0, 0 },
    { 0x828, X_RW, 0, 0, 0 },                       /* ESR: writes of 0 only */
    { 0x830, X_RW, 0xffffffff000ccfffULL, 0, 0x00000003000c0200ULL },  /* an SMI */
    { 0x832, X_RW, 0x000710ffULL, 0x1000, 0x100e5 },
    { 0x833, X_RW, 0x000117ffULL, 0x1000, 0x104e6 },
    { 0x834, X_RW, 0x000117ffULL, 0x1000, 0x104e7 },
    { 0x835, X_RW, 0x0001f7ffULL, 0x5000, 0x1a7e8 },
    { 0x836, X_RW, 0x0001f7ffULL, 0x5000, 0x1a4e9 },
    { 0x837, X_RW, 0x000110ffULL, 0x1000, 0x100ea },
    { 0x838, X_RW, 0xffffffffULL, 0, 0 },
    { 0x839, X_R, 0, 0, 0 },
    { 0x83e, X_RW, 0xb, 0, 0xa },
    { 0x83f, X_W, 0xff, 0, 0 },                     /* SELF IPI: tested below */
};

static const struct x2reg *x2reg_at(uint32_t msr)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(x2regs); i++ )
        if ( x2regs[i].msr == msr )
            return &x2regs[i];
    return NULL;
}

static volatile unsigned long self_ipis;

void x2_self_irq(void);
void x2_self_irq(void)
{
    self_ipis++;
    wrmsr(X2(0xb0), 0);
}

void irq_x2self(void);
asm ( ".globl irq_x2self\n irq_x2self:\n"
      " push %rax; push %rcx; push %rdx; push %rsi; push %rdi\n"
      " push %r8; push %r9; push %r10; push %r11\n"
      " mov %rsp, %rax; and $-16, %rsp; push %rax; push %rax\n"
      " cld; call x2_self_irq\n"
      " pop %rax; mov %rax, %rsp\n"
      " pop %r11; pop %r10; pop %r9; pop %r8\n"
      " pop %rdi; pop %rsi; pop %rdx; pop %rcx; pop %rax\n"
      " iretq\n" );

static void x2apic_msrs(void)
{
    uint32_t msr;
    uint64_t v;
    unsigned long ex;

    for ( msr = 0x800; msr <= 0x8ff; msr++ )
    {
        const struct x2reg *r = x2reg_at(msr);
        unsigned int acc = r ? r->acc : X_GP;

        ex = rdmsr_ex(msr, &v);
        expect_eq("RDMSR #GP", msr, ex != 0, !(acc & X_R));
        if ( !(acc & X_W) )
        {
            /* Read-only or reserved: any WRMSR #GPs (0 included). */
            expect_eq("WRMSR 0 #GP", msr, wrmsr_ex(msr, 0) != 0, true);
            expect_eq("WRMSR ~0 #GP", msr, wrmsr_ex(msr, ~0ULL) != 0, true);
            continue;
        }
        if ( msr == 0x83f )
            continue;
        /* Every bit outside the mask #GPs on its own, 63:32 included. */
        {
            unsigned int b;

            for ( b = 0; b < 64; b++ )
                if ( !(r->mask >> b & 1) )
                    expect_eq("reserved bit #GP", msr | (b << 16),
                              wrmsr_ex(msr, 1ULL << b) != 0, true);
        }
        expect_eq("WRMSR probe", msr, wrmsr_ex(msr, r->probe), 0);
        if ( acc & X_R )
        {
            rdmsr_ex(msr, &v);
            expect_eq("read back", msr, v, msr == 0x828 ? 0 : r->probe & ~r->ro);
        }
        /* The read-only bits are accepted and ignored. */
        if ( r->ro )
        {
            expect_eq("WRMSR with read-only bits", msr, wrmsr_ex(msr, r->probe | r->ro), 0);
            rdmsr_ex(msr, &v);
            expect_eq("read-only bits read 0", msr, v & r->ro, 0);
        }
    }
    /* LVT timer mode 3 is reserved. */
    expect_eq("LVTT mode 3 #GP", 0x832, wrmsr_ex(0x832, 0x70000) != 0, true);
    table_summary("x2APIC MSRs 0x800-0x8ff: RDMSR/WRMSR, reserved bits, read-only bits");
}

void part_x2apic(void)
{
    uint64_t base, v;
    unsigned long c;

    printk("x2APIC MSRs and IA32_APIC_BASE:\n");
    set_intr_gate(0x71, irq_x2self);
    rdmsr_ex(MSR_APICBASE, &base);
    check_val("APIC_BASE: enabled BSP at 0xfee00000", base, 0xfee00900);
    check_gp("reserved bit 9", wrmsr_ex(MSR_APICBASE, base | 0x200));
    check_gp("reserved bit 0", wrmsr_ex(MSR_APICBASE, base | 1));
    check_gp("beyond the address width", wrmsr_ex(MSR_APICBASE, base | (1ULL << 52)));
    check_gp("moving the enabled xAPIC", wrmsr_ex(MSR_APICBASE, 0xfec00800));
    check_ok("BSP bit written: ignored", wrmsr_ex(MSR_APICBASE, base & ~0x100UL));
    rdmsr_ex(MSR_APICBASE, &v);
    check_val("BSP stays set on vCPU 0", v, base);
    check_gp("x2APIC MSR in xAPIC mode", rdmsr_ex(0x802, &v));
    check_gp("EXTD without EN", wrmsr_ex(MSR_APICBASE, 0xfee00400));
    check_ok("xAPIC -> x2APIC", wrmsr_ex(MSR_APICBASE, base | 0x400));
    rdmsr_ex(0x802, &v);
    check_val("x2APIC ID", v, 0);
    rdmsr_ex(0x80d, &v);
    check_val("x2APIC LDR: cluster 0, bit 0", v, 1);
    check_ok("software enable", wrmsr_ex(0x80f, 0x1ff));
    x2apic_msrs();
    check_ok("software enable again", wrmsr_ex(0x80f, 0x1ff));
    check_ok("TPR 0 again", wrmsr_ex(0x808, 0));

    /* The ICR is one 64-bit register; SELF IPI. */
    c = self_ipis;
    check_ok("ICR: fixed, self, 0x71", wrmsr_ex(0x830, 0x40000 | 0x71));
    asm volatile ( "sti; nop; nop; cli" ::: "memory" );
    check_val("ICR self IPI delivered once", self_ipis, c + 1);
    check_ok("ICR: physical destination 0 in 63:32", wrmsr_ex(0x830, 0x71));
    asm volatile ( "sti; nop; nop; cli" ::: "memory" );
    check_val("delivered once", self_ipis, c + 2);
    rdmsr_ex(0x830, &v);
    check_val("ICR reads back 64 bits", v, 0x71);
    check_ok("SELF IPI 0x71", wrmsr_ex(0x83f, 0x71));
    asm volatile ( "sti; nop; nop; cli" ::: "memory" );
    check_val("SELF IPI delivered once", self_ipis, c + 3);
    check_gp("SELF IPI bit 8", wrmsr_ex(0x83f, 0x171));
    check_ok("SELF IPI vector 5", wrmsr_ex(0x83f, 5));
    check_ok("ESR write 0", wrmsr_ex(0x828, 0));
    rdmsr_ex(0x828, &v);
    check_val("ESR: send illegal vector", v, 0x20);
    check_gp("ICR2 (0x831) does not exist", wrmsr_ex(0x831, 0));
    check_gp("DFR (0x80e) does not exist", rdmsr_ex(0x80e, &v));

    check_gp("x2APIC -> xAPIC", wrmsr_ex(MSR_APICBASE, base));
    check_ok("x2APIC -> disabled", wrmsr_ex(MSR_APICBASE, base & ~0xc00UL));
    check_gp("x2APIC MSR when disabled", rdmsr_ex(0x802, &v));
    check_gp("disabled -> x2APIC", wrmsr_ex(MSR_APICBASE, base | 0x400));
    check_ok("moving the disabled APIC's base", wrmsr_ex(MSR_APICBASE, 0xfec00000));
    check_gp("enabling it there", wrmsr_ex(MSR_APICBASE, 0xfec00800));
    check_ok("disabled -> xAPIC", wrmsr_ex(MSR_APICBASE, base));
    check_val("SVR back to reset", REG(0xf0), 0xff);
    check_val("LVT timer masked again", REG(0x320), 0x10000);
}
