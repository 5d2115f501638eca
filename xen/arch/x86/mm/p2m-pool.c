/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The paging pool of a domain (Xen's HAP pool: hap_set_allocation,
 * hap_alloc_p2m_page; XEN_DOMCTL_{get,set}_paging_mempool_size and
 * XEN_DOMCTL_SHADOW_OP_{GET,SET}_ALLOCATION size it).
 *
 * The pages are taken from the heap when the pool is sized, not when they
 * are needed, so what a domain costs the host beyond its RAM is decided by
 * whoever built it, and what the guest does afterwards (populating sparse
 * gfns, ballooning, moving shared_info about, being tracked for log-dirty)
 * can only use up the pool, never the host's heap.  EPT tables (p2m-ept.c)
 * and the log-dirty trie (paging.c) come from here; an allocation the pool
 * cannot serve fails, and the caller fails its operation (-ENOMEM) or, for
 * a log-dirty bit, counts it as lost (the next CLEAN says -ENOMEM).
 *
 * Every domain starts with PAGING_POOL_DEFAULT_PAGES (256, Xen's hap_enable
 * default); the boot domains are given Xen's dom0_paging_pages() for their
 * size, toolstack-built ones what libxl asks for.
 */
#include <xen/errno.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <asm/mm.h>
#include <asm/p2m.h>

static struct paging_pool *pool_of(struct domain *d)
{
    return &d->arch.hvm.p2m.pool;
}

unsigned long paging_pool_pages_for(unsigned int vcpus, unsigned long nr_pages)
{
    /* Xen (and libxl): 1 MiB per vCPU, 8 KiB per MiB of RAM, whole MiB. */
    unsigned long memkb = nr_pages * (PAGE_SIZE / 1024);

    memkb = 4 * (256 * vcpus + 2 * (memkb / 1024));
    return DIV_ROUND_UP(memkb, 1024) << (20 - PAGE_SHIFT);
}

int paging_pool_set_size(struct domain *d, unsigned long pages, bool preemptible)
{
    struct paging_pool *pool = pool_of(d);
    struct free_run run = { 0, 0 };
    unsigned long done = 0;

    /*
     * The lists and counts under the paging lock, a page at a time; the
     * heap is called without it (the pool's own users, the EPT code and
     * the log-dirty trie, may run meanwhile).
     */
    for ( ; ; )
    {
        mfn_t mfn = INVALID_MFN;
        bool grow;

        if ( preemptible && done++ >= 64 && hypercall_preempt_check() )
        {
            free_run_flush(&run);
            return -ERESTART;
        }
        paging_lock(d);
        if ( pages < pool->used )
            pages = pool->used;         /* Xen: the pages in use stay */
        if ( pool->total == pages )
        {
            paging_unlock(d);
            break;
        }
        grow = pool->total < pages;
        if ( !grow )
        {
            mfn = page_list_remove_head(&pool->free);
            BUG_ON(mfn == INVALID_MFN);     /* total > used: some are free */
            pool->total--;
        }
        paging_unlock(d);

        if ( grow )
        {
            if ( (mfn = alloc_domheap_pages(0)) == INVALID_MFN )
            {
                free_run_flush(&run);
                return -ENOMEM;
            }
            paging_lock(d);
            page_list_add(&pool->free, mfn);
            pool->total++;
            paging_unlock(d);
        }
        else
            free_run_add(&run, mfn);        /* freed in runs of frames */
    }
    free_run_flush(&run);
    return 0;
}

int paging_pool_init(struct domain *d)
{
    struct paging_pool *pool = pool_of(d);

    page_list_init(&pool->free);
    pool->total = pool->used = pool->peak = pool->failed = 0;
    return paging_pool_set_size(d, PAGING_POOL_DEFAULT_PAGES, false);
}

void *paging_pool_alloc(struct domain *d)
{
    struct paging_pool *pool = pool_of(d);
    mfn_t mfn;
    void *p;

    paging_lock(d);
    mfn = page_list_remove_head(&pool->free);
    if ( mfn == INVALID_MFN )
    {
        bool first = !pool->failed++;

        paging_unlock(d);
        /* Logged once per domain (Xen's p2m_alloc_failed). */
        if ( first )
            printk(XENLOG_G_WARNING "d%u: paging pool of %lu pages exhausted\n",
                   d->domain_id, pool->total);
        return NULL;
    }
    pool->used++;
    if ( pool->used > pool->peak )
        pool->peak = pool->used;
    paging_unlock(d);
    p = mfn_to_virt(mfn);
    clear_page(p);
    return p;
}

void paging_pool_free(struct domain *d, void *p)
{
    struct paging_pool *pool = pool_of(d);

    paging_lock(d);
    BUG_ON(!pool->used);
    page_list_add(&pool->free, virt_to_mfn(p));
    pool->used--;
    paging_unlock(d);
}

void paging_pool_teardown(struct domain *d)
{
    struct paging_pool *pool = pool_of(d);

    BUG_ON(pool->used);             /* p2m and trie are gone by now */
    if ( pool->total )
        paging_pool_set_size(d, 0, false);
}
