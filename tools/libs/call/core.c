/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxencall: opening the interface and making hypercalls.  The backend
 * (linux.c or direct.c) does the actual work.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "private.h"

xencall_handle *xencall_open(struct xentoollog_logger *logger,
                             unsigned open_flags)
{
    xencall_handle *xcall = calloc(1, sizeof(*xcall));
    int saved_errno;

    if ( !xcall )
        return NULL;

    xcall->flags = open_flags;
    xcall->fd = -1;
    xcall->buf_fd = -1;
    xcall->logger = logger;
    if ( !xcall->logger )
    {
        xcall->logger = xcall->logger_tofree = (xentoollog_logger *)
            xtl_createlogger_stdiostream(stderr, XTL_PROGRESS, 0);
        if ( !xcall->logger )
            goto err;
    }

    if ( osdep_xencall_open(xcall) < 0 )
        goto err;

    return xcall;

 err:
    saved_errno = errno;
    xtl_logger_destroy(xcall->logger_tofree);
    free(xcall);
    errno = saved_errno;
    return NULL;
}

int xencall_close(xencall_handle *xcall)
{
    int rc;

    if ( !xcall )
        return 0;

    buffer_release_cache(xcall);
    rc = osdep_xencall_close(xcall);
    xtl_logger_destroy(xcall->logger_tofree);
    free(xcall);

    return rc;
}

int xencall_fd(xencall_handle *xcall)
{
    return xcall->fd;
}

int xencall_buffers_never_fault(xencall_handle *xcall)
{
    return osdep_buffers_never_fault(xcall);
}

static long call(xencall_handle *xcall, unsigned int op, uint64_t a1,
                 uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
    const struct xencall_args args = {
        .op = op,
        .arg = { a1, a2, a3, a4, a5 },
    };

    return osdep_hypercall(xcall, &args);
}

int xencall0(xencall_handle *xcall, unsigned int op)
{
    return call(xcall, op, 0, 0, 0, 0, 0);
}

int xencall1(xencall_handle *xcall, unsigned int op, uint64_t arg1)
{
    return call(xcall, op, arg1, 0, 0, 0, 0);
}

int xencall2(xencall_handle *xcall, unsigned int op, uint64_t arg1,
             uint64_t arg2)
{
    return call(xcall, op, arg1, arg2, 0, 0, 0);
}

long xencall2L(xencall_handle *xcall, unsigned int op, uint64_t arg1,
               uint64_t arg2)
{
    return call(xcall, op, arg1, arg2, 0, 0, 0);
}

int xencall3(xencall_handle *xcall, unsigned int op, uint64_t arg1,
             uint64_t arg2, uint64_t arg3)
{
    return call(xcall, op, arg1, arg2, arg3, 0, 0);
}

int xencall4(xencall_handle *xcall, unsigned int op, uint64_t arg1,
             uint64_t arg2, uint64_t arg3, uint64_t arg4)
{
    return call(xcall, op, arg1, arg2, arg3, arg4, 0);
}

int xencall5(xencall_handle *xcall, unsigned int op, uint64_t arg1,
             uint64_t arg2, uint64_t arg3, uint64_t arg4, uint64_t arg5)
{
    return call(xcall, op, arg1, arg2, arg3, arg4, arg5);
}
