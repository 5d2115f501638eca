/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenforeignmemory internals: the handle and the backend ("osdep")
 * interface that linux.c (privcmd) and direct.c (test kernels) implement.
 */
#ifndef XENFOREIGNMEMORY_PRIVATE_H
#define XENFOREIGNMEMORY_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "xenforeignmemory.h"
#include "xentoollog.h"

#define XENFOREIGNMEMORY_PAGE_SHIFT 12
#define XENFOREIGNMEMORY_PAGE_SIZE  (1UL << XENFOREIGNMEMORY_PAGE_SHIFT)

struct xenforeignmemory_handle {
    xentoollog_logger *logger, *logger_tofree;
    unsigned flags;
    int fd;                     /* privcmd, or -1 */
};

/*
 * The backend.  osdep_xenforeignmemory_map maps 'num' frames at a fresh
 * address and fills err[] (never NULL here) with 0 or a negated errno per
 * page; it returns NULL with errno set when it could not try at all.
 */
int osdep_xenforeignmemory_open(xenforeignmemory_handle *fmem);
int osdep_xenforeignmemory_close(xenforeignmemory_handle *fmem);
void *osdep_xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom,
                                 int prot, size_t num,
                                 const xen_pfn_t arr[], int err[]);
int osdep_xenforeignmemory_unmap(xenforeignmemory_handle *fmem, void *addr,
                                 size_t num);

/* A resource mapping (xenforeignmemory_map_resource). */
struct xenforeignmemory_resource_handle {
    uint16_t domid;
    unsigned int type, id;
    unsigned long frame, nr_frames;
    void *addr;
    int prot, flags;
};

/*
 * Map fres->nr_frames frames of the resource; fres->addr is the hint on
 * entry and the mapping on success.  -1 with errno set (EOPNOTSUPP: not
 * possible here) on failure, nothing left mapped.
 */
int osdep_xenforeignmemory_map_resource(xenforeignmemory_handle *fmem,
                                        xenforeignmemory_resource_handle *fres);
int osdep_xenforeignmemory_unmap_resource(xenforeignmemory_handle *fmem,
                                          xenforeignmemory_resource_handle *fres);

#define FMEM_LOG(fmem, level, err, fmt, ...) \
    xtl_log((fmem)->logger, level, err, "xenforeignmemory", fmt, ##__VA_ARGS__)
/* An error, with strerror(errno) appended. */
#define PERROR(fmt, ...) \
    FMEM_LOG(fmem, XTL_ERROR, errno, fmt, ##__VA_ARGS__)

#endif /* XENFOREIGNMEMORY_PRIVATE_H */
