/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: opening and closing the interface, error reporting, and the
 * domctl / sysctl envelopes.
 */
#include <stdio.h>

#include "xc_private.h"

xc_interface *xc_interface_open(xentoollog_logger *logger,
                                xentoollog_logger *dombuild_logger,
                                unsigned open_flags)
{
    xc_interface *xch = calloc(1, sizeof(*xch));
    int saved_errno;

    if ( !xch )
        return NULL;

    xch->flags = open_flags;
    xch->error_handler = logger;
    if ( !xch->error_handler )
    {
        xch->error_handler = xch->error_handler_tofree = (xentoollog_logger *)
            xtl_createlogger_stdiostream(stderr, XTL_PROGRESS, 0);
        if ( !xch->error_handler )
            goto err;
    }
    xch->dombuild_logger = dombuild_logger ? dombuild_logger
                                           : xch->error_handler;

    if ( open_flags & XC_OPENFLAG_DUMMY )
        return xch;

    xch->xcall = xencall_open(xch->error_handler,
                              (open_flags & XC_OPENFLAG_NON_REENTRANT)
                              ? XENCALL_OPENFLAG_NON_REENTRANT : 0);
    if ( !xch->xcall )
        goto err;

    xch->dmod = xendevicemodel_open(xch->error_handler, 0);
    if ( !xch->dmod )
        goto err;

    return xch;

 err:
    saved_errno = errno;
    xendevicemodel_close(xch->dmod);
    xencall_close(xch->xcall);
    xtl_logger_destroy(xch->error_handler_tofree);
    free(xch);
    errno = saved_errno;
    return NULL;
}

int xc_interface_close(xc_interface *xch)
{
    int rc = 0;

    if ( !xch )
        return 0;

    if ( xendevicemodel_close(xch->dmod) )
        rc = -1;
    if ( xencall_close(xch->xcall) )
        rc = -1;
    xtl_logger_destroy(xch->dombuild_logger_tofree);
    xtl_logger_destroy(xch->error_handler_tofree);
    free(xch);

    return rc;
}

struct xencall_handle *xc_interface_xcall_handle(xc_interface *xch)
{
    return xch->xcall;
}

struct xendevicemodel_handle *xc_interface_dmod_handle(xc_interface *xch)
{
    return xch->dmod;
}

/* ---- errors ----------------------------------------------------------------- */

void xc_report(xc_interface *xch, xentoollog_logger *lg,
               xentoollog_level level, int code, const char *fmt, ...)
{
    int saved_errno = errno;
    va_list args;

    if ( level >= XTL_ERROR )
    {
        va_start(args, fmt);
        xch->last_error.code = code;
        vsnprintf(xch->last_error.message, sizeof(xch->last_error.message),
                  fmt, args);
        va_end(args);
    }

    va_start(args, fmt);
    xtl_logv(lg, level, -1, "xc", fmt, args);
    va_end(args);

    errno = saved_errno;
}

const char *xc_error_code_to_desc(int code)
{
    switch ( code )
    {
    case XC_ERROR_NONE:      return "No error details";
    case XC_INTERNAL_ERROR:  return "Internal error";
    case XC_INVALID_KERNEL:  return "Invalid kernel";
    case XC_INVALID_PARAM:   return "Invalid configuration";
    case XC_OUT_OF_MEMORY:   return "Out of memory";
    }

    return "Unknown error code";
}

const char *xc_strerror(xc_interface *xch, int errcode)
{
    (void)xch;
    return strerror(errcode);
}

const xc_error *xc_get_last_error(xc_interface *xch)
{
    return &xch->last_error;
}

void xc_clear_last_error(xc_interface *xch)
{
    xch->last_error.code = XC_ERROR_NONE;
    xch->last_error.message[0] = '\0';
}

/* ---- the hypercall envelopes ------------------------------------------------- */

int xc_hypercall_check(xc_interface *xch)
{
    if ( xch->xcall )
        return 0;

    errno = EBADF;
    return -1;
}

int do_domctl(xc_interface *xch, struct xen_domctl *domctl)
{
    DECLARE_HYPERCALL_BOUNCE(domctl, sizeof(*domctl),
                             XC_HYPERCALL_BUFFER_BOUNCE_BOTH);
    int rc;

    if ( xc_hypercall_check(xch) )
        return -1;

    domctl->interface_version = XEN_DOMCTL_INTERFACE_VERSION;

    if ( xc_hypercall_bounce_pre(xch, domctl) )
    {
        PERROR("Could not bounce buffer for domctl hypercall");
        return -1;
    }

    rc = xencall1(xch->xcall, __HYPERVISOR_domctl,
                  HYPERCALL_BUFFER_AS_ARG(domctl));
    if ( rc < 0 && errno == EACCES )
        DPERROR("domctl operation failed -- need to rebuild the user-space "
                "tool set?");

    xc_hypercall_bounce_post(xch, domctl);

    return rc;
}

int do_sysctl(xc_interface *xch, struct xen_sysctl *sysctl)
{
    DECLARE_HYPERCALL_BOUNCE(sysctl, sizeof(*sysctl),
                             XC_HYPERCALL_BUFFER_BOUNCE_BOTH);
    int rc;

    if ( xc_hypercall_check(xch) )
        return -1;

    sysctl->interface_version = XEN_SYSCTL_INTERFACE_VERSION;

    if ( xc_hypercall_bounce_pre(xch, sysctl) )
    {
        PERROR("Could not bounce buffer for sysctl hypercall");
        return -1;
    }

    rc = xencall1(xch->xcall, __HYPERVISOR_sysctl,
                  HYPERCALL_BUFFER_AS_ARG(sysctl));
    if ( rc < 0 && errno == EACCES )
        DPERROR("sysctl operation failed -- need to rebuild the user-space "
                "tool set?");

    xc_hypercall_bounce_post(xch, sysctl);

    return rc;
}

int xc_domctl(xc_interface *xch, struct xen_domctl *domctl)
{
    return do_domctl(xch, domctl);
}

int xc_sysctl(xc_interface *xch, struct xen_sysctl *sysctl)
{
    return do_sysctl(xch, sysctl);
}
