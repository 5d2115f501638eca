/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <time.h> for the guest test kernels.  There is no wall clock: time()
 * fails ((time_t)-1), so callers that stamp messages with the date leave
 * it out.
 */
#ifndef GUEST_LIBC_TIME_H
#define GUEST_LIBC_TIME_H

#include <sys/types.h>

struct tm {
    int tm_sec, tm_min, tm_hour;
    int tm_mday, tm_mon, tm_year;
    int tm_wday, tm_yday, tm_isdst;
};

time_t time(time_t *t);

/*
 * CLOCK_MONOTONIC only: the TSC, one tick counted as one nanosecond
 * (under Bochs with clock sync=none one tick is one instruction).
 */
struct timespec {
    time_t tv_sec;
    long tv_nsec;
};
typedef int clockid_t;
#define CLOCK_MONOTONIC 1
int clock_gettime(clockid_t clk, struct timespec *ts);
/* Yields the vCPU until CLOCK_MONOTONIC has advanced *req (rem: zero). */
int nanosleep(const struct timespec *req, struct timespec *rem);
/* Always NULL: no time zone, no calendar. */
struct tm *localtime_r(const time_t *t, struct tm *tm);
/* Always 0 (nothing written). */
size_t strftime(char *s, size_t max, const char *fmt, const struct tm *tm);

#endif /* GUEST_LIBC_TIME_H */
