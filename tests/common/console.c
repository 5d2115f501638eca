/* SPDX-License-Identifier: GPL-2.0-only */
/* printk() for the guest test kernels. */

#include "test.h"
#include "public/features.h"
#include "public/version.h"

static spinlock_t console_lock = SPIN_LOCK_UNLOCKED;
/* vCPU id + 1 of the holder, so an exception on it can still print. */
static volatile unsigned int console_owner;

/* dom0 prints through the debug port: see lib.h. */
static bool use_debug_port;

void console_init(void)
{
    struct xen_feature_info fi = { .submap_idx = 0 };

    if ( hypercall_page_ready && !hypercall_xen_version(XENVER_get_features, &fi) )
        use_debug_port = fi.submap & (1u << XENFEAT_dom0);
}

/* rep outsb: one exit for the whole string. */
static void debug_port_write(const char *buf, size_t len)
{
    asm volatile ( "rep outsb"
                   : "+S" (buf), "+c" (len)
                   : "d" (DEBUGCON_PORT)
                   : "memory" );
}

void console_write(const char *buf, size_t len)
{
    if ( hypercall_page_ready && !use_debug_port )
    {
        while ( len )
        {
            unsigned int chunk = len > 1024 ? 1024 : len;

            if ( hypercall_console_write(buf, chunk) < 0 )
                break;
            buf += chunk;
            len -= chunk;
        }
        return;
    }

    /* dom0, before the hypercall page, or not under Xen: the debug port. */
    if ( hypercall_page_ready )
        debug_port_write(buf, len);
    else
        for ( ; len; len--, buf++ )
            outb(*buf, DEBUGCON_PORT);
}

void vprintk(const char *fmt, va_list args)
{
    char buf[512];
    unsigned int me = smp_processor_id() + 1;
    int len;
    bool recursive = console_owner == me;

    len = vscnprintf(buf, sizeof(buf), fmt, args);

    if ( recursive )
    {
        console_write(buf, len);
        return;
    }

    spin_lock(&console_lock);
    console_owner = me;
    console_write(buf, len);
    console_owner = 0;
    spin_unlock(&console_lock);
}

void printk(const char *fmt, ...)
{
    va_list args;

    va_start(args, fmt);
    vprintk(fmt, args);
    va_end(args);
}

void panic(const char *fmt, ...)
{
    char msg[256];
    va_list args;

    /* One printk per line: the hypervisor may not join partial lines. */
    va_start(args, fmt);
    vscnprintf(msg, sizeof(msg), fmt, args);
    va_end(args);

    printk("******************************\n");
    printk("PANIC: %s", msg);
    printk("******************************\n");

    xtf_error(NULL);
    xtf_exit();
}
