/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inter-processor interrupts (Xen's arch/x86/smp.c): event check,
 * call-function and TLB shootdown, on Xen's vectors (asm/irq.h).
 *
 * - EVENT_CHECK_VECTOR does nothing but interrupt: the target leaves
 *   its halt (or the guest) and looks at its softirqs.
 * - CALL_FUNCTION_VECTOR runs the function of the one call in flight
 *   (call_lock serialises callers).  A target runs it and then leaves
 *   call_data.selected (wait) or leaves first (no wait); the caller spins
 *   until the mask is empty.
 * - INVALIDATE_TLB_VECTOR does the flush_flags of the one flush in flight
 *   (flush_lock) and leaves flush_cpumask.
 *
 * Both callers spin with interrupts enabled, as Xen requires (they assert
 * it): two CPUs calling each other at the same moment must both still take
 * the other's IPI.  The hypervisor runs with interrupts enabled outside
 * critical sections (docs/design.md, "The interrupt convention"), so a
 * caller is anywhere but in an interrupt handler or an interrupts-off
 * section.  on_selected_cpus() also holds no lock: the function may take
 * any.  flush_mask() may be called under locks (the p2m's), as Xen's
 * flush_area_mask: its handler takes none.
 */
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/smp.h>
#include <xen/softirq.h>
#include <xen/spinlock.h>
#include <asm/apic.h>
#include <asm/flushtlb.h>
#include <asm/time.h>
#include <asm/hvm/hvm.h>
#include <asm/irq.h>
#include <asm/processor.h>
#include <asm/smp.h>

DEFINE_PER_CPU(struct ipi_stats, ipi_stats);

static void send_IPI_mask(const cpumask_t *mask, unsigned int vector)
{
    unsigned int cpu;

    for_each_cpu ( cpu, mask )
        apic_icr_write(APIC_DM_FIXED | APIC_DEST_NOSHORT | vector, cpu_physical_id(cpu));
}

/* Send to every online CPU of mask but this one. */
static void send_IPI_others(const cpumask_t *mask, unsigned int vector)
{
    cpumask_t targets;

    cpumask_and(&targets, mask, &cpu_online_map);
    cpumask_clear_cpu(smp_processor_id(), &targets);
    send_IPI_mask(&targets, vector);
}

/* ---- event check ------------------------------------------------------ */

void smp_send_event_check_mask(const cpumask_t *mask)
{
    send_IPI_others(mask, EVENT_CHECK_VECTOR);
}

void smp_send_event_check_cpu(unsigned int cpu)
{
    smp_send_event_check_mask(cpumask_of(cpu));
}

static void event_check_interrupt(struct cpu_user_regs *regs)
{
    ack_APIC_irq();
    this_cpu(ipi_stats).event_check++;
}

/* ---- call function ---------------------------------------------------- */

static DEFINE_SPINLOCK_LEVEL(call_lock, LOCK_LEVEL_CALL);

static struct call_data_struct {
    void (*func)(void *info);
    void *info;
    int wait;
    cpumask_t selected;
} call_data;

static void smp_call_function_interrupt(void)
{
    unsigned int cpu = smp_processor_id();
    void (*func)(void *info) = ACCESS_ONCE(call_data.func);
    void *info = ACCESS_ONCE(call_data.info);

    if ( !cpumask_test_cpu(cpu, &call_data.selected) )
        return;
    this_cpu(ipi_stats).call_function++;
    if ( call_data.wait )
    {
        func(info);
        smp_mb();
        cpumask_clear_cpu(cpu, &call_data.selected);
    }
    else
    {
        smp_mb();
        cpumask_clear_cpu(cpu, &call_data.selected);
        func(info);
    }
}

static void call_function_interrupt(struct cpu_user_regs *regs)
{
    ack_APIC_irq();
    smp_call_function_interrupt();
}

void on_selected_cpus(const cpumask_t *selected, void (*func)(void *info),
                      void *info, int wait)
{
    ASSERT(!in_irq());
    ASSERT(local_irq_is_enabled());
    ASSERT(!spin_held_count());

    spin_lock(&call_lock);

    cpumask_and(&call_data.selected, selected, &cpu_online_map);
    if ( cpumask_empty(&call_data.selected) )
        goto out;
    call_data.func = func;
    call_data.info = info;
    call_data.wait = wait;
    smp_mb();

    send_IPI_others(&call_data.selected, CALL_FUNCTION_VECTOR);
    if ( cpumask_test_cpu(smp_processor_id(), &call_data.selected) )
    {
        local_irq_disable();
        smp_call_function_interrupt();
        local_irq_enable();
    }
    while ( !cpumask_empty(&call_data.selected) )
        cpu_relax();

 out:
    spin_unlock(&call_lock);
}

void smp_call_function(void (*func)(void *info), void *info, int wait)
{
    cpumask_t others;

    cpumask_copy(&others, &cpu_online_map);
    cpumask_clear_cpu(smp_processor_id(), &others);
    on_selected_cpus(&others, func, info, wait);
}

/* ---- TLB shootdown ---------------------------------------------------- */

static DEFINE_SPINLOCK_LEVEL(flush_lock, LOCK_LEVEL_FLUSH);
static cpumask_t flush_cpumask;
static unsigned int flush_flags;

void flush_local(unsigned int flags)
{
    if ( flags & FLUSH_TLB_GLOBAL )
    {
        unsigned long cr4 = read_cr4();

        write_cr4(cr4 & ~X86_CR4_PGE);
        write_cr4(cr4);
    }
    else if ( flags & FLUSH_TLB )
        write_cr3(read_cr3());
    if ( (flags & FLUSH_HVM_ASID_CORE) && hvm_funcs )
        hvm_funcs->flush_guest_tlbs();
}

static void invalidate_interrupt(struct cpu_user_regs *regs)
{
    unsigned int cpu = smp_processor_id();

    ack_APIC_irq();
    if ( !cpumask_test_cpu(cpu, &flush_cpumask) )
        return;
    this_cpu(ipi_stats).invalidate++;
    flush_local(ACCESS_ONCE(flush_flags));
    smp_mb();
    cpumask_clear_cpu(cpu, &flush_cpumask);
}

void flush_mask(const cpumask_t *mask, unsigned int flags)
{
    unsigned int cpu = smp_processor_id();

    if ( cpumask_test_cpu(cpu, mask) )
        flush_local(flags);
    if ( !cpumask_intersects(mask, &cpu_online_map) ||
         (cpumask_weight(mask) == 1 && cpumask_test_cpu(cpu, mask)) )
        return;

    ASSERT(!in_irq());
    ASSERT(local_irq_is_enabled());
    spin_lock(&flush_lock);
    cpumask_and(&flush_cpumask, mask, &cpu_online_map);
    cpumask_clear_cpu(cpu, &flush_cpumask);
    flush_flags = flags;
    smp_mb();
    send_IPI_mask(&flush_cpumask, INVALIDATE_TLB_VECTOR);
    while ( !cpumask_empty(&flush_cpumask) )
        cpu_relax();
    spin_unlock(&flush_lock);
}

/* ---- stopping the other CPUs (panic) ---------------------------------- */

static bool stopping;
static unsigned int cpus_stopped;

bool smp_stopping(void)
{
    return ACCESS_ONCE(stopping);
}

noreturn void stop_this_cpu(void)
{
    local_irq_disable();
    __atomic_fetch_add(&cpus_stopped, 1, __ATOMIC_SEQ_CST);
    for ( ;; )
        halt();
}

bool smp_send_stop(unsigned int *stopped, unsigned int *others)
{
    unsigned int cpu, me = smp_processor_id(), want = 0;
    uint64_t end;

    if ( __atomic_exchange_n(&stopping, true, __ATOMIC_SEQ_CST) )
        return false;
    for_each_online_cpu ( cpu )
        if ( cpu != me )
        {
            apic_icr_write(APIC_DM_NMI | APIC_DEST_NOSHORT, cpu_physical_id(cpu));
            want++;
        }
    end = rdtsc() + 10 * (uint64_t)cpu_khz;
    while ( ACCESS_ONCE(cpus_stopped) < want && rdtsc() < end )
        cpu_relax();
    *stopped = ACCESS_ONCE(cpus_stopped);
    *others = want;
    return true;
}

void smp_intr_init(void)
{
    set_irq_handler(EVENT_CHECK_VECTOR, event_check_interrupt);
    set_irq_handler(CALL_FUNCTION_VECTOR, call_function_interrupt);
    set_irq_handler(INVALIDATE_TLB_VECTOR, invalidate_interrupt);
}
