/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rest of the guest test kernels' small libc: errno and strerror(),
 * and the process, terminal and clock queries that have no meaning here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <assert.h>

#include "lib.h"

int errno;

static const char *const messages[] = {
    [0]            = "Success",
    [EPERM]        = "Operation not permitted",
    [ENOENT]       = "No such file or directory",
    [ESRCH]        = "No such process",
    [EINTR]        = "Interrupted system call",
    [EIO]          = "Input/output error",
    [ENXIO]        = "No such device or address",
    [E2BIG]        = "Argument list too long",
    [EBADF]        = "Bad file descriptor",
    [EAGAIN]       = "Resource temporarily unavailable",
    [ENOMEM]       = "Cannot allocate memory",
    [EACCES]       = "Permission denied",
    [EFAULT]       = "Bad address",
    [EBUSY]        = "Device or resource busy",
    [EEXIST]       = "File exists",
    [ENODEV]       = "No such device",
    [EINVAL]       = "Invalid argument",
    [ENOSPC]       = "No space left on device",
    [ERANGE]       = "Numerical result out of range",
    [EDEADLK]      = "Resource deadlock avoided",
    [ENOSYS]       = "Function not implemented",
    [ENODATA]      = "No data available",
    [EOVERFLOW]    = "Value too large for defined data type",
    [ERESTART]     = "Interrupted system call should be restarted",
    [EOPNOTSUPP]   = "Operation not supported",
    [ENOBUFS]      = "No buffer space available",
    [ETIMEDOUT]    = "Connection timed out",
};

char *strerror(int errnum)
{
    static char unknown[32];

    if ( errnum >= 0 && (size_t)errnum < ARRAY_SIZE(messages) &&
         messages[errnum] )
        return (char *)messages[errnum];

    snprintf(unknown, sizeof(unknown), "Unknown error %d", errnum);
    return unknown;
}

pid_t getpid(void)
{
    return 0;
}

int isatty(int fd)
{
    (void)fd;
    return 0;
}

time_t time(time_t *t)
{
    if ( t )
        *t = (time_t)-1;
    return (time_t)-1;
}

struct tm *localtime_r(const time_t *t, struct tm *tm)
{
    (void)t;
    (void)tm;
    return NULL;
}

size_t strftime(char *s, size_t max, const char *fmt, const struct tm *tm)
{
    (void)fmt;
    (void)tm;
    if ( max )
        s[0] = '\0';
    return 0;
}

void __assert_fail(const char *expr, const char *file, unsigned int line,
                   const char *func)
{
    panic("Assertion '%s' failed at %s:%u (%s)\n", expr, file, line, func);
}
