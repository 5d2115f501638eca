/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host unit tests of libxenctrl, libxendevicemodel, libxencall and
 * libxentoollog, built from the real sources over the fake hypervisor
 * (tools/tests/fake), each test answering the hypercalls itself.
 *
 *   test-ctrl [link-check-program]
 *
 * Prints "PASS <case>" or "FAIL <case>" (with the failed checks) and ends
 * with "N passed, N failed"; exits non-zero if any case failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

const char *link_check_path;

static bool case_failed;

bool check_(bool ok, const char *file, int line, const char *fmt, ...)
{
    va_list args;

    if ( ok )
        return true;

    case_failed = true;
    printf("    %s:%d: ", file, line);
    va_start(args, fmt);
    vprintf(fmt, args);
    va_end(args);
    putchar('\n');

    return false;
}

bool all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;

    while ( n-- )
        if ( *b++ )
            return false;
    return true;
}

/* ---- the capture logger --------------------------------------------------- */

static struct capture_logger capture;

static void capture_vmessage(xentoollog_logger *lg, xentoollog_level level,
                             int errnoval, const char *context,
                             const char *fmt, va_list al)
{
    struct capture_logger *c = (void *)lg;
    int n;

    n = snprintf(c->last, sizeof(c->last), "%s: %s: ",
                 context ? context : "-", xtl_level_to_string(level));
    if ( n >= 0 && (size_t)n < sizeof(c->last) )
        vsnprintf(c->last + n, sizeof(c->last) - n, fmt, al);
    if ( errnoval >= 0 )
    {
        size_t len = strlen(c->last);

        snprintf(c->last + len, sizeof(c->last) - len, ": %s",
                 strerror(errnoval));
    }
    c->count++;
}

static void capture_destroy(xentoollog_logger *lg)
{
    (void)lg;
}

xentoollog_logger *capture_logger(void)
{
    capture.vtable.vmessage = capture_vmessage;
    capture.vtable.progress = NULL;
    capture.vtable.destroy = capture_destroy;
    return &capture.vtable;
}

struct capture_logger *captured(void)
{
    return &capture;
}

/* ---- helpers -------------------------------------------------------------- */

xc_interface *open_xch(fake_handler_t h)
{
    xc_interface *xch;

    memset(&capture, 0, sizeof(capture));
    fake_fail_clear();
    xch = xc_interface_open(capture_logger(), NULL, 0);
    CHECK(xch, "xc_interface_open failed: errno %d", errno);
    if ( !xch )
        exit(1);
    fake_answer(h ? h : fake_answer_zero);

    return xch;
}

void close_xch(xc_interface *xch)
{
    CHECK(xc_interface_close(xch) == 0, "xc_interface_close failed");
    CHECK(fake_live_buffer_pages() == 0, "%lu hypercall buffer page(s) leaked",
          fake_live_buffer_pages());
}

struct fake_call *call_(unsigned int i, const char *file, int line)
{
    static struct fake_call none;

    if ( i < fake_nr_calls && i < FAKE_MAX_CALLS )
        return &fake_calls[i];
    check_(false, file, line, "no hypercall #%u (%u made)", i, fake_nr_calls);
    memset(&none, 0, sizeof(none));
    return &none;
}

void check_domctl_(const struct fake_call *c, uint32_t cmd, uint32_t domid,
                   const char *file, int line)
{
    check_(c->op == __HYPERVISOR_domctl, file, line,
           "hypercall %lu, expected domctl (36)", (unsigned long)c->op);
    check_(c->arg_safe, file, line, "domctl not in a hypercall buffer");
    check_(c->domctl.cmd == cmd, file, line, "domctl cmd %u, expected %u",
           c->domctl.cmd, cmd);
    check_(c->domctl.interface_version == XEN_DOMCTL_INTERFACE_VERSION,
           file, line, "domctl interface_version %#x, expected %#x",
           c->domctl.interface_version, XEN_DOMCTL_INTERFACE_VERSION);
    check_(c->domctl.domain == domid, file, line,
           "domctl domain %u, expected %u", c->domctl.domain, domid);
    check_(all_zero(c->domctl._pad, sizeof(c->domctl._pad)), file, line,
           "domctl _pad not zero");
}

void check_sysctl_(const struct fake_call *c, uint32_t cmd,
                   const char *file, int line)
{
    check_(c->op == __HYPERVISOR_sysctl, file, line,
           "hypercall %lu, expected sysctl (35)", (unsigned long)c->op);
    check_(c->arg_safe, file, line, "sysctl not in a hypercall buffer");
    check_(c->sysctl.cmd == cmd, file, line, "sysctl cmd %u, expected %u",
           c->sysctl.cmd, cmd);
    check_(c->sysctl.interface_version == XEN_SYSCTL_INTERFACE_VERSION,
           file, line, "sysctl interface_version %#x, expected %#x",
           c->sysctl.interface_version, XEN_SYSCTL_INTERFACE_VERSION);
}

/* ---- the run ---------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const struct test_case *const lists[] = {
        domain_tests, logdirty_tests, misc_tests,
    };
    unsigned int passed = 0, failed = 0, i;
    const struct test_case *t;

    setvbuf(stdout, NULL, _IONBF, 0);
    fake_reset();
    link_check_path = argc > 1 ? argv[1] : NULL;

    for ( i = 0; i < sizeof(lists) / sizeof(lists[0]); i++ )
        for ( t = lists[i]; t->name; t++ )
        {
            case_failed = false;
            t->fn();
            if ( case_failed )
            {
                printf("FAIL %s\n", t->name);
                failed++;
            }
            else
            {
                printf("PASS %s\n", t->name);
                passed++;
            }
        }

    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
