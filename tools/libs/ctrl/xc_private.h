/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl internals: the handle, error reporting, bounce buffers and
 * the domctl / sysctl envelopes every wrapper goes through.
 */
#ifndef XC_PRIVATE_H
#define XC_PRIVATE_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "xenctrl.h"
#include "xencall.h"
#include "xendevicemodel.h"

struct xc_interface_core {
    xentoollog_logger *error_handler, *error_handler_tofree;
    xentoollog_logger *dombuild_logger, *dombuild_logger_tofree;
    unsigned flags;
    xc_error last_error;
    xencall_handle *xcall;              /* NULL with XC_OPENFLAG_DUMMY */
    xendevicemodel_handle *dmod;
};

/*
 * Messages go to the handle's logger with context "xc"; errors are also
 * kept as the last error (xc_get_last_error).  errno is preserved.
 */
void xc_report(xc_interface *xch, xentoollog_logger *lg,
               xentoollog_level level, int code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#define ERROR(fmt, ...)                                                       \
    xc_report(xch, xch->error_handler, XTL_ERROR, XC_INTERNAL_ERROR,         \
              fmt, ##__VA_ARGS__)
#define PERROR(fmt, ...)                                                      \
    xc_report(xch, xch->error_handler, XTL_ERROR, XC_INTERNAL_ERROR,         \
              fmt " (%d = %s)", ##__VA_ARGS__, errno, xc_strerror(xch, errno))
#define DPERROR(fmt, ...)                                                     \
    xc_report(xch, xch->error_handler, XTL_DEBUG, XC_INTERNAL_ERROR,         \
              fmt " (%d = %s)", ##__VA_ARGS__, errno, xc_strerror(xch, errno))

/*
 * Bouncing: a caller's buffer _ubuf is copied into a hypercall buffer
 * before the call (direction IN), back after it (OUT), or both.  The
 * shadow is named after _ubuf, so set_xen_guest_handle(h, _ubuf) and
 * HYPERCALL_BUFFER_AS_ARG(_ubuf) use the bounced copy.  A NULL _ubuf or a
 * size of 0 bounces nothing (the handle is then NULL).
 */
#define XC_HYPERCALL_BUFFER_BOUNCE_NONE 0
#define XC_HYPERCALL_BUFFER_BOUNCE_IN   1
#define XC_HYPERCALL_BUFFER_BOUNCE_OUT  2
#define XC_HYPERCALL_BUFFER_BOUNCE_BOTH 3

#define DECLARE_HYPERCALL_BOUNCE(_ubuf, _sz, _dir)                            \
    xc_hypercall_buffer_t XC__HYPERCALL_BUFFER_NAME(_ubuf) = {                \
        .hbuf = NULL,                                                         \
        .param_shadow = NULL,                                                 \
        .dir = (_dir),                                                        \
        .ubuf = (void *)(_ubuf),                                              \
        .sz = (_sz),                                                          \
    }

#define HYPERCALL_BOUNCE_SET_SIZE(_buf, _sz)                                  \
    do { HYPERCALL_BUFFER(_buf)->sz = (_sz); } while ( 0 )
#define HYPERCALL_BOUNCE_SET_DIR(_buf, _dir)                                  \
    do { HYPERCALL_BUFFER(_buf)->dir = (_dir); } while ( 0 )

int xc__hypercall_bounce_pre(xc_interface *xch, xc_hypercall_buffer_t *b);
#define xc_hypercall_bounce_pre(_xch, _name)                                  \
    xc__hypercall_bounce_pre(_xch, HYPERCALL_BUFFER(_name))
void xc__hypercall_bounce_post(xc_interface *xch, xc_hypercall_buffer_t *b);
#define xc_hypercall_bounce_post(_xch, _name)                                 \
    xc__hypercall_bounce_post(_xch, HYPERCALL_BUFFER(_name))

/* A hypercall on xch: -1 with errno EBADF when it has no interface. */
int xc_hypercall_check(xc_interface *xch);

/*
 * Issue a domctl / sysctl: fill in the interface version, bounce the
 * structure both ways, make the hypercall.  Returns its result, or -1
 * with errno set.
 */
int do_domctl(xc_interface *xch, struct xen_domctl *domctl);
int do_sysctl(xc_interface *xch, struct xen_sysctl *sysctl);

/*
 * This project's domctl arguments (public/ext/dirty_stats.h) overlay the
 * union 'u' of struct xen_domctl.
 */
#define DOMCTL_EXT(domctl, type) ((type *)(void *)&(domctl)->u)

#endif /* XC_PRIVATE_H */
