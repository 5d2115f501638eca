/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame table: owner and reference count of every frame (asm/mm.h).
 */
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <asm/mm.h>

struct page_info *frame_table;
unsigned long max_page;

void init_frame_table(unsigned long nr_frames)
{
    unsigned long bytes = nr_frames * sizeof(struct page_info), i;
    unsigned int order = 0;

    while ( ((unsigned long)PAGE_SIZE << order) < bytes )
        order++;
    frame_table = alloc_xenheap_pages(order);
    if ( !frame_table )
        panic("Not enough memory for the frame table (%lu frames)", nr_frames);
    for ( i = 0; i < nr_frames; i++ )
        frame_table[i].owner = DOMID_INVALID;
    max_page = nr_frames;
    printk(XENLOG_INFO "Frame table: %lu frames, %lu KiB\n", nr_frames, bytes >> 10);
}

void assign_pages(struct domain *d, mfn_t mfn, unsigned int order)
{
    unsigned long i;

    for ( i = 0; i < (1UL << order); i++ )
    {
        struct page_info *pg = mfn_to_page(mfn + i);

        BUG_ON(!pg || pg->count_info);
        pg->owner = d->domain_id;
        pg->count_info = 1;
    }
}

bool get_page(mfn_t mfn, const struct domain *d)
{
    struct page_info *pg = mfn_to_page(mfn);

    if ( !pg || !pg->count_info || pg->owner != d->domain_id )
        return false;
    pg->count_info++;
    return true;
}

void put_page(mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    BUG_ON(!pg || !pg->count_info);
    if ( --pg->count_info )
        return;
    pg->owner = DOMID_INVALID;
    free_domheap_pages(mfn, 0);
}

void put_pages(mfn_t mfn, unsigned int order)
{
    unsigned long i;

    for ( i = 0; i < (1UL << order); i++ )
        put_page(mfn + i);
}

void relinquish_page(mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    BUG_ON(!pg || !pg->count_info);
    if ( pg->count_info > 1 )
        pg->owner = DOMID_INVALID;  /* orphaned: freed with its last reference */
    put_page(mfn);
}

unsigned long frames_referenced(void)
{
    unsigned long mfn, n = 0;

    for ( mfn = 0; mfn < max_page; mfn++ )
        if ( frame_table[mfn].count_info )
            n++;
    return n;
}

domid_t page_get_owner(mfn_t mfn)
{
    const struct page_info *pg = mfn_to_page(mfn);

    return pg ? pg->owner : DOMID_INVALID;
}
