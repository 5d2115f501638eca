/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's clock (see fake.h): the test program's own
 * clock_gettime and nanosleep, which the library (xg_sr_common.c) calls
 * instead of the C library's.  Time passes only when the saver maps pages
 * or sleeps, so the bandwidth cap and the dirty rates are exact and the
 * same on every run: the tests count, they do not time.
 */
#include <errno.h>
#include <time.h>

#include "fake.h"

int clock_gettime(clockid_t clk, struct timespec *ts)
{
    if ( clk != CLOCK_MONOTONIC )
    {
        errno = EINVAL;
        return -1;
    }
    ts->tv_sec = (time_t)(fake.now_ns / 1000000000ULL);
    ts->tv_nsec = (long)(fake.now_ns % 1000000000ULL);
    return 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
    uint64_t ns;

    if ( req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec >= 1000000000L )
    {
        errno = EINVAL;
        return -1;
    }
    ns = (uint64_t)req->tv_sec * 1000000000ULL + (uint64_t)req->tv_nsec;
    fake.sleeps++;
    fake.slept_ns += ns;
    fake_clock_pass(ns);
    if ( rem )
        rem->tv_sec = rem->tv_nsec = 0;
    return 0;
}
