/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The log-dirty bitmap and XEN_DOMCTL_shadow_op.
 *
 * The bitmap is Xen's lazily allocated trie of 4 KiB pages: a leaf holds
 * 32768 bits (one per pfn), interior nodes hold 512 pointers; four levels
 * cover 2^48 pfns.  Nodes are allocated on the first bit set below them;
 * an allocation failure loses that bit, so it is counted and reported as
 * -ENOMEM by the next CLEAN or PEEK (the caller must then assume
 * everything is dirty), as in Xen.
 *
 * Before CLEAN or PEEK read the bitmap, every vCPU's PML buffer is
 * flushed into it.  CLEAN clears the bits it returns and re-arms the
 * pages (write-protects them again, or clears their EPT dirty flag under
 * PML), all while no vCPU of the domain runs, so no write is ever lost.
 *
 * Locking (Xen's mm-locks.h order): the trie, its counts and the
 * CLEAN/PEEK/re-arm state are under the domain's paging lock
 * (d->arch.paging.lock); re-arming changes EPT entries, under the p2m
 * lock, which is taken first.  Neither is held while the bitmap is copied
 * to the caller (that takes the caller's own p2m lock): a chunk of at most
 * LOG_DIRTY_CHUNK_PFNS bits is read under the locks into a buffer, copied
 * out, then cleared and re-armed under the locks again, exactly the bits
 * that were copied (a bit set meanwhile stays for the next CLEAN).
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/xmalloc.h>
#include <asm/bitops.h>
#include <public/domctl.h>
#include <public/ext/dirty_stats.h>
#include <asm/p2m.h>
#include <asm/paging.h>

#define LEAF_BITS_SHIFT     (PAGE_SHIFT + 3)            /* 32768 pfns a leaf */
#define NODE_SHIFT          PAGETABLE_ORDER             /* 512 entries */
#define L2_SHIFT            LEAF_BITS_SHIFT
#define L3_SHIFT            (L2_SHIFT + NODE_SHIFT)
#define L4_SHIFT            (L3_SHIFT + NODE_SHIFT)
#define TRIE_MAX_PFN_SHIFT  (L4_SHIFT + NODE_SHIFT)
#define LEAF_PFNS           (1UL << LEAF_BITS_SHIFT)

#define L4_IDX(pfn)         (((pfn) >> L4_SHIFT) & ((1UL << NODE_SHIFT) - 1))
#define L3_IDX(pfn)         (((pfn) >> L3_SHIFT) & ((1UL << NODE_SHIFT) - 1))
#define L2_IDX(pfn)         (((pfn) >> L2_SHIFT) & ((1UL << NODE_SHIFT) - 1))
#define LEAF_IDX(pfn)       ((pfn) & (LEAF_PFNS - 1))

/* Pfns copied out between two preemption checks of a CLEAN/PEEK. */
#define LOG_DIRTY_CHUNK_PFNS  4096UL

/* The domain whose log-dirty state ld is. */
static struct domain *ld_domain(struct log_dirty_domain *ld)
{
    return container_of(ld, struct domain, arch.paging.log_dirty);
}

/* Trie pages come from the domain's paging pool (Xen's paging_new_log_dirty_page). */
static void *trie_alloc(struct log_dirty_domain *ld)
{
    void *p = paging_pool_alloc(ld_domain(ld));

    if ( p )
        ld->allocs++;
    else
        ld->failed_allocs++;
    return p;
}

static void **trie_child(struct log_dirty_domain *ld, void **slot, bool alloc)
{
    if ( !*slot && alloc )
        *slot = trie_alloc(ld);
    return *slot;
}

/* The leaf page holding pfn's bit; NULL if absent (and !alloc, or no memory). */
static unsigned long *trie_leaf(struct log_dirty_domain *ld, unsigned long pfn,
                                bool alloc)
{
    void **l4, **l3, **l2;

    if ( pfn >> TRIE_MAX_PFN_SHIFT )
        return NULL;
    l4 = trie_child(ld, &ld->top, alloc);
    if ( !l4 )
        return NULL;
    l3 = trie_child(ld, &l4[L4_IDX(pfn)], alloc);
    if ( !l3 )
        return NULL;
    l2 = trie_child(ld, &l3[L3_IDX(pfn)], alloc);
    if ( !l2 )
        return NULL;
    return (unsigned long *)trie_child(ld, &l2[L2_IDX(pfn)], alloc);
}

static void trie_free(struct log_dirty_domain *ld)
{
    struct domain *d = ld_domain(ld);
    void **l4 = ld->top, **l3, **l2;
    unsigned int i4, i3, i2;

    if ( !l4 )
        return;
    for ( i4 = 0; i4 < (1U << NODE_SHIFT); i4++ )
    {
        if ( !(l3 = l4[i4]) )
            continue;
        for ( i3 = 0; i3 < (1U << NODE_SHIFT); i3++ )
        {
            if ( !(l2 = l3[i3]) )
                continue;
            for ( i2 = 0; i2 < (1U << NODE_SHIFT); i2++ )
                if ( l2[i2] )
                    paging_pool_free(d, l2[i2]);
            paging_pool_free(d, l2);
        }
        paging_pool_free(d, l3);
    }
    paging_pool_free(d, l4);
    ld->top = NULL;
    ld->last_leaf = NULL;
    ld->allocs = 0;
}

bool paging_gfn_tracked(const struct domain *d, unsigned long gfn)
{
    const struct log_dirty_domain *ld = &d->arch.paging.log_dirty;

    if ( !ld->enabled )
        return false;
    return ld->global || (gfn >= ld->vram_begin && gfn - ld->vram_begin < ld->vram_nr);
}

static void mark_dirty_locked(struct domain *d, unsigned long gfn, struct vcpu *v)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    unsigned long *leaf, bit, *word;

    if ( !paging_gfn_tracked(d, gfn) )
        return;
    /* Every logged write counts here, bit already set or not (a re-arm's). */
    dirty_domain_count(d, writes_logged);
    if ( v )
        dirty_vcpu_count(v, writes_logged);
    if ( (gfn >> ld->block_shift) < ld->nr_blocks )
        ld->block_logged[gfn >> ld->block_shift]++;
    /* Writes cluster: a PML drain mostly hits the leaf it hit last. */
    if ( ld->last_leaf && (gfn & ~(LEAF_PFNS - 1)) == ld->last_leaf_base )
        leaf = ld->last_leaf;
    else
    {
        leaf = trie_leaf(ld, gfn, true);
        if ( !leaf )
            return;                 /* counted in failed_allocs */
        ld->last_leaf = leaf;
        ld->last_leaf_base = gfn & ~(LEAF_PFNS - 1);
    }
    bit = LEAF_IDX(gfn);
    word = &leaf[bit / (8 * sizeof(long))];
    if ( *word & (1UL << (bit % (8 * sizeof(long)))) )
        return;
    *word |= 1UL << (bit % (8 * sizeof(long)));
    ld->dirty_count++;
    dirty_domain_count(d, pages_dirtied);
    if ( (gfn >> ld->block_shift) < ld->nr_blocks )
        ld->block_dirty[gfn >> ld->block_shift]++;
    if ( v )
        dirty_vcpu_count(v, pages_dirtied);
}

void paging_mark_dirty(struct domain *d, unsigned long gfn, struct vcpu *v)
{
    if ( !ACCESS_ONCE(d->arch.paging.log_dirty.enabled) )
        return;                     /* looked at again under the lock */
    paging_lock(d);
    mark_dirty_locked(d, gfn, v);
    paging_unlock(d);
}

/*
 * What paging_mark_dirty() does for each of n addresses, as a PML drain
 * needs it: the tracked range, the per-block arrays and the leaf of the
 * previous entry are kept in locals, and the counters that do not depend
 * on the page added once at the end.  The counts come out exactly as n
 * calls of paging_mark_dirty() would leave them.  Inlined twice, so that
 * global log-dirty (every gfn tracked) has no range test.
 */
static __always_inline void mark_gpas(struct domain *d, const uint64_t *gpa,
                                    unsigned int n, struct vcpu *v, bool ranged)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    unsigned long *leaf = ld->last_leaf;
    unsigned long leaf_base = leaf ? ld->last_leaf_base : ~0UL;
    const unsigned long begin = ld->vram_begin, nr = ld->vram_nr;
    const unsigned int shift = ld->block_shift, nr_blocks = ld->nr_blocks;
    uint64_t *const blk_logged = ld->block_logged, *const blk_dirty = ld->block_dirty;
    unsigned long skipped = 0, dirtied = 0;
    unsigned int i;

    for ( i = 0; i < n; i++ )
    {
        unsigned long gfn = gpa[i] >> PAGE_SHIFT, blk;
        unsigned int newly;

        if ( ranged && gfn - begin >= nr )
        {
            skipped++;                  /* not tracked (VRAM only) */
            continue;
        }
        if ( unlikely((gfn & ~(LEAF_PFNS - 1)) != leaf_base) )
        {
            leaf = trie_leaf(ld, gfn, true);
            if ( !leaf )
            {
                leaf_base = ~0UL;       /* counted in failed_allocs */
                /* Logged, as paging_mark_dirty() counts it, but not set. */
                if ( (gfn >> shift) < nr_blocks )
                    blk_logged[gfn >> shift]++;
                continue;
            }
            leaf_base = gfn & ~(LEAF_PFNS - 1);
            ld->last_leaf = leaf;
            ld->last_leaf_base = leaf_base;
        }
        newly = !__test_and_set_bit(LEAF_IDX(gfn), leaf);
        dirtied += newly;
        blk = gfn >> shift;
        if ( likely(blk < nr_blocks) )
        {
            blk_logged[blk]++;
            blk_dirty[blk] += newly;
        }
    }
    ld->dirty_count += dirtied;
    dirty_domain_add(d, writes_logged, n - skipped);
    dirty_domain_add(d, pages_dirtied, dirtied);
    if ( v )
    {
        dirty_vcpu_add(v, writes_logged, n - skipped);
        dirty_vcpu_add(v, pages_dirtied, dirtied);
    }
}

void paging_mark_dirty_gpas(struct domain *d, const uint64_t *gpa, unsigned int n,
                            struct vcpu *v)
{
    const struct log_dirty_domain *ld = &d->arch.paging.log_dirty;

    if ( !ACCESS_ONCE(ld->enabled) )
        return;
    paging_lock(d);
    if ( !ld->enabled )
        ;
    else if ( ld->global )
        mark_gpas(d, gpa, n, v, false);
    else
        mark_gpas(d, gpa, n, v, true);
    paging_unlock(d);
}

/* Read (and with 'clean' clear) the bit of one pfn. */
static bool bit_get(struct log_dirty_domain *ld, unsigned long pfn, bool clean)
{
    unsigned long *leaf = trie_leaf(ld, pfn, false), bit, mask;
    bool set;

    if ( !leaf )
        return false;
    bit = LEAF_IDX(pfn);
    mask = 1UL << (bit % (8 * sizeof(long)));
    set = leaf[bit / (8 * sizeof(long))] & mask;
    if ( clean )
        leaf[bit / (8 * sizeof(long))] &= ~mask;
    return set;
}

/*
 * Re-arm the pages whose bits are set in 'bits' (pfn base + i for bit i):
 * exactly those can have been written since they were last armed (a
 * write disarms a page and sets its bit; a page whose bit is clear is
 * still armed).  So CLEAN costs what was dirtied, not the guest's size.
 * Runs of set bits are retyped together; the caller flushes the EPT
 * caches once, before the domain runs again.
 */
static const struct log_dirty_ops *ld_ops(const struct domain *d)
{
    return d->arch.paging.log_dirty.ops;
}

static void rearm_bits(struct domain *d, unsigned long base, unsigned long bits)
{
    while ( bits )
    {
        unsigned int first = __builtin_ctzl(bits), len;
        unsigned long rest = bits >> first;

        len = ~rest ? (unsigned int)__builtin_ctzl(~rest) : 8 * (unsigned int)sizeof(long);
        ld_ops(d)->clean_range(d, base + first, len);
        bits = len + first >= 8 * sizeof(long) ? 0 : bits & (~0UL << (first + len));
    }
}

/* The locks a chunk of CLEAN/PEEK takes: the p2m's first if it re-arms. */
static void chunk_lock(struct domain *d, bool rearm)
{
    if ( rearm )
        p2m_lock(&d->arch.hvm.p2m);
    paging_lock(d);
}

static void chunk_unlock(struct domain *d, bool rearm)
{
    paging_unlock(d);
    if ( rearm )
        p2m_unlock(&d->arch.hvm.p2m);
}

/* Unaligned ranges (a VRAM range may start anywhere): a bit at a time. */
static int copy_bits_out_slow(struct domain *d, unsigned long begin, unsigned long nr,
                              XEN_GUEST_HANDLE(void) bitmap, bool clean, bool rearm)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    uint8_t buf[256];
    unsigned long i = 0;

    while ( i < nr )
    {
        unsigned long n = min(nr - i, 8 * sizeof(buf)), j;

        memset(buf, 0, sizeof(buf));
        chunk_lock(d, rearm);
        for ( j = 0; j < n; j++ )
            if ( bit_get(ld, begin + i + j, clean) )
            {
                buf[j / 8] |= 1u << (j % 8);
                if ( rearm )
                    ld_ops(d)->clean_range(d, begin + i + j, 1);
            }
        chunk_unlock(d, rearm);
        if ( copy_to_guest_offset(bitmap, i / 8, buf, DIV_ROUND_UP(n, 8)) )
            return -EFAULT;
        i += n;
    }
    return 0;
}

/* Clear the bits of buf (n bits from leaf offset off) in the leaf, re-arming their pages. */
static void clean_copied_bits(struct domain *d, unsigned long *leaf, unsigned long pfn,
                              unsigned long off, const uint8_t *buf, unsigned long n,
                              bool rearm)
{
    uint8_t *b = (uint8_t *)leaf + off / 8;
    unsigned long i, bytes = DIV_ROUND_UP(n, 8);

    /* Word at a time where aligned; the edges a byte at a time. */
    for ( i = 0; i < bytes; )
    {
        unsigned long pfn_i = pfn + 8 * i, bits;

        if ( !((unsigned long)(b + i) % sizeof(long)) && bytes - i >= sizeof(long) )
        {
            unsigned long *w = (unsigned long *)(b + i), copied;

            memcpy(&copied, buf + i, sizeof(copied));
            if ( (bits = *w & copied) )
            {
                *w &= ~bits;
                if ( rearm )
                    rearm_bits(d, pfn_i, bits);
            }
            i += sizeof(long);
            continue;
        }
        if ( (bits = b[i] & buf[i]) )
        {
            b[i] &= ~bits;
            if ( rearm )
                rearm_bits(d, pfn_i, bits);
        }
        i++;
    }
}

/*
 * Copy the bits of [begin, begin + nr) to the caller's buffer 'bitmap'
 * (bit i of the buffer = pfn begin + i), clearing them if 'clean', and
 * re-arming the pages they name if 'rearm' (without an EPT flush: the
 * caller does one).  Returns 0 or -EFAULT (the caller checked the buffer
 * beforehand).  A piece at a time: read under the locks, copied out
 * without them, then exactly the bits copied cleared (and re-armed) under
 * them again.
 */
static int copy_bits_out(struct domain *d, unsigned long begin, unsigned long nr,
                         XEN_GUEST_HANDLE(void) bitmap, bool clean, bool rearm)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    unsigned long pfn = begin, end = begin + nr;
    uint8_t buf[LOG_DIRTY_CHUNK_PFNS / 8];

    if ( begin % 8 )
        return copy_bits_out_slow(d, begin, nr, bitmap, clean, rearm);

    while ( pfn < end )
    {
        unsigned long off = LEAF_IDX(pfn), *leaf;
        unsigned long n = min(min(end - pfn, LEAF_PFNS - off), 8 * sizeof(buf));
        unsigned long bytes = DIV_ROUND_UP(n, 8);
        bool any = false;

        paging_lock(d);
        leaf = trie_leaf(ld, pfn, false);
        if ( leaf )
            memcpy(buf, (const uint8_t *)leaf + off / 8, bytes);
        else
            memset(buf, 0, bytes);
        paging_unlock(d);
        if ( n % 8 )
            buf[bytes - 1] &= (1u << (n % 8)) - 1;  /* only the bits inside the range */

        if ( copy_to_guest(bitmap, buf, bytes) )
            return -EFAULT;

        if ( clean && leaf )
        {
            unsigned long i;

            for ( i = 0; i < bytes && !any; i++ )
                any = buf[i];
        }
        if ( any )
        {
            chunk_lock(d, rearm);
            /* Trie leaves live until the trie goes (disable, teardown): the same one. */
            if ( (leaf = trie_leaf(ld, pfn, false)) )
                clean_copied_bits(d, leaf, pfn, off, buf, n, rearm);
            chunk_unlock(d, rearm);
        }
        pfn += n;
        guest_handle_add_offset(bitmap, bytes);
    }
    return 0;
}


static int paging_log_dirty_op(struct domain *d, struct xen_domctl_shadow_op *sc,
                               bool clean)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    XEN_GUEST_HANDLE(void) bitmap = guest_handle_cast(sc->dirty_bitmap, void);
    bool final = sc->mode & XEN_DOMCTL_SHADOW_LOGDIRTY_FINAL;
    int rc = 0;

    if ( !ld->enabled )
        return -EINVAL;

    if ( ld->preempt.active )
    {
        /* A continuation, or somebody else's call while one is pending. */
        if ( ld->preempt.caller != current->domain->domain_id || ld->preempt.op != sc->op )
            return -EBUSY;
    }
    else
    {
        unsigned long pages;

        /* Nothing dirtied before this call may be missed: drain PML first. */
        ld_ops(d)->flush(d);

        pages = min_t(uint64_t, sc->pages, d->arch.hvm.p2m.max_mapped_pfn + 1);
        if ( pages && (guest_handle_is_null(bitmap) ||
                       !guest_handle_okay(bitmap, DIV_ROUND_UP(pages, 8))) )
            return -EFAULT;

        if ( clean )
            dirty_domain_count(d, clean_calls);
        else
            dirty_domain_count(d, peek_calls);

        p2m_lock(&d->arch.hvm.p2m);
        paging_lock(d);
        if ( ld->failed_allocs )
        {
            /* Bits were lost: the caller must treat everything as dirty. */
            ld->failed_allocs = 0;
            if ( clean )
            {
                trie_free(ld);
                ld_ops(d)->clean_range(d, 0, d->arch.hvm.p2m.max_mapped_pfn + 1);
                ld_ops(d)->clean_done(d);
            }
            paging_unlock(d);
            p2m_unlock(&d->arch.hvm.p2m);
            return -ENOMEM;
        }

        ld->preempt.caller = current->domain->domain_id;
        ld->preempt.op = sc->op;
        ld->preempt.next = 0;
        ld->preempt.pages = pages;
        ld->preempt.fault_count = ld->fault_count;
        ld->preempt.dirty_count = ld->dirty_count;
        ld->preempt.active = true;
        if ( clean )
            ld->fault_count = ld->dirty_count = 0;
        paging_unlock(d);
        p2m_unlock(&d->arch.hvm.p2m);
    }

    /*
     * A chunk at a time, preemptible.  Pages past 'pages' keep their bits
     * and stay writable until read.  Each chunk's re-armed pages are
     * flushed from the EPT caches before the domain can run again (at a
     * preemption point or at the end).
     */
    while ( ld->preempt.next < ld->preempt.pages )
    {
        unsigned long n = min(ld->preempt.pages - ld->preempt.next, LOG_DIRTY_CHUNK_PFNS);
        XEN_GUEST_HANDLE(void) chunk = bitmap;

        if ( ld->preempt.next && hypercall_preempt_check() )
        {
            if ( clean && !final )
                ld_ops(d)->clean_done(d);
            dirty_domain_count(d, clean_preempted);
            return -ERESTART;
        }
        guest_handle_add_offset(chunk, ld->preempt.next / 8);
        rc = copy_bits_out(d, ld->preempt.next, n, chunk, clean, clean && !final);
        if ( rc )
            break;
        ld->preempt.next += n;
    }
    if ( clean && !final )
        ld_ops(d)->clean_done(d);

    ld->preempt.active = false;
    if ( rc )
        return rc;
    sc->pages = ld->preempt.pages;
    sc->stats.fault_count = ld->preempt.fault_count;
    sc->stats.dirty_count = ld->preempt.dirty_count;
    return 0;
}

/*
 * XEN_DOMCTL_dirty_rearm: re-arm the tracked pages whose bits are set
 * (exactly those that can be disarmed: see rearm_bits), leaving every bit
 * as it is.  A chunk of LOG_DIRTY_CHUNK_PFNS at a time, preemptible, one
 * EPT flush per chunk run (at a preemption point or at the end), as CLEAN.
 * Interleaving with a consumer's CLEAN (even one preempted half-way) is
 * safe: a re-armed page whose bit is set logs its next write into a bit
 * that is set already; one whose bit is clear is armed already.
 */
int paging_log_dirty_rearm(struct domain *d, struct xen_domctl_dirty_rearm *op)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    unsigned long begin, end;
    bool progress = false;

    if ( op->flags || op->pad )
        return -EINVAL;
    if ( d == current->domain || !ld->enabled )
        return -EINVAL;
    if ( ld->global )
    {
        begin = 0;
        end = d->arch.hvm.p2m.max_mapped_pfn + 1;
    }
    else
    {
        /* VRAM only: stale bits outside the range are not to be armed. */
        begin = ld->vram_begin;
        end = ld->vram_begin + ld->vram_nr;
    }

    if ( ld->rearm.active )
    {
        if ( ld->rearm.caller != current->domain->domain_id )
            return -EBUSY;
    }
    else
    {
        /* Writes still in the PML buffers: set their bits first. */
        ld_ops(d)->flush(d);
        ld->rearm.active = true;
        ld->rearm.caller = current->domain->domain_id;
        ld->rearm.next = begin;
        ld->rearm.pages = 0;
        dirty_domain_count(d, rearm_calls);
    }
    if ( ld->rearm.next < begin )
        ld->rearm.next = begin;       /* the VRAM range moved meanwhile */

    while ( ld->rearm.next < end )
    {
        unsigned long pfn = ld->rearm.next;
        unsigned long n = min(end - pfn, LOG_DIRTY_CHUNK_PFNS);
        unsigned long last = pfn + n, *leaf;

        /* At least one chunk a call, so that continuations progress. */
        if ( progress && hypercall_preempt_check() )
        {
            ld_ops(d)->clean_done(d);
            dirty_domain_count(d, rearm_preempted);
            return -ERESTART;
        }
        /* The chunk under the p2m lock (re-arms), then the paging lock (bits). */
        chunk_lock(d, true);
        while ( pfn < last )
        {
            unsigned long chunk_end = min(last, (pfn | (LEAF_PFNS - 1)) + 1);

            leaf = trie_leaf(ld, pfn, false);
            if ( !leaf )
            {
                pfn = chunk_end;
                continue;
            }
            while ( pfn < chunk_end )
            {
                unsigned long bit = LEAF_IDX(pfn);
                unsigned int shift = bit % (8 * sizeof(long));
                unsigned long bits = leaf[bit / (8 * sizeof(long))] >> shift;
                unsigned long span = min(chunk_end - pfn, 8 * sizeof(long) - shift);

                if ( span < 8 * sizeof(long) )
                    bits &= (1UL << span) - 1;
                if ( bits )
                {
                    unsigned long b;

                    for ( b = bits; b; b &= b - 1 )
                        ld->rearm.pages++;
                    rearm_bits(d, pfn, bits);
                }
                pfn += span;
            }
        }
        chunk_unlock(d, true);
        ld->rearm.next = last;
        progress = true;
    }
    ld_ops(d)->clean_done(d);
    ld->rearm.active = false;
    dirty_domain_add(d, rearm_pages, ld->rearm.pages);
    op->pages = ld->rearm.pages;
    return 0;
}

void paging_log_dirty_init(struct domain *d, const struct log_dirty_ops *ops)
{
    d->arch.paging.log_dirty.ops = ops;
}

/*
 * The per-block counters, for the RAM mapped when tracking is first
 * switched on: 2 MiB blocks, or larger so that there are at most
 * XEN_DIRTY_BLOCKS_MAX.  Without memory there are none (nr_blocks 0);
 * tracking itself does not depend on them.
 */
static void dirty_blocks_init(struct domain *d)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    unsigned long pfns = d->arch.hvm.p2m.max_mapped_pfn + 1;
    unsigned int shift = XEN_DIRTY_BLOCK_SHIFT_MIN;

    if ( ld->block_dirty )
        return;
    while ( ((pfns - 1) >> shift) + 1 > XEN_DIRTY_BLOCKS_MAX )
        shift++;
    ld->block_dirty = domain_xzalloc_array(d, uint64_t, ((pfns - 1) >> shift) + 1);
    ld->block_logged = domain_xzalloc_array(d, uint64_t, ((pfns - 1) >> shift) + 1);
    if ( !ld->block_dirty || !ld->block_logged )
    {
        xfree(ld->block_dirty);
        xfree(ld->block_logged);
        ld->block_dirty = ld->block_logged = NULL;
        return;
    }
    ld->block_shift = shift;
    ld->nr_blocks = ((pfns - 1) >> shift) + 1;
}

int paging_log_dirty_enable(struct domain *d, bool global)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    unsigned long split = dirty_stats_superpages_split(d);
    unsigned long lazy = d->arch.hvm.p2m.superpages_logdirty;
    int rc;

    if ( ld->enabled || !ld->ops )
        return -EINVAL;
    dirty_blocks_init(d);
    /* The mode and the retyping together: the p2m's lock, then the paging one. */
    p2m_lock(&d->arch.hvm.p2m);
    paging_lock(d);
    ld->fault_count = ld->dirty_count = 0;
    ld->failed_allocs = 0;
    ld->preempt.active = false;
    ld->rearm.active = false;
    rc = ld->ops->enable(d, global);
    paging_unlock(d);
    p2m_unlock(&d->arch.hvm.p2m);
    if ( rc )
        return rc;
    printk(XENLOG_G_INFO "d%u: log-dirty %s on (%s), %lu superpages to split on first write, %lu split now\n",
           d->domain_id, global ? "mode" : "VRAM tracking",
           ld->pml ? "PML" : "write protection",
           d->arch.hvm.p2m.superpages_logdirty - lazy,
           dirty_stats_superpages_split(d) - split);
    return 0;
}

void paging_log_dirty_disable(struct domain *d)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;

    if ( !ld->enabled )
        return;
    /* hap's disable drains PML under both: p2m, then paging (recursive). */
    p2m_lock(&d->arch.hvm.p2m);
    paging_lock(d);
    ld->ops->disable(d);
    trie_free(ld);
    ld->preempt.active = false;     /* a pending CLEAN's continuation fails */
    ld->rearm.active = false;
    ld->enabled = ld->global = false;
    ld->vram_begin = ld->vram_nr = 0;
    paging_unlock(d);
    p2m_unlock(&d->arch.hvm.p2m);
    printk(XENLOG_G_INFO "d%u: log-dirty off\n", d->domain_id);
}

int paging_domctl(struct domain *d, struct xen_domctl_shadow_op *sc)
{
    if ( d == current->domain )
        return -EINVAL;             /* never on the calling domain itself */

    switch ( sc->op )
    {
    case XEN_DOMCTL_SHADOW_OP_OFF:
        paging_log_dirty_disable(d);
        return 0;

    case XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY:
        return paging_log_dirty_enable(d, true);

    case XEN_DOMCTL_SHADOW_OP_ENABLE:
        if ( sc->mode & ~XEN_DOMCTL_SHADOW_ENABLE_LOG_DIRTY )
            return -EINVAL;         /* HAP: refcount/translate/external are implied */
        if ( sc->mode & XEN_DOMCTL_SHADOW_ENABLE_LOG_DIRTY )
            return paging_log_dirty_enable(d, true);
        return 0;

    case XEN_DOMCTL_SHADOW_OP_CLEAN:
    case XEN_DOMCTL_SHADOW_OP_PEEK:
        return paging_log_dirty_op(d, sc, sc->op == XEN_DOMCTL_SHADOW_OP_CLEAN);

    case XEN_DOMCTL_SHADOW_OP_GET_ALLOCATION:
        /* The paging pool, in whole MiB (Xen's hap_get_allocation). */
        sc->mb = DIV_ROUND_UP(d->arch.hvm.p2m.pool.total, 1UL << (20 - PAGE_SHIFT));
        return 0;

    case XEN_DOMCTL_SHADOW_OP_SET_ALLOCATION:
    {
        int rc = paging_pool_set_size(d, (unsigned long)sc->mb << (20 - PAGE_SHIFT), true);

        if ( !rc )
            sc->mb = DIV_ROUND_UP(d->arch.hvm.p2m.pool.total, 1UL << (20 - PAGE_SHIFT));
        return rc;                  /* -ERESTART: do_domctl continues it */
    }

    default:
        return -EINVAL;
    }
}

/*
 * Copy the bits of [begin, begin + nr) to the caller's buffer 'bitmap' and
 * clear them; with 'rearm', re-arm the pages they name (and flush).  For
 * hap.c's dirty-VRAM tracking (Xen's paging_log_dirty_range); the caller
 * checked the range and the buffer.
 */
int paging_log_dirty_range(struct domain *d, unsigned long begin, unsigned long nr,
                           XEN_GUEST_HANDLE(void) bitmap, bool rearm)
{
    int rc;

    ld_ops(d)->flush(d);
    rc = copy_bits_out(d, begin, nr, bitmap, true, rearm);
    if ( rearm )
        ld_ops(d)->clean_done(d);
    return rc;
}

void paging_teardown(struct domain *d)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;

    paging_lock(d);
    trie_free(ld);
    ld->nr_blocks = 0;
    xfree(ld->block_dirty);
    xfree(ld->block_logged);
    ld->block_dirty = ld->block_logged = NULL;
    paging_unlock(d);
}
