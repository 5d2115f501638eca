/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Powering off, resetting, panic and BUG.
 *
 * Without ACPI support the only power-off we know is the emulator's:
 * Bochs powers off when "Shutdown" is written to port 0x8900.  On other
 * machines we stop the CPU.
 *
 * A reset tries the PCI reset control register at 0xCF9 first (what the
 * ACPI reset register of PC chipsets is; Bochs's PIIX3: a hardware reset
 * of every device), then what Xen's machine_restart() tries without ACPI:
 * pulse the reset line through the keyboard controller, then a triple
 * fault.  The keyboard controller's reset is only a CPU reset under Bochs,
 * which keeps IA32_FEATURE_CONTROL locked: its BIOS then faults writing it
 * and the machine stops (seen: "3rd (13) exception with no resolution").
 */
#include <xen/console.h>
#include <xen/lib.h>
#include <xen/smp.h>
#include <xen/spinlock.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/shutdown.h>

#define BOCHS_SHUTDOWN_PORT 0x8900
#define KBC_STATUS_PORT     0x64        /* read: status; write: command */
#define KBC_STATUS_IBF      0x02        /* input buffer full */
#define KBC_CMD_PULSE_RESET 0xfe
#define PCI_RESET_PORT      0xcf9
#define PCI_RESET_SYS       0x02
#define PCI_RESET_CPU       0x04

noreturn void machine_power_off(void)
{
    const char *s = "Shutdown";

    local_irq_disable();
    console_flush();
    while ( *s )
        outb(*s++, BOCHS_SHUTDOWN_PORT);
    for ( ;; )
        halt();
}

noreturn void machine_restart(void)
{
    const struct desc_ptr no_idt = { 0, 0 };
    unsigned int i;

    local_irq_disable();
    console_flush();
    outb(PCI_RESET_SYS, PCI_RESET_PORT);
    outb(PCI_RESET_SYS | PCI_RESET_CPU, PCI_RESET_PORT);
    for ( i = 0; i < 0x100000; i++ )
        cpu_relax();
    for ( i = 0; i < 0x10000 && (inb(KBC_STATUS_PORT) & KBC_STATUS_IBF); i++ )
        cpu_relax();
    outb(KBC_CMD_PULSE_RESET, KBC_STATUS_PORT);
    for ( i = 0; i < 0x100000; i++ )
        cpu_relax();
    /* A fault with no IDT: a triple fault, which resets the machine. */
    lidt(&no_idt);
    asm volatile ( "int3" );
    for ( ;; )
        halt();
}

noreturn void panic(const char *fmt, ...)
{
    char buf[256];
    va_list args;

    unsigned int stopped = 0, others = 0;

    local_irq_disable();
    spin_debug_disable();
    /*
     * The others first, as Xen's smp_send_stop(): nothing runs on while
     * this one reports.  A CPU they stopped may have held the console's
     * locks: take them over.  A second panic stops here, the first
     * reports.
     */
    if ( !smp_send_stop(&stopped, &others) )
        stop_this_cpu();
    console_force_unlock();
    va_start(args, fmt);
    vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);

    printk(XENLOG_ERR "****************************************\n");
    printk(XENLOG_ERR "Panic on CPU %u:\n", smp_processor_id());
    printk(XENLOG_ERR "%s\n", buf);
    printk(XENLOG_ERR "****************************************\n");
    if ( others )
        printk(XENLOG_ERR "%u of %u other CPU(s) stopped\n", stopped, others);
    printk(XENLOG_ERR "Powering off\n");
    machine_power_off();
}

noreturn void __bug(const char *file, int line)
{
    panic("Xen BUG at %s:%d", file, line);
}
