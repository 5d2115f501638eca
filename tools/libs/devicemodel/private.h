/* SPDX-License-Identifier: LGPL-2.1-only */
/* libxendevicemodel internals. */
#ifndef XENDEVICEMODEL_PRIVATE_H
#define XENDEVICEMODEL_PRIVATE_H

#include "xencall.h"
#include "xendevicemodel.h"
#include "xentoollog.h"

struct xendevicemodel_handle {
    xentoollog_logger *logger, *logger_tofree;
    unsigned int flags;
    xencall_handle *xcall;
};

/* One caller buffer of a dm_op: bufs[0] is the struct xen_dm_op. */
struct xendevicemodel_buf {
    void *ptr;
    size_t size;
};

/*
 * dm_op(domid, nr_bufs, bufs) through libxencall: every buffer is copied
 * into a hypercall buffer, and back after a successful call.
 */
int xendevicemodel_xcall(xendevicemodel_handle *dmod, domid_t domid,
                         unsigned int nr_bufs, struct xendevicemodel_buf bufs[]);

#endif /* XENDEVICEMODEL_PRIVATE_H */
