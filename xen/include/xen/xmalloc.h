/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hypervisor heap: small objects from per-size free lists, large ones
 * from pages, in pools.
 *
 * xmalloc()/xzalloc() serve the hypervisor itself (the global pool).  What
 * the hypervisor allocates on a domain's behalf comes from that domain's
 * own pool instead, so that it is counted against the domain, bounded by
 * the domain's limit, and returned to the heap when the domain goes:
 *
 *   domain_xzalloc(d, type), domain_xzalloc_array(d, type, n),
 *   domain_xzalloc_bytes(d, bytes)      zeroed; NULL past d's limit
 *   xfree(p)                            any block, whatever its pool
 *   domain_alloc_xenheap_pages(d, order) / domain_free_xenheap_pages(d, p, order)
 *                                       zeroed, page-aligned (VMCS, PML...)
 *
 * A pool's small-object pages hold blocks of that pool only, and a page
 * goes back to the heap as soon as its last block is freed, so a pool's
 * 'pages' is exactly what it costs the host.
 */
#ifndef __XEN_XMALLOC_H__
#define __XEN_XMALLOC_H__

#include <xen/types.h>
#include <asm/mm.h>
#include <asm/page-bits.h>

#define XMEM_NR_CLASSES 7               /* 32-byte to 2 KiB blocks */

struct xmem_pool {
    struct page_list_head partial[XMEM_NR_CLASSES]; /* pages with free blocks */
    unsigned long pages;                /* heap pages held now */
    unsigned long peak;                 /* the most held at once */
    unsigned long limit;                /* at most this many (0: no limit) */
    unsigned long failed;               /* allocations refused (limit or heap) */
};

void xmem_pool_init(struct xmem_pool *pool, unsigned long limit);

void *_xmalloc(size_t size, size_t align);
void *_xzalloc(size_t size, size_t align);
void *_xzalloc_pool(struct xmem_pool *pool, size_t size, size_t align);
void xfree(void *p);

void *xmem_alloc_pages(struct xmem_pool *pool, unsigned int order);
void xmem_free_pages(struct xmem_pool *pool, void *p, unsigned int order);

/* Pages held by the global pool (the hypervisor's own small objects). */
unsigned long xmalloc_global_pages(void);

#define xmalloc(type)  ((type *)_xmalloc(sizeof(type), __alignof__(type)))
#define xzalloc(type)  ((type *)_xzalloc(sizeof(type), __alignof__(type)))
#define xzalloc_array(type, n) \
    ((type *)_xzalloc(xmalloc_array_bytes(sizeof(type), n), __alignof__(type)))
#define xmalloc_bytes(n) _xmalloc(n, sizeof(long))
#define xzalloc_bytes(n) _xzalloc(n, sizeof(long))

/* Accounted to domain d (d->xmem): see above. */
#define domain_xzalloc(d, type) \
    ((type *)_xzalloc_pool(&(d)->xmem, sizeof(type), __alignof__(type)))
#define domain_xzalloc_array(d, type, n) \
    ((type *)_xzalloc_pool(&(d)->xmem, xmalloc_array_bytes(sizeof(type), n), \
                           __alignof__(type)))
#define domain_xzalloc_bytes(d, n) _xzalloc_pool(&(d)->xmem, n, sizeof(long))
#define domain_alloc_xenheap_pages(d, order) xmem_alloc_pages(&(d)->xmem, order)
#define domain_free_xenheap_pages(d, p, order) xmem_free_pages(&(d)->xmem, p, order)

/* At most the pages one allocation of 'bytes' takes from a pool (a block's page, or a run). */
static inline unsigned long xmalloc_pages_max(size_t bytes)
{
    unsigned long pages = (bytes + 16 + PAGE_SIZE - 1) / PAGE_SIZE;

    while ( pages & (pages - 1) )       /* a run of pages is a power of two */
        pages++;
    return pages;
}

/* n elements of 'size' bytes; SIZE_MAX (which no allocation serves) on overflow. */
static inline size_t xmalloc_array_bytes(size_t size, size_t n)
{
    return n && size > (size_t)-1 / n ? (size_t)-1 : size * n;
}

#endif /* __XEN_XMALLOC_H__ */
