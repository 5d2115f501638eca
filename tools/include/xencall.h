/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxencall: make hypercalls, and allocate memory hypercalls may use.
 *
 * Xen's interface (tools/include/xencall.h), the subset the other tool
 * libraries need.  Two backends sit under it, chosen when the library is
 * built:
 *
 *   linux   in a Linux control domain: IOCTL_PRIVCMD_HYPERCALL on
 *           /dev/xen/privcmd; buffers come from mmap() of
 *           /dev/xen/hypercall when the kernel has it, else locked
 *           anonymous memory (MAP_LOCKED, MADV_DONTFORK);
 *   direct  in this project's control-domain test kernels: the call goes
 *           through the guest's hypercall page and buffers are ordinary
 *           (identity-mapped) guest memory.
 *
 * The xencallN() functions return the hypercall's non-negative result, or
 * -1 with errno set to the (positive) error the hypervisor returned.
 */
#ifndef XENCALL_H
#define XENCALL_H

#include <stddef.h>
#include <stdint.h>

struct xentoollog_logger;

typedef struct xencall_handle xencall_handle;

/* The caller promises not to use the handle from several threads at once. */
#define XENCALL_OPENFLAG_NON_REENTRANT (1U << 0)

/*
 * Open the hypercall interface.  A NULL logger means messages go to
 * stderr (level XTL_PROGRESS and above).  Returns NULL with errno set
 * when the interface is not there (e.g. not running in a Xen control
 * domain), after logging why.
 */
xencall_handle *xencall_open(struct xentoollog_logger *logger,
                             unsigned open_flags);

/* Close; NULL is accepted.  Buffers still allocated become invalid. */
int xencall_close(xencall_handle *xcall);

/* The file descriptor of the privcmd device (-1 for the direct backend). */
int xencall_fd(xencall_handle *xcall);

/*
 * Make hypercall 'op' with 0-5 arguments.  Pointer arguments must point
 * into memory from xencall_alloc_buffer*().
 */
int xencall0(xencall_handle *xcall, unsigned int op);
int xencall1(xencall_handle *xcall, unsigned int op,
             uint64_t arg1);
int xencall2(xencall_handle *xcall, unsigned int op,
             uint64_t arg1, uint64_t arg2);
int xencall3(xencall_handle *xcall, unsigned int op,
             uint64_t arg1, uint64_t arg2, uint64_t arg3);
int xencall4(xencall_handle *xcall, unsigned int op,
             uint64_t arg1, uint64_t arg2, uint64_t arg3,
             uint64_t arg4);
int xencall5(xencall_handle *xcall, unsigned int op,
             uint64_t arg1, uint64_t arg2, uint64_t arg3,
             uint64_t arg4, uint64_t arg5);

/* Like xencall2() for results that do not fit an int. */
long xencall2L(xencall_handle *xcall, unsigned int op,
               uint64_t arg1, uint64_t arg2);

/*
 * Hypercall-safe memory: page-aligned pages, or a byte-sized buffer.
 * Allocation returns NULL (errno set) on failure; the memory is zeroed.
 * Free a buffer with the function matching the one that allocated it.
 */
void *xencall_alloc_buffer_pages(xencall_handle *xcall, size_t nr_pages);
void xencall_free_buffer_pages(xencall_handle *xcall, void *p,
                               size_t nr_pages);
void *xencall_alloc_buffer(xencall_handle *xcall, size_t size);
void xencall_free_buffer(xencall_handle *xcall, void *p);

/*
 * 1 when the hypervisor can never fault on this handle's buffers (the
 * Linux hypercall device, the direct backend), else 0.
 */
int xencall_buffers_never_fault(xencall_handle *xcall);

#endif /* XENCALL_H */
