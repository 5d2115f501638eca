/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The local APIC surfaces (class apic; issue 16):
 *
 *  - xAPIC MMIO at a random offset of the page, 1, 2, 4 or 8 bytes, a
 *    read, a write of a random value or a read-modify-write instruction;
 *    none may fault, and the version register must read what it did;
 *  - x2APIC MSRs 0x800-0x8ff, RDMSR and WRMSR of random values: #GP
 *    exactly where the SDM says (the vLAPIC test's table), in x2APIC mode,
 *    and everywhere in xAPIC mode; TSC_DEADLINE of any value;
 *    IA32_APIC_BASE transitions (legal ones must be taken, others #GP);
 *  - timer re-arm storms with interrupts on: the periodic timer at its
 *    minimum, a TSC deadline re-armed in the past from its own handler, a
 *    one-shot count of 1 re-armed from its handler; each must deliver its
 *    interrupts and end (the witness beside us must not notice).
 *
 * The guest does not shoot itself: it never sends INIT to itself (its
 * only vCPU would go down and the domain with it, as on Xen), never asks
 * for an interrupt on vectors 16-31 (the exception vectors), and puts
 * the APIC back to enabled xAPIC mode with TPR as it was after each
 * operation.  NMIs it sends itself are counted by its own NMI handler.
 */
#include "fuzz.h"
#include "events.h"
#include "fault.h"

#define APIC            0xfee00000UL
#define MSR_APICBASE    0x1b
#define MSR_TSC_DEADLINE 0x6e0
#define APICBASE_XAPIC  0xfee00900UL    /* enabled, BSP, default base */

static unsigned long n_mmio, n_msr, n_base, n_storms, n_irqs, n_nmis;

/* ---- interrupt handlers ------------------------------------------------------ */

static volatile unsigned long storm_irqs;
static volatile unsigned int storm_kind;       /* 0: none */
static unsigned long storm_want;

static bool x2apic_mode(void)
{
    return rdmsr(MSR_APICBASE) & 0x400;
}

static void eoi(void)
{
    if ( x2apic_mode() )
        wrmsr(0x80b, 0);
    else
        *(volatile uint32_t *)(APIC + 0xb0) = 0;
}

void fuzz_apic_irq(unsigned long vec);
void fuzz_apic_irq(unsigned long vec)
{
    if ( vec == 2 )
    {
        n_nmis++;
        return;
    }
    n_irqs++;
    if ( vec == 0x42 && storm_kind )
    {
        /*
         * At these rates a guest interrupt costs more than the period: the
         * loop below would never run again, so the handler ends the storm.
         */
        if ( ++storm_irqs >= storm_want )
            *(volatile uint32_t *)(APIC + 0x320) = 0x10000;
        else if ( storm_kind == 2 )
            wrmsr(MSR_TSC_DEADLINE, rdtsc() - 1);
        else if ( storm_kind == 3 )
            *(volatile uint32_t *)(APIC + 0x380) = 1;
    }
    eoi();
}

/* One 16-byte stub per vector: save %rdi, load the vector, go to the common part. */
asm ( ".pushsection .text\n"
      "fuzz_irq_common:\n"
      " push %rax; push %rcx; push %rdx; push %rsi\n"
      " push %r8; push %r9; push %r10; push %r11\n"
      " mov %rsp, %rax; and $-16, %rsp; push %rax; push %rax\n"
      " cld; call fuzz_apic_irq\n"
      " pop %rax; mov %rax, %rsp\n"
      " pop %r11; pop %r10; pop %r9; pop %r8\n"
      " pop %rsi; pop %rdx; pop %rcx; pop %rax\n"
      " pop %rdi\n"
      " iretq\n"
      " .p2align 4\n"
      ".globl fuzz_irq_stubs\n"
      "fuzz_irq_stubs:\n"
      " .set vec, 0\n"
      " .rept 256\n"
      " .p2align 4\n"
      " push %rdi\n"
      " mov $vec, %edi\n"
      " jmp fuzz_irq_common\n"
      " .set vec, vec + 1\n"
      " .endr\n"
      ".popsection\n" );

extern const uint8_t fuzz_irq_stubs[];
#define STUB(v) ((void (*)(void))(fuzz_irq_stubs + 16 * (v)))

struct idt_entry16 { uint64_t lo, hi; };

static struct idt_entry16 saved_idt[256];

static struct idt_entry16 *idt_base(void)
{
    struct { uint16_t limit; uint64_t base; } __attribute__((packed)) d;

    asm volatile ( "sidt %0" : "=m" (d) );
    return (struct idt_entry16 *)d.base;
}

/* The stubs on vectors 16-255 while interrupts are on; the library's back after. */
static void irq_gates_install(void)
{
    struct idt_entry16 *idt = idt_base();
    unsigned int v;

    for ( v = 16; v < 256; v++ )
    {
        saved_idt[v] = idt[v];
        set_intr_gate(v, STUB(v));
    }
}

static void irq_gates_restore(void)
{
    struct idt_entry16 *idt = idt_base();
    unsigned int v;

    for ( v = 16; v < 256; v++ )
        idt[v] = saved_idt[v];
}

void fuzz_apic_init(void)
{
    set_intr_gate(2, STUB(2));
}

/* ---- keeping ourselves alive ----------------------------------------------------- */

/* Vectors 16-31 are the exceptions': move a deliverable vector above them. */
static uint32_t safe_vector(uint32_t v)
{
    if ( (v & 0xff) >= 16 && (v & 0xff) < 32 )
        v += 32;
    return v;
}

/* The low half of an ICR: no INIT to ourselves (it would end this domain). */
static uint32_t safe_icr(uint32_t lo)
{
    if ( ((lo >> 8) & 7) == 5 )
        lo ^= 0x100;                    /* INIT -> NMI */
    return safe_vector(lo);
}

uint64_t fuzz_apic_sanitize(uint32_t msr, uint64_t val)
{
    switch ( msr )
    {
    case 0x830:
        return (val & ~0xffffffffULL) | safe_icr(val);
    case 0x832 ... 0x837:
    case 0x83f:
        return (val & ~0xffULL) | safe_vector(val & 0xff);
    }
    return val;
}

/* Back to enabled xAPIC mode at 0xfee00000 with TPR 'tpr'. */
static void apic_restore(uint8_t tpr)
{
    uint64_t base = rdmsr(MSR_APICBASE);

    if ( (base & 0xc00) == 0xc00 )
        wrmsr(MSR_APICBASE, base & ~0xc00UL);           /* x2APIC -> off */
    if ( rdmsr(MSR_APICBASE) != APICBASE_XAPIC )
        wrmsr(MSR_APICBASE, APICBASE_XAPIC);
    *(volatile uint32_t *)(APIC + 0xf0) = 0x1ff;
    *(volatile uint32_t *)(APIC + 0x80) = tpr;
}

/* ---- the x2APIC table (the SDM's; tests/vlapic/regs.c checks it in detail) ----- */

/* Bits WRMSR may set; ~0: not writable at all.  0: write 0 only. */
static bool x2apic_rule(uint32_t msr, bool *readable, uint64_t *mask)
{
    *readable = true;
    switch ( msr )
    {
    case 0x802: case 0x803: case 0x80a: case 0x80d: case 0x839:
    case 0x810 ... 0x827:
        *mask = ~0ULL;                  /* read-only */
        return true;
    case 0x808: *mask = 0xff; return true;
    case 0x80b: *readable = false; *mask = 0; return true;
    case 0x80f: *mask = 0x3ff; return true;
    case 0x828: *mask = 0; return true;
    case 0x830: *mask = 0xffffffff000ccfffULL; return true;
    case 0x832: *mask = 0x710ff; return true;
    case 0x833: case 0x834: *mask = 0x117ff; return true;
    case 0x835: case 0x836: *mask = 0x1f7ff; return true;
    case 0x837: *mask = 0x110ff; return true;
    case 0x838: *mask = 0xffffffffULL; return true;
    case 0x83e: *mask = 0xb; return true;
    case 0x83f: *readable = false; *mask = 0xff; return true;
    }
    return false;                       /* reserved */
}

static void fuzz_x2apic_msr(uint32_t msr)
{
    bool x2 = x2apic_mode(), readable, exists;
    uint64_t mask = 0, v = 0, val;
    unsigned long ex;

    exists = x2apic_rule(msr, &readable, &mask);
    trace("apic rdmsr %#x\n", msr);
    ex = rdmsr_ex(msr, &v);
    if ( (ex != 0) != !(x2 && exists && readable) )
        fuzz_fail("rdmsr %#x in %s mode: %s, expected %s\n", msr, x2 ? "x2APIC" : "xAPIC",
                  ex ? "#GP" : "no fault", x2 && exists && readable ? "no fault" : "#GP");
    if ( ex )
        count_fault(ex);

    val = fuzz_chance(50) ? fuzz_rand() & (mask | (fuzz_chance(20) ? 1ULL << fuzz_below(64) : 0))
                          : fuzz_value();
    if ( msr == 0x832 && (val & 0x60000) == 0x60000 && fuzz_chance(70) )
        val &= ~0x20000ULL;             /* mostly not the reserved timer mode */
    val = fuzz_apic_sanitize(msr, val);
    trace("apic wrmsr %#x %#lx\n", msr, val);
    ex = wrmsr_ex(msr, val);
    {
        bool ok = x2 && exists && mask != ~0ULL && !(val & ~mask) &&
                  !(msr == 0x832 && (val & 0x60000) == 0x60000);

        if ( (ex != 0) != !ok )
            fuzz_fail("wrmsr %#x %#lx in %s mode: %s, expected %s\n", msr, val,
                      x2 ? "x2APIC" : "xAPIC", ex ? "#GP" : "no fault", ok ? "no fault" : "#GP");
    }
    if ( ex )
        count_fault(ex);
}

static void fuzz_apic_base(void)
{
    static const uint64_t modes[] = { 0, 0x800, 0xc00, 0x400 };
    uint64_t old = rdmsr(MSR_APICBASE), val;
    unsigned int om = (old >> 10) & 3, nm = fuzz_below(4);
    unsigned long ex;
    bool legal;

    val = 0xfee00000UL | 0x100 | modes[nm];
    if ( fuzz_chance(10) )
        val ^= 1UL << fuzz_below(64);   /* a reserved bit, the base, the BSP bit... */
    nm = (val >> 10) & 3;
    /* SDM 10.12.5: off <-> xAPIC -> x2APIC -> off; never EXTD without EN. */
    legal = nm != 1 && !(om == 3 && nm == 2) && !(om == 0 && nm == 3);
    if ( (val & 0xfff) & ~0xd00UL )
        legal = false;                  /* bits 7:0, 9 reserved */
    if ( nm == 2 && (val & ~0xfffUL) != 0xfee00000UL )
        legal = false;                  /* the xAPIC stays where it is (Xen) */
    trace("apic base %#lx -> %#lx\n", old, val);
    ex = wrmsr_ex(MSR_APICBASE, val);
    /* A base beyond the address width may #GP whatever the rest says. */
    if ( !((val >> 32) && ex) && (ex != 0) != !legal )
        fuzz_fail("wrmsr APIC_BASE %#lx -> %#lx: %s, expected %s\n", old, val,
                  ex ? "#GP" : "no fault", legal ? "no fault" : "#GP");
    if ( ex )
        count_fault(ex);
    n_base++;
}

/* ---- xAPIC MMIO ------------------------------------------------------------------ */

/* Registers whose value an RMW may produce without harm (no delivery). */
static bool rmw_safe(unsigned int off)
{
    switch ( off & 0xff0 )
    {
    case 0x300: case 0x320 ... 0x370: case 0x3f0: case 0xf0:
        return false;                   /* ICR, LVTs, SVR: pick their values */
    }
    return true;
}

static void fuzz_mmio(void)
{
    unsigned int off = fuzz_chance(60) ? (fuzz_below(0x40) << 4) | fuzz_below(16)
                                       : fuzz_below(PAGE_SIZE);
    unsigned int w = 1u << fuzz_below(4);
    volatile void *p;
    uint64_t v = fuzz_value();
    unsigned long ex = 0;

    if ( off + w > PAGE_SIZE )
        off = PAGE_SIZE - w;
    p = (volatile void *)(APIC + off);
    n_mmio++;
    switch ( fuzz_below(3) )
    {
    case 0:
        trace("apic read %#x/%u\n", off, w);
        switch ( w )
        {
        case 1: asm volatile ( "1: movb (%1), %%al; 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "r" (p) : "rax", "memory" ); break;
        case 2: asm volatile ( "1: movw (%1), %%ax; 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "r" (p) : "rax", "memory" ); break;
        case 4: asm volatile ( "1: movl (%1), %%eax; 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "r" (p) : "rax", "memory" ); break;
        default: asm volatile ( "1: movq (%1), %%rax; 2:" _ASM_EXTABLE(1b, 2b)
                                : "+D" (ex) : "r" (p) : "rax", "memory" ); break;
        }
        break;
    case 1:
        /* The registers that deliver get their values picked (see above). */
        /* The ICR's delivery mode byte (bits 15:8): never INIT. */
        if ( off <= 0x301 && off + w > 0x301 )
        {
            static const uint8_t dm[] = { 0, 1, 2, 3, 4, 6, 7 };
            unsigned int at = 8 * (0x301 - off);

            v = (v & ~(7ULL << at)) | ((uint64_t)dm[fuzz_below(ARRAY_SIZE(dm))] << at);
        }
        trace("apic write %#x/%u %#lx\n", off, w, v);
        switch ( w )
        {
        case 1: asm volatile ( "1: movb %b1, (%2); 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "q" (v), "r" (p) : "memory" ); break;
        case 2: asm volatile ( "1: movw %w1, (%2); 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "r" (v), "r" (p) : "memory" ); break;
        case 4: asm volatile ( "1: movl %k1, (%2); 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "r" (v), "r" (p) : "memory" ); break;
        default: asm volatile ( "1: movq %1, (%2); 2:" _ASM_EXTABLE(1b, 2b)
                                : "+D" (ex) : "r" (v), "r" (p) : "memory" ); break;
        }
        break;
    default:
        if ( !rmw_safe(off) || (off + 4 > PAGE_SIZE) )
            break;
        trace("apic rmw %#x\n", off);
        switch ( fuzz_below(6) )
        {
        case 0: asm volatile ( "1: lock orl %k1, (%2); 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "r" (v), "r" (p) : "memory", "cc" ); break;
        case 1: asm volatile ( "1: andw %w1, (%2); 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "r" (v), "r" (p) : "memory", "cc" ); break;
        case 2: asm volatile ( "1: xorb %b1, (%2); 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "q" (v), "r" (p) : "memory", "cc" ); break;
        case 3: asm volatile ( "1: incl (%1); 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "r" (p) : "memory", "cc" ); break;
        case 4: asm volatile ( "1: btsl %k1, (%2); 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "r" (v & 31), "r" (p) : "memory", "cc" ); break;
        default: asm volatile ( "1: xchgl %k1, (%2); 2:" _ASM_EXTABLE(1b, 2b)
                                : "+D" (ex), "+r" (v) : "r" (p) : "memory" ); break;
        }
        break;
    }
    if ( ex )
        fuzz_fail("APIC MMIO at %#x (%u bytes): vector %u\n", off, w, EXINFO_VECTOR(ex));
}

/* ---- timer storms -------------------------------------------------------------- */

static void storm(void)
{
    unsigned int kind = 1 + fuzz_below(3);
    unsigned long want = 10 + fuzz_below(40), spins;
    volatile uint32_t *r = (volatile uint32_t *)APIC;

    n_storms++;
    trace("apic storm %u x%lu\n", kind, want);
    irq_gates_install();
    storm_irqs = 0;
    storm_want = want;
    storm_kind = kind;
    r[0xf0 / 4] = 0x1ff;
    r[0x80 / 4] = 0;
    r[0x3e0 / 4] = 0xb;
    switch ( kind )
    {
    case 1:
        r[0x320 / 4] = 0x20000 | 0x42;  /* periodic, the minimum period */
        r[0x380 / 4] = 1;
        break;
    case 2:
        r[0x320 / 4] = 0x40000 | 0x42;
        wrmsr(MSR_TSC_DEADLINE, 1);     /* long past */
        break;
    default:
        r[0x320 / 4] = 0x42;
        r[0x380 / 4] = 1;
        break;
    }
    for ( spins = 0; storm_irqs < want && spins < 2000000; spins++ )
        asm volatile ( "sti; nop; cli" ::: "memory" );
    storm_kind = 0;
    r[0x320 / 4] = 0x10000;
    r[0x380 / 4] = 0;
    wrmsr(MSR_TSC_DEADLINE, 0);
    /* Whatever was latched meanwhile is taken now, by the stubs. */
    asm volatile ( "sti; nop; nop; nop; cli" ::: "memory" );
    irq_gates_restore();
    if ( storm_irqs < want )
        fuzz_fail("timer storm %u: %lu of %lu interrupts in %lu spins\n", kind,
                  storm_irqs, want, spins);
}

/* ---- the class ----------------------------------------------------------------- */

bool fuzz_apic_msr_owned(uint32_t msr)
{
    return msr == MSR_APICBASE || msr == MSR_TSC_DEADLINE ||
           (msr >= 0x800 && msr <= 0x8ff);
}

void fuzz_apic_msr(uint32_t msr)
{
    uint8_t tpr = *(volatile uint32_t *)(APIC + 0x80);
    uint64_t v = 0;

    n_msr++;
    if ( msr == MSR_APICBASE )
        fuzz_apic_base();
    else if ( msr == MSR_TSC_DEADLINE )
    {
        v = fuzz_value();
        trace("apic deadline %#lx\n", v);
        if ( wrmsr_ex(MSR_TSC_DEADLINE, v) )
            fuzz_fail("wrmsr TSC_DEADLINE %#lx: fault\n", v);
        wrmsr(MSR_TSC_DEADLINE, 0);
    }
    else
    {
        /* Half the time in x2APIC mode, where the range exists. */
        if ( fuzz_chance(50) && !x2apic_mode() )
            wrmsr(MSR_APICBASE, APICBASE_XAPIC | 0x400);
        fuzz_x2apic_msr(msr);
    }
    apic_restore(tpr);
}

void fuzz_apic(void)
{
    uint8_t tpr = *(volatile uint32_t *)(APIC + 0x80);
    static const uint32_t msrs[] = { MSR_APICBASE, MSR_TSC_DEADLINE };

    switch ( fuzz_below(10) )
    {
    case 0: case 1: case 2: case 3:
        fuzz_mmio();
        break;
    case 4: case 5: case 6:
        fuzz_apic_msr(fuzz_chance(25) ? msrs[fuzz_below(2)] : 0x800 + fuzz_below(0x100));
        break;
    default:
        if ( fuzz_chance(30) )
            storm();
        else
            fuzz_mmio();
        break;
    }
    apic_restore(tpr);
}

void fuzz_apic_summary(void)
{
    printk("summary: apic: %lu MMIO accesses, %lu MSR operations, %lu APIC_BASE writes, "
           "%lu timer storms, %lu interrupts, %lu NMIs\n",
           n_mmio, n_msr, n_base, n_storms, n_irqs, n_nmis);
}
