/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test kernels' file descriptors: memory buffers (see <unistd.h>),
 * so that code written for read()/write() on a stream -- libxenguest's
 * save and restore -- runs unchanged; and the monotonic clock, and
 * sleeping on it.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hypercall.h"
#include "x86.h"

#define NR_FDS      8
#define FD_BASE     3           /* 0-2 are the console's */

static struct mem_file {
    unsigned char *buf;
    size_t cap, len, pos;
    size_t fail_after;          /* 0: never */
    bool used;
} files[NR_FDS];

static struct mem_file *lookup(int fd)
{
    if ( fd < FD_BASE || fd >= FD_BASE + NR_FDS || !files[fd - FD_BASE].used )
    {
        errno = EBADF;
        return NULL;
    }
    return &files[fd - FD_BASE];
}

int mem_fd(void *buf, size_t cap, size_t len)
{
    for ( int i = 0; i < NR_FDS; i++ )
        if ( !files[i].used )
        {
            files[i] = (struct mem_file){ buf, cap, len, 0, 0, true };
            return FD_BASE + i;
        }
    errno = EMFILE;
    return -1;
}

size_t mem_fd_length(int fd)
{
    struct mem_file *f = lookup(fd);

    return f ? f->len : 0;
}

int mem_fd_fail_after(int fd, size_t n)
{
    struct mem_file *f = lookup(fd);

    if ( !f )
        return -1;
    f->fail_after = n;
    return 0;
}

ssize_t read(int fd, void *buf, size_t count)
{
    struct mem_file *f = lookup(fd);
    size_t n;

    if ( !f )
        return -1;
    n = f->len - f->pos < count ? f->len - f->pos : count;
    memcpy(buf, f->buf + f->pos, n);
    f->pos += n;
    return (ssize_t)n;
}

ssize_t write(int fd, const void *buf, size_t count)
{
    struct mem_file *f = lookup(fd);

    if ( !f )
        return -1;
    if ( f->fail_after && f->len + count > f->fail_after )
    {
        errno = EPIPE;
        return -1;
    }
    if ( count > f->cap - f->len )
    {
        errno = ENOSPC;
        return -1;
    }
    memcpy(f->buf + f->len, buf, count);
    f->len += count;
    return (ssize_t)count;
}

int close(int fd)
{
    struct mem_file *f = lookup(fd);

    if ( !f )
        return -1;
    f->used = false;
    return 0;
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
    uint64_t t;

    if ( clk != CLOCK_MONOTONIC )
    {
        errno = EINVAL;
        return -1;
    }
    t = rdtsc();
    ts->tv_sec = (time_t)(t / 1000000000ULL);
    ts->tv_nsec = (long)(t % 1000000000ULL);
    return 0;
}

/*
 * Sleep until the TSC has advanced req's ticks (one counted as one ns):
 * yield the vCPU meanwhile, so that the scheduler runs other domains --
 * on one physical CPU the time a saver waits for its bandwidth cap is
 * the guest's.  At least the time asked; more by up to a time slice.
 */
int nanosleep(const struct timespec *req, struct timespec *rem)
{
    uint64_t end;

    if ( req->tv_nsec < 0 || req->tv_nsec >= 1000000000L || req->tv_sec < 0 )
    {
        errno = EINVAL;
        return -1;
    }
    end = rdtsc() + (uint64_t)req->tv_sec * 1000000000ULL +
          (uint64_t)req->tv_nsec;
    while ( rdtsc() < end )
        hypercall_yield();
    if ( rem )
        rem->tv_sec = rem->tv_nsec = 0;
    return 0;
}
