/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smp_selftest (boot parameter): once every CPU is up, check on all of
 * them what SMP rests on, and print one line per check and a total:
 *
 *  - call-function IPIs to every CPU and to subsets: each selected CPU
 *    runs the function exactly once, on itself, and no other CPU does;
 *    with wait the caller returns after the function returned everywhere,
 *    without wait once every CPU has taken the call (the function is
 *    still running: it waits for the caller to let it go);
 *  - event-check IPIs: a softirq raised for a halted CPU wakes it;
 *  - timers: one set from CPU 0 for every CPU fires on that CPU, once;
 *    a migrated timer fires on its new CPU;
 *  - TLB-flush IPIs: every target flushes once and acknowledges;
 *  - the interrupt convention: a CPU waiting for a lock takes IPIs, so a
 *    holder that flushes that CPU's TLB under the lock (as an EPT change
 *    will under the p2m lock) gets its answer.
 *
 * Waits are bounded (1 s of TSC time each), so a missing IPI fails a check
 * instead of hanging the boot.  Runs on CPU 0 before any domain exists.
 */
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/smp.h>
#include <xen/softirq.h>
#include <xen/spinlock.h>
#include <xen/time.h>
#include <xen/timer.h>
#include <asm/flushtlb.h>
#include <asm/processor.h>
#include <asm/smp.h>
#include <asm/time.h>

static unsigned int passed, failed;

static void check(bool ok, const char *what)
{
    if ( ok )
        passed++;
    else
        failed++;
    printk("smp_selftest: %s: %s\n", what, ok ? "ok" : "FAILED");
}

/* Spin until *counter reaches want, for at most a second; true if it did. */
static bool wait_count(volatile unsigned long *counter, unsigned long want)
{
    uint64_t end = rdtsc() + 1000 * (uint64_t)cpu_khz;

    while ( ACCESS_ONCE(*counter) < want )
    {
        if ( rdtsc() > end )
            return false;
        cpu_relax();
    }
    return true;
}

/* ---- call function ---------------------------------------------------- */

static unsigned long runs[NR_CPUS];
static unsigned int ran_on[NR_CPUS];
static volatile unsigned long started, finished;
static volatile bool release;

static void count_run(void *data)
{
    unsigned int cpu = smp_processor_id();

    __sync_fetch_and_add(&runs[cpu], 1);
    ran_on[cpu] = get_cpu_info()->processor_id;
}

/* Each CPU of mask ran once, on itself, and no other. */
static bool ran_exactly(const cpumask_t *mask)
{
    unsigned int cpu;
    bool ok = true;

    for ( cpu = 0; cpu < nr_cpu_ids; cpu++ )
    {
        unsigned long want = cpu_online(cpu) && cpumask_test_cpu(cpu, mask);

        if ( runs[cpu] != want || (want && ran_on[cpu] != cpu) )
        {
            printk("smp_selftest: CPU%u ran the function %lu times (want %lu)\n",
                   cpu, runs[cpu], want);
            ok = false;
        }
        runs[cpu] = 0;
    }
    return ok;
}

static void slow_run(void *data)
{
    udelay(200);
    count_run(data);
    __sync_fetch_and_add(&finished, 1);
}

static void blocked_run(void *data)
{
    __sync_fetch_and_add(&started, 1);
    while ( !ACCESS_ONCE(release) )
        cpu_relax();
    __sync_fetch_and_add(&finished, 1);
}

static void test_call_function(void)
{
    unsigned int cpu, n = num_online_cpus(), me = smp_processor_id();
    cpumask_t mask;
    char what[64];

    on_selected_cpus(&cpu_online_map, count_run, NULL, 1);
    check(ran_exactly(&cpu_online_map), "call-function on every CPU");

    smp_call_function(count_run, NULL, 1);
    cpumask_copy(&mask, &cpu_online_map);
    cpumask_clear_cpu(me, &mask);
    check(ran_exactly(&mask), "call-function on every other CPU");

    cpumask_clear(&mask);
    for_each_online_cpu ( cpu )
        if ( cpu & 1 )
            cpumask_set_cpu(cpu, &mask);
    on_selected_cpus(&mask, count_run, NULL, 1);
    check(ran_exactly(&mask), "call-function on the odd CPUs");

    for_each_online_cpu ( cpu )
    {
        on_selected_cpus(cpumask_of(cpu), count_run, NULL, 1);
        snprintf(what, sizeof(what), "call-function on CPU%u alone", cpu);
        check(ran_exactly(cpumask_of(cpu)), what);
    }

    /* wait: the function (slow) has returned everywhere when we get back. */
    finished = 0;
    on_selected_cpus(&cpu_online_map, slow_run, NULL, 1);
    check(finished == n && ran_exactly(&cpu_online_map), "call-function waits for the function");

    /* no wait: back once every other CPU took the call, all still inside. */
    if ( n > 1 )
    {
        started = finished = 0;
        release = false;
        smp_call_function(blocked_run, NULL, 0);
        snprintf(what, sizeof(what), "call-function without wait (%lu taken, %lu done)",
                 started, finished);
        check(started == n - 1 && finished == 0, what);
        release = true;
        check(wait_count(&finished, n - 1), "call-function without wait: the functions finish");
    }
}

/* ---- event check -------------------------------------------------------- */

static void test_event_check(void)
{
    unsigned int cpu, me = smp_processor_id();
    bool ok = true;

    for_each_online_cpu ( cpu )
    {
        unsigned long wakes, ipis;

        if ( cpu == me )
            continue;
        /* Idle CPUs have no timer: left alone, this one halts for good. */
        udelay(500);
        wakes = per_cpu(idle_wakeups, cpu);
        ipis = per_cpu(ipi_stats, cpu).event_check;
        cpu_raise_softirq(cpu, TIMER_SOFTIRQ);
        if ( !wait_count(&per_cpu(idle_wakeups, cpu), wakes + 1) ||
             per_cpu(ipi_stats, cpu).event_check != ipis + 1 )
        {
            printk("smp_selftest: CPU%u: %lu wake-ups, %lu event checks after a softirq\n",
                   cpu, per_cpu(idle_wakeups, cpu) - wakes,
                   per_cpu(ipi_stats, cpu).event_check - ipis);
            ok = false;
        }
    }
    check(ok, "event-check IPIs wake halted CPUs");
}

/* ---- timers ------------------------------------------------------------- */

static struct timer test_timers[NR_CPUS];
static unsigned int fired_on[NR_CPUS];
static volatile unsigned long fired;

static void timer_fired(void *data)
{
    unsigned int idx = (unsigned long)data;

    fired_on[idx] = smp_processor_id();
    __sync_fetch_and_add(&fired, 1);
}

static void test_timers_fire(void)
{
    unsigned int cpu, n = num_online_cpus(), last = cpumask_last(&cpu_online_map);
    bool ok;

    fired = 0;
    for_each_online_cpu ( cpu )
    {
        fired_on[cpu] = NR_CPUS;
        init_timer(&test_timers[cpu], timer_fired, (void *)(unsigned long)cpu, cpu);
        set_timer(&test_timers[cpu], NOW() + MILLISECS(1));
    }
    /* CPU 0's own timer runs from its softirq: let it. */
    ok = false;
    {
        uint64_t end = rdtsc() + 1000 * (uint64_t)cpu_khz;

        while ( fired < n && rdtsc() < end )
            do_softirq();               /* interrupts are on: the timer's comes */
        ok = fired == n;
    }
    udelay(1000);                       /* any second run would come now */
    ok = ok && fired == n;
    for_each_online_cpu ( cpu )
        if ( fired_on[cpu] != cpu )
        {
            printk("smp_selftest: CPU%u's timer fired on CPU%u\n", cpu, fired_on[cpu]);
            ok = false;
        }
    check(ok, "a timer on every CPU fires there, once");

    if ( n > 1 )
    {
        fired = 0;
        fired_on[0] = NR_CPUS;
        set_timer(&test_timers[0], NOW() + MILLISECS(1));
        migrate_timer(&test_timers[0], last);
        check(wait_count(&fired, 1) && fired_on[0] == last,
              "a migrated timer fires on its new CPU");
    }
    for_each_online_cpu ( cpu )
        kill_timer(&test_timers[cpu]);
}

/* ---- TLB flush ---------------------------------------------------------- */

static void test_flush(void)
{
    unsigned long before[NR_CPUS];
    unsigned int cpu, me = smp_processor_id();
    bool ok = true;

    for_each_online_cpu ( cpu )
        before[cpu] = per_cpu(ipi_stats, cpu).invalidate;
    flush_mask(&cpu_online_map, FLUSH_TLB_GLOBAL | FLUSH_HVM_ASID_CORE);
    for_each_online_cpu ( cpu )
    {
        unsigned long want = before[cpu] + (cpu != me);

        if ( per_cpu(ipi_stats, cpu).invalidate != want )
        {
            printk("smp_selftest: CPU%u took %lu flush IPIs (want %lu)\n", cpu,
                   per_cpu(ipi_stats, cpu).invalidate - before[cpu], want - before[cpu]);
            ok = false;
        }
    }
    check(ok, "TLB-flush IPIs are acknowledged by every CPU");
}

/* ---- a CPU waiting for a lock takes IPIs -------------------------------- */

static DEFINE_SPINLOCK_LEVEL(selftest_lock, LOCK_LEVEL_SELFTEST);
static struct timer holder_timer;
static volatile unsigned long lock_held, lock_waiting, holder_done;
static bool holder_got_ipi, holder_flushed;

/*
 * On the other CPU, from its timer softirq (process context): take the
 * lock, let CPU 0 queue for it, then interrupt CPU 0 and, once that was
 * taken, flush its TLB while still holding the lock.
 */
static void lock_holder(void *data)
{
    unsigned int waiter = (unsigned long)data;
    unsigned long ipis = per_cpu(ipi_stats, waiter).event_check;
    unsigned long flushes = per_cpu(ipi_stats, waiter).invalidate;

    spin_lock(&selftest_lock);
    lock_held = 1;
    if ( wait_count(&lock_waiting, 1) )
    {
        udelay(200);                    /* CPU 0 is spinning by now */
        smp_send_event_check_cpu(waiter);
        holder_got_ipi = wait_count(&per_cpu(ipi_stats, waiter).event_check, ipis + 1);
        if ( holder_got_ipi )
        {
            flush_mask(cpumask_of(waiter), FLUSH_TLB);
            holder_flushed = per_cpu(ipi_stats, waiter).invalidate == flushes + 1;
        }
    }
    spin_unlock(&selftest_lock);
    holder_done = 1;
}

static void test_lock_waiter_takes_ipis(void)
{
    unsigned int me = smp_processor_id(), other = cpumask_last(&cpu_online_map);
    bool ok;

    if ( other == me )
        return;
    lock_held = lock_waiting = holder_done = 0;
    holder_got_ipi = holder_flushed = false;
    init_timer(&holder_timer, lock_holder, (void *)(unsigned long)me, other);
    set_timer(&holder_timer, NOW());
    ok = wait_count(&lock_held, 1);
    if ( ok )
    {
        lock_waiting = 1;
        spin_lock(&selftest_lock);      /* as any lock: interrupts stay on */
        spin_unlock(&selftest_lock);
        ok = wait_count(&holder_done, 1);
    }
    kill_timer(&holder_timer);
    if ( !holder_got_ipi )
        printk("smp_selftest: CPU%u took no IPI while waiting for a lock\n", me);
    check(ok && holder_got_ipi && holder_flushed,
          "a CPU waiting for a lock takes IPIs (a flush under the lock returns)");
}

void smp_selftest(void)
{
    printk("smp_selftest: %u CPUs online\n", num_online_cpus());
    test_call_function();
    test_event_check();
    test_timers_fire();
    test_flush();
    test_lock_waiter_takes_ipis();
    printk("SMP self-test: %u of %u checks passed\n", passed, passed + failed);
}

/*
 * smp_selftest_panic (boot parameter, for the test suite): every other
 * CPU spins in the call-function IPI with interrupts off, as a CPU stuck
 * in a critical section would, and this one panics.  panic() must stop
 * them (smp_send_stop(), by NMI) before it reports: it says how many
 * stopped.
 */
static unsigned long spinning;

static void spin_irqs_off(void *data)
{
    local_irq_disable();
    __sync_fetch_and_add(&spinning, 1);
    for ( ;; )
        cpu_relax();
}

noreturn void smp_selftest_panic(void)
{
    smp_call_function(spin_irqs_off, NULL, 0);
    wait_count(&spinning, num_online_cpus() - 1);
    panic("smp_selftest_panic: %lu other CPU(s) spinning with interrupts off",
          ACCESS_ONCE(spinning));
}
