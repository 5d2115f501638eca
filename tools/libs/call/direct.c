/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxencall's direct backend, for this project's control-domain test
 * kernels (tests/): no kernel in between.  A hypercall goes through the
 * guest's hypercall page, and buffers are plain guest memory, which the
 * test kernels identity-map (virtual = guest-physical) and never page out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"
#include <xen/xen.h>
#include <xen/version.h>

/*
 * Provided by the environment (tests/common/hypercall.c): the hypercall
 * through the hypercall page; returns -XEN_Exxx (the negated errno) on
 * failure, -ENOSYS when there is no hypercall page.
 */
long hypercall6(unsigned int nr, unsigned long a1, unsigned long a2,
                unsigned long a3, unsigned long a4, unsigned long a5);

int osdep_xencall_open(xencall_handle *xcall)
{
    /* Any domain may ask for the version: does the page work at all? */
    long rc = hypercall6(__HYPERVISOR_xen_version, XENVER_version, 0, 0, 0, 0);

    if ( rc < 0 )
    {
        errno = -rc;
        PERROR("No hypercall interface (not running under Xen?)");
        return -1;
    }

    return 0;
}

int osdep_xencall_close(xencall_handle *xcall)
{
    (void)xcall;
    return 0;
}

long osdep_hypercall(xencall_handle *xcall, const struct xencall_args *call)
{
    long rc;

    (void)xcall;
    rc = hypercall6(call->op, call->arg[0], call->arg[1], call->arg[2],
                    call->arg[3], call->arg[4]);
    if ( rc < 0 )
    {
        errno = -rc;
        return -1;
    }

    return rc;
}

void *osdep_alloc_pages(xencall_handle *xcall, size_t nr_pages)
{
    size_t size;
    void *p;

    (void)xcall;
    if ( nr_pages > SIZE_MAX / XENCALL_PAGE_SIZE )
    {
        errno = ENOMEM;
        return NULL;
    }
    size = nr_pages * XENCALL_PAGE_SIZE;

    p = aligned_alloc(XENCALL_PAGE_SIZE, size);
    if ( !p )
    {
        errno = ENOMEM;
        return NULL;
    }
    memset(p, 0, size);

    return p;
}

void osdep_free_pages(xencall_handle *xcall, void *p, size_t nr_pages)
{
    (void)xcall;
    (void)nr_pages;
    free(p);
}

int osdep_buffers_never_fault(xencall_handle *xcall)
{
    (void)xcall;
    return 1;
}

/*
 * The test kernels call the libraries from one vCPU at a time (the
 * malloc underneath has its own lock): nothing to serialise.
 */
void osdep_cache_lock(xencall_handle *xcall)
{
    (void)xcall;
}

void osdep_cache_unlock(xencall_handle *xcall)
{
    (void)xcall;
}
