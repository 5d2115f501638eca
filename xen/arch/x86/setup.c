/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * __start_xen(): from the multiboot2 hand-over to the scheduler.
 */
#include <xen/time.h>
#include <xen/timer.h>
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/spinlock.h>
#include <xen/percpu.h>
#include <xen/mm.h>
#include <asm/mm.h>
#include <xen/param.h>
#include <xen/sched.h>
#include <xen/version.h>
#include <asm/apic.h>
#include <asm/config.h>
#include <asm/hvm/hvm.h>
#include <asm/processor.h>
#include <asm/setup.h>
#include <asm/smp.h>
#include <asm/time.h>

static struct boot_info boot_info;

const struct boot_info *get_boot_info(void)
{
    return &boot_info;
}

static bool overlaps(paddr_t s, paddr_t e, paddr_t s2, paddr_t e2)
{
    return s < e2 && s2 < e;
}

/*
 * The page the secondary CPUs start in: a STARTUP IPI names a page below
 * 1 MiB.  The highest usable RAM page under 640 KiB that the boot loader's
 * data does not use; the allocator never manages the first MiB, so the page
 * is the trampoline's alone (Xen also takes it from low memory at boot).
 */
static void find_trampoline_page(const struct boot_info *bi)
{
    unsigned int i, m;
    paddr_t p;

    for ( i = 0; i < bi->nr_e820; i++ )
    {
        const struct e820entry *e = &bi->e820[i];
        paddr_t end = e->addr + e->size;

        if ( e->type != E820_RAM )
            continue;
        if ( end > 0xa0000 )
            end = 0xa0000;
        for ( p = (end & ~(paddr_t)(PAGE_SIZE - 1)); p >= e->addr + PAGE_SIZE &&
              p >= 0x2000; p -= PAGE_SIZE )
        {
            paddr_t s = p - PAGE_SIZE;
            bool used = overlaps(s, p, bi->mbi_start, bi->mbi_end) || s < e->addr;

            for ( m = 0; m < bi->nr_modules; m++ )
                used |= overlaps(s, p, bi->mods[m].start, bi->mods[m].end);
            if ( !used && s > trampoline_phys )
            {
                trampoline_phys = s;
                break;
            }
        }
    }
}

/* Hand RAM to the allocator, then take back what is in use. */
static void init_memory(const struct boot_info *bi)
{
    unsigned int i;

    find_trampoline_page(bi);

    for ( i = 0; i < bi->nr_e820; i++ )
    {
        const struct e820entry *e = &bi->e820[i];
        uint64_t s = e->addr, end = e->addr + e->size;

        printk(XENLOG_INFO " %016lx - %016lx (%s)\n", (unsigned long)s,
               (unsigned long)end, e->type == E820_RAM ? "usable" : "reserved");
        if ( e->type != E820_RAM )
            continue;
        if ( s < MB(1) )
            s = MB(1);              /* leave the first MiB alone */
        if ( end > DIRECTMAP_SIZE )
            end = DIRECTMAP_SIZE;
        if ( s < end )
            init_boot_pages(s, end);
    }

    reserve_boot_pages(virt_to_maddr(__image_start), virt_to_maddr(__image_end));
    reserve_boot_pages(bi->mbi_start, bi->mbi_end);
    for ( i = 0; i < bi->nr_modules; i++ )
        reserve_boot_pages(bi->mods[i].start, bi->mods[i].end);
    end_boot_allocator();
    init_frame_table(max_boot_pfn());
}

/* smp_selftest: after the CPUs are up, test IPIs, timers and flushes on all of them. */
static bool opt_smp_selftest;
boolean_param("smp_selftest", opt_smp_selftest);
/* smp_selftest_panic: then panic with the other CPUs spinning (they must stop). */
static bool opt_smp_selftest_panic;
boolean_param("smp_selftest_panic", opt_smp_selftest_panic);

/* CR0 and CR4 as every CPU runs with them (VMX adds its fixed bits). */
void cpu_init_control_regs(void)
{
    /* Guests' x87/SSE state is switched with FXSAVE/FXRSTOR. */
    write_cr0((read_cr0() & ~(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP);
    write_cr4(read_cr4() | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT);
}

void __start_xen(uint32_t magic, unsigned long mbi)
{
    struct boot_info *bi = &boot_info;
    struct cpu_info *info = get_cpu_info();
    int rc;

    /* The boot CPU is CPU 0, with the image's per-CPU area (head.S zeroed it). */
    info->stack_top = (unsigned long)info;
    percpu_init_areas();

    console_init_preirq();

    rc = multiboot2_parse(magic, mbi, bi);
    if ( rc == -EINVAL )
        panic("Not booted by a multiboot2 loader (magic %#x)", magic);

    /* Parameters first: they decide, among other things, the log level. */
    cmdline_parse(bi->cmdline);

    print_banner();
    printk("Bootloader: %s\n", bi->loader ? bi->loader : "unknown");
    printk("Command line: %s\n", bi->cmdline);
    if ( rc )
        panic("The boot loader gave no memory map");

    printk(XENLOG_INFO "Xen-e820 RAM map:\n");
    init_memory(bi);
    printk(XENLOG_INFO "Boot modules: %u\n", bi->nr_modules);

    percpu_traps_init();
    cpu_init_control_regs();
    apic_init();
    calibrate_tsc();
    smp_prepare_cpus();
    init_system_time();
    timer_init();
    console_init_postirq();

    /*
     * From here on the hypervisor runs with interrupts enabled except in
     * critical sections, as Xen does (docs/design.md, "The interrupt
     * convention"); the lock checks start now, as Xen's spin_debug_enable().
     */
    local_irq_enable();
    spin_debug_enable();

    rc = hvm_enable();
    if ( rc )
        panic("This CPU cannot run HVM guests (VMX with EPT and unrestricted guest needed)");

    smp_boot_cpus();
    if ( opt_smp_selftest )
        smp_selftest();
    if ( opt_smp_selftest_panic )
        smp_selftest_panic();

    scheduler_init();
    create_boot_domains(bi);
    scheduler_run();
}
