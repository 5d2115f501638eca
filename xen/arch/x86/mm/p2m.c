/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Generic p2m operations: populating guest RAM, mapping guest frames.
 * Each takes the p2m lock (recursive, asm/p2m.h) across what it reads and
 * changes, so that a lookup and the change that depends on it are one
 * step for every other CPU.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <asm/hvm/validate.h>
#include <asm/mm.h>
#include <asm/p2m.h>
#include <asm/paging.h>

/* ---- the generic layer over the implementation's operations --------------- */

unsigned long p2m_max_gfn(void)
{
    return (1UL << (hvm_paddr_bits() - PAGE_SHIFT)) - 1;
}

int p2m_init(struct domain *d)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;
    int rc;

    p2m->domain = d;
    spin_lock_init_level(&p2m->lock, "p2m_lock", LOCK_LEVEL_P2M);
    spin_lock_init_level(&d->arch.paging.lock, "paging_lock", LOCK_LEVEL_PAGING);
    if ( (rc = paging_pool_init(d)) )
        return rc;
    p2m_lock(p2m);
    rc = ept_p2m_init(p2m);
    p2m_unlock(p2m);
    return rc;
}

/* The tables go back to the pool (foreign leaves drop their references). */
void p2m_teardown(struct domain *d)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;

    p2m_lock(p2m);
    if ( p2m->teardown )
        p2m->teardown(p2m);
    p2m_unlock(p2m);
    paging_pool_teardown(d);
}

int p2m_set_entry(struct domain *d, unsigned long gfn, unsigned long mfn,
                  unsigned int order, p2m_type_t t)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;
    int rc;

    if ( (order != 0 && order != SUPERPAGE_ORDER) ||
         (gfn & ((1UL << order) - 1)) || (mfn & ((1UL << order) - 1)) ||
         gfn > p2m_max_gfn() || !p2m->set_entry )
        return -EINVAL;
    /* The EPT code flushes (INVEPT, here and remotely) before it returns. */
    p2m_lock(p2m);
    rc = p2m->set_entry(p2m, gfn, mfn, order, t);
    p2m_unlock(p2m);
    return rc;
}

unsigned long p2m_get_entry_order(struct domain *d, unsigned long gfn, p2m_type_t *t,
                                  unsigned int *order)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;
    unsigned long mfn;

    /* A gfn beyond the width would alias a low one in the page walk. */
    if ( gfn > p2m_max_gfn() || !p2m->get_entry )
    {
        *t = p2m_mmio_dm;
        return INVALID_MFN;
    }
    p2m_lock(p2m);
    mfn = p2m->get_entry(p2m, gfn, t, order);
    p2m_unlock(p2m);
    return mfn;
}

unsigned long p2m_get_entry(struct domain *d, unsigned long gfn, p2m_type_t *t)
{
    return p2m_get_entry_order(d, gfn, t, NULL);
}

int p2m_change_type_range_noflush(struct domain *d, unsigned long begin,
                                  unsigned long nr, p2m_type_t nt)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;
    int rc;

    if ( !nr || !p2m->change_type_range || begin > p2m_max_gfn() )
        return 0;
    if ( nr > p2m_max_gfn() + 1 - begin )
        nr = p2m_max_gfn() + 1 - begin;     /* nothing is mapped beyond */
    p2m_lock(p2m);
    rc = p2m->change_type_range(p2m, begin, begin + nr, nt);
    p2m_unlock(p2m);
    return rc;
}

/* The change and its flush in one hold of the lock: done when it returns. */
int p2m_change_type_range(struct domain *d, unsigned long begin,
                          unsigned long nr, p2m_type_t nt)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;
    int rc;

    p2m_lock(p2m);
    rc = p2m_change_type_range_noflush(d, begin, nr, nt);
    p2m_flush(d);
    p2m_unlock(p2m);
    return rc;
}

/*
 * After an EPT violation on gfn: make its (4 KiB, log-dirty) entry plain
 * writable RAM without invalidating the EPT caches.  An EPT violation
 * already invalidates the cached translations of the faulting address
 * (Intel SDM: "EPT violations" under "Invalidation of TLBs and
 * paging-structure caches"), permissions only grow, and there is one
 * physical CPU, so no other cache can hold the old entry.
 */
int p2m_relax_after_violation(struct domain *d, unsigned long gfn)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;
    int rc;

    if ( !p2m->change_type_range || gfn > p2m_max_gfn() )
        return -EINVAL;
    p2m_lock(p2m);
    rc = p2m->change_type_range(p2m, gfn, gfn + 1, p2m_ram_rw);
    p2m_unlock(p2m);
    return rc;
}

/* Every CPU that may cache the p2m's translations forgets them (asm/p2m.h). */
void p2m_flush(struct domain *d)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;

    p2m_lock(p2m);
    if ( p2m->flush && p2m->root )
        p2m->flush(p2m);
    p2m_unlock(p2m);
}

/* ---- populating RAM, mapping guest frames --------------------------------- */

/* Undo assign_pages() of frames that never made it into the p2m. */
static void unassign_pages(mfn_t mfn, unsigned int order)
{
    unsigned long i;

    for ( i = 0; i < (1UL << order); i++ )
        put_page_alloc_ref(mfn + i);
}

int p2m_add_ram(struct domain *d, unsigned long gfn, mfn_t mfn, unsigned int order)
{
    unsigned int o = order >= SUPERPAGE_ORDER ? SUPERPAGE_ORDER : 0;
    unsigned long n = 1UL << order, i;
    int rc;

    if ( (gfn | mfn) & (n - 1) )
        rc = -EINVAL;
    else
        rc = assign_pages(d, mfn, order);
    if ( rc )
    {
        free_domheap_pages(mfn, order);
        return rc;
    }
    /* In 2 MiB leaves where the extent has them, else 4 KiB ones. */
    p2m_lock(&d->arch.hvm.p2m);
    for ( i = 0; i < n; i += 1UL << o )
        if ( (rc = p2m_set_entry(d, gfn + i, mfn + i, o, p2m_ram_rw)) )
            break;
    if ( rc )
        while ( i )
        {
            i -= 1UL << o;
            p2m_remove_entry(d, gfn + i, o);    /* a leaf just made: no split */
        }
    p2m_unlock(&d->arch.hvm.p2m);
    if ( rc )
        unassign_pages(mfn, order);     /* the last references: freed */
    return rc;
}

bool p2m_range_empty(struct domain *d, unsigned long gfn, unsigned int order)
{
    unsigned long i;
    p2m_type_t t;

    for ( i = 0; i < (1UL << order); i++ )
        if ( p2m_get_entry(d, gfn + i, &t) != INVALID_MFN )
            return false;
    return true;
}

int p2m_populate_ram(struct domain *d, unsigned long nr_pages)
{
    unsigned long gfn = 0;
    int rc;

    while ( gfn < nr_pages )
    {
        unsigned int order = 0;
        unsigned long mfn = INVALID_MFN;

        if ( !(gfn & ((1UL << SUPERPAGE_ORDER) - 1)) &&
             nr_pages - gfn >= (1UL << SUPERPAGE_ORDER) )
        {
            order = SUPERPAGE_ORDER;
            mfn = alloc_domheap_pages(order);
            if ( mfn == INVALID_MFN )
                order = 0;          /* fragmented: fall back to 4 KiB */
        }
        if ( mfn == INVALID_MFN )
            mfn = alloc_domheap_pages(0);
        if ( mfn == INVALID_MFN )
            return -ENOMEM;

        clear_pages(mfn_to_virt(mfn), order);
        if ( (rc = p2m_add_ram(d, gfn, mfn, order)) )
            return rc;
        gfn += 1UL << order;
    }
    return 0;
}

void *p2m_map_gpa(struct domain *d, uint64_t gpa, p2m_type_t *t)
{
    unsigned long mfn = p2m_get_entry(d, gpa >> PAGE_SHIFT, t);

    if ( mfn == INVALID_MFN )
        return NULL;
    return (char *)mfn_to_virt(mfn) + (gpa & ~PAGE_MASK);
}

void p2m_note_hypervisor_write(struct domain *d, unsigned long gfn)
{
    /* Writes made for the guest are dirty too (no vCPU to blame). */
    paging_mark_dirty(d, gfn, NULL);
}

/* ---- references to guest frames, removing entries ------------------------ */

static bool is_ram(p2m_type_t t)
{
    return t == p2m_ram_rw || t == p2m_ram_logdirty || t == p2m_ram_ro;
}

/* The lookup and the reference in one hold of the lock (Xen's get_page_from_gfn). */
unsigned long get_page_from_gfn(struct domain *d, unsigned long gfn, p2m_type_t *t)
{
    unsigned long mfn;

    p2m_lock(&d->arch.hvm.p2m);
    mfn = p2m_get_entry(d, gfn, t);
    if ( mfn != INVALID_MFN && (!is_ram(*t) || !get_page(mfn, d)) )
        mfn = INVALID_MFN;
    p2m_unlock(&d->arch.hvm.p2m);
    return mfn;
}

int p2m_remove_entry(struct domain *d, unsigned long gfn, unsigned int order)
{
    /* The EPT code invalidates the EPT caches (INVEPT) before returning. */
    return p2m_set_entry(d, gfn, INVALID_MFN, order, p2m_mmio_dm);
}

/* ---- foreign mappings (XENMAPSPACE_gmfn_foreign) -------------------------- */

/*
 * Map fd's frame mfn at gfn of d, with a reference.  The reference belongs to the p2m entry (as in Xen): nothing
 * else records the mapping, and the p2m's teardown drops what is left.
 */
static int add_foreign_locked(struct domain *d, unsigned long gfn, struct domain *fd,
                              unsigned long mfn)
{
    p2m_type_t t;
    int rc;

    if ( p2m_get_entry(d, gfn, &t) != INVALID_MFN )
    {
        if ( t != p2m_map_foreign )
            return -EBUSY;          /* never replace the caller's own RAM */
        if ( (rc = p2m_remove_foreign(d, gfn)) )
            return rc;
    }

    if ( !get_page(mfn, fd) )
        return -EINVAL;             /* not (or no longer) fd's frame */
    rc = p2m_set_entry(d, gfn, mfn, 0, p2m_map_foreign);
    if ( rc )
        put_page(mfn);
    return rc;
}

static int add_foreign(struct domain *d, unsigned long gfn, struct domain *fd,
                       unsigned long mfn)
{
    int rc;

    if ( gfn > p2m_max_gfn() )
        return -EINVAL;
    p2m_lock(&d->arch.hvm.p2m);
    rc = add_foreign_locked(d, gfn, fd, mfn);
    p2m_unlock(&d->arch.hvm.p2m);
    return rc;
}

/*
 * A foreign mapping holds a reference to the frame (get_page), so the
 * frame stays the one it was, and stays allocated, until it is unmapped:
 * if its owner dies meanwhile the frame is orphaned, not freed, and it is
 * freed with the last mapping (asm/mm.h).  RAM can be mapped, and, as in
 * Xen (where they are RAM pages of the Xen heap), fd's grant-table frames
 * (a toolstack seeds a new domain's reserved grant entries that way).
 */
int p2m_add_foreign(struct domain *d, unsigned long gfn, struct domain *fd,
                    unsigned long fgfn)
{
    unsigned long mfn;
    p2m_type_t t;

    mfn = p2m_get_entry(fd, fgfn, &t);
    if ( mfn == INVALID_MFN ||
         (t != p2m_ram_rw && t != p2m_ram_logdirty && t != p2m_gnttab_frame) )
        return -EINVAL;
    return add_foreign(d, gfn, fd, mfn);
}

int p2m_add_foreign_frame(struct domain *d, unsigned long gfn, struct domain *fd,
                          unsigned long mfn)
{
    return add_foreign(d, gfn, fd, mfn);
}

int p2m_remove_foreign(struct domain *d, unsigned long gfn)
{
    unsigned long mfn;
    p2m_type_t t;
    int rc = -ENOENT;

    p2m_lock(&d->arch.hvm.p2m);
    mfn = p2m_get_entry(d, gfn, &t);
    if ( mfn != INVALID_MFN && t == p2m_map_foreign &&
         !(rc = p2m_remove_entry(d, gfn, 0)) )  /* else the pool could not split */
        put_page(mfn);
    p2m_unlock(&d->arch.hvm.p2m);
    return rc;
}

/* ---- grant mappings (GNTMAP_host_map of HVM callers) ----------------------- */

int p2m_add_grant_mapping(struct domain *d, unsigned long gfn, unsigned long mfn,
                          bool readonly)
{
    p2m_type_t t;

    if ( gfn > p2m_max_gfn() )
        return -EINVAL;
    /*
     * Only into a hole.  Xen replaces RAM (the frame stays the domain's,
     * out of its physmap, until it dies) and crashes a domain that maps
     * over a grant, foreign or MMIO mapping; here both fail the call.
     */
    int rc = -EBUSY;

    p2m_lock(&d->arch.hvm.p2m);
    if ( p2m_get_entry(d, gfn, &t) == INVALID_MFN )
        rc = p2m_set_entry(d, gfn, mfn, 0, readonly ? p2m_grant_map_ro : p2m_grant_map_rw);
    p2m_unlock(&d->arch.hvm.p2m);
    return rc;
}

int p2m_remove_grant_mapping(struct domain *d, unsigned long gfn, unsigned long mfn)
{
    p2m_type_t t;
    int rc = -EINVAL;

    if ( gfn > p2m_max_gfn() )
        return -EINVAL;
    p2m_lock(&d->arch.hvm.p2m);
    if ( p2m_get_entry(d, gfn, &t) == mfn && p2m_is_grant(t) )
        rc = p2m_set_entry(d, gfn, INVALID_MFN, 0, p2m_mmio_dm);
    p2m_unlock(&d->arch.hvm.p2m);
    return rc;
}
