/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Starting the secondary CPUs (Xen's arch/x86/smpboot.c).
 *
 * The CPUs are those the ACPI MADT lists as enabled (acpi/boot.c calls
 * mp_register_lapic() for each); the boot CPU is the one whose local APIC
 * ID this CPU reads, and it is CPU 0 whatever its place in the table.  The
 * others get CPU indices in table order.  `nosmp` starts none of them,
 * `maxcpus=N` at most N CPUs in all (Xen's semantics: nr_cpu_ids becomes
 * N, and a CPU beyond it is not used).
 *
 * One CPU at a time, do_boot_cpu() gives the CPU a per-CPU area, a stack
 * (STACK_SIZE-aligned, its struct cpu_info filled in: CPU index, APIC ID,
 * per-CPU offset) and a GDT of its own, then wakes it with INIT, INIT
 * de-assert and two STARTUP IPIs (the SDM's MP initialisation protocol, with
 * Xen's delays: 10 ms after INIT, 200 us after each STARTUP).  The CPU
 * starts in trampoline.S (copied below 1 MiB) and reaches start_secondary():
 * GDT/TSS/IDT, CR0/CR4 as the boot CPU's, the TSC compared with the boot
 * CPU's, its local APIC (timer in TSC-deadline mode where the boot CPU has
 * it), VMXON with a region of its own; then it marks itself online and
 * runs the idle loop.  A CPU that does not answer within 5 s (of TSC
 * time), or fails its set-up, is reported, sent INIT again (which parks it)
 * and left out; the boot goes on.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/param.h>
#include <xen/percpu.h>
#include <xen/smp.h>
#include <xen/softirq.h>
#include <xen/spinlock.h>
#include <xen/string.h>
#include <xen/timer.h>
#include <asm/acpi.h>
#include <asm/apic.h>
#include <asm/config.h>
#include <asm/hvm/hvm.h>
#include <asm/processor.h>
#include <asm/setup.h>
#include <asm/smp.h>
#include <asm/time.h>

static bool opt_nosmp;
boolean_param("nosmp", opt_nosmp);

static unsigned int max_cpus;
integer_param("maxcpus", max_cpus);

/*
 * smpboot_fail=<cpu> (ours, for testing): that CPU fails its set-up as
 * if VMXON had failed, so that the boot CPU's handling of a CPU that does
 * not come up (report, park, free, go on) is exercised.  0: none.
 */
static unsigned int opt_smpboot_fail;
integer_param("smpboot_fail", opt_smpboot_fail);

uint32_t x86_cpu_to_apicid[NR_CPUS];
struct cpuinfo_x86 cpu_data[NR_CPUS];
DEFINE_PER_CPU(cpumask_t, cpu_sibling_mask);
DEFINE_PER_CPU(cpumask_t, cpu_core_mask);
DEFINE_PER_CPU(unsigned long, idle_wakeups);

unsigned long trampoline_phys;
extern char trampoline_start[], trampoline_end[];
extern volatile uint32_t trampoline_seen;

static unsigned int num_processors = 1;     /* the boot CPU */
static unsigned int disabled_cpus;

/* What the CPU being started reads (trampoline.S) and reports. */
unsigned long smpboot_stack;
static volatile int smpboot_callin = -1;    /* the CPU that arrived */
static volatile int smpboot_result;         /* its set-up: 0 or -errno */
static volatile bool smpboot_cancelled;     /* the boot CPU gave up on it */

#define SMPBOOT_TIMEOUT_MS 5000

int mp_register_lapic(uint32_t apic_id, bool enabled)
{
    unsigned int cpu;

    if ( !enabled )
    {
        disabled_cpus++;
        return -EINVAL;
    }
    for ( cpu = 0; cpu < num_processors; cpu++ )
        if ( x86_cpu_to_apicid[cpu] == apic_id )
            return -EEXIST;         /* the boot CPU, or listed twice */
    if ( apic_id >= 0xff )
    {
        printk(XENLOG_WARNING "APIC ID %#x needs x2APIC mode: processor ignored\n", apic_id);
        disabled_cpus++;
        return -ENOSPC;
    }
    if ( num_processors >= NR_CPUS )
    {
        printk(XENLOG_WARNING "WARNING: NR_CPUS limit of %u reached - ignoring further processors\n",
               NR_CPUS);
        disabled_cpus++;
        return -ENOSPC;
    }
    cpu = num_processors++;
    x86_cpu_to_apicid[cpu] = apic_id;
    cpumask_set_cpu(cpu, &cpu_present_map);
    return cpu;
}

/* ---- topology (CPUID) -------------------------------------------------- */

#define CPUID_TOPO_SMT  1
#define CPUID_TOPO_CORE 2

/* How the APIC ID splits into thread, core and package, from CPUID. */
static void identify_topology(unsigned int cpu)
{
    struct cpuinfo_x86 *c = &cpu_data[cpu];
    struct cpuid_leaf l;
    unsigned int smt_shift = 0, core_shift = 0, sub, max_leaf;

    c->apicid = x86_cpu_to_apicid[cpu];
    cpuid_count(0, 0, &l);
    max_leaf = l.a;
    cpuid_count(0xb, 0, &l);
    if ( max_leaf >= 0xb && l.b )
    {
        /* Leaf 0xB: each level's shift of the x2APIC ID. */
        for ( sub = 0; sub < 8; sub++ )
        {
            cpuid_count(0xb, sub, &l);
            if ( !l.b )
                break;
            if ( ((l.c >> 8) & 0xff) == CPUID_TOPO_SMT )
                smt_shift = l.a & 0x1f;
            else if ( ((l.c >> 8) & 0xff) == CPUID_TOPO_CORE )
                core_shift = l.a & 0x1f;
        }
        if ( core_shift < smt_shift )
            core_shift = smt_shift;
    }
    else
    {
        /* Leaf 1: logical CPUs per package; leaf 4: cores per package. */
        unsigned int logical = 1, cores = 1;

        cpuid_count(1, 0, &l);
        if ( l.d & (1u << 28) )             /* HTT */
            logical = (l.b >> 16) & 0xff;
        if ( max_leaf >= 4 )
        {
            cpuid_count(4, 0, &l);
            if ( l.a & 0x1f )
                cores = (l.a >> 26) + 1;
        }
        while ( (1u << core_shift) < (logical ?: 1) )
            core_shift++;
        while ( (1u << smt_shift) < (logical / cores ?: 1) )
            smt_shift++;
    }
    c->phys_proc_id = c->apicid >> core_shift;
    c->cpu_core_id = (c->apicid >> smt_shift) & ((1u << (core_shift - smt_shift)) - 1);
    c->x86_num_siblings = 1u << smt_shift;
    c->x86_max_cores = 1u << (core_shift - smt_shift);
    printk(XENLOG_INFO "CPU%u: APIC ID %u, package %u, core %u (APIC ID shifts: thread %u, core %u)\n",
           cpu, c->apicid, c->phys_proc_id, c->cpu_core_id, smt_shift, core_shift);
}

/* Enter cpu into the sibling and core masks of every online CPU it shares with. */
static void set_cpu_sibling_map(unsigned int cpu)
{
    unsigned int i;

    cpumask_set_cpu(cpu, &per_cpu(cpu_sibling_mask, cpu));
    cpumask_set_cpu(cpu, &per_cpu(cpu_core_mask, cpu));
    for_each_online_cpu ( i )
    {
        if ( i == cpu || cpu_data[i].phys_proc_id != cpu_data[cpu].phys_proc_id )
            continue;
        cpumask_set_cpu(i, &per_cpu(cpu_core_mask, cpu));
        cpumask_set_cpu(cpu, &per_cpu(cpu_core_mask, i));
        if ( cpu_data[i].cpu_core_id == cpu_data[cpu].cpu_core_id )
        {
            cpumask_set_cpu(i, &per_cpu(cpu_sibling_mask, cpu));
            cpumask_set_cpu(cpu, &per_cpu(cpu_sibling_mask, i));
        }
    }
}

/* ---- the TSC ----------------------------------------------------------- */

/*
 * The boot CPU and the new one take turns reading the TSC under a lock:
 * a read lower than the last one, taken on the other CPU before it, means
 * the two TSCs are not in sync (guests read the TSC directly, and system
 * time is scaled from it, so they must be).  Warned about, not fatal.
 */
#define TSC_SYNC_ROUNDS 100
static DEFINE_SPINLOCK(tsc_sync_lock);
static uint64_t tsc_sync_last, tsc_sync_max_warp;
static unsigned int tsc_sync_warps;
static volatile unsigned int tsc_sync_arrived;

static void check_tsc_warp(void)
{
    unsigned int i;
    unsigned long flags;

    /* Both sides with interrupts off: the new CPU has them off anyway. */
    local_irq_save(flags);
    /* Start together, so that the two loops overlap. */
    __sync_fetch_and_add(&tsc_sync_arrived, 1);
    while ( tsc_sync_arrived < 2 )
        cpu_relax();
    for ( i = 0; i < TSC_SYNC_ROUNDS; i++ )
    {
        uint64_t prev, now;

        spin_lock(&tsc_sync_lock);
        prev = tsc_sync_last;
        now = rdtsc();
        tsc_sync_last = now;
        if ( now < prev )
        {
            tsc_sync_warps++;
            if ( prev - now > tsc_sync_max_warp )
                tsc_sync_max_warp = prev - now;
        }
        spin_unlock(&tsc_sync_lock);
    }
    __sync_fetch_and_add(&tsc_sync_arrived, 1);
    while ( tsc_sync_arrived < 4 )
        cpu_relax();
    local_irq_restore(flags);
}

/* ---- the new CPU's side ------------------------------------------------ */

noreturn void idle_loop(void)
{
    unsigned int cpu = smp_processor_id();

    for ( ;; )
    {
        do_softirq();               /* with interrupts enabled */
        local_irq_disable();
        /* Atomic with the check: STI's shadow covers HLT (safe_halt). */
        if ( !softirq_pending(cpu) )
        {
            safe_halt();
            this_cpu(idle_wakeups)++;
        }
        else
            local_irq_enable();
    }
}

noreturn void start_secondary(void)
{
    unsigned int cpu = smp_processor_id();
    int rc;

    percpu_traps_init();
    cpu_init_control_regs();
    smpboot_callin = cpu;
    check_tsc_warp();

    setup_local_APIC();
    rc = cpu == opt_smpboot_fail ? -EIO : hvm_cpu_up();
    if ( !rc && get_apic_id() != cpu_physical_id(cpu) )
        rc = -EINVAL;
    if ( !rc )
    {
        identify_topology(cpu);
        set_cpu_sibling_map(cpu);
    }
    smpboot_result = rc;
    smp_mb();
    if ( rc || smpboot_cancelled )
        for ( ;; )
            halt();                 /* interrupts off: parked until INIT */

    cpumask_set_cpu(cpu, &cpu_online_map);
    /* From here on this CPU runs with interrupts enabled (Xen's convention). */
    local_irq_enable();
    idle_loop();
}

/* ---- the boot CPU's side ----------------------------------------------- */

static bool wait_for(volatile int *v, int unwanted, unsigned int ms)
{
    uint64_t end = rdtsc() + (uint64_t)ms * cpu_khz;

    while ( ACCESS_ONCE(*v) == unwanted )
    {
        if ( rdtsc() > end )
            return false;
        cpu_relax();
    }
    return true;
}

/* INIT, INIT de-assert, STARTUP x2 (SDM vol. 3 "MP Initialization"; Xen's timing). */
static int wakeup_secondary_cpu(uint32_t apicid, unsigned long start_eip)
{
    unsigned int i;
    uint32_t esr;

    apic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT, apicid);
    mdelay(10);
    apic_icr_write(APIC_INT_LEVELTRIG | APIC_DM_INIT, apicid);

    for ( i = 0; i < 2; i++ )
    {
        apic_read_esr();
        apic_icr_write(APIC_DM_STARTUP | (start_eip >> 12), apicid);
        udelay(300);
        if ( !apic_icr_delivered() )
        {
            udelay(200);
            if ( !apic_icr_delivered() )
                return -EIO;
        }
        udelay(200);
        esr = apic_read_esr() & 0xef;
        if ( esr )
            printk(XENLOG_WARNING "CPU APIC ID %u: APIC error status %#x after STARTUP\n",
                   apicid, esr);
    }
    return 0;
}

/* The trampoline's flag, in the copy below 1 MiB. */
static volatile uint32_t *trampoline_seen_copy(void)
{
    return (volatile uint32_t *)(trampoline_phys +
                                 ((const char *)&trampoline_seen - trampoline_start));
}

static void free_cpu_resources(unsigned int cpu, void *stack, void *gdt)
{
    free_xenheap_pages(stack, STACK_ORDER);
    free_xenheap_pages(gdt, 0);
    per_cpu(gdt_table, cpu) = NULL;
    free_percpu_area(cpu);
}

static int do_boot_cpu(unsigned int cpu)
{
    uint32_t apicid = cpu_physical_id(cpu);
    struct cpu_info *info;
    void *stack, *gdt;
    int rc;

    rc = init_percpu_area(cpu);
    if ( rc )
        return rc;
    timer_cpu_init(cpu);
    stack = alloc_xenheap_pages(STACK_ORDER);
    gdt = alloc_xenheap_pages(0);
    if ( !stack || !gdt )
    {
        free_xenheap_pages(stack, STACK_ORDER);
        free_xenheap_pages(gdt, 0);
        free_percpu_area(cpu);
        return -ENOMEM;
    }
    memcpy(gdt, boot_gdt, boot_gdt_end - (char *)boot_gdt);
    per_cpu(gdt_table, cpu) = gdt;

    /* The stack starts below the CPU's struct cpu_info, at its top. */
    info = (struct cpu_info *)((char *)stack + STACK_SIZE - CPUINFO_SIZE);
    memset(info, 0, sizeof(*info));
    info->processor_id = cpu;
    info->apic_id = apicid;
    info->per_cpu_offset = __per_cpu_offset[cpu];
    info->stack_top = (unsigned long)info;
    smpboot_stack = (unsigned long)info;

    smpboot_callin = -1;
    smpboot_result = 1;
    smpboot_cancelled = false;
    tsc_sync_arrived = 0;
    tsc_sync_warps = 0;
    tsc_sync_max_warp = 0;
    *trampoline_seen_copy() = 0;
    smp_mb();

    printk(XENLOG_INFO "Booting processor %u/%u eip %lx\n", cpu, apicid, trampoline_phys);
    rc = wakeup_secondary_cpu(apicid, trampoline_phys);
    if ( rc )
    {
        printk(XENLOG_ERR "CPU%u: STARTUP IPI not accepted\n", cpu);
        goto fail;
    }
    if ( !wait_for(&smpboot_callin, -1, SMPBOOT_TIMEOUT_MS) )
    {
        printk(XENLOG_ERR "CPU%u: Not responding.%s\n", cpu,
               *trampoline_seen_copy() ? " (it reached the trampoline)" : "");
        rc = -EIO;
        goto fail;
    }
    check_tsc_warp();
    if ( tsc_sync_warps )
        printk(XENLOG_WARNING "TSC: CPU%u's TSC is not in sync with CPU0's "
               "(%u backward steps, up to %lu ticks)\n", cpu, tsc_sync_warps,
               (unsigned long)tsc_sync_max_warp);
    if ( !wait_for(&smpboot_result, 1, SMPBOOT_TIMEOUT_MS) || smpboot_result )
    {
        rc = smpboot_result == 1 ? -ETIMEDOUT : smpboot_result;
        printk(XENLOG_ERR "CPU%u: failed to start (%d)\n", cpu, rc);
        goto fail;
    }
    while ( !cpu_online(cpu) )
        cpu_relax();
    return 0;

 fail:
    /* Park it (INIT: wait for STARTUP) before its memory goes. */
    smpboot_cancelled = true;
    smp_mb();
    apic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT, apicid);
    mdelay(10);
    apic_icr_write(APIC_INT_LEVELTRIG | APIC_DM_INIT, apicid);
    free_cpu_resources(cpu, stack, gdt);
    return rc;
}

/* Xen's set_nr_cpu_ids(). */
static void set_nr_cpu_ids(unsigned int max)
{
    unsigned int tot_cpus = num_processors + disabled_cpus;

    if ( !max )
        max = tot_cpus;
    if ( max > NR_CPUS )
        max = NR_CPUS;
    else if ( !max )
        max = 1;
    printk(XENLOG_INFO "SMP: Allowing %u CPUs (%d hotplug CPUs)\n",
           max, max > num_processors ? (int)(max - num_processors) : 0);
    nr_cpu_ids = max;
}

void smp_prepare_cpus(void)
{
    unsigned int cpu;

    x86_cpu_to_apicid[0] = get_apic_id();
    get_cpu_info()->apic_id = x86_cpu_to_apicid[0];
    cpumask_set_cpu(0, &cpu_present_map);
    cpumask_set_cpu(0, &cpu_online_map);
    for ( cpu = 1; cpu < NR_CPUS; cpu++ )
        x86_cpu_to_apicid[cpu] = BAD_APICID;

    acpi_boot_init();
    if ( opt_nosmp )
    {
        max_cpus = 1;
        set_nr_cpu_ids(1);
    }
    else
        set_nr_cpu_ids(max_cpus);
    if ( !max_cpus || max_cpus > nr_cpu_ids )
        max_cpus = nr_cpu_ids;
    /* A CPU beyond nr_cpu_ids is not used (not present to the rest of Xen). */
    for ( cpu = nr_cpu_ids; cpu < NR_CPUS; cpu++ )
        cpumask_clear_cpu(cpu, &cpu_present_map);

    identify_topology(0);
    set_cpu_sibling_map(0);
    smp_intr_init();

    if ( num_present_cpus() > 1 )
    {
        if ( !trampoline_phys )
            panic("No memory below 1 MiB for the secondary CPUs' trampoline");
        memcpy((void *)trampoline_phys, trampoline_start, trampoline_end - trampoline_start);
    }
}

void smp_boot_cpus(void)
{
    unsigned int cpu;

    for_each_present_cpu ( cpu )
    {
        if ( num_online_cpus() >= max_cpus )
            break;
        if ( cpu_online(cpu) )
            continue;
        if ( do_boot_cpu(cpu) )
            cpumask_clear_cpu(cpu, &cpu_present_map);
    }
    printk("Brought up %u CPUs\n", num_online_cpus());
}
