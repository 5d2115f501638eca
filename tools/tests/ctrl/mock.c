/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The mock libxencall backend (see mock.h): implements the osdep_*
 * interface of tools/libs/call/private.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mock.h"
#include "private.h"            /* tools/libs/call */

struct mock_call mock_calls[MOCK_MAX_CALLS];
unsigned int mock_nr_calls;
int mock_open_errno;

static mock_handler_t handler;

#define MAX_ALLOCS 256
static struct {
    void *p;
    size_t nr_pages;
} allocs[MAX_ALLOCS];

void mock_reset(mock_handler_t h)
{
    memset(mock_calls, 0, sizeof(mock_calls));
    mock_nr_calls = 0;
    handler = h;
}

bool mock_is_safe(const void *p, size_t size)
{
    const uint8_t *b = p;
    unsigned int i;

    for ( i = 0; i < MAX_ALLOCS; i++ )
    {
        const uint8_t *a = allocs[i].p;

        if ( a && b >= a &&
             b + size <= a + allocs[i].nr_pages * XENCALL_PAGE_SIZE )
            return true;
    }

    return false;
}

unsigned long mock_live_pages(void)
{
    unsigned long n = 0;
    unsigned int i;

    for ( i = 0; i < MAX_ALLOCS; i++ )
        if ( allocs[i].p )
            n += allocs[i].nr_pages;

    return n;
}

int osdep_xencall_open(xencall_handle *xcall)
{
    if ( mock_open_errno )
    {
        errno = mock_open_errno;
        PERROR("mock: cannot open");
        return -1;
    }
    return 0;
}

int osdep_xencall_close(xencall_handle *xcall)
{
    (void)xcall;
    return 0;
}

/* Keep a copy of what the library handed over. */
static void *record(struct mock_call *c)
{
    void *p;

    switch ( c->op )
    {
    case __HYPERVISOR_domctl:
        p = (void *)(uintptr_t)c->arg[0];
        c->arg_safe = mock_is_safe(p, sizeof(c->domctl));
        if ( c->arg_safe )
            memcpy(&c->domctl, p, sizeof(c->domctl));
        return p;

    case __HYPERVISOR_sysctl:
        p = (void *)(uintptr_t)c->arg[0];
        c->arg_safe = mock_is_safe(p, sizeof(c->sysctl));
        if ( c->arg_safe )
            memcpy(&c->sysctl, p, sizeof(c->sysctl));
        return p;

    case __HYPERVISOR_sched_op:
        p = (void *)(uintptr_t)c->arg[1];
        if ( c->arg[0] == SCHEDOP_remote_shutdown )
        {
            c->arg_safe = mock_is_safe(p, sizeof(c->remote_shutdown));
            if ( c->arg_safe )
                memcpy(&c->remote_shutdown, p, sizeof(c->remote_shutdown));
        }
        return p;

    case __HYPERVISOR_memory_op:
        p = (void *)(uintptr_t)c->arg[1];
        if ( c->arg[0] == XENMEM_current_reservation || c->arg[0] == XENMEM_maximum_gpfn )
        {
            c->arg_safe = mock_is_safe(p, sizeof(c->memory_domain));
            if ( c->arg_safe )
                memcpy(&c->memory_domain, p, sizeof(c->memory_domain));
            return p;
        }
        c->arg_safe = mock_is_safe(p, sizeof(c->reservation));
        if ( c->arg_safe )
        {
            size_t n;

            memcpy(&c->reservation, p, sizeof(c->reservation));
            n = c->reservation.nr_extents < MOCK_MAX_EXTENTS ? c->reservation.nr_extents
                                                             : MOCK_MAX_EXTENTS;
            c->extents_safe = c->reservation.extent_start.p &&
                              mock_is_safe(c->reservation.extent_start.p,
                                           c->reservation.nr_extents * sizeof(xen_pfn_t));
            if ( c->extents_safe )
                memcpy(c->extents, c->reservation.extent_start.p, n * sizeof(xen_pfn_t));
        }
        return p;

    case __HYPERVISOR_xen_version:
        p = (void *)(uintptr_t)c->arg[1];
        c->arg_safe = !p || mock_is_safe(p, 1);
        return p;

    case __HYPERVISOR_dm_op:
    {
        xen_dm_op_buf_t *bufs = (void *)(uintptr_t)c->arg[2];
        unsigned int i;

        c->nr_dm_bufs = c->arg[1];
        c->arg_safe = c->nr_dm_bufs <= MOCK_MAX_DM_BUFS &&
                      mock_is_safe(bufs, c->nr_dm_bufs * sizeof(*bufs));
        if ( !c->arg_safe )
            return bufs;
        memcpy(c->dm_bufs, bufs, c->nr_dm_bufs * sizeof(*bufs));

        c->dm_bufs_safe = true;
        for ( i = 0; i < c->nr_dm_bufs; i++ )
            if ( !mock_is_safe(bufs[i].h.p, bufs[i].size) )
                c->dm_bufs_safe = false;
        if ( c->dm_bufs_safe && c->nr_dm_bufs &&
             bufs[0].size >= sizeof(c->dm_op) )
            memcpy(&c->dm_op, bufs[0].h.p, sizeof(c->dm_op));
        return bufs;
    }
    }

    return NULL;
}

long osdep_hypercall(xencall_handle *xcall, const struct xencall_args *call)
{
    struct mock_call *c, scratch;
    void *live;
    long rc;

    (void)xcall;
    c = mock_nr_calls < MOCK_MAX_CALLS ? &mock_calls[mock_nr_calls++]
                                       : &scratch;
    memset(c, 0, sizeof(*c));
    c->op = call->op;
    memcpy(c->arg, call->arg, sizeof(c->arg));

    live = record(c);
    rc = handler ? handler(c, live) : 0;
    if ( rc < 0 )
    {
        errno = -rc;
        return -1;
    }

    return rc;
}

void *osdep_alloc_pages(xencall_handle *xcall, size_t nr_pages)
{
    unsigned int i;
    void *p;

    (void)xcall;
    for ( i = 0; i < MAX_ALLOCS && allocs[i].p; i++ )
        ;
    if ( i == MAX_ALLOCS )
    {
        errno = ENOMEM;
        return NULL;
    }

    p = aligned_alloc(XENCALL_PAGE_SIZE, nr_pages * XENCALL_PAGE_SIZE);
    if ( !p )
        return NULL;
    memset(p, 0, nr_pages * XENCALL_PAGE_SIZE);

    allocs[i].p = p;
    allocs[i].nr_pages = nr_pages;
    return p;
}

void osdep_free_pages(xencall_handle *xcall, void *p, size_t nr_pages)
{
    unsigned int i;

    (void)xcall;
    for ( i = 0; i < MAX_ALLOCS; i++ )
        if ( allocs[i].p == p )
        {
            /* Freeing with another size than allocated is a bug. */
            if ( allocs[i].nr_pages != nr_pages )
                abort();
            allocs[i].p = NULL;
            free(p);
            return;
        }

    abort();                    /* not ours */
}

int osdep_buffers_never_fault(xencall_handle *xcall)
{
    (void)xcall;
    return 1;
}

void osdep_cache_lock(xencall_handle *xcall)
{
    (void)xcall;
}

void osdep_cache_unlock(xencall_handle *xcall)
{
    (void)xcall;
}
