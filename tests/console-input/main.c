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
 *   Then, the line idle for BURST_IDLE_MS (as for a paste; a polled
 *   driver would be back at its slow poll), dom0 prints "waiting for a
 *   burst" and the case sends
 *   tests/console-input/burst.txt (BURST_LEN bytes) in one write: Bochs
 *   feeds it to the UART at the line's full rate, 16 bytes filling the
 *   FIFO in 1.4 ms, so it arrives whole only if the hypervisor takes the
 *   UART's receive interrupt (the polled driver lost all but the first
 *   bytes).  The file is burst_byte(i) for each i; dom0 checks the length,
 *   every byte, and prints the Adler-32 of both.  It stops reading once
 *   BURST_LEN bytes came or BURST_QUIET_MS of guest time passed without
 *   input (a singleshot timer), so lost bytes fail the case at once; bytes
 *   queued without their VIRQ (a lost wake-up) fail it too, with the
 *   hypervisor's counters printed (XEN_SYSCTL_debug_keys).
 *
 *   The burst is left out with burst=0 on the command line (the case
 *   console-input-polled, where the hypervisor polls the UART).
 *
 *   Any other domain (domain 1 running this kernel): CONSOLEIO_read is
 *   -EPERM.
 */
#include "test.h"
#include "check.h"
#include "events.h"
#include "public/sysctl.h"

const char test_title[] = "Console input: VIRQ_CONSOLE and CONSOLEIO_read";

#define UNMAPPED_VA 0x8000000000UL

/* What the case types (unittests.cfg) and what dom0 must read back. */
static const char expected[] = "hello\x01, console input\r";

/* The burst: tests/console-input/burst.txt holds burst_byte(0..BURST_LEN-1). */
#define BURST_LEN       500
#define BURST_QUIET_MS  1000
#define BURST_IDLE_MS   2000
/*
 * How often to look for input that came without its VIRQ while waiting for
 * the burst, in guest time (an idle guest's time runs ahead of the wall:
 * Bochs skips to its next event, and the 2 s of BURST_IDLE_MS take about
 * 20 ms of wall time).
 */
#define BURST_WAIT_MS   10000
#define MS              1000000ULL

static char burst_byte(unsigned int i)
{
    static const char set[] = "0123456789abcdefghijklmnopqrstuvwxyz"
                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

    return set[(i * 7 + i / 62) % 62];
}

static uint32_t adler32(const char *p, unsigned int len)
{
    uint32_t a = 1, b = 0;

    while ( len-- )
    {
        a = (a + (unsigned char)*p++) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

/* XEN_SYSCTL_debug_keys: have the hypervisor print what KEYS dump. */
static long debug_keys(const char *keys, unsigned int nr)
{
    struct xen_sysctl s = {
        .cmd = XEN_SYSCTL_debug_keys,
        .interface_version = XEN_SYSCTL_INTERFACE_VERSION,
    };

    set_xen_guest_handle_raw(s.u.debug_keys.keys, keys);
    s.u.debug_keys.nr_keys = nr;
    return hypercall6(__HYPERVISOR_sysctl, (unsigned long)&s, 0, 0, 0, 0);
}

static void test_burst(evtchn_port_t port)
{
    static char got[BURST_LEN + 64], want[BURST_LEN];
    evtchn_port_t tport;
    unsigned int len = 0, wakes = 0, timer_wakes = 0, i;
    long rc;

    for ( i = 0; i < BURST_LEN; i++ )
        want[i] = burst_byte(i);
    rc = evtchn_bind_virq(VIRQ_TIMER, 0, &tport);
    check_rc("bind VIRQ_TIMER", rc, 0);
    if ( rc )
        return;

    /*
     * A paste comes into an idle line: first 2 s (guest time) without
     * input, so that a polled driver would be back at its slow poll.
     */
    set_singleshot_timer(xen_system_time() + BURST_IDLE_MS * MS, 0);
    while ( !evtchn_pending(tport) )
    {
        sched_block();
        evtchn_ack_upcall();
    }
    evtchn_clear(tport);

    printk("waiting for a burst of %u bytes\n", BURST_LEN);
    /*
     * Look at the port before blocking, as an event loop must: the typed
     * input above may have left it pending (a byte's VIRQ after our last
     * clear), and a port already pending is not notified again (2-level
     * ABI: set_pending on a set bit neither sets the selector nor the
     * upcall), so blocking first would sleep through the whole burst.
     *
     * Not forever either: every BURST_WAIT_MS of guest time without input
     * look whether bytes were queued all the same.  Queued bytes and no
     * VIRQ_CONSOLE are a lost wake-up: fail, with the hypervisor's side
     * printed (the UART's counters, the interrupts taken, the domains).
     * Nothing queued is only a case that has not sent yet (it sends in
     * wall time, and an idle guest's time runs ahead of the wall): wait on.
     */
    set_singleshot_timer(xen_system_time() + BURST_WAIT_MS * MS, 0);
    while ( len < BURST_LEN )
    {
        unsigned int before = len;

        if ( !evtchn_pending(port) && !evtchn_pending(tport) )
        {
            sched_block();
            evtchn_ack_upcall();
            continue;
        }
        if ( evtchn_pending(tport) )
        {
            evtchn_clear(tport);
            timer_wakes++;
            if ( len )
                break;                  /* quiet for BURST_QUIET_MS: done */
            rc = hypercall_console_io(CONSOLEIO_read, sizeof(got), got);
            if ( rc )
            {
                xtf_failure("Fail: %ld byte(s) queued without a VIRQ_CONSOLE "
                            "(port %u %spending)\n",
                            rc, port, evtchn_pending(port) ? "" : "not ");
                debug_keys("riq", 3);
                return;
            }
            set_singleshot_timer(xen_system_time() + BURST_WAIT_MS * MS, 0);
            continue;
        }
        evtchn_clear(port);
        wakes++;
        while ( (rc = hypercall_console_io(CONSOLEIO_read, sizeof(got) - len,
                                           got + len)) > 0 )
            len += rc;
        if ( rc < 0 )
        {
            xtf_failure("Fail: CONSOLEIO_read: %ld\n", rc);
            return;
        }
        if ( len >= sizeof(got) )
            break;
        /* Input came: wait at most BURST_QUIET_MS for the next. */
        if ( len > before )
            set_singleshot_timer(xen_system_time() + BURST_QUIET_MS * MS, 0);
    }
    stop_singleshot_timer();

    printk("  %u bytes in %u wake-ups by VIRQ_CONSOLE (%u by the timer);"
           " Adler-32 %08x, sent %08x\n", len, wakes, timer_wakes,
           adler32(got, len), adler32(want, BURST_LEN));
    for ( i = 0; i < len && i < BURST_LEN && got[i] == want[i]; i++ )
        ;
    if ( len == BURST_LEN && i == BURST_LEN )
        printk("  ok   a burst of %u bytes arrived complete\n", BURST_LEN);
    else
        xtf_failure("Fail: burst: %u of %u bytes, the first %u right\n",
                    len, BURST_LEN, i);
}

static void test_domu(void)
{
    char buf[8];

    check_rc("CONSOLEIO_read from a domU",
             hypercall_console_io(CONSOLEIO_read, sizeof(buf), buf), -XEN_EPERM);
    check_rc("XEN_SYSCTL_debug_keys from a domU", debug_keys("i", 1), -XEN_EPERM);
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

    /* xl debug-keys: at most 64 keys a call, each read from the guest. */
    {
        static char many[65];

        memset(many, 'x', sizeof(many));
        check_rc("XEN_SYSCTL_debug_keys, 65 keys", debug_keys(many, 65), -XEN_EINVAL);
        check_rc("XEN_SYSCTL_debug_keys, unmapped keys",
                 debug_keys((const char *)UNMAPPED_VA, 1), -XEN_EFAULT);
        check_rc("XEN_SYSCTL_debug_keys \"i\"", debug_keys("i", 1), 0);
    }

    /* burst=0 on the command line: no burst (the polled driver's case). */
    if ( cmdline_ulong("burst", 1) )
        test_burst(port);
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
