/* SPDX-License-Identifier: GPL-2.0-only */
/* Start of day on the boot vCPU, the command line, and power-off. */

#include "test.h"

void traps_init(void);
void guest_start(void);

const struct hvm_start_info *start_info;
const char *cmdline = "";
bool under_xen;

static void start_info_init(void)
{
    const struct hvm_start_info *si = (const void *)(uintptr_t)start_info_pa;

    if ( !si || si->magic != XEN_HVM_START_MAGIC_VALUE )
        return;

    start_info = si;
    if ( si->cmdline_paddr )
        cmdline = (const char *)(uintptr_t)si->cmdline_paddr;
}

/*
 * "watchdog=<seconds>" on the guest command line: arm a domain watchdog
 * (SCHEDOP_watchdog) that is never re-armed, so a test kernel that hangs
 * (spinning on one instruction, say) is shut down by the hypervisor
 * instead of keeping the machine up until the runner's timeout.
 */
static void arm_watchdog(void)
{
    struct sched_watchdog w = { .id = 0 };
    long rc;

    w.timeout = cmdline_ulong("watchdog", 0);
    if ( !w.timeout || !hypercall_page_ready )
        return;
    rc = hypercall_sched_op(SCHEDOP_watchdog, &w);
    if ( rc <= 0 )
        printk("Warning: SCHEDOP_watchdog: %ld\n", rc);
}

void guest_start(void)
{
    traps_init();
    start_info_init();

    under_xen = xen_detect();
    if ( under_xen && hypercall_page_init() )
        printk("Warning: hypercall page setup failed\n");
    console_init();

    printk("--- Guest test: %s ---\n", test_title);
    if ( !under_xen )
        printk("Not running under Xen: output on port 0xE9, halting at the end\n");
    arm_watchdog();

    test_main();

    xtf_exit();
}

noreturn void guest_poweroff(unsigned int reason)
{
    if ( hypercall_page_ready )
        hypercall_shutdown(reason);

    /*
     * Not under Xen: QEMU's isa-debug-exit device, if present
     * (-device isa-debug-exit,iobase=0xf4,iosize=4), ends the run with
     * status 1 for poweroff, 3 otherwise.  Else, or if the shutdown
     * hypercall returned, halt here for good.
     */
    if ( !under_xen )
        outb(reason == SHUTDOWN_poweroff ? 0 : 1, 0xf4);
    for ( ;; )
    {
        cli();
        halt();
    }
}

bool cmdline_get_str(const char *key, char *buf, size_t size)
{
    size_t klen = strlen(key);
    const char *p = cmdline;

    while ( *p )
    {
        const char *end;

        while ( *p == ' ' )
            p++;
        end = p + strcspn(p, " ");

        if ( (size_t)(end - p) >= klen && !strncmp(p, key, klen) &&
             (p + klen == end || p[klen] == '=') )
        {
            const char *v = p + klen + (p + klen < end);
            size_t n = end - v;

            if ( size )
            {
                if ( n >= size )
                    n = size - 1;
                memcpy(buf, v, n);
                buf[n] = '\0';
            }
            return true;
        }
        p = end;
    }

    return false;
}

bool cmdline_get_ulong(const char *key, unsigned long *val)
{
    char buf[32];

    const char *end;

    if ( !cmdline_get_str(key, buf, sizeof(buf)) )
        return false;

    *val = simple_strtoul(buf, &end, 0);
    return end != buf && *end == '\0';
}

unsigned long cmdline_ulong(const char *key, unsigned long def)
{
    unsigned long v;

    return cmdline_get_ulong(key, &v) ? v : def;
}
