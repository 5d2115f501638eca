/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hypervisor heap.
 *
 * Every block starts with a 16-byte header naming its size class.  Blocks
 * of up to 2 KiB (header included) come from power-of-two free lists that
 * are refilled a page at a time; anything larger is a run of whole pages.
 * Alignment is 16 bytes; callers needing page alignment use
 * alloc_xenheap_pages().
 */
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/spinlock.h>
#include <xen/string.h>
#include <xen/xmalloc.h>

#define HDR_SIZE      16
#define MIN_SHIFT     5               /* 32-byte blocks */
#define MAX_SHIFT     11              /* 2 KiB blocks */
#define NR_CLASSES    (MAX_SHIFT - MIN_SHIFT + 1)
#define XMALLOC_MAGIC 0x584d414cu     /* "XMAL" */
#define PAGES_FLAG    0x80000000u

struct xhdr {
    uint32_t magic;
    uint32_t class;                   /* shift, or PAGES_FLAG | order */
    uint64_t pad;
};

struct free_block {
    struct free_block *next;
};

static struct free_block *free_lists[NR_CLASSES];
/* The free lists (refill() takes the heap lock under it). */
static DEFINE_SPINLOCK_LEVEL(xmalloc_lock, LOCK_LEVEL_XMALLOC);

static unsigned int order_for(size_t bytes)
{
    unsigned int order = 0;

    while ( ((size_t)PAGE_SIZE << order) < bytes )
        order++;
    return order;
}

static bool refill(unsigned int shift)
{
    char *page = alloc_xenheap_page();
    size_t sz = 1UL << shift, off;

    if ( !page )
        return false;
    for ( off = 0; off + sz <= PAGE_SIZE; off += sz )
    {
        struct free_block *b = (struct free_block *)(page + off);

        b->next = free_lists[shift - MIN_SHIFT];
        free_lists[shift - MIN_SHIFT] = b;
    }
    return true;
}

static void *__xmalloc(size_t size, size_t align)
{
    size_t total = size + HDR_SIZE;
    struct xhdr *h;
    unsigned int shift;

    BUG_ON(align > HDR_SIZE);
    if ( total > (1UL << MAX_SHIFT) )
    {
        unsigned int order = order_for(total);

        h = alloc_xenheap_pages(order);
        if ( !h )
            return NULL;
        h->class = PAGES_FLAG | order;
    }
    else
    {
        for ( shift = MIN_SHIFT; (1UL << shift) < total; shift++ )
            ;
        if ( !free_lists[shift - MIN_SHIFT] && !refill(shift) )
            return NULL;
        h = (struct xhdr *)free_lists[shift - MIN_SHIFT];
        free_lists[shift - MIN_SHIFT] = free_lists[shift - MIN_SHIFT]->next;
        h->class = shift;
    }
    h->magic = XMALLOC_MAGIC;
    return (char *)h + HDR_SIZE;
}

void *_xmalloc(size_t size, size_t align)
{
    unsigned long flags;
    void *p;

    spin_lock_irqsave(&xmalloc_lock, flags);
    p = __xmalloc(size, align);
    spin_unlock_irqrestore(&xmalloc_lock, flags);
    return p;
}

void *_xzalloc(size_t size, size_t align)
{
    void *p = _xmalloc(size, align);

    if ( p )
        memset(p, 0, size);
    return p;
}

static void __xfree(void *p)
{
    struct xhdr *h;
    struct free_block *b;
    unsigned int shift;

    h = (struct xhdr *)((char *)p - HDR_SIZE);
    BUG_ON(h->magic != XMALLOC_MAGIC);
    h->magic = 0;
    if ( h->class & PAGES_FLAG )
    {
        free_xenheap_pages(h, h->class & ~PAGES_FLAG);
        return;
    }
    shift = h->class;               /* read before the link overwrites it */
    b = (struct free_block *)h;
    b->next = free_lists[shift - MIN_SHIFT];
    free_lists[shift - MIN_SHIFT] = b;
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
