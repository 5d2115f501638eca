/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame table: owner, reference count and list links of every frame
 * (asm/mm.h), and the domain's page list.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/spinlock.h>
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

    spin_lock(&d->page_alloc_lock);
    if ( d->tot_pages + n > d->max_pages )
    {
        spin_unlock(&d->page_alloc_lock);
        return -E2BIG;              /* Xen: "Over-allocation" */
    }
    for ( i = 0; i < n; i++ )
    {
        struct page_info *pg = mfn_to_page(mfn + i);

        BUG_ON(!pg || pg->count_info || pg->owner != DOMID_INVALID);
        pg->owner = d->domain_id;
        page_list_add(&d->page_list, mfn + i);
        /* Last: a get_page() that sees the count sees the owner. */
        __atomic_store_n(&pg->count_info, PGC_allocated | 1, __ATOMIC_RELEASE);
    }
    d->tot_pages += n;
    spin_unlock(&d->page_alloc_lock);
    return 0;
}

void share_xen_page_with_guest(struct domain *d, mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    BUG_ON(!pg || pg->count_info || pg->owner != DOMID_INVALID);
    spin_lock(&d->page_alloc_lock);
    pg->owner = d->domain_id;
    d->xenheap_pages++;
    spin_unlock(&d->page_alloc_lock);
    __atomic_store_n(&pg->count_info, PGC_xen_heap | PGC_allocated | 1, __ATOMIC_RELEASE);
}

/*
 * References are atomic (Xen's get_page/put_page: a cmpxchg loop on
 * count_info), so CPUs taking and dropping references to one frame at
 * once never lose one, and only the CPU that drops the last frees it.  A
 * free frame (count 0) cannot be revived: get_page() only increments a
 * count that is not 0.  The owner is checked after the reference is
 * taken, as Xen's page_get_owner_and_reference().
 */
bool get_page(mfn_t mfn, const struct domain *d)
{
    struct page_info *pg = mfn_to_page(mfn);
    uint32_t x;

    if ( !pg )
        return false;
    x = __atomic_load_n(&pg->count_info, __ATOMIC_RELAXED);
    do {
        if ( !(x & PGC_count_mask) || !((x + 1) & PGC_count_mask) )
            return false;           /* free, or the count would overflow */
    } while ( !__atomic_compare_exchange_n(&pg->count_info, &x, x + 1, false,
                                           __ATOMIC_ACQUIRE, __ATOMIC_RELAXED) );
    if ( ACCESS_ONCE(pg->owner) != d->domain_id )
    {
        put_page(mfn);
        return false;
    }
    return true;
}

/* The frame leaves its owner: off the page list, out of the counts. */
static void page_disown(struct domain *d, mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    spin_lock(&d->page_alloc_lock);
    if ( pg->count_info & PGC_xen_heap )
        d->xenheap_pages--;
    else
    {
        page_list_del(&d->page_list, mfn);
        d->tot_pages--;
    }
    pg->owner = DOMID_INVALID;
    spin_unlock(&d->page_alloc_lock);
}

void put_page(mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);
    uint32_t x;

    BUG_ON(!pg);
    x = __atomic_load_n(&pg->count_info, __ATOMIC_RELAXED);
    do {
        BUG_ON(!(x & PGC_count_mask));
    } while ( !__atomic_compare_exchange_n(&pg->count_info, &x, x - 1, false,
                                           __ATOMIC_ACQ_REL, __ATOMIC_RELAXED) );
    if ( ((x - 1) & PGC_count_mask) )
        return;
    /* The last reference: nobody else can reach the frame now. */
    if ( ACCESS_ONCE(pg->owner) != DOMID_INVALID )
    {
        struct domain *d = get_domain_by_id(pg->owner);

        BUG_ON(!d);                 /* owners are relinquished before they go */
        page_disown(d, mfn);
    }
    else
        __atomic_fetch_sub(&nr_orphaned, 1, __ATOMIC_RELAXED);
    pg->count_info = 0;
    free_domheap_pages(mfn, 0);
}

void put_page_alloc_ref(mfn_t mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    BUG_ON(!pg);
    /* Xen's test_and_clear_bit(_PGC_allocated): only one CPU drops it. */
    if ( !(__atomic_fetch_and(&pg->count_info, ~PGC_allocated, __ATOMIC_ACQ_REL) &
           PGC_allocated) )
        return;
    put_page(mfn);
}

/* Drop d's ownership of mfn and its allocation reference. */
void relinquish_page(struct domain *d, mfn_t mfn)
{
    BUG_ON(page_get_owner(mfn) != d->domain_id);
    page_disown(d, mfn);
    __atomic_fetch_add(&nr_orphaned, 1, __ATOMIC_RELAXED);  /* ownerless until its last put_page */
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
    for ( ; ; )
    {
        struct page_info *pg;
        uint32_t only_alloc = PGC_allocated | 1;

        spin_lock(&d->page_alloc_lock);
        if ( (mfn = d->page_list.head) == PAGE_LIST_NULL )
        {
            spin_unlock(&d->page_alloc_lock);
            break;
        }
        pg = mfn_to_page(mfn);
        /* Only the allocation reference: nobody else can take one now. */
        if ( !__atomic_compare_exchange_n(&pg->count_info, &only_alloc, 0, false,
                                          __ATOMIC_ACQ_REL, __ATOMIC_RELAXED) )
        {
            spin_unlock(&d->page_alloc_lock);
            relinquish_page(d, mfn);
            continue;
        }
        page_list_del(&d->page_list, mfn);
        d->tot_pages--;
        pg->owner = DOMID_INVALID;
        spin_unlock(&d->page_alloc_lock);
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
    return __atomic_load_n(&nr_orphaned, __ATOMIC_RELAXED);
}
