/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxencall: hypercall buffers.  Whole pages come from the backend (a few
 * single pages are kept for reuse); a byte-sized buffer is a run of pages
 * with a small header in front recording how many.
 */
#include <errno.h>
#include <string.h>

#include "private.h"

/* Before every byte-sized buffer; keeps the user pointer 16-byte aligned. */
struct buffer_header {
    size_t nr_pages;
    size_t size;
};

void *xencall_alloc_buffer_pages(xencall_handle *xcall, size_t nr_pages)
{
    void *p;

    if ( !nr_pages )
    {
        errno = EINVAL;
        return NULL;
    }

    if ( nr_pages == 1 )
    {
        osdep_cache_lock(xcall);
        p = xcall->nr_cached ? xcall->page_cache[--xcall->nr_cached] : NULL;
        osdep_cache_unlock(xcall);
        if ( p )
        {
            memset(p, 0, XENCALL_PAGE_SIZE);
            return p;
        }
    }

    p = osdep_alloc_pages(xcall, nr_pages);
    if ( !p )
        PERROR("Failed to allocate %zu hypercall buffer page(s)", nr_pages);

    return p;
}

void xencall_free_buffer_pages(xencall_handle *xcall, void *p,
                               size_t nr_pages)
{
    int saved_errno = errno;    /* a hypercall's error must survive */

    if ( !p )
        return;

    if ( nr_pages == 1 )
    {
        osdep_cache_lock(xcall);
        if ( xcall->nr_cached < XENCALL_PAGE_CACHE )
        {
            xcall->page_cache[xcall->nr_cached++] = p;
            p = NULL;
        }
        osdep_cache_unlock(xcall);
    }
    if ( p )
        osdep_free_pages(xcall, p, nr_pages);

    errno = saved_errno;
}

void buffer_release_cache(xencall_handle *xcall)
{
    while ( xcall->nr_cached )
        osdep_free_pages(xcall, xcall->page_cache[--xcall->nr_cached], 1);
}

void *xencall_alloc_buffer(xencall_handle *xcall, size_t size)
{
    struct buffer_header *hdr;
    size_t nr_pages;

    if ( size > SIZE_MAX - sizeof(*hdr) - XENCALL_PAGE_SIZE )
    {
        errno = ENOMEM;
        return NULL;
    }
    nr_pages = (size + sizeof(*hdr) + XENCALL_PAGE_SIZE - 1) >>
               XENCALL_PAGE_SHIFT;

    hdr = xencall_alloc_buffer_pages(xcall, nr_pages);
    if ( !hdr )
        return NULL;

    hdr->nr_pages = nr_pages;
    hdr->size = size;

    return hdr + 1;
}

void xencall_free_buffer(xencall_handle *xcall, void *p)
{
    struct buffer_header *hdr;

    if ( !p )
        return;

    hdr = (struct buffer_header *)p - 1;
    xencall_free_buffer_pages(xcall, hdr, hdr->nr_pages);
}
