/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The emulated local APIC (hvm/vlapic.c), as a guest sees it:
 *
 *   xAPIC: reset values (ID = vCPU id, version, SVR, masked LVTs), the
 *     software enable, writable bits only (LDR, DFR, TDCR, LVTs);
 *   self-IPI (ICR, fixed, "self" shorthand) delivered through the IDT;
 *     vectors < 16 set ESR "send illegal vector" and are not delivered;
 *   TPR masking (MMIO and CR8): a vector at or below TPR waits, lowering
 *     TPR delivers it; EOI/ISR nesting: a higher vector interrupts a lower
 *     one in service, the lower one is held back until its EOI;
 *   timers counted, never timed: one-shot (exactly one interrupt),
 *     periodic (several, then stopped by TMICT = 0), TSC deadline (one;
 *     the MSR reads 0 once it fired); HLT woken by the timer;
 *   IPI from vCPU 0 to vCPU 1 (physical and logical destinations);
 *   x2APIC: the mode switch through APIC_BASE, ID/LDR/version MSRs, the
 *     self-IPI MSR, EOI MSR; reserved bits, read-only registers and
 *     x2APIC -> xAPIC #GP.
 */
#include "vlapic.h"

const char test_title[] = "Local APIC (xAPIC, x2APIC, timers, IPIs)";

#define V_LOW   0x40
#define V_HIGH  0x80
#define V_TIMER 0x60
#define V_IPI   0x70

static volatile unsigned long hits[256];
static volatile int nest_seen_low_in_service;
static volatile bool raise_high;

void lapic_irq(unsigned long vec);
void lapic_irq(unsigned long vec)
{
    hits[vec]++;
    if ( vec == V_HIGH && hits[V_LOW] && !nest_seen_low_in_service )
        /* Did we interrupt V_LOW's handler?  Its ISR bit is still set. */
        nest_seen_low_in_service = (REG(0x100 + (V_LOW / 32) * 16) >> (V_LOW % 32)) & 1;
    if ( vec == V_LOW && raise_high )
    {
        raise_high = false;
        /* In V_LOW's handler: raise V_HIGH, with interrupts on it must nest. */
        REG(0x310) = 0;
        REG(0x300) = 0x40000 | V_HIGH;
        asm volatile ( "sti; nop; nop; cli" ::: "memory" );
    }
}

/* One entry stub per vector used: save the caller-saved registers, call lapic_irq, EOI. */
#define STUB(vec)                                                           \
    void irq_##vec(void);                                                   \
    asm ( ".globl irq_" #vec "\n irq_" #vec ":\n"                           \
          " push %rax; push %rcx; push %rdx; push %rsi; push %rdi\n"         \
          " push %r8; push %r9; push %r10; push %r11\n"                      \
          " mov %rsp, %rax; and $-16, %rsp; push %rax; push %rax\n"          \
          " mov $" #vec ", %edi; cld; call lapic_irq\n"                      \
          " pop %rax; mov %rax, %rsp\n"                                      \
          " pop %r11; pop %r10; pop %r9; pop %r8\n"                          \
          " pop %rdi; pop %rsi; pop %rdx; pop %rcx; pop %rax\n"              \
          " jmp lapic_eoi_iret\n" );
asm ( ".globl lapic_eoi_iret\n lapic_eoi_iret:\n"
      " push %rax; xor %eax, %eax\n"
      " testb $1, x2apic_on(%rip); jnz 1f\n"
      " movl %eax, 0xfee000b0\n pop %rax; iretq\n"
      "1: push %rcx; push %rdx; mov $0x80b, %ecx; xor %edx, %edx; wrmsr\n"
      " pop %rdx; pop %rcx; pop %rax; iretq\n" );
volatile bool x2apic_on;
STUB(0x40) STUB(0x60) STUB(0x70) STUB(0x80)

static void sti_nop_cli(void)
{
    asm volatile ( "sti; nop; nop; cli" ::: "memory" );
}

static void wait_for(volatile unsigned long *cnt, unsigned long want)
{
    unsigned long spins;

    for ( spins = 0; *cnt < want && spins < 2000000; spins++ )
        sti_nop_cli();
}

static void test_xapic_regs(void)
{
    printk("xAPIC registers:\n");
    check_val("ID (vCPU 0)", REG(0x20), 0);
    check_val("version", REG(0x30) & 0xff00ff, 0x050014);
    check_val("SVR at reset", REG(0xf0), 0xff);
    check_val("LVT timer masked at reset", REG(0x320), 0x10000);
    REG(0x320) = V_TIMER;
    check_val("LVT stays masked while software-disabled", REG(0x320), 0x10000 | V_TIMER);
    REG(0xf0) = 0x1ff;
    check_val("SVR: software enabled", REG(0xf0), 0x1ff);
    REG(0xd0) = 0xffffffff;
    check_val("LDR: bits 31:24 only", REG(0xd0), 0xff000000);
    REG(0xd0) = 0x01000000;
    REG(0xe0) = 0;
    check_val("DFR: bits 31:28 only", REG(0xe0), 0x0fffffff);
    REG(0xe0) = 0xffffffff;
    REG(0x3e0) = 0xffffffff;
    check_val("TDCR: bits 3,1,0 only", REG(0x3e0), 0xb);
    REG(0x350) = 0xffffffff;
    check_val("LINT0: defined bits only", REG(0x350), 0x1a7ff);
    REG(0x350) = 0x10000;
    REG(0x20) = 0x05000000;
    check_val("ID is read-only", REG(0x20), 0);
    check_val("PPR at TPR 0", REG(0xa0), 0);
}

static void test_ipis_self(void)
{
    printk("Self-IPIs, TPR, EOI nesting:\n");
    REG(0x280) = 0;
    REG(0x310) = 0;
    REG(0x300) = 0x40000 | V_IPI;                       /* self, fixed */
    sti_nop_cli();
    check_val("self-IPI delivered once", hits[V_IPI], 1);
    check_val("ISR empty after EOI", REG(0x100 + (V_IPI / 32) * 16), 0);

    REG(0x300) = 0x40000 | 0x05;                         /* illegal vector */
    REG(0x280) = 0;
    check_val("vector 5: ESR send illegal vector", REG(0x280), 0x20);
    REG(0x280) = 0;
    check_val("ESR cleared by the next write", REG(0x280), 0);

    REG(0x80) = 0x70;                                    /* TPR class 7 */
    check_val("PPR follows TPR", REG(0xa0), 0x70);
    REG(0x300) = 0x40000 | V_IPI;
    sti_nop_cli();
    check_val("TPR 0x70 holds back vector 0x70", hits[V_IPI], 1);
    check_true("it waits in IRR", REG(0x200 + (V_IPI / 32) * 16) & (1u << (V_IPI % 32)));
    REG(0x80) = 0x60;
    sti_nop_cli();
    check_val("TPR 0x60: delivered", hits[V_IPI], 2);

    asm volatile ( "mov %0, %%cr8" :: "r" (7UL) );
    REG(0x300) = 0x40000 | V_IPI;
    sti_nop_cli();
    check_val("CR8 7 holds it back", hits[V_IPI], 2);
    check_val("TPR reads what CR8 wrote", REG(0x80), 0x70);
    asm volatile ( "mov %0, %%cr8" :: "r" (0UL) );
    sti_nop_cli();
    check_val("CR8 0: delivered", hits[V_IPI], 3);

    raise_high = true;
    REG(0x300) = 0x40000 | V_LOW;        /* its handler raises V_HIGH with STI */
    sti_nop_cli();
    check_val("low vector once", hits[V_LOW], 1);
    check_val("high vector nested in it", hits[V_HIGH], 1);
    check_true("high ran while low was in service", nest_seen_low_in_service);
}

static void test_timers(void)
{
    unsigned long c;
    uint64_t v;

    printk("Timers (counted):\n");
    REG(0x3e0) = 0xb;                                    /* divide by 1 */
    REG(0x320) = V_TIMER;                                /* one-shot */
    c = hits[V_TIMER];
    REG(0x380) = 5000000;                                /* 5 ms */
    check_true("one-shot: counting down", REG(0x390) > 0 && REG(0x390) <= 5000000);
    wait_for(&hits[V_TIMER], c + 1);
    check_val("one-shot: one interrupt", hits[V_TIMER], c + 1);
    check_val("one-shot: current count 0", REG(0x390), 0);
    for ( v = 0; v < 20000; v++ )
        sti_nop_cli();
    check_val("one-shot: no second interrupt", hits[V_TIMER], c + 1);

    REG(0x320) = 0x20000 | V_TIMER;                      /* periodic */
    c = hits[V_TIMER];
    REG(0x380) = 2000000;                                /* 2 ms */
    wait_for(&hits[V_TIMER], c + 3);
    REG(0x380) = 0;
    check_true("periodic: 3 interrupts or more", hits[V_TIMER] >= c + 3);
    c = hits[V_TIMER];
    for ( v = 0; v < 20000; v++ )
        sti_nop_cli();
    check_val("periodic: stopped by TMICT 0", hits[V_TIMER], c);

    REG(0x320) = 0x40000 | V_TIMER;                      /* TSC deadline */
    check_val("TSC-deadline mode: TMICT ignored", (REG(0x380) = 5, REG(0x380)), 0);
    c = hits[V_TIMER];
    check_ok("WRMSR TSC_DEADLINE", wrmsr_ex(MSR_TSC_DEADLINE, rdtsc() + 40000));
    rdmsr_ex(MSR_TSC_DEADLINE, &v);
    check_true("armed: reads back", v != 0);
    wait_for(&hits[V_TIMER], c + 1);
    check_val("deadline: one interrupt", hits[V_TIMER], c + 1);
    rdmsr_ex(MSR_TSC_DEADLINE, &v);
    check_val("deadline: MSR 0 after it fired", v, 0);

    c = hits[V_TIMER];
    wrmsr_ex(MSR_TSC_DEADLINE, rdtsc() + 40000);
    asm volatile ( "sti; hlt; cli" ::: "memory" );
    check_val("HLT woken by the timer", hits[V_TIMER], c + 1);
    REG(0x320) = 0x10000;
}

static volatile bool ap_ready;

static void ap_main(unsigned int id __attribute__((unused)))
{
    REG(0xf0) = 0x1ff;
    REG(0xd0) = 0x02000000;                              /* logical id bit 1 */
    ap_ready = true;
    for ( ;; )
        asm volatile ( "sti; hlt; cli" ::: "memory" );
}

static void test_ipi_other(void)
{
    unsigned long spins;

    printk("IPIs to vCPU 1:\n");
    check_val("start vCPU 1", vcpu_start(1, ap_main), 0);
    for ( spins = 0; !ap_ready && spins < 100000; spins++ )
        hypercall_yield();
    hits[V_IPI] = 0;
    REG(0x310) = 1u << 24;                               /* physical id 1 */
    REG(0x300) = V_IPI;
    for ( spins = 0; hits[V_IPI] < 1 && spins < 100000; spins++ )
        hypercall_yield();
    check_val("physical destination 1: one interrupt", hits[V_IPI], 1);
    REG(0x310) = 2u << 24;                               /* logical bit 1 */
    REG(0x300) = 0x800 | V_IPI;
    for ( spins = 0; hits[V_IPI] < 2 && spins < 100000; spins++ )
        hypercall_yield();
    check_val("logical destination 0x02: one more", hits[V_IPI], 2);
    REG(0x300) = 0xc0000 | V_IPI;                        /* all but self */
    for ( spins = 0; hits[V_IPI] < 3 && spins < 100000; spins++ )
        hypercall_yield();
    check_val("all-but-self: one more", hits[V_IPI], 3);
}

static void test_x2apic(void)
{
    uint64_t base, v;
    unsigned long c;

    printk("x2APIC:\n");
    check_gp("x2APIC MSR in xAPIC mode", rdmsr_ex(X2(0x20), &v));
    rdmsr_ex(MSR_APICBASE, &base);
    check_val("APIC_BASE: enabled BSP at 0xfee00000", base, 0xfee00900);
    check_gp("EXTD without EN", wrmsr_ex(MSR_APICBASE, 0xfee00400));
    check_ok("xAPIC -> x2APIC", wrmsr_ex(MSR_APICBASE, base | 0x400));
    x2apic_on = true;
    rdmsr_ex(X2(0x20), &v);
    check_val("ID", v, 0);
    rdmsr_ex(X2(0xd0), &v);
    check_val("LDR: cluster 0, bit 0", v, 1);
    rdmsr_ex(X2(0x30), &v);
    check_val("version", v & 0xff00ff, 0x050014);
    check_gp("WRMSR ID (read-only)", wrmsr_ex(X2(0x20), 5));
    check_gp("WRMSR TPR bit 8", wrmsr_ex(X2(0x80), 0x100));
    check_gp("WRMSR EOI non-zero", wrmsr_ex(X2(0xb0), 1));
    check_gp("RDMSR EOI (write-only)", rdmsr_ex(X2(0xb0), &v));
    check_gp("RDMSR DFR (no DFR in x2APIC)", rdmsr_ex(X2(0xe0), &v));
    check_gp("WRMSR self-IPI bit 8", wrmsr_ex(X2(0x3f0), 0x170));
    check_gp("WRMSR LVTT reserved bit 20", wrmsr_ex(X2(0x320), 0x100000));
    c = hits[V_IPI];
    check_ok("WRMSR self-IPI 0x70", wrmsr_ex(X2(0x3f0), V_IPI));
    sti_nop_cli();
    check_val("self-IPI delivered", hits[V_IPI], c + 1);
    check_ok("WRMSR ICR: self, 0x70", wrmsr_ex(X2(0x300), 0x40000 | V_IPI));
    sti_nop_cli();
    check_val("ICR self-IPI delivered", hits[V_IPI], c + 2);
    check_gp("x2APIC -> xAPIC", wrmsr_ex(MSR_APICBASE, base));
    check_ok("x2APIC -> disabled", wrmsr_ex(MSR_APICBASE, base & ~0xc00UL));
    x2apic_on = false;
    check_ok("disabled -> xAPIC", wrmsr_ex(MSR_APICBASE, base));
    check_val("SVR back to reset", REG(0xf0), 0xff);
}

void part_basic(void)
{
    set_intr_gate(0x40, irq_0x40);
    set_intr_gate(0x60, irq_0x60);
    set_intr_gate(0x70, irq_0x70);
    set_intr_gate(0x80, irq_0x80);
    cli();

    test_xapic_regs();
    test_ipis_self();
    test_timers();
    test_ipi_other();
    test_x2apic();
}

/* ---- the quiet checks of the tables ---------------------------------------- */

static unsigned long table_checks, table_fails;

void expect_eq(const char *what, unsigned int off, uint64_t got, uint64_t want)
{
    table_checks++;
    if ( got == want )
        return;
    if ( table_fails++ < 40 )
        xtf_failure("Fail: %s at %#x: %#lx, expected %#lx\n", what, off,
                    (unsigned long)got, (unsigned long)want);
}

void expect_true(const char *what, unsigned int off, bool cond)
{
    expect_eq(what, off, cond, true);
}

void table_summary(const char *what)
{
    if ( table_fails )
        xtf_failure("Fail: %s: %lu of %lu checks failed\n", what, table_fails, table_checks);
    else
        printk("  ok   %s: %lu checks\n", what, table_checks);
    table_checks = table_fails = 0;
}

uint32_t esr_latch(void)
{
    REG(0x280) = 0;
    return REG(0x280);
}

static const struct {
    const char *name;
    void (*fn)(void);
} parts[] = {
    { "basic", part_basic }, { "xapic", part_xapic }, { "x2apic", part_x2apic },
    { "ipi", part_ipi }, { "nmi", part_nmi }, { "sipi", part_sipi }, { "timer", part_timer },
};

/*
 * part=<name>: basic (the default: the walk-through above), xapic (every
 * register, offset and width through the MMIO page, MOV and read-modify-
 * write), x2apic (every MSR of the range), ipi (delivery modes,
 * shorthands and destinations across the vCPUs), nmi (NMIs counted),
 * sipi (INIT and start-up IPIs), timer (TSC deadlines, mode changes).
 */
void test_main(void)
{
    char name[16] = "basic";
    unsigned int i;

    cmdline_get_str("part", name, sizeof(name));
    for ( i = 0; i < ARRAY_SIZE(parts); i++ )
        if ( !strcmp(name, parts[i].name) )
            return parts[i].fn();
    xtf_error("Error: unknown part '%s'\n", name);
}
