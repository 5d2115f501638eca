/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxendevicemodel: dm_op calls (__HYPERVISOR_dm_op).
 *
 * Every call goes through libxencall, on Linux as on the test kernels.
 * (Xen's library prefers Linux's IOCTL_PRIVCMD_DM_OP where present, which
 * also allows restricting a handle to one domain; that is not provided.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

xendevicemodel_handle *xendevicemodel_open(struct xentoollog_logger *logger,
                                           unsigned int open_flags)
{
    xendevicemodel_handle *dmod = calloc(1, sizeof(*dmod));
    int saved_errno;

    if ( !dmod )
        return NULL;

    dmod->flags = open_flags;
    dmod->logger = logger;
    if ( !dmod->logger )
    {
        dmod->logger = dmod->logger_tofree = (xentoollog_logger *)
            xtl_createlogger_stdiostream(stderr, XTL_PROGRESS, 0);
        if ( !dmod->logger )
            goto err;
    }

    dmod->xcall = xencall_open(dmod->logger, 0);
    if ( !dmod->xcall )
        goto err;

    return dmod;

 err:
    saved_errno = errno;
    xtl_logger_destroy(dmod->logger_tofree);
    free(dmod);
    errno = saved_errno;
    return NULL;
}

int xendevicemodel_close(xendevicemodel_handle *dmod)
{
    int rc;

    if ( !dmod )
        return 0;

    rc = xencall_close(dmod->xcall);
    xtl_logger_destroy(dmod->logger_tofree);
    free(dmod);

    return rc;
}

int xendevicemodel_xcall(xendevicemodel_handle *dmod, domid_t domid,
                         unsigned int nr_bufs, struct xendevicemodel_buf bufs[])
{
    xen_dm_op_buf_t *op_bufs;
    void **hbufs;
    unsigned int i;
    int rc = -1, saved_errno;

    hbufs = calloc(nr_bufs, sizeof(*hbufs));
    if ( !hbufs )
        return -1;

    op_bufs = xencall_alloc_buffer(dmod->xcall, nr_bufs * sizeof(*op_bufs));
    if ( !op_bufs )
        goto out;

    for ( i = 0; i < nr_bufs; i++ )
    {
        hbufs[i] = xencall_alloc_buffer(dmod->xcall, bufs[i].size);
        if ( !hbufs[i] )
            goto out;
        if ( bufs[i].size )
            memcpy(hbufs[i], bufs[i].ptr, bufs[i].size);
        set_xen_guest_handle_raw(op_bufs[i].h, hbufs[i]);
        op_bufs[i].size = bufs[i].size;
    }

    rc = xencall3(dmod->xcall, __HYPERVISOR_dm_op, domid, nr_bufs,
                  (unsigned long)op_bufs);
    if ( rc < 0 )
        goto out;

    for ( i = 0; i < nr_bufs; i++ )
        if ( bufs[i].size )
            memcpy(bufs[i].ptr, hbufs[i], bufs[i].size);

 out:
    saved_errno = errno;
    for ( i = 0; i < nr_bufs; i++ )
        xencall_free_buffer(dmod->xcall, hbufs[i]);
    xencall_free_buffer(dmod->xcall, op_bufs);
    free(hbufs);
    errno = saved_errno;

    return rc;
}

int xendevicemodel_track_dirty_vram(xendevicemodel_handle *dmod,
                                    domid_t domid, uint64_t first_pfn,
                                    uint32_t nr, unsigned long *dirty_bitmap)
{
    struct xen_dm_op op = {
        .op = XEN_DMOP_track_dirty_vram,
        .u.track_dirty_vram = {
            .first_pfn = first_pfn,
            .nr = nr,
        },
    };
    struct xendevicemodel_buf bufs[] = {
        { .ptr = &op, .size = sizeof(op) },
        { .ptr = dirty_bitmap, .size = ((size_t)nr + 7) / 8 },
    };

    return xendevicemodel_xcall(dmod, domid, 2, bufs);
}
