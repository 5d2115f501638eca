/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxencall internals: the handle, and the backend ("osdep") interface
 * that linux.c (privcmd) and direct.c (test kernels) implement.
 */
#ifndef XENCALL_PRIVATE_H
#define XENCALL_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "xencall.h"
#include "xentoollog.h"

/* Hypercall buffers are allocated in units of 4 KiB pages. */
#define XENCALL_PAGE_SHIFT 12
#define XENCALL_PAGE_SIZE  (1UL << XENCALL_PAGE_SHIFT)

/* Single pages kept for reuse instead of going back to the backend. */
#define XENCALL_PAGE_CACHE 4

struct xencall_handle {
    xentoollog_logger *logger, *logger_tofree;
    unsigned flags;
    int fd;                     /* privcmd, or -1 */
    int buf_fd;                 /* the hypercall buffer device, or -1 */

    void *page_cache[XENCALL_PAGE_CACHE];
    unsigned int nr_cached;
};

/* One hypercall: number and five arguments (unused ones are 0). */
struct xencall_args {
    uint64_t op;
    uint64_t arg[5];
};

/*
 * The backend.  osdep_hypercall returns the hypercall's result if it is
 * not negative, else -1 with errno set to the positive error.
 * osdep_alloc_pages returns zeroed, page-aligned memory or NULL (errno).
 */
int osdep_xencall_open(xencall_handle *xcall);
int osdep_xencall_close(xencall_handle *xcall);
long osdep_hypercall(xencall_handle *xcall, const struct xencall_args *call);
void *osdep_alloc_pages(xencall_handle *xcall, size_t nr_pages);
void osdep_free_pages(xencall_handle *xcall, void *p, size_t nr_pages);
int osdep_buffers_never_fault(xencall_handle *xcall);

/*
 * Serialise use of a handle's page cache between threads (a no-op where
 * there are no threads).
 */
void osdep_cache_lock(xencall_handle *xcall);
void osdep_cache_unlock(xencall_handle *xcall);

/* Free the page cache (buffer.c), on close. */
void buffer_release_cache(xencall_handle *xcall);

#define XENCALL_LOG(xcall, level, err, fmt, ...) \
    xtl_log((xcall)->logger, level, err, "xencall", fmt, ##__VA_ARGS__)
/* An error, with strerror(errno) appended. */
#define PERROR(fmt, ...) \
    XENCALL_LOG(xcall, XTL_ERROR, errno, fmt, ##__VA_ARGS__)

#endif /* XENCALL_PRIVATE_H */
