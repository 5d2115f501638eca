/* SPDX-License-Identifier: GPL-2.0-only */
/* Calendar time (common/time.c) and the host's wallclock (arch/x86/time.c). */
#ifndef __XEN_TIME_H__
#define __XEN_TIME_H__

#include <xen/types.h>

/* A broken-down UTC time, as Xen's struct tm (months 0-11, years since 1900). */
struct tm {
    int tm_sec, tm_min, tm_hour;
    int tm_mday, tm_mon, tm_year;
    int tm_wday, tm_yday;
};

/* Seconds since 1970-01-01 00:00:00 UTC <-> calendar (Gregorian, UTC). */
struct tm gmtime(uint64_t t);
uint64_t mktime(unsigned int year, unsigned int mon, unsigned int day,
                unsigned int hour, unsigned int min, unsigned int sec);

/* Seconds since the epoch now, from the CMOS clock read at boot + the TSC. */
uint64_t get_wallclock_seconds(void);

#endif /* __XEN_TIME_H__ */
