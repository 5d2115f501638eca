/* SPDX-License-Identifier: GPL-2.0-only */
/* printk() for the guest test kernels. */

#include "test.h"

static spinlock_t console_lock = SPIN_LOCK_UNLOCKED;
/* vCPU id + 1 of the holder, so an exception on it can still print. */
static volatile unsigned int console_owner;

void console_write(const char *buf, size_t len)
{
    if ( hypercall_page_ready )
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

    /* Before the hypercall page, or not under Xen: the debug port. */
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
