/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A hostile guest's local APIC timer storms (issue 16), each run beside a
 * witness domain that must finish.  The guest arms its timer as fast as
 * the architecture lets it and then spins with interrupts on for a fixed
 * number of loop iterations; it must get there (the host and its own
 * loop keep going), and the witness must finish its rounds.
 *
 * Guest command line: case=<name> irqs=<n> (default 1000) iters=<n> (200000)
 * tmict=<n> (the count of the periodic cases, default 1).  After irqs
 * interrupts the handler stops the storm (masks or no longer re-arms the
 * timer): at the minimum period a guest interrupt costs more than the
 * period under Bochs, so the guest itself would never get past its
 * handler, which is its own affair; the host must not care.
 *   periodic       x2APIC, LVTT periodic vector 0x42, divide by 1,
 *                  TMICT = 1 (the minimum period), EOI from the handler:
 *                  once the whole host hung here (the timer softirq ran
 *                  the re-armed timer for ever);
 *   periodic-noeoi the same without EOI: one interrupt in service, the
 *                  next latched in IRR, then nothing more may cost the
 *                  host anything;
 *   deadline-past  TSC-deadline mode, the handler re-arms with a deadline
 *                  already past (fires at once), EOI;
 *   oneshot-rearm  one-shot, TMICT = 1 re-armed from its own handler, EOI;
 *   xapic-periodic the periodic case through the xAPIC page (MMIO);
 *   virq-periodic  the Xen periodic timer (VCPUOP_set_periodic_timer) at
 *                  its 1 ms minimum on vCPU 1, which never runs, and on
 *                  vCPU 0, which yields to the witness 300 times: a
 *                  periodic timer whose vCPU does not run ticks once, not
 *                  every millisecond (the hypervisor counts them; needs
 *                  vcpus=2).
 *
 * It prints the interrupts taken and the mean ticks between two of them
 * while it ran (the cost of one guest interrupt, hypervisor and handler;
 * gaps over 200,000 ticks are time the witness ran and are left out).
 */
#include "test.h"
#include "events.h"
#include "fault.h"

const char test_title[] = "APIC timer storms beside a witness";

#define APIC            0xfee00000UL
#define REG(off)        (*(volatile uint32_t *)(APIC + (off)))
#define MSR_APICBASE    0x1b
#define MSR_TSC_DEADLINE 0x6e0
#define X2(off)         (0x800 + ((off) >> 4))

#define V_TIMER         0x42
#define RUN_GAP         200000          /* longer: we were not running */

enum { C_PERIODIC, C_PERIODIC_NOEOI, C_DEADLINE_PAST, C_ONESHOT_REARM, C_XAPIC_PERIODIC,
       C_VIRQ_PERIODIC };
static const char *const case_names[] = {
    [C_PERIODIC] = "periodic", [C_PERIODIC_NOEOI] = "periodic-noeoi",
    [C_DEADLINE_PAST] = "deadline-past", [C_ONESHOT_REARM] = "oneshot-rearm",
    [C_XAPIC_PERIODIC] = "xapic-periodic", [C_VIRQ_PERIODIC] = "virq-periodic",
};

static unsigned int which;
static unsigned long max_irqs;
static volatile unsigned long irqs;
static uint64_t last_tsc, run_ticks, run_gaps, max_gap;

void storm_irq(void);
void storm_irq(void)
{
    uint64_t now = rdtsc(), gap = now - last_tsc;

    if ( irqs && gap < RUN_GAP )
    {
        run_ticks += gap;
        run_gaps++;
        if ( gap > max_gap )
            max_gap = gap;
    }
    last_tsc = now;
    irqs++;

    switch ( which )
    {
    case C_DEADLINE_PAST:
        if ( irqs < max_irqs )
            wrmsr(MSR_TSC_DEADLINE, rdtsc() - 1);
        break;
    case C_ONESHOT_REARM:
        if ( irqs < max_irqs )
            wrmsr(X2(0x380), 1);
        break;
    case C_PERIODIC:
        if ( irqs >= max_irqs )
            wrmsr(X2(0x320), 0x30000 | V_TIMER);    /* masked, still periodic */
        break;
    case C_XAPIC_PERIODIC:
        if ( irqs >= max_irqs )
            REG(0x320) = 0x30000 | V_TIMER;
        break;
    }
    if ( which == C_PERIODIC_NOEOI )
        return;
    if ( which == C_XAPIC_PERIODIC )
        REG(0xb0) = 0;
    else
        wrmsr(X2(0xb0), 0);
}

void irq_storm(void);
asm ( ".globl irq_storm\n irq_storm:\n"
      " push %rax; push %rcx; push %rdx; push %rsi; push %rdi\n"
      " push %r8; push %r9; push %r10; push %r11\n"
      " mov %rsp, %rax; and $-16, %rsp; push %rax; push %rax\n"
      " cld; call storm_irq\n"
      " pop %rax; mov %rax, %rsp\n"
      " pop %r11; pop %r10; pop %r9; pop %r8\n"
      " pop %rdi; pop %rsi; pop %rdx; pop %rcx; pop %rax\n"
      " iretq\n" );

static void arm(unsigned long tmict)
{
    uint64_t base = rdmsr(MSR_APICBASE);

    if ( which == C_XAPIC_PERIODIC )
    {
        REG(0xf0) = 0x1ff;                          /* software enable */
        REG(0x3e0) = 0xb;                           /* divide by 1 */
        REG(0x320) = 0x20000 | V_TIMER;             /* periodic */
        REG(0x380) = tmict;
        return;
    }
    wrmsr(MSR_APICBASE, base | 0xc00);              /* x2APIC */
    wrmsr(X2(0xf0), 0x1ff);
    wrmsr(X2(0x3e0), 0xb);
    switch ( which )
    {
    case C_PERIODIC:
    case C_PERIODIC_NOEOI:
        wrmsr(X2(0x320), 0x20000 | V_TIMER);        /* the sequence */
        wrmsr(X2(0x380), tmict);
        break;
    case C_DEADLINE_PAST:
        wrmsr(X2(0x320), 0x40000 | V_TIMER);
        wrmsr(MSR_TSC_DEADLINE, 1);                 /* long past */
        break;
    case C_ONESHOT_REARM:
        wrmsr(X2(0x320), V_TIMER);
        wrmsr(X2(0x380), 1);
        break;
    }
}

static void disarm(void)
{
    if ( which == C_XAPIC_PERIODIC )
        REG(0x320) = 0x10000;
    else
        wrmsr(X2(0x320), 0x10000);
}

static void virq_periodic(void)
{
    struct vcpu_set_periodic_timer p = { .period_ns = 1000000 };
    unsigned long i;
    uint64_t t0 = rdtsc();

    check_val("1 ms periodic timer on vCPU 1 (never started)",
              hypercall_vcpu_op(VCPUOP_set_periodic_timer, 1, &p), 0);
    check_val("and on vCPU 0", hypercall_vcpu_op(VCPUOP_set_periodic_timer, 0, &p), 0);
    for ( i = 0; i < 300; i++ )
        hypercall_yield();
    printk("storm virq-periodic: 300 yields in %lu ticks\n", (unsigned long)(rdtsc() - t0));
    hypercall_vcpu_op(VCPUOP_stop_periodic_timer, 0, NULL);
    hypercall_vcpu_op(VCPUOP_stop_periodic_timer, 1, NULL);
}

void test_main(void)
{
    unsigned long iters = cmdline_ulong("iters", 200000), i;
    unsigned long tmict = cmdline_ulong("tmict", 1);
    char name[32];
    uint64_t t0;

    if ( !cmdline_get_str("case", name, sizeof(name)) )
        return xtf_error("Error: no case= on the command line\n");
    for ( which = 0; which < ARRAY_SIZE(case_names); which++ )
        if ( !strcmp(name, case_names[which]) )
            break;
    if ( which == ARRAY_SIZE(case_names) )
        return xtf_error("Error: unknown case '%s'\n", name);

    if ( which == C_VIRQ_PERIODIC )
        return virq_periodic();
    max_irqs = cmdline_ulong("irqs", 1000);
    set_intr_gate(V_TIMER, irq_storm);
    cli();
    arm(tmict);
    t0 = last_tsc = rdtsc();
    asm volatile ( "sti" ::: "memory" );
    for ( i = 0; i < iters; i++ )
        asm volatile ( "" ::: "memory" );
    cli();
    disarm();

    printk("storm %s: %lu loop iterations, %lu interrupts in %lu ticks\n",
           name, iters, irqs, (unsigned long)(rdtsc() - t0));
    if ( run_gaps )
        printk("storm %s: %lu ticks per interrupt while running (%lu gaps, longest %lu)\n",
               name, (unsigned long)(run_ticks / run_gaps), (unsigned long)run_gaps,
               (unsigned long)max_gap);
    if ( which == C_PERIODIC_NOEOI )
        check_true("without EOI: exactly one interrupt", irqs == 1);
    else
        /* A tick may be latched in IRR before the handler masks the timer. */
        check_true("every interrupt asked for came, at most one more",
                   irqs >= max_irqs && irqs <= max_irqs + 1);
    check_true("the loop ran to its end", i == iters);
}
