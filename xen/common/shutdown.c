/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host's end: when the hardware domain shuts down (Xen's
 * hwdom_shutdown), and when the last domain is gone.
 *
 * As in Xen, the host goes with its hardware domain (dom0):
 *   poweroff              "Hardware Dom0 halted: halting machine"
 *   reboot, watchdog      "... rebooting machine"
 *   crash, anything else  "... rebooting machine in 5 seconds." (with
 *                         noreboot: "'noreboot' set - not rebooting.", halt)
 * Xen halts the CPUs and leaves powering off to dom0's ACPI S5 request
 * (XENPF_enter_acpi_sleep); dom0 here has no S5 (no _S5 in its DSDT), so
 * halting powers the machine off (machine_power_off()).  The other domains
 * are stopped and destroyed first (each prints its exit counts, as when it
 * ends by itself), then the machine powers off or resets.
 *
 * dom0_shutdown=domain (beyond Xen) keeps the host up when dom0 ends: the
 * other domains go on, and the machine powers off when the last domain is
 * gone, whoever that is.  The guest test runner (tests/run-tests.sh) asks
 * for it: its test kernels run as dom0 and often finish before the domUs
 * they boot with.  dom0_shutdown=host is the default (Xen's behaviour).
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/param.h>
#include <xen/sched.h>
#include <xen/shutdown.h>
#include <xen/string.h>
#include <xen/time.h>
#include <asm/irq.h>
#include <asm/processor.h>
#include <public/sched.h>

/* noreboot: a crashed dom0 halts the machine instead of rebooting it (Xen's). */
static bool opt_noreboot;
boolean_param("noreboot", opt_noreboot);

/* dom0_shutdown=host|domain: whether dom0's shutdown is the host's. */
static bool dom0_shutdown_host = true;

static int parse_dom0_shutdown(const char *s)
{
    if ( !strcmp(s, "host") )
        dom0_shutdown_host = true;
    else if ( !strcmp(s, "domain") )
        dom0_shutdown_host = false;
    else
        return -EINVAL;
    return 0;
}
custom_param("dom0_shutdown", parse_dom0_shutdown);

/* What the machine does once every domain is gone. */
static enum host_end { HOST_POWER_OFF, HOST_REBOOT } host_end = HOST_POWER_OFF;
static unsigned int host_end_delay_ms;

/* Stop every domain: the scheduler destroys them, and then the host ends. */
static void stop_all_domains(enum host_end end, unsigned int delay_ms)
{
    struct domain *d;

    host_end = end;
    host_end_delay_ms = delay_ms;
    for_each_domain ( d )
    {
        guest_console_flush(d);
        /* Suspended domains too: the host is going down, nothing resumes them. */
        if ( d->state == DOMSTATE_running || domain_is_suspended(d) )
        {
            d->state = DOMSTATE_shutdown;
            d->shutdown_code = SHUTDOWN_poweroff;
        }
    }
    raise_resched();
}

static void reboot_or_halt(void)
{
    if ( opt_noreboot )
    {
        printk("'noreboot' set - not rebooting.\n");
        stop_all_domains(HOST_POWER_OFF, 0);
    }
    else
    {
        printk("rebooting machine in 5 seconds.\n");
        stop_all_domains(HOST_REBOOT, 5000);
    }
}

void hwdom_shutdown(const struct domain *d, unsigned int reason)
{
    if ( !dom0_shutdown_host )
        return;

    switch ( reason )
    {
    case SHUTDOWN_poweroff:
        printk("Hardware Dom%u halted: halting machine\n", d->domain_id);
        stop_all_domains(HOST_POWER_OFF, 0);
        break;

    case SHUTDOWN_crash:
        printk("Hardware Dom%u crashed: ", d->domain_id);
        reboot_or_halt();
        break;

    case SHUTDOWN_reboot:
        printk("Hardware Dom%u shutdown: rebooting machine\n", d->domain_id);
        stop_all_domains(HOST_REBOOT, 0);
        break;

    case SHUTDOWN_watchdog:
        printk("Hardware Dom%u shutdown: watchdog rebooting machine\n", d->domain_id);
        stop_all_domains(HOST_REBOOT, 0);
        break;

    default:
        printk("Hardware Dom%u shutdown (unknown reason %u): ", d->domain_id, reason);
        reboot_or_halt();
        break;
    }
}

void host_end_no_domains(void)
{
    printk(XENLOG_INFO "Interrupts taken, by vector:\n");
    dump_irq_counts();
    if ( host_end == HOST_REBOOT )
    {
        s_time_t until = NOW() + MILLISECS(host_end_delay_ms);

        printk("All domains have shut down: rebooting\n");
        while ( NOW() < until )
            cpu_relax();
        machine_restart();
    }
    printk("All domains have shut down: powering off\n");
    machine_power_off();
}
