/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: hypercall buffers (the DECLARE_HYPERCALL_BUFFER family) and
 * bouncing callers' buffers through them.  The memory itself comes from
 * libxencall.
 */
#include "xc_private.h"

xc_hypercall_buffer_t XC__HYPERCALL_BUFFER_NAME(HYPERCALL_BUFFER_NULL) = {
    .hbuf = NULL,
    .param_shadow = NULL,
    HYPERCALL_BUFFER_INIT_NO_BOUNCE
};

void *xc__hypercall_buffer_alloc_pages(xc_interface *xch,
                                       xc_hypercall_buffer_t *b,
                                       int nr_pages)
{
    void *p;

    if ( xc_hypercall_check(xch) )
        return NULL;
    if ( nr_pages <= 0 )
    {
        errno = EINVAL;
        return NULL;
    }

    p = xencall_alloc_buffer_pages(xch->xcall, nr_pages);
    if ( !p )
        return NULL;

    b->hbuf = p;
    return p;
}

void xc__hypercall_buffer_free_pages(xc_interface *xch,
                                     xc_hypercall_buffer_t *b, int nr_pages)
{
    if ( !b->hbuf || xc_hypercall_check(xch) )
        return;

    xencall_free_buffer_pages(xch->xcall, b->hbuf, nr_pages);
    b->hbuf = NULL;
}

void *xc__hypercall_buffer_alloc(xc_interface *xch, xc_hypercall_buffer_t *b,
                                 size_t size)
{
    void *p;

    if ( xc_hypercall_check(xch) )
        return NULL;

    p = xencall_alloc_buffer(xch->xcall, size);
    if ( !p )
        return NULL;

    b->hbuf = p;
    return p;
}

void xc__hypercall_buffer_free(xc_interface *xch, xc_hypercall_buffer_t *b)
{
    if ( !b->hbuf || xc_hypercall_check(xch) )
        return;

    xencall_free_buffer(xch->xcall, b->hbuf);
    b->hbuf = NULL;
}

int xc__hypercall_bounce_pre(xc_interface *xch, xc_hypercall_buffer_t *b)
{
    /* Nothing to bounce: the handle stays NULL. */
    if ( !b->ubuf || !b->sz )
    {
        b->hbuf = NULL;
        return 0;
    }

    if ( !xc__hypercall_buffer_alloc(xch, b, b->sz) )
        return -1;

    if ( b->dir & XC_HYPERCALL_BUFFER_BOUNCE_IN )
        memcpy(b->hbuf, b->ubuf, b->sz);

    return 0;
}

void xc__hypercall_bounce_post(xc_interface *xch, xc_hypercall_buffer_t *b)
{
    int saved_errno = errno;    /* the hypercall's error must survive */

    if ( !b->hbuf )
        return;

    if ( b->dir & XC_HYPERCALL_BUFFER_BOUNCE_OUT )
        memcpy(b->ubuf, b->hbuf, b->sz);

    xc__hypercall_buffer_free(xch, b);
    errno = saved_errno;
}
