/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Physical page allocator.
 *
 * One bit per 4 KiB frame of the identity-mapped range (set = not free).
 * At boot every frame starts unavailable; the RAM ranges of the multiboot2
 * memory map are handed in with init_boot_pages() and whatever the image,
 * the boot information and the modules occupy is taken out again with
 * reserve_boot_pages().  Allocations of 2^order frames are naturally
 * aligned, so an order-9 allocation can back a 2 MiB EPT mapping.
 *
 * This is deliberately simple (first fit with a hint); a single physical
 * CPU and tens of MiB per guest do not need a buddy allocator yet.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/spinlock.h>
#include <xen/string.h>
#include <asm/config.h>

#define MAX_PAGES      (DIRECTMAP_SIZE >> PAGE_SHIFT)
#define BITS_PER_WORD  (8 * sizeof(unsigned long))

static unsigned long alloc_map[MAX_PAGES / BITS_PER_WORD];
static unsigned long nr_total, nr_free, max_pfn;
static bool map_initialised;

static bool page_used(unsigned long pfn)
{
    return alloc_map[pfn / BITS_PER_WORD] & (1UL << (pfn % BITS_PER_WORD));
}

static void set_used(unsigned long pfn, bool used)
{
    unsigned long bit = 1UL << (pfn % BITS_PER_WORD);

    if ( used )
        alloc_map[pfn / BITS_PER_WORD] |= bit;
    else
        alloc_map[pfn / BITS_PER_WORD] &= ~bit;
}

static void init_map(void)
{
    if ( map_initialised )
        return;
    memset(alloc_map, 0xff, sizeof(alloc_map));
    map_initialised = true;
}

void init_boot_pages(paddr_t start, paddr_t end)
{
    unsigned long pfn, s = PFN_UP(start), e = PFN_DOWN(end);

    init_map();
    if ( e > MAX_PAGES )
        e = MAX_PAGES;
    for ( pfn = s; pfn < e; pfn++ )
    {
        if ( !page_used(pfn) )
            continue;
        set_used(pfn, false);
        nr_total++;
        nr_free++;
    }
    if ( e > max_pfn )
        max_pfn = e;
}

void reserve_boot_pages(paddr_t start, paddr_t end)
{
    unsigned long pfn, s = PFN_DOWN(start), e = PFN_UP(end);

    init_map();
    if ( e > MAX_PAGES )
        e = MAX_PAGES;
    for ( pfn = s; pfn < e; pfn++ )
    {
        if ( page_used(pfn) )
            continue;
        set_used(pfn, true);
        nr_total--;
        nr_free--;
    }
}

void end_boot_allocator(void)
{
    printk(XENLOG_INFO "Memory: %lu KiB free of %lu KiB usable\n",
           nr_free * (PAGE_SIZE / 1024), nr_total * (PAGE_SIZE / 1024));
}

static bool range_free(unsigned long pfn, unsigned long n)
{
    unsigned long i;

    /* Whole words at a time where the range is word-aligned. */
    if ( !(pfn % BITS_PER_WORD) && !(n % BITS_PER_WORD) )
    {
        for ( i = 0; i < n / BITS_PER_WORD; i++ )
            if ( alloc_map[pfn / BITS_PER_WORD + i] )
                return false;
        return true;
    }
    for ( i = 0; i < n; i++ )
        if ( page_used(pfn + i) )
            return false;
    return true;
}

static unsigned long alloc_hint;

/* The bitmap, the counts and the hint: every CPU allocates. */
static DEFINE_SPINLOCK_LEVEL(heap_lock, LOCK_LEVEL_HEAP);

/*
 * Pages claimed by domains (XENMEM_claim_pages) and not yet allocated to
 * them: Xen's outstanding_claims, the sum of every d->outstanding_pages,
 * both under heap_lock.
 */
static unsigned long outstanding_claims;

/*
 * As Xen's alloc_heap_pages(): an allocation that would eat into the
 * claims fails, unless it is for a domain whose own claim covers it; one
 * for a domain with a claim uses the claim up first.  Xen takes the claim
 * down when the pages are assigned (domain_adjust_tot_pages); here it is
 * when they are allocated for the domain, under the same lock as the
 * claims (a populate whose EPT entry then fails has used its share).
 */
static mfn_t __alloc_domheap_pages(struct domain *d, unsigned int order)
{
    unsigned long n = 1UL << order, pfn, i, start, pass;

    if ( n > nr_free )
        return INVALID_MFN;
    if ( outstanding_claims + n > nr_free && (!d || d->outstanding_pages < n) )
        return INVALID_MFN;

    /* Two passes: from the hint to the end, then from the start. */
    for ( pass = 0; pass < 2; pass++ )
    {
        start = pass ? 0 : ROUNDUP(alloc_hint, n);
        for ( pfn = start; pfn + n <= max_pfn; pfn += n )
        {
            if ( !range_free(pfn, n) )
                continue;
            for ( i = 0; i < n; i++ )
                set_used(pfn + i, true);
            nr_free -= n;
            alloc_hint = pfn + n;
            if ( d && d->outstanding_pages )
            {
                unsigned long used = min(n, d->outstanding_pages);

                d->outstanding_pages -= used;
                outstanding_claims -= used;
            }
            return pfn;
        }
    }
    return INVALID_MFN;
}

mfn_t alloc_domheap_pages_for(struct domain *d, unsigned int order)
{
    unsigned long flags;
    mfn_t mfn;

    spin_lock_irqsave(&heap_lock, flags);
    mfn = __alloc_domheap_pages(d, order);
    spin_unlock_irqrestore(&heap_lock, flags);
    return mfn;
}

mfn_t alloc_domheap_pages(unsigned int order)
{
    return alloc_domheap_pages_for(NULL, order);
}

/*
 * XENMEM_claim_pages, Xen's domain_set_outstanding_pages(): stake a claim
 * so that d can grow to pages in all (what it holds counts) however
 * others allocate meanwhile; 0 cancels it.  -EINVAL for a second claim, or
 * one not above tot_pages or above max_pages; -ENOMEM if the free pages
 * less the others' claims cannot cover it.
 */
int domain_set_outstanding_pages(struct domain *d, unsigned long pages)
{
    unsigned long flags, claim;
    int rc = 0;

    spin_lock_irqsave(&heap_lock, flags);
    if ( pages == 0 )
    {
        outstanding_claims -= d->outstanding_pages;
        d->outstanding_pages = 0;
    }
    else if ( d->outstanding_pages )
        rc = -EINVAL;               /* Xen: only one active claim per domain */
    else if ( pages <= d->tot_pages || pages > d->max_pages )
        rc = -EINVAL;
    else if ( (claim = pages - d->tot_pages) > nr_free - outstanding_claims )
        rc = -ENOMEM;
    else
    {
        d->outstanding_pages = claim;
        outstanding_claims += claim;
    }
    spin_unlock_irqrestore(&heap_lock, flags);
    return rc;
}

/* XEN_SYSCTL_physinfo's outstanding_pages. */
unsigned long total_outstanding_claims(void)
{
    return outstanding_claims;
}

static void __free_domheap_range(mfn_t mfn, unsigned long n)
{
    unsigned long i;

    for ( i = 0; i < n; i++ )
    {
        BUG_ON(!page_used(mfn + i));
        set_used(mfn + i, false);
    }
    nr_free += n;
    if ( mfn < alloc_hint )
        alloc_hint = mfn;
}

void free_domheap_pages(mfn_t mfn, unsigned int order)
{
    free_domheap_range(mfn, 1UL << order);
}

void free_domheap_range(mfn_t mfn, unsigned long n)
{
    unsigned long flags;

    spin_lock_irqsave(&heap_lock, flags);
    __free_domheap_range(mfn, n);
    spin_unlock_irqrestore(&heap_lock, flags);
}

/*
 * Zero 2^order frames from p (page-aligned) with `rep stosq`: eight bytes
 * an iteration where memset's `rep stosb` does one.  Bochs counts every
 * iteration of a string instruction as an instruction (a TSC tick) and has
 * no fast path for string instructions with 64-bit addresses, so this is
 * 8x fewer ticks and about 8x less host time: zeroing a 1 GiB domain takes
 * 134M ticks instead of 1,074M.  On hardware both are fast-string stores.
 */
void clear_pages(void *p, unsigned int order)
{
    unsigned long n = (PAGE_SIZE / 8) << order;

    asm volatile ( "rep stosq"
                   : "+D" (p), "+c" (n)
                   : "a" (0UL)
                   : "memory" );
}

void clear_page(void *p)
{
    clear_pages(p, 0);
}

void *alloc_xenheap_pages(unsigned int order)
{
    mfn_t mfn = alloc_domheap_pages(order);
    void *v;

    if ( mfn == INVALID_MFN )
        return NULL;
    v = mfn_to_virt(mfn);
    clear_pages(v, order);
    return v;
}

void free_xenheap_pages(void *v, unsigned int order)
{
    if ( v )
        free_domheap_pages(virt_to_mfn(v), order);
}

unsigned long max_boot_pfn(void)
{
    return max_pfn;
}

unsigned long total_pages(void)
{
    return nr_total;
}

unsigned long avail_pages(void)
{
    return nr_free;
}
