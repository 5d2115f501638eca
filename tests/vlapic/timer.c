/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * part=timer: the TSC deadline and the timer's mode changes.
 *
 * TSC_DEADLINE = 0 disarms; a deadline already past fires once, at once;
 * now + 2^40 ticks, 2^63 and 2^64-1 (centuries away) are armed, read
 * back, and do not fire (before the fix 2^63 and 2^64-1 fired at once:
 * the conversion to system time overflowed); writes outside TSC-deadline
 * mode are ignored, leaving the mode disarms it.  Between one-shot and
 * periodic the count goes on (Xen, KVM); periodic -> one-shot gives one
 * more interrupt, and a tick latched in IRR before the switch is still
 * delivered (the LVTT write leaves IRR alone); TMCCT never exceeds TMICT, even
 * when the period is raised to the minimum; a divider change mid-count
 * keeps the counts done; masking a periodic timer stops its interrupts,
 * unmasking resumes them.
 */
#include "vlapic.h"

#define V_TMR 0x62

static volatile unsigned long ticks;

void tmr_irq(void);
void tmr_irq(void)
{
    ticks++;
    REG(0xb0) = 0;
}

void irq_tmr(void);
asm ( ".globl irq_tmr\n irq_tmr:\n"
      " push %rax; push %rcx; push %rdx; push %rsi; push %rdi\n"
      " push %r8; push %r9; push %r10; push %r11\n"
      " mov %rsp, %rax; and $-16, %rsp; push %rax; push %rax\n"
      " cld; call tmr_irq\n"
      " pop %rax; mov %rax, %rsp\n"
      " pop %r11; pop %r10; pop %r9; pop %r8\n"
      " pop %rdi; pop %rsi; pop %rdx; pop %rcx; pop %rax\n"
      " iretq\n" );

/* Run with interrupts on for about n ticks of the TSC. */
static void run_for(uint64_t n)
{
    uint64_t end = rdtsc() + n;

    while ( rdtsc() < end )
        asm volatile ( "sti; nop; nop; cli" ::: "memory" );
}

/* Vector vec waits in IRR. */
static bool irr_has(unsigned int vec)
{
    return (REG(0x200 + (vec / 32) * 16) >> (vec % 32)) & 1;
}

/* With interrupts off, wait up to n ticks of the TSC for vec in IRR. */
static bool irr_wait(unsigned int vec, uint64_t n)
{
    uint64_t end = rdtsc() + n;

    while ( !irr_has(vec) && rdtsc() < end )
        asm volatile ( "nop" ::: "memory" );
    return irr_has(vec);
}

static void deadline(const char *what, uint64_t tsc, bool fires, bool reads_back)
{
    unsigned long c = ticks;
    uint64_t v;

    wrmsr(MSR_TSC_DEADLINE, tsc);
    rdmsr_ex(MSR_TSC_DEADLINE, &v);
    if ( reads_back )
        check_val(what, v, tsc);
    else
        check_val(what, v, 0);
    run_for(200000);                    /* 50 ms at Bochs's 4 MHz */
    if ( fires )
        check_val("  fired once", ticks, c + 1);
    else
        check_val("  did not fire", ticks, c);
    rdmsr_ex(MSR_TSC_DEADLINE, &v);
    check_val("  the MSR now", v, fires ? 0 : reads_back ? tsc : 0);
}

void part_timer(void)
{
    unsigned long c;
    uint32_t cur;
    uint64_t v;
    bool latched;

    printk("TSC deadline values:\n");
    set_intr_gate(V_TMR, irq_tmr);
    cli();
    REG(0xf0) = 0x1ff;
    REG(0x320) = 0x40000 | V_TMR;
    deadline("0: disarmed", 0, false, true);
    deadline("now - 1: fires at once, reads 0", rdtsc() - 1, true, false);
    deadline("1 (long past)", 1, true, false);
    deadline("now + 40000", rdtsc() + 40000, true, true);
    deadline("now + 2^40", rdtsc() + (1ULL << 40), false, true);
    deadline("2^63", 1ULL << 63, false, true);
    deadline("2^64 - 1", ~0ULL, false, true);
    wrmsr(MSR_TSC_DEADLINE, 1ULL << 63);
    REG(0x320) = V_TMR;                 /* -> one-shot: disarmed */
    rdmsr_ex(MSR_TSC_DEADLINE, &v);
    check_val("leaving TSC-deadline mode: MSR reads 0", v, 0);
    REG(0x320) = 0x40000 | V_TMR;
    rdmsr_ex(MSR_TSC_DEADLINE, &v);
    check_val("and back: still disarmed", v, 0);
    REG(0x320) = V_TMR;
    c = ticks;
    check_ok("WRMSR TSC_DEADLINE in one-shot mode", wrmsr_ex(MSR_TSC_DEADLINE, rdtsc() + 1000));
    rdmsr_ex(MSR_TSC_DEADLINE, &v);
    check_val("  ignored: reads 0", v, 0);
    run_for(100000);
    check_val("  and nothing fires", ticks, c);

    printk("Mode changes:\n");
    REG(0x3e0) = 0xb;                   /* divide by 1: 1 count per ns */
    REG(0x320) = V_TMR;                 /* one-shot */
    c = ticks;
    REG(0x380) = 20000000;              /* 20 ms */
    REG(0x320) = 0x20000 | V_TMR;       /* -> periodic while counting */
    check_true("one-shot -> periodic: still counting", REG(0x390) > 0);
    run_for(400000);                    /* 100 ms: about 5 periods */
    check_true("  then periodic interrupts (2 or more)", ticks >= c + 2);
    REG(0x320) = V_TMR;                 /* -> one-shot */
    c = ticks;
    latched = irr_has(V_TMR);           /* interrupts are off: it waits */
    run_for(400000);
    printk("  periodic -> one-shot: %lu more, %u latched before the switch\n",
           ticks - c, latched);
    check_true("periodic -> one-shot: one more, and a tick latched before",
               ticks >= c + 1 && ticks <= c + 1 + latched);
    c = ticks;
    run_for(200000);
    check_val("  and then none", ticks, c);
    check_val("  TMCCT 0 once it ran out", REG(0x390), 0);

    /*
     * The same with a tick surely latched: the LVTT write leaves IRR as
     * it is (SDM vol. 3A, 11.5.4: a mode change neither starts nor stops
     * the count), so the tick latched before it is delivered, then the
     * count runs out once more.  The period is longer than a time slice
     * so that the two cannot merge in IRR while the vCPU waits for the
     * CPU.
     */
    REG(0x320) = 0x20000 | V_TMR;       /* periodic */
    REG(0x380) = 50000000;              /* 50 ms */
    check_true("periodic, interrupts off: a tick latches in IRR",
               irr_wait(V_TMR, 400000));
    REG(0x320) = V_TMR;                 /* -> one-shot */
    check_true("  -> one-shot: the tick still waits in IRR", irr_has(V_TMR));
    c = ticks;
    run_for(400000);                    /* 100 ms */
    check_val("  delivered, then the count runs out once", ticks, c + 2);
    c = ticks;
    run_for(400000);
    check_val("  and then none", ticks, c);
    check_val("  TMCCT 0", REG(0x390), 0);

    REG(0x320) = 0x10000 | 0x20000 | V_TMR;     /* masked: nothing latched */
    REG(0x380) = 1;                     /* raised to the 0.1 ms minimum */
    cur = REG(0x390);
    check_true("TMICT 1, periodic: TMCCT never above TMICT", cur <= 1);
    REG(0x380) = 0;

    REG(0x320) = 0x10000 | 0x20000 | V_TMR;     /* masked, periodic */
    REG(0x380) = 4000000;               /* 4 ms */
    c = ticks;
    run_for(200000);
    check_val("periodic, masked: no interrupts", ticks, c);
    REG(0x320) = 0x20000 | V_TMR;       /* unmasked */
    run_for(200000);
    check_true("  unmasked: they resume", ticks >= c + 2);
    REG(0x380) = 0;

    REG(0x320) = V_TMR;
    REG(0x3e0) = 0xb;
    REG(0x380) = 100000000;             /* 100 ms at divide by 1 */
    run_for(4000);
    cur = REG(0x390);
    REG(0x3e0) = 0x0;                   /* divide by 2 */
    check_true("TDCR changed mid-count: the count goes on from where it was",
               REG(0x390) <= cur && REG(0x390) > cur - 10000000);
    REG(0x380) = 0;
    REG(0x320) = 0x10000;
}
