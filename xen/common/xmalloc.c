/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hypervisor heap, in pools (xen/xmalloc.h).
 *
 * Every block starts with a 16-byte header naming its size class and its
 * pool.  Blocks of up to 2 KiB (header included) come from pages of one
 * size class and one pool; each such page keeps its own chain of free
 * blocks and its count of blocks in use in the frame table (asm/mm.h:
 * count_info with PGC_xmalloc, xmalloc_free), and the pool keeps a list
 * per class of its pages that have a free block.  A page whose last block is freed goes
 * back to the heap at once.  Anything larger is a run of whole pages.
 * Alignment is 16 bytes; callers needing page alignment use
 * xmem_alloc_pages() (or alloc_xenheap_pages() for the hypervisor's own).
 *
 * One lock (xmalloc_lock) covers every pool: the heap's lock is taken
 * under it when a pool takes or gives back pages.
 */
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/spinlock.h>
#include <xen/string.h>
#include <xen/xmalloc.h>

#define HDR_SIZE      16
#define MIN_SHIFT     5               /* 32-byte blocks */
#define MAX_SHIFT     (MIN_SHIFT + XMEM_NR_CLASSES - 1)    /* 2 KiB blocks */
#define XMALLOC_MAGIC 0x584d414cu     /* "XMAL" */
#define PAGES_FLAG    0x80000000u

struct xhdr {
    uint32_t magic;
    uint32_t class;                   /* shift, or PAGES_FLAG | order */
    struct xmem_pool *pool;
};

_Static_assert(sizeof(struct xhdr) == HDR_SIZE, "header size");

static struct xmem_pool xen_pool = {
    .partial = { [0 ... XMEM_NR_CLASSES - 1] = PAGE_LIST_HEAD_INIT },
};
/* Every pool's lists and counts (the heap lock is taken under it). */
static DEFINE_SPINLOCK_LEVEL(xmalloc_lock, LOCK_LEVEL_XMALLOC);

void xmem_pool_init(struct xmem_pool *pool, unsigned long limit)
{
    unsigned int i;

    for ( i = 0; i < XMEM_NR_CLASSES; i++ )
        page_list_init(&pool->partial[i]);
    pool->pages = pool->peak = pool->failed = 0;
    pool->limit = limit;
}

unsigned long xmalloc_global_pages(void)
{
    return xen_pool.pages;
}

static unsigned int order_for(size_t bytes)
{
    unsigned int order = 0;

    while ( ((size_t)PAGE_SIZE << order) < bytes )
        order++;
    return order;
}

/* Take n pages of the heap for pool: within its limit. */
static bool pool_charge(struct xmem_pool *pool, unsigned long n)
{
    if ( pool->limit && pool->pages + n > pool->limit )
    {
        pool->failed++;
        return false;
    }
    pool->pages += n;
    if ( pool->pages > pool->peak )
        pool->peak = pool->pages;
    return true;
}

static void *__xmem_alloc_pages(struct xmem_pool *pool, unsigned int order)
{
    void *p;

    if ( !pool_charge(pool, 1UL << order) )
        return NULL;
    if ( !(p = alloc_xenheap_pages(order)) )
    {
        pool->pages -= 1UL << order;
        pool->failed++;
    }
    return p;
}

static void __xmem_free_pages(struct xmem_pool *pool, void *p, unsigned int order)
{
    if ( !p )
        return;
    BUG_ON(pool->pages < (1UL << order));
    pool->pages -= 1UL << order;
    free_xenheap_pages(p, order);
}

void *xmem_alloc_pages(struct xmem_pool *pool, unsigned int order)
{
    unsigned long flags;
    void *p;

    spin_lock_irqsave(&xmalloc_lock, flags);
    p = __xmem_alloc_pages(pool, order);
    spin_unlock_irqrestore(&xmalloc_lock, flags);
    return p;
}

void xmem_free_pages(struct xmem_pool *pool, void *p, unsigned int order)
{
    unsigned long flags;

    spin_lock_irqsave(&xmalloc_lock, flags);
    __xmem_free_pages(pool, p, order);
    spin_unlock_irqrestore(&xmalloc_lock, flags);
}

/* Block offsets within a page are multiples of 32: kept as offset / 16 + 1. */
static uint16_t link_of(unsigned long off)
{
    return off / 16 + 1;
}

static unsigned long off_of(uint16_t link)
{
    return (unsigned long)(link - 1) * 16;
}

/* A new page of blocks of 1 << shift bytes for pool, on its partial list. */
static bool refill(struct xmem_pool *pool, unsigned int shift)
{
    size_t sz = 1UL << shift, off;
    struct page_info *pg;
    char *page;

    if ( !(page = __xmem_alloc_pages(pool, 0)) )
        return false;
    pg = mfn_to_page(virt_to_mfn(page));
    for ( off = 0; off + sz <= PAGE_SIZE; off += sz )
        *(uint16_t *)(page + off) = off + 2 * sz <= PAGE_SIZE ? link_of(off + sz) : 0;
    pg->count_info = PGC_xmalloc;     /* no block in use yet */
    pg->xmalloc_free = link_of(0);
    page_list_add(&pool->partial[shift - MIN_SHIFT], virt_to_mfn(page));
    return true;
}

static void *pool_alloc(struct xmem_pool *pool, size_t size, size_t align)
{
    size_t total = size + HDR_SIZE;
    struct page_info *pg;
    struct xhdr *h;
    unsigned int shift;
    mfn_t mfn;

    BUG_ON(align > HDR_SIZE);
    if ( size > ((size_t)-1 >> 1) )
    {
        pool->failed++;
        return NULL;                  /* an overflowed array size */
    }
    if ( total > (1UL << MAX_SHIFT) )
    {
        unsigned int order = order_for(total);

        if ( !(h = __xmem_alloc_pages(pool, order)) )
            return NULL;
        h->class = PAGES_FLAG | order;
    }
    else
    {
        struct page_list_head *l;

        for ( shift = MIN_SHIFT; (1UL << shift) < total; shift++ )
            ;
        l = &pool->partial[shift - MIN_SHIFT];
        if ( page_list_empty(l) && !refill(pool, shift) )
            return NULL;
        mfn = l->head;
        pg = mfn_to_page(mfn);
        h = (struct xhdr *)((char *)mfn_to_virt(mfn) + off_of(pg->xmalloc_free));
        pg->xmalloc_free = *(uint16_t *)h;
        pg->count_info++;
        if ( !pg->xmalloc_free )
            page_list_del(l, mfn);    /* full */
        h->class = shift;
    }
    h->magic = XMALLOC_MAGIC;
    h->pool = pool;
    return (char *)h + HDR_SIZE;
}

static void *pool_alloc_locked(struct xmem_pool *pool, size_t size, size_t align)
{
    unsigned long flags;
    void *p;

    spin_lock_irqsave(&xmalloc_lock, flags);
    p = pool_alloc(pool, size, align);
    spin_unlock_irqrestore(&xmalloc_lock, flags);
    return p;
}

void *_xmalloc(size_t size, size_t align)
{
    return pool_alloc_locked(&xen_pool, size, align);
}

void *_xzalloc(size_t size, size_t align)
{
    return _xzalloc_pool(&xen_pool, size, align);
}

void *_xzalloc_pool(struct xmem_pool *pool, size_t size, size_t align)
{
    void *p = pool_alloc_locked(pool, size, align);

    if ( p )
        memset(p, 0, size);
    return p;
}

static void __xfree(void *p)
{
    struct xmem_pool *pool;
    struct page_info *pg;
    struct xhdr *h;
    unsigned int shift;
    bool was_full;
    mfn_t mfn;

    h = (struct xhdr *)((char *)p - HDR_SIZE);
    BUG_ON(h->magic != XMALLOC_MAGIC);
    h->magic = 0;
    pool = h->pool;
    if ( h->class & PAGES_FLAG )
    {
        __xmem_free_pages(pool, h, h->class & ~PAGES_FLAG);
        return;
    }

    shift = h->class;                 /* read before the link overwrites it */
    BUG_ON(shift < MIN_SHIFT || shift > MAX_SHIFT);
    mfn = virt_to_mfn(h);
    pg = mfn_to_page(mfn);
    BUG_ON(!pg || !(pg->count_info & PGC_xmalloc) || !(pg->count_info & PGC_count_mask));
    was_full = !pg->xmalloc_free;
    *(uint16_t *)h = pg->xmalloc_free;
    pg->xmalloc_free = link_of((unsigned long)h & (PAGE_SIZE - 1));
    if ( --pg->count_info & PGC_count_mask )
    {
        if ( was_full )
            page_list_add(&pool->partial[shift - MIN_SHIFT], mfn);
        return;
    }
    /* Its last block: the page goes back to the heap. */
    if ( !was_full )
        page_list_del(&pool->partial[shift - MIN_SHIFT], mfn);
    pg->xmalloc_free = 0;
    pg->count_info = 0;
    __xmem_free_pages(pool, mfn_to_virt(mfn), 0);
}

void xfree(void *p)
{
    unsigned long flags;

    if ( !p )
        return;
    spin_lock_irqsave(&xmalloc_lock, flags);
    __xfree(p);
    spin_unlock_irqrestore(&xmalloc_lock, flags);
}
