/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame table: owner, reference count and list links of every frame
 * (asm/mm.h), and the domain's page list.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <asm/mm.h>

struct page_info *frame_table;
unsigned long max_page;
static unsigned long nr_orphaned;

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
    {
        frame_table[i].owner = DOMID_INVALID;
        frame_table[i].next = frame_table[i].prev = PAGE_LIST_NULL;
    }
    max_page = nr_frames;
    printk(XENLOG_INFO "Frame table: %lu frames, %lu KiB\n", nr_frames, bytes >> 10);
}

/* ---- page lists ----------------------------------------------------------- */

void page_list_init(struct page_list_head *l)
{
    l->head = l->tail = PAGE_LIST_NULL;
}

void page_list_add(struct page_list_head *l, mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    BUG_ON(!pg || pg->next != PAGE_LIST_NULL || pg->prev != PAGE_LIST_NULL ||
           l->head == mfn);
    pg->next = l->head;
    if ( l->head != PAGE_LIST_NULL )
        frame_table[l->head].prev = mfn;
    else
        l->tail = mfn;
    l->head = mfn;
}

void page_list_del(struct page_list_head *l, mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    BUG_ON(!pg);
    if ( pg->prev != PAGE_LIST_NULL )
        frame_table[pg->prev].next = pg->next;
    else
    {
        BUG_ON(l->head != mfn);
        l->head = pg->next;
    }
    if ( pg->next != PAGE_LIST_NULL )
        frame_table[pg->next].prev = pg->prev;
    else
        l->tail = pg->prev;
    pg->next = pg->prev = PAGE_LIST_NULL;
}

mfn_t page_list_remove_head(struct page_list_head *l)
{
    mfn_t mfn = l->head;

    if ( mfn == PAGE_LIST_NULL )
        return INVALID_MFN;
    page_list_del(l, mfn);
    return mfn;
}

/* ---- ownership and references --------------------------------------------- */

int assign_pages(struct domain *d, mfn_t mfn, unsigned int order)
{
    unsigned long i, n = 1UL << order;

    if ( d->tot_pages + n > d->max_pages )
        return -E2BIG;              /* Xen: "Over-allocation" */
    for ( i = 0; i < n; i++ )
    {
        struct page_info *pg = mfn_to_page(mfn + i);

        BUG_ON(!pg || pg->count_info || pg->owner != DOMID_INVALID);
        pg->owner = d->domain_id;
        pg->count_info = PGC_allocated | 1;
        page_list_add(&d->page_list, mfn + i);
    }
    d->tot_pages += n;
    return 0;
}

void share_xen_page_with_guest(struct domain *d, mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    BUG_ON(!pg || pg->count_info || pg->owner != DOMID_INVALID);
    pg->owner = d->domain_id;
    pg->count_info = PGC_xen_heap | PGC_allocated | 1;
    d->xenheap_pages++;
}

bool get_page(mfn_t mfn, const struct domain *d)
{
    struct page_info *pg = mfn_to_page(mfn);

    if ( !pg || !(pg->count_info & PGC_count_mask) || pg->owner != d->domain_id )
        return false;
    pg->count_info++;
    return true;
}

/* The frame leaves its owner: off the page list, out of the counts. */
static void page_disown(struct domain *d, mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    if ( pg->count_info & PGC_xen_heap )
        d->xenheap_pages--;
    else
    {
        page_list_del(&d->page_list, mfn);
        d->tot_pages--;
    }
    pg->owner = DOMID_INVALID;
}

void put_page(mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    BUG_ON(!pg || !(pg->count_info & PGC_count_mask));
    if ( (--pg->count_info & PGC_count_mask) )
        return;
    if ( pg->owner != DOMID_INVALID )
    {
        struct domain *d = get_domain_by_id(pg->owner);

        BUG_ON(!d);                 /* owners are relinquished before they go */
        page_disown(d, mfn);
    }
    else
        nr_orphaned--;
    pg->count_info = 0;
    free_domheap_pages(mfn, 0);
}

void put_page_alloc_ref(mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    BUG_ON(!pg);
    if ( !(pg->count_info & PGC_allocated) )
        return;
    pg->count_info &= ~PGC_allocated;
    put_page(mfn);
}

/* Drop d's ownership of mfn and its allocation reference. */
void relinquish_page(struct domain *d, mfn_t mfn)
{
    BUG_ON(page_get_owner(mfn) != d->domain_id);
    page_disown(d, mfn);
    nr_orphaned++;                  /* ownerless until its last put_page */
    put_page_alloc_ref(mfn);
}

void free_run_flush(struct free_run *r)
{
    if ( r->nr )
        free_domheap_range(r->first, r->nr);
    r->nr = 0;
}

void free_run_add(struct free_run *r, mfn_t mfn)
{
    if ( r->nr && mfn == r->first + r->nr )
        r->nr++;
    else if ( r->nr && mfn + 1 == r->first )
    {
        r->first = mfn;
        r->nr++;
    }
    else
    {
        free_run_flush(r);
        r->first = mfn;
        r->nr = 1;
    }
}

void relinquish_domain_pages(struct domain *d)
{
    struct free_run run = { 0, 0 };
    mfn_t mfn;

    /*
     * A frame that only has its allocation reference is freed here, in
     * runs (the heap's lock once a run: the teardown runs with interrupts
     * off, and serial input must not wait for it); the others as
     * relinquish_page() says.
     */
    while ( (mfn = d->page_list.head) != PAGE_LIST_NULL )
    {
        struct page_info *pg = mfn_to_page(mfn);

        if ( pg->count_info != (PGC_allocated | 1) )
        {
            relinquish_page(d, mfn);
            continue;
        }
        page_list_del(&d->page_list, mfn);
        d->tot_pages--;
        pg->owner = DOMID_INVALID;
        pg->count_info = 0;
        free_run_add(&run, mfn);
    }
    free_run_flush(&run);
    BUG_ON(d->tot_pages);
    if ( d->shared_info && page_get_owner(virt_to_mfn(d->shared_info)) == d->domain_id )
        relinquish_page(d, virt_to_mfn(d->shared_info));
    BUG_ON(d->xenheap_pages);
}

unsigned long frames_referenced(void)
{
    unsigned long mfn, n = 0;

    for ( mfn = 0; mfn < max_page; mfn++ )
        if ( (frame_table[mfn].count_info & PGC_count_mask) &&
             !(frame_table[mfn].count_info & PGC_xmalloc) )
            n++;
    return n;
}

domid_t page_get_owner(mfn_t mfn)
{
    const struct page_info *pg = mfn_to_page(mfn);

    return pg ? pg->owner : DOMID_INVALID;
}

unsigned long orphaned_pages(void)
{
    return nr_orphaned;
}
