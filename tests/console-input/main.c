/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Console input, as Xen gives it to the control domain:
 *
 *   VIRQ_CONSOLE is global (vCPU 0 only); CONSOLEIO_read with nothing
 *   queued returns 0 (whatever the buffer); then, with the line
 *   "waiting for console input" printed, the test case types TEXT below
 *   on COM1 (tests/run-tests.sh's serial_input key, through a pty to
 *   Bochs's UART).  Every byte raises VIRQ_CONSOLE: the kernel sleeps in
 *   SCHEDOP_block (interrupts off, no busy wait) and, woken, reads what is
 *   queued a few bytes at a time.  On the first wake-up an unmapped buffer
 *   gives -EFAULT and count 0 gives 0, both leaving the bytes queued.
 *   The bytes read back must be exactly EXPECTED: a lone Ctrl-A passes
 *   through, Ctrl-A three times switches input to the hypervisor (which
 *   answers 'h' with its key list) and three more switch it back.
 *
 *   Any other domain (domain 1 running this kernel): CONSOLEIO_read is
 *   -EPERM.
 */
#include "test.h"
#include "check.h"
#include "events.h"

const char test_title[] = "Console input: VIRQ_CONSOLE and CONSOLEIO_read";

#define UNMAPPED_VA 0x8000000000UL

/* What the case types (unittests.cfg) and what dom0 must read back. */
static const char expected[] = "hello\x01, console input\r";

static void test_domu(void)
{
    char buf[8];

    check_rc("CONSOLEIO_read from a domU",
             hypercall_console_io(CONSOLEIO_read, sizeof(buf), buf), -XEN_EPERM);
}

static void test_dom0(void)
{
    evtchn_port_t port, p2;
    char got[64], buf[4];
    unsigned int len = 0, blocks = 0, woken = 0, wakes_with_data = 0, reads = 0;
    bool first = true;
    long rc;

    check_rc("bind VIRQ_CONSOLE to vCPU 1 (a global VIRQ)",
             evtchn_bind_virq(VIRQ_CONSOLE, 1, &p2), -XEN_EINVAL);
    check_rc("bind VIRQ_CONSOLE", evtchn_bind_virq(VIRQ_CONSOLE, 0, &port), 0);
    check_rc("CONSOLEIO_read, nothing queued",
             hypercall_console_io(CONSOLEIO_read, sizeof(buf), buf), 0);
    check_rc("CONSOLEIO_read, nothing queued, unmapped buffer",
             hypercall_console_io(CONSOLEIO_read, sizeof(buf), (void *)UNMAPPED_VA), 0);

    printk("waiting for console input\n");
    while ( len < sizeof(expected) - 1 && blocks < 200 )
    {
        sched_block();
        blocks++;
        evtchn_ack_upcall();
        if ( !evtchn_pending(port) )
            continue;                   /* a wake-up without the event */
        woken++;
        /*
         * Clear, then read: a byte that comes after the read (the poll
         * timer runs while we do) leaves the port pending, and the next
         * block returns at once to a read that may find it already taken.
         */
        evtchn_clear(port);

        if ( first )
        {
            first = false;
            check_rc("CONSOLEIO_read to an unmapped buffer",
                     hypercall_console_io(CONSOLEIO_read, sizeof(buf),
                                          (void *)UNMAPPED_VA), -XEN_EFAULT);
            check_rc("CONSOLEIO_read, count 0",
                     hypercall_console_io(CONSOLEIO_read, 0, buf), 0);
        }

        /* Small reads: a byte at a time first, then four at a time. */
        rc = hypercall_console_io(CONSOLEIO_read, reads ? sizeof(buf) : 1, buf);
        if ( rc > 0 )
            wakes_with_data++;
        while ( rc > 0 )
        {
            if ( rc > (long)sizeof(buf) || (!reads && rc != 1) )
            {
                xtf_failure("Fail: CONSOLEIO_read returned %ld, more than asked\n", rc);
                return;
            }
            reads++;
            if ( len + (unsigned long)rc > sizeof(got) )
                rc = sizeof(got) - len;
            memcpy(got + len, buf, rc);
            len += rc;
            rc = hypercall_console_io(CONSOLEIO_read, sizeof(buf), buf);
        }
        if ( rc < 0 )
        {
            xtf_failure("Fail: CONSOLEIO_read: %ld\n", rc);
            return;
        }
    }

    printk("  %u bytes in %u reads, %u SCHEDOP_block calls, %u woken by VIRQ_CONSOLE,"
           " %u of them with input\n", len, reads, blocks, woken, wakes_with_data);
    check_true("every SCHEDOP_block returned with VIRQ_CONSOLE pending", woken == blocks);
    check_true("no more wake-ups than bytes typed, twice over (no busy wait)",
               wakes_with_data >= 1 && blocks <= 2 * (sizeof(expected) - 1));
    check_true("the first bytes survived the -EFAULT and count-0 reads",
               len >= 1 && got[0] == expected[0]);
    if ( len == sizeof(expected) - 1 && !memcmp(got, expected, len) )
        printk("  ok   read back exactly what was typed (%u bytes)\n", len);
    else
    {
        unsigned int i;

        printk("  got:");
        for ( i = 0; i < len; i++ )
            printk(" %02x", (unsigned char)got[i]);
        printk("\n");
        xtf_failure("Fail: read back %u bytes, not the %u typed\n", len,
                    (unsigned int)sizeof(expected) - 1);
    }
    check_rc("CONSOLEIO_read, all read", hypercall_console_io(CONSOLEIO_read, sizeof(buf), buf), 0);
    check_rc("unknown console_io cmd", hypercall_console_io(99, 0, buf), -XEN_ENOSYS);
}

void test_main(void)
{
    cli();
    if ( map_shared_info() )
        return xtf_failure("Fail: cannot map shared_info\n");
    if ( cpuid_domid() != 0 )
        return test_domu();
    test_dom0();
}
