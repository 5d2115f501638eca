/* SPDX-License-Identifier: GPL-2.0-only */
/* xen/common/time.c: gmtime() and mktime(), against known dates. */
#include <xen/time.h>

#include "harness.h"

static void check_date(uint64_t t, int y, int mon, int d, int h, int mi, int s, int wday)
{
    struct tm tm = gmtime(t);

    CHECK_EQ(tm.tm_year + 1900, y);
    CHECK_EQ(tm.tm_mon + 1, mon);
    CHECK_EQ(tm.tm_mday, d);
    CHECK_EQ(tm.tm_hour, h);
    CHECK_EQ(tm.tm_min, mi);
    CHECK_EQ(tm.tm_sec, s);
    CHECK_EQ(tm.tm_wday, wday);
    CHECK_EQ(mktime(y, mon, d, h, mi, s), t);
}

void test_main(void)
{
    check_date(0, 1970, 1, 1, 0, 0, 0, 4);                  /* Thursday */
    check_date(946684800, 2000, 1, 1, 0, 0, 0, 6);          /* Bochs's time0; Saturday */
    check_date(951782400, 2000, 2, 29, 0, 0, 0, 2);         /* 2000 is a leap year */
    check_date(951868800, 2000, 3, 1, 0, 0, 0, 3);
    check_date(4107542400ULL, 2100, 3, 1, 0, 0, 0, 1);      /* 2100 is not */
    check_date(4107456000ULL - 1, 2100, 2, 27, 23, 59, 59, 6);
    check_date(1234567890, 2009, 2, 13, 23, 31, 30, 5);
    check_date(2147483647, 2038, 1, 19, 3, 14, 7, 2);
    check_date(1798675200, 2026, 12, 31, 0, 0, 0, 4);
    check_date(253402300799ULL, 9999, 12, 31, 23, 59, 59, 5);
    CHECK_EQ(gmtime(1798675200).tm_yday, 364);
    CHECK_EQ(gmtime(951782400).tm_yday, 59);

    /* Out-of-range fields give 0 rather than a wrong time. */
    CHECK_EQ(mktime(1969, 12, 31, 0, 0, 0), 0);
    CHECK_EQ(mktime(2000, 13, 1, 0, 0, 0), 0);
    CHECK_EQ(mktime(2000, 0, 1, 0, 0, 0), 0);
    CHECK_EQ(mktime(2000, 1, 0, 0, 0, 0), 0);
}
