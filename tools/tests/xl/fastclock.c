/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * For bin/xl-fastclock: a monotonic clock that runs 10 s ahead at each
 * reading, and a poll() that never waits, linked before the C library's,
 * so that what xl waits for with a timeout (libxl's 60 s for a guest to
 * acknowledge control/shutdown) times out at once and the tests see the
 * timeout's path, not the time.
 */
#define _GNU_SOURCE

#include <poll.h>
#include <time.h>

int clock_gettime(clockid_t clk, struct timespec *ts)
{
    static time_t now = 1000;

    (void)clk;
    now += 10;
    ts->tv_sec = now;
    ts->tv_nsec = 0;
    return 0;
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
    (void)timeout;
    for (nfds_t i = 0; i < nfds; i++)
        fds[i].revents = 0;
    return 0;
}
