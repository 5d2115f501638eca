/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Powering off, panic and BUG.
 *
 * Without ACPI support the only power-off we know is the emulator's:
 * Bochs powers off when "Shutdown" is written to port 0x8900.  On other
 * machines we stop the CPU.
 */
#include <xen/console.h>
#include <xen/lib.h>
#include <xen/smp.h>
#include <xen/spinlock.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/shutdown.h>

#define BOCHS_SHUTDOWN_PORT 0x8900

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

noreturn void panic(const char *fmt, ...)
{
    char buf[256];
    va_list args;

    local_irq_disable();
    spin_debug_disable();
    va_start(args, fmt);
    vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);

    printk(XENLOG_ERR "****************************************\n");
    printk(XENLOG_ERR "Panic on CPU %u:\n", smp_processor_id());
    printk(XENLOG_ERR "%s\n", buf);
    printk(XENLOG_ERR "****************************************\n");
    printk(XENLOG_ERR "Powering off\n");
    machine_power_off();
}

noreturn void __bug(const char *file, int line)
{
    panic("Xen BUG at %s:%d", file, line);
}
