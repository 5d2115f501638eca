/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenforeignmemory: the handle and the all-or-nothing rule of
 * xenforeignmemory_map without an error array.  The backend (linux.c or
 * direct.c) does the mapping.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "private.h"

xenforeignmemory_handle *xenforeignmemory_open(struct xentoollog_logger *logger,
                                               unsigned open_flags)
{
    xenforeignmemory_handle *fmem;
    int saved_errno;

    if ( open_flags )
    {
        errno = EINVAL;
        return NULL;
    }

    fmem = calloc(1, sizeof(*fmem));
    if ( !fmem )
        return NULL;

    fmem->flags = open_flags;
    fmem->fd = -1;
    fmem->logger = logger;
    if ( !fmem->logger )
    {
        fmem->logger = fmem->logger_tofree = (xentoollog_logger *)
            xtl_createlogger_stdiostream(stderr, XTL_PROGRESS, 0);
        if ( !fmem->logger )
            goto err;
    }

    if ( osdep_xenforeignmemory_open(fmem) < 0 )
        goto err;

    return fmem;

 err:
    saved_errno = errno;
    xtl_logger_destroy(fmem->logger_tofree);
    free(fmem);
    errno = saved_errno;
    return NULL;
}

int xenforeignmemory_close(xenforeignmemory_handle *fmem)
{
    int rc;

    if ( !fmem )
        return 0;

    rc = osdep_xenforeignmemory_close(fmem);
    xtl_logger_destroy(fmem->logger_tofree);
    free(fmem);

    return rc;
}

void *xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom,
                           int prot, size_t pages,
                           const xen_pfn_t arr[], int err[])
{
    int *own_err = NULL;
    void *addr;
    size_t i;

    if ( !pages || !arr )
    {
        errno = EINVAL;
        return NULL;
    }

    /* Without the caller's array, use one of ours and check it after. */
    if ( !err )
    {
        own_err = calloc(pages, sizeof(*own_err));
        if ( !own_err )
        {
            errno = ENOMEM;
            return NULL;
        }
        err = own_err;
    }

    addr = osdep_xenforeignmemory_map(fmem, dom, prot, pages, arr, err);

    if ( addr && own_err )
    {
        for ( i = 0; i < pages; i++ )
        {
            if ( !own_err[i] )
                continue;
            (void)osdep_xenforeignmemory_unmap(fmem, addr, pages);
            errno = -own_err[i];
            addr = NULL;
            break;
        }
    }

    if ( own_err )
    {
        int saved_errno = errno;

        free(own_err);
        errno = saved_errno;
    }

    return addr;
}

int xenforeignmemory_unmap(xenforeignmemory_handle *fmem,
                           void *addr, size_t pages)
{
    if ( !addr || !pages ||
         ((uintptr_t)addr & (XENFOREIGNMEMORY_PAGE_SIZE - 1)) )
    {
        errno = EINVAL;
        return -1;
    }

    return osdep_xenforeignmemory_unmap(fmem, addr, pages);
}

xenforeignmemory_resource_handle *xenforeignmemory_map_resource(
    xenforeignmemory_handle *fmem, uint16_t domid, unsigned int type,
    unsigned int id, unsigned long frame, unsigned long nr_frames,
    void **paddr, int prot, int flags)
{
    xenforeignmemory_resource_handle *fres;
    int saved_errno;

    if ( !paddr || !nr_frames )
    {
        errno = EINVAL;
        return NULL;
    }
    fres = calloc(1, sizeof(*fres));
    if ( !fres )
    {
        errno = ENOMEM;
        return NULL;
    }
    fres->domid = domid;
    fres->type = type;
    fres->id = id;
    fres->frame = frame;
    fres->nr_frames = nr_frames;
    fres->addr = *paddr;
    fres->prot = prot;
    fres->flags = flags;

    if ( osdep_xenforeignmemory_map_resource(fmem, fres) < 0 )
    {
        saved_errno = errno;
        free(fres);
        errno = saved_errno;
        return NULL;
    }
    *paddr = fres->addr;
    return fres;
}

int xenforeignmemory_unmap_resource(xenforeignmemory_handle *fmem,
                                    xenforeignmemory_resource_handle *fres)
{
    int rc;

    if ( !fres )
        return 0;
    rc = osdep_xenforeignmemory_unmap_resource(fmem, fres);
    free(fres);
    return rc;
}
