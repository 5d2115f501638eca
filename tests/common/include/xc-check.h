/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Checks for a control-domain test kernel calling libxenctrl (-1 and
 * errno on failure): pass() prints an "ok" line, expect_errno() wants a
 * call to have failed with one errno.
 */
#ifndef GUEST_XC_CHECK_H
#define GUEST_XC_CHECK_H

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include "test.h"

static inline void pass(const char *fmt, ...) __printf(1, 2);
static inline void pass(const char *fmt, ...)
{
    va_list args;

    printk("  ok   ");
    va_start(args, fmt);
    vprintk(fmt, args);
    va_end(args);
}

/* A call expected to fail with -1 and a given errno. */
static inline void expect_errno(const char *what, int rc, int err)
{
    if ( rc == -1 && errno == err )
        pass("%s: -1, errno %d (%s)\n", what, err, strerror(err));
    else
        xtf_failure("Fail: %s: returned %d errno %d, expected -1 errno %d\n",
                    what, rc, errno, err);
}

#endif /* GUEST_XC_CHECK_H */
