/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Local APIC set-up and its timer.
 *
 * Every CPU sets up its own local APIC (setup_local_APIC); the boot CPU
 * also masks the legacy PICs and installs the handlers.  IPIs are sent
 * through the interrupt command register (apic_icr_write, for smp.c and
 * smpboot.c).
 *
 * Each CPU's timer drives that CPU's timers (common/timer.c).  Where the CPU has
 * TSC-deadline mode we program deadlines in TSC ticks directly (under
 * Bochs with clock sync=none one tick is one instruction, so time slices
 * are exact and repeatable); otherwise the one-shot count-down mode is
 * used with a divisor of 1, treating a bus tick as a TSC tick.
 */
#include <xen/lib.h>
#include <xen/softirq.h>
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/irq.h>
#include <asm/processor.h>

#define PIC_MASTER_DATA 0x21
#define PIC_SLAVE_DATA  0xa1

static volatile void *apic_base = (volatile void *)APIC_DEFAULT_BASE;
static bool tsc_deadline;

static uint32_t apic_read(unsigned int reg)
{
    return readl((volatile char *)apic_base + reg);
}

static void apic_write(unsigned int reg, uint32_t v)
{
    writel(v, (volatile char *)apic_base + reg);
}

unsigned int get_apic_id(void)
{
    return apic_read(APIC_ID) >> 24;
}

void ack_APIC_irq(void)
{
    apic_write(APIC_EOI, 0);
}

static void spurious_interrupt(struct cpu_user_regs *regs)
{
    /* No EOI for spurious interrupts. */
}

void reprogram_timer(uint64_t deadline)
{
    if ( tsc_deadline )
    {
        wrmsr(MSR_IA32_TSC_DEADLINE, deadline);
        return;
    }
    if ( !deadline )
    {
        apic_write(APIC_TMICT, 0);
        return;
    }
    {
        uint64_t now = rdtsc();
        uint64_t delta = deadline > now ? deadline - now : 1;

        apic_write(APIC_TMICT, delta > 0xffffffffULL ? 0xffffffffU : (uint32_t)delta);
    }
}

/* The local APIC timer: the earliest hypervisor timer is due (common/timer.c). */
static void apic_timer_interrupt(struct cpu_user_regs *regs)
{
    ack_APIC_irq();
    raise_softirq(TIMER_SOFTIRQ);
}

/* This CPU's local APIC: enabled, LINT0/1 and errors masked, the timer set up. */
void setup_local_APIC(void)
{
    uint64_t base = rdmsr(MSR_IA32_APICBASE);

    wrmsr(MSR_IA32_APICBASE, base | MSR_APICBASE_ENABLE);
    apic_write(APIC_SPIV, APIC_SPIV_ENABLE | SPURIOUS_APIC_VECTOR);
    apic_write(APIC_TPR, 0);
    apic_write(APIC_LVT_LINT0, APIC_LVT_MASKED);
    apic_write(APIC_LVT_LINT1, APIC_LVT_MASKED);
    apic_write(APIC_LVT_ERROR, APIC_LVT_MASKED);
    if ( tsc_deadline )
        apic_write(APIC_LVTT, APIC_TIMER_TSC_DEADLINE | LOCAL_TIMER_VECTOR);
    else
    {
        apic_write(APIC_TDCR, APIC_TDR_DIV_1);
        apic_write(APIC_LVTT, APIC_TIMER_ONESHOT | LOCAL_TIMER_VECTOR);
    }
}

void apic_init(void)
{
    uint64_t base = rdmsr(MSR_IA32_APICBASE);

    /* The legacy PICs stay masked: we use the local APIC only. */
    outb(0xff, PIC_MASTER_DATA);
    outb(0xff, PIC_SLAVE_DATA);

    apic_base = (volatile void *)(unsigned long)(base & 0xfffff000UL);
    set_irq_handler(SPURIOUS_APIC_VECTOR, spurious_interrupt);
    set_irq_handler(LOCAL_TIMER_VECTOR, apic_timer_interrupt);
    tsc_deadline = cpuid_ecx(1) & X86_FEATURE_TSC_DEADLINE_ECX;
    setup_local_APIC();

    printk(XENLOG_INFO "APIC: id %u, version %#x, timer in %s mode\n",
           apic_read(APIC_ID) >> 24, apic_read(APIC_VERSION) & 0xff,
           tsc_deadline ? "TSC-deadline" : "one-shot");
}

/* ---- the interrupt command register ------------------------------------ */

static void apic_wait_icr_idle(void)
{
    while ( apic_read(APIC_ICR) & APIC_ICR_BUSY )
        cpu_relax();
}

/*
 * Send one IPI (xAPIC: destination in ICR2, then the command in ICR).  The
 * two writes must not be split by an interrupt handler that sends one too.
 */
void apic_icr_write(uint32_t low, uint32_t dest_apicid)
{
    unsigned long flags;

    local_irq_save(flags);
    apic_wait_icr_idle();
    apic_write(APIC_ICR2, dest_apicid << 24);
    apic_write(APIC_ICR, low);
    local_irq_restore(flags);
}

/* Has the last IPI this CPU sent been accepted (delivery status idle)? */
bool apic_icr_delivered(void)
{
    return !(apic_read(APIC_ICR) & APIC_ICR_BUSY);
}

/* The error status (write first: the register latches on a write). */
uint32_t apic_read_esr(void)
{
    apic_write(APIC_ESR, 0);
    return apic_read(APIC_ESR);
}
