// SPDX-License-Identifier: GPL-2.0-only
/* The checks of fault.h: one "  ok" line each, or an xtf_failure. */
#include "test.h"
#include "fault.h"

static unsigned int passed;

unsigned int checks_passed(void)
{
    return passed;
}

void check_gp(const char *what, unsigned long ex)
{
    if ( ex && EXINFO_VECTOR(ex) == X86_EXC_GP && EXINFO_ERROR(ex) == 0 )
    {
        passed++;
        printk("  ok   %-50s #GP(0)\n", what);
    }
    else if ( ex )
        xtf_failure("Fail: %s: vector %u error %#x, expected #GP(0)\n",
                    what, EXINFO_VECTOR(ex), EXINFO_ERROR(ex));
    else
        xtf_failure("Fail: %s: no fault, expected #GP(0)\n", what);
}

void check_ok(const char *what, unsigned long ex)
{
    if ( !ex )
    {
        passed++;
        printk("  ok   %-50s accepted\n", what);
    }
    else
        xtf_failure("Fail: %s: vector %u error %#x, expected no fault\n",
                    what, EXINFO_VECTOR(ex), EXINFO_ERROR(ex));
}

void check_val(const char *what, uint64_t got, uint64_t want)
{
    if ( got == want )
    {
        passed++;
        printk("  ok   %-50s %#lx\n", what, (unsigned long)got);
    }
    else
        xtf_failure("Fail: %s: %#lx, expected %#lx\n", what,
                    (unsigned long)got, (unsigned long)want);
}

void check_true(const char *what, bool cond)
{
    if ( cond )
    {
        passed++;
        printk("  ok   %s\n", what);
    }
    else
        xtf_failure("Fail: %s\n", what);
}
