/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Calendar arithmetic for UTC: seconds since 1970-01-01 to a broken-down
 * date and back (proleptic Gregorian calendar, no leap seconds), as Xen's
 * common/time.c gmtime() and arch/x86/time.c mktime() compute them.
 */
#include <xen/time.h>

#define SECS_PER_DAY    86400u
#define DAYS_PER_400Y   146097u

static bool leap(unsigned int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static const unsigned short days_before_month[2][13] = {
    { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365 },
    { 0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366 },
};

/* Days from 1970-01-01 to year-mon-day (mon 1-12). */
static uint64_t days_from_epoch(unsigned int year, unsigned int mon, unsigned int day)
{
    uint64_t days = 0;
    unsigned int y;

    /* Whole 400-year cycles first, so that far dates stay cheap. */
    for ( y = 1970; y + 400 <= year; y += 400 )
        days += DAYS_PER_400Y;
    for ( ; y < year; y++ )
        days += leap(y) ? 366 : 365;
    return days + days_before_month[leap(year)][mon - 1] + day - 1;
}

uint64_t mktime(unsigned int year, unsigned int mon, unsigned int day,
                unsigned int hour, unsigned int min, unsigned int sec)
{
    if ( year < 1970 || mon < 1 || mon > 12 || day < 1 || day > 31 )
        return 0;
    return days_from_epoch(year, mon, day) * SECS_PER_DAY +
           hour * 3600u + min * 60u + sec;
}

struct tm gmtime(uint64_t t)
{
    struct tm tm;
    uint64_t days = t / SECS_PER_DAY;
    unsigned int secs = t % SECS_PER_DAY, y = 1970, m, yd;

    tm.tm_hour = secs / 3600;
    tm.tm_min = secs / 60 % 60;
    tm.tm_sec = secs % 60;
    tm.tm_wday = (days + 4) % 7;            /* 1970-01-01 was a Thursday */

    while ( days >= DAYS_PER_400Y )
    {
        days -= DAYS_PER_400Y;
        y += 400;
    }
    while ( days >= (leap(y) ? 366u : 365u) )
    {
        days -= leap(y) ? 366 : 365;
        y++;
    }
    yd = days;
    for ( m = 1; m < 12 && yd >= days_before_month[leap(y)][m]; m++ )
        ;
    tm.tm_year = y - 1900;
    tm.tm_mon = m - 1;
    tm.tm_mday = yd - days_before_month[leap(y)][m - 1] + 1;
    tm.tm_yday = yd;
    return tm;
}
