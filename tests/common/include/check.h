/* SPDX-License-Identifier: GPL-2.0-only */
/* CHECK(what, rc, expected): print "ok" or report a failure. */
#ifndef GUEST_CHECK_H
#define GUEST_CHECK_H

#include "test.h"

static inline void check_rc(const char *what, long rc, long expected)
{
    if ( rc == expected )
        printk("  ok   %-52s %ld\n", what, rc);
    else
        xtf_failure("Fail: %s returned %ld, expected %ld\n", what, rc, expected);
}

static inline void check_true(const char *what, bool cond)
{
    if ( cond )
        printk("  ok   %s\n", what);
    else
        xtf_failure("Fail: %s\n", what);
}

#endif /* GUEST_CHECK_H */
