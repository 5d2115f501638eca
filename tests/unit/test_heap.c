/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hypervisor's memory bookkeeping, from its real sources, over 32 MiB
 * of host memory mapped where the code expects machine memory (it runs
 * identity-mapped): the page allocator (common/page_alloc.c), the heap in
 * pools (common/xmalloc.c: per-pool pages, limits, pages going back with
 * their last block, two pools never sharing a page), the frame table
 * (arch/x86/mm.c: assign_pages within max_pages, references, the page
 * list, relinquishing with orphans, shared hypervisor pages) and the
 * paging pool (arch/x86/mm/p2m-pool.c: sizing, never below what is used,
 * exhaustion, preemption).  What every one of them must keep: the heap
 * back to its size once everything is freed.
 */
#define __XEN__ 1                       /* hypercall.h (p2m-pool.c) reaches the domctl ABI */
#include "../../xen/common/page_alloc.c"
#include "../../xen/common/xmalloc.c"
#include "../../xen/arch/x86/mm.c"
#include "../../xen/arch/x86/mm/p2m-pool.c"

#include "harness.h"

#define BASE    0x40000000UL
#define SIZE    (32UL << 20)

/* What the code under test links against, for one fake domain. */
static struct domain dom;
static unsigned int preempt_after = ~0u;

struct domain *get_domain_by_id(domid_t domid)
{
    return domid == dom.domain_id ? &dom : NULL;
}

bool hypercall_preempt_check(void)
{
    return !preempt_after || !--preempt_after;
}

static unsigned long heap_start;

static void test_boot(void)
{
    if ( !harness_map_fixed(BASE, SIZE) )
    {
        CHECK(!"host memory at 1 GiB");
        return;
    }
    init_boot_pages(BASE, BASE + SIZE);
    CHECK_EQ(avail_pages(), SIZE >> PAGE_SHIFT);
    reserve_boot_pages(BASE, BASE + 2 * PAGE_SIZE);
    CHECK_EQ(avail_pages(), (SIZE >> PAGE_SHIFT) - 2);
    init_frame_table(max_boot_pfn());
    CHECK(frame_table != NULL);
    heap_start = avail_pages();
}

static void test_global_heap(void)
{
    static void *p[600];
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(p); i++ )
        CHECK((p[i] = xmalloc_bytes(1 + (i * 37) % 3000)) != NULL);
    CHECK(xmalloc_global_pages() > 0);
    CHECK_EQ(avail_pages() + xmalloc_global_pages(), heap_start);
    /* Every other one first: full pages become partial, then go. */
    for ( i = 0; i < ARRAY_SIZE(p); i += 2 )
        xfree(p[i]);
    for ( i = 1; i < ARRAY_SIZE(p); i += 2 )
        xfree(p[i]);
    CHECK_EQ(xmalloc_global_pages(), 0);
    CHECK_EQ(avail_pages(), heap_start);
    CHECK(xzalloc_array(uint64_t, (size_t)-1 / 4) == NULL);
    CHECK_EQ(avail_pages(), heap_start);
}

static void test_pool_limit(void)
{
    struct xmem_pool pool, other;
    static void *p[200];
    unsigned int n, i;
    void *q, *big, *theirs;

    xmem_pool_init(&pool, 3);
    xmem_pool_init(&other, 0);
    /* 100 bytes + the header: 128-byte blocks, 32 a page, 3 pages. */
    for ( n = 0; n < ARRAY_SIZE(p) && (p[n] = _xzalloc_pool(&pool, 100, 8)); n++ )
        ;
    CHECK_EQ(n, 96);
    CHECK_EQ(pool.pages, 3);
    CHECK_EQ(pool.peak, 3);
    CHECK_EQ(pool.failed, 1);
    CHECK_EQ(avail_pages(), heap_start - 3);
    /* Another pool's block never lands on this pool's pages. */
    theirs = _xzalloc_pool(&other, 100, 8);
    CHECK(theirs != NULL);
    CHECK_EQ(other.pages, 1);
    for ( i = 0; i < n; i++ )
        CHECK(((unsigned long)p[i] & PAGE_MASK) != ((unsigned long)theirs & PAGE_MASK));
    /* A page run and whole pages count too, and are refused past the limit. */
    for ( i = 0; i < 64; i++ )
        xfree(p[i]);
    CHECK_EQ(pool.pages, 1);
    big = _xzalloc_pool(&pool, 5000, 8);          /* 2 pages */
    CHECK(big != NULL);
    CHECK_EQ(pool.pages, 3);
    CHECK(xmem_alloc_pages(&pool, 0) == NULL);
    CHECK_EQ(pool.failed, 2);
    xfree(big);
    CHECK(xmem_alloc_pages(&pool, 2) == NULL);    /* 1 + 4 > 3 */
    q = xmem_alloc_pages(&pool, 1);
    CHECK(q != NULL && !((unsigned long)q & (2 * PAGE_SIZE - 1)));
    xmem_free_pages(&pool, q, 1);
    for ( i = 64; i < n; i++ )
        xfree(p[i]);
    CHECK_EQ(pool.pages, 0);
    xfree(_xzalloc_pool(&other, 1, 8));
    xfree(NULL);
    CHECK_EQ(other.pages, 1);                     /* theirs */
    xfree(theirs);
    CHECK_EQ(other.pages, 0);
    CHECK_EQ(avail_pages(), heap_start);
}

static void test_frames(void)
{
    unsigned long free0 = avail_pages();
    mfn_t a = alloc_domheap_pages(2), b, s;

    dom.domain_id = 7;
    dom.max_pages = 6;
    page_list_init(&dom.page_list);
    CHECK(a != INVALID_MFN);
    CHECK_EQ(assign_pages(&dom, a, 2), 0);
    CHECK_EQ(dom.tot_pages, 4);
    b = alloc_domheap_pages(2);
    CHECK_EQ(assign_pages(&dom, b, 2), -E2BIG);   /* 8 > 6: nothing changes */
    CHECK_EQ(dom.tot_pages, 4);
    CHECK_EQ(page_get_owner(b), DOMID_INVALID);
    free_domheap_pages(b, 2);

    /* A frame referenced elsewhere outlives its allocation reference. */
    CHECK(get_page(a + 1, &dom));
    put_page_alloc_ref(a + 1);
    CHECK_EQ(dom.tot_pages, 4);                   /* still the domain's */
    put_page(a + 1);
    CHECK_EQ(dom.tot_pages, 3);
    CHECK_EQ(avail_pages(), free0 - 3);           /* a + 1 went back */
    CHECK(!get_page(a + 1, &dom));                /* freed: no new reference */
    put_page_alloc_ref(a);
    CHECK_EQ(dom.tot_pages, 2);

    /* The shared page: the domain's, not in tot_pages. */
    s = virt_to_mfn(alloc_xenheap_page());
    share_xen_page_with_guest(&dom, s);
    CHECK_EQ(dom.xenheap_pages, 1);
    CHECK_EQ(dom.tot_pages, 2);
    CHECK(get_page(s, &dom));                     /* mapped by someone else */

    /* Death: frames leave; one still referenced is orphaned. */
    CHECK(get_page(a + 2, &dom));
    dom.shared_info = mfn_to_virt(s);
    relinquish_domain_pages(&dom);
    CHECK_EQ(dom.tot_pages, 0);
    CHECK_EQ(dom.xenheap_pages, 0);
    CHECK(page_list_empty(&dom.page_list));
    CHECK_EQ(orphaned_pages(), 2);
    CHECK(!get_page(a + 2, &dom));
    put_page(a + 2);
    put_page(s);
    CHECK_EQ(orphaned_pages(), 0);
    CHECK_EQ(avail_pages(), free0);
    dom.shared_info = NULL;
}

static void test_page_list(void)
{
    struct page_list_head l = PAGE_LIST_HEAD_INIT;
    mfn_t m = alloc_domheap_pages(2);

    CHECK(page_list_empty(&l));
    page_list_add(&l, m);
    page_list_add(&l, m + 1);
    page_list_add(&l, m + 2);
    page_list_del(&l, m + 1);                     /* the middle */
    CHECK_EQ(page_list_remove_head(&l), m + 2);
    CHECK_EQ(page_list_remove_head(&l), m);
    CHECK_EQ(page_list_remove_head(&l), INVALID_MFN);
    page_list_add(&l, m + 3);
    page_list_del(&l, m + 3);                     /* the only one */
    CHECK(page_list_empty(&l));
    CHECK_EQ(l.tail, PAGE_LIST_NULL);
    free_domheap_pages(m, 2);
}

static void test_paging_pool(void)
{
    unsigned long free0 = avail_pages();
    void *p[8];
    unsigned int i;

    CHECK_EQ(paging_pool_init(&dom), 0);
    CHECK_EQ(dom.arch.hvm.p2m.pool.total, PAGING_POOL_DEFAULT_PAGES);
    CHECK_EQ(avail_pages(), free0 - PAGING_POOL_DEFAULT_PAGES);
    CHECK_EQ(paging_pool_set_size(&dom, 4, false), 0);
    for ( i = 0; i < 4; i++ )
    {
        p[i] = paging_pool_alloc(&dom);
        CHECK(p[i] != NULL && !*(uint64_t *)p[i]);
        *(uint64_t *)p[i] = 0xdead;
    }
    CHECK(paging_pool_alloc(&dom) == NULL);       /* used up: never the heap */
    CHECK_EQ(dom.arch.hvm.p2m.pool.failed, 1);
    CHECK_EQ(avail_pages(), free0 - 4);
    CHECK_CONTAINS(printk_log, "d7: paging pool of 4 pages exhausted");
    CHECK_EQ(paging_pool_set_size(&dom, 1, false), 0);
    CHECK_EQ(dom.arch.hvm.p2m.pool.total, 4);     /* never below what is used */
    paging_pool_free(&dom, p[0]);
    p[0] = paging_pool_alloc(&dom);
    CHECK(p[0] != NULL && !*(uint64_t *)p[0]);    /* zeroed again */
    for ( i = 0; i < 4; i++ )
        paging_pool_free(&dom, p[i]);
    CHECK_EQ(dom.arch.hvm.p2m.pool.peak, 4);
    /* Growing a lot: preempted, continued, exact. */
    preempt_after = 0;
    CHECK_EQ(paging_pool_set_size(&dom, 1000, true), -ERESTART);
    CHECK(dom.arch.hvm.p2m.pool.total > 4 && dom.arch.hvm.p2m.pool.total < 1000);
    preempt_after = ~0u;
    CHECK_EQ(paging_pool_set_size(&dom, 1000, true), 0);
    CHECK_EQ(avail_pages(), free0 - 1000);
    CHECK_EQ(paging_pool_set_size(&dom, (SIZE >> PAGE_SHIFT) * 2, false), -ENOMEM);
    CHECK_EQ(avail_pages(), 0);                   /* the control domain's to ask */
    paging_pool_teardown(&dom);
    CHECK_EQ(dom.arch.hvm.p2m.pool.total, 0);
    CHECK_EQ(avail_pages(), free0);
    CHECK_EQ(paging_pool_pages_for(1, 2048), 512);    /* Xen: 1088 KiB -> 2 MiB */
    CHECK_EQ(paging_pool_pages_for(2, 8192), 768);
}

void test_main(void)
{
    test_boot();
    test_global_heap();
    test_pool_limit();
    test_frames();
    test_page_list();
    test_paging_pool();
}
