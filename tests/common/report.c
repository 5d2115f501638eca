/* SPDX-License-Identifier: GPL-2.0-only */
/* Test results, XTF's way: the worst reported status wins. */

#include "test.h"

static volatile enum test_status status = STATUS_RUNNING;
static atomic_t exiting = ATOMIC_INIT(0);

static const char *const status_names[] = {
    [STATUS_RUNNING] = "SUCCESS",
    [STATUS_SUCCESS] = "SUCCESS",
    [STATUS_SKIP]    = "SKIP",
    [STATUS_ERROR]   = "ERROR",
    [STATUS_FAILURE] = "FAILURE",
};

static void report(enum test_status s, const char *fmt, va_list args)
{
    enum test_status old = status;

    /* Raise to s unless something worse is already there. */
    while ( old < s &&
            !__atomic_compare_exchange_n(&status, &old, s, false,
                                         __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) )
        ;

    if ( fmt )
        vprintk(fmt, args);
}

#define DEFINE_REPORT(name, st)                 \
void name(const char *fmt, ...)                 \
{                                               \
    va_list args;                               \
                                                \
    va_start(args, fmt);                        \
    report(st, fmt, args);                      \
    va_end(args);                               \
}
DEFINE_REPORT(xtf_success, STATUS_SUCCESS)
DEFINE_REPORT(xtf_skip, STATUS_SKIP)
DEFINE_REPORT(xtf_error, STATUS_ERROR)
DEFINE_REPORT(xtf_failure, STATUS_FAILURE)
#undef DEFINE_REPORT

enum test_status xtf_status(void)
{
    return status;
}

/*
 * "shutdown=reboot|crash" on the guest command line: end with that
 * SCHEDOP_shutdown reason instead of poweroff (as dom0, the host follows:
 * xen/common/shutdown.c); "shutdown=reset-port": write "reset" (0x06) to
 * port 0xCF9, the reset register of dom0's FADT, as ACPI's reset does.
 */
#define RESET_PORT  0xcf9
#define RESET_VALUE 0x06

static unsigned int exit_reason(void)
{
    char how[16];

    if ( !cmdline_get_str("shutdown", how, sizeof(how)) )
        return SHUTDOWN_poweroff;
    if ( !strcmp(how, "reboot") )
        return SHUTDOWN_reboot;
    if ( !strcmp(how, "crash") )
        return SHUTDOWN_crash;
    if ( !strcmp(how, "reset-port") )
        outb(RESET_VALUE, RESET_PORT);  /* a reboot request: shuts us down */
    return SHUTDOWN_poweroff;
}

noreturn void xtf_exit(void)
{
    /* Only the first vCPU to get here reports; the others stop. */
    if ( atomic_xchg(&exiting, 1) )
        for ( ;; )
        {
            cli();
            halt();
        }

    printk("Test result: %s\n", status_names[status]);
    guest_poweroff(exit_reason());
}
