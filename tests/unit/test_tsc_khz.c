/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How xen/arch/x86/time.c picks the TSC frequency from its PIT
 * calibration and CPUID leaf 0x15: the leaf when the two agree within 1%,
 * else the calibration rounded to the nearest MHz, so that calibrations a
 * PIT tick apart give one frequency.  The file is included whole to reach
 * its static function; what needs the hardware is never called.
 */
#include "../../xen/arch/x86/time.c"

#include "harness.h"

/* What time.c links against but these tests never call. */
unsigned long raw_copy_to_guest(void *to, const void *from, size_t len)
{
    (void)to; (void)from;
    return len;
}

static void test_bochs(void)
{
    /* ips=1600000000: calibrations seen in boots of one binary. */
    CHECK_EQ(tsc_choose_khz(1599982, 0), 1600000);
    CHECK_EQ(tsc_choose_khz(1600008, 0), 1600000);
    CHECK_EQ(tsc_choose_khz(1600017, 0), 1600000);
    /* Bochs's tigerlake reports its nominal 2419.2 MHz in leaf 0x15. */
    CHECK_EQ(tsc_choose_khz(1599982, 2419200), 1600000);
    CHECK_EQ(tsc_choose_khz(1600017, 2419200), 1600000);
    /* Bochs's default ips=4000000. */
    CHECK_EQ(tsc_choose_khz(4003, 0), 4000);
}

static void test_leaf(void)
{
    /* Hardware: the exact leaf when the PIT agrees, either side. */
    CHECK_EQ(tsc_choose_khz(2419150, 2419200), 2419200);
    CHECK_EQ(tsc_choose_khz(2419250, 2419200), 2419200);
    CHECK_EQ(tsc_choose_khz(2396000, 2419200), 2419200);    /* PIT 0.96% low */
    CHECK_EQ(tsc_choose_khz(2390000, 2419200), 2390000);    /* -1.2%: PIT */
    CHECK_EQ(tsc_choose_khz(2450000, 2419200), 2450000);    /* +1.3%: PIT */
}

static void test_rounding(void)
{
    CHECK_EQ(tsc_choose_khz(2666667, 0), 2667000);
    CHECK_EQ(tsc_choose_khz(2666499, 0), 2666000);
    CHECK_EQ(tsc_choose_khz(0, 0), 1000);                   /* never 0 */
    CHECK_EQ(tsc_choose_khz(499, 0), 1000);
}

void test_main(void)
{
    test_bochs();
    test_leaf();
    test_rounding();
}
