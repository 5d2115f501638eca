/* SPDX-License-Identifier: GPL-2.0-only */
/* Generic p2m operations: populating guest RAM, mapping guest frames. */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/xmalloc.h>
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

    p2m->domain = d;
    return ept_p2m_init(p2m);
}

void p2m_teardown(struct domain *d)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;

    if ( p2m->teardown )
        p2m->teardown(p2m);
}

int p2m_set_entry(struct domain *d, unsigned long gfn, unsigned long mfn,
                  unsigned int order, p2m_type_t t)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;

    if ( (order != 0 && order != SUPERPAGE_ORDER) ||
         (gfn & ((1UL << order) - 1)) || (mfn & ((1UL << order) - 1)) ||
         gfn > p2m_max_gfn() || !p2m->set_entry )
        return -EINVAL;
    return p2m->set_entry(p2m, gfn, mfn, order, t);
}

unsigned long p2m_get_entry(struct domain *d, unsigned long gfn, p2m_type_t *t)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;

    /* A gfn beyond the width would alias a low one in the page walk. */
    if ( gfn > p2m_max_gfn() || !p2m->get_entry )
    {
        *t = p2m_mmio_dm;
        return INVALID_MFN;
    }
    return p2m->get_entry(p2m, gfn, t);
}

int p2m_change_type_range_noflush(struct domain *d, unsigned long begin,
                                  unsigned long nr, p2m_type_t nt)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;

    if ( !nr || !p2m->change_type_range || begin > p2m_max_gfn() )
        return 0;
    if ( nr > p2m_max_gfn() + 1 - begin )
        nr = p2m_max_gfn() + 1 - begin;     /* nothing is mapped beyond */
    return p2m->change_type_range(p2m, begin, begin + nr, nt);
}

int p2m_change_type_range(struct domain *d, unsigned long begin,
                          unsigned long nr, p2m_type_t nt)
{
    int rc = p2m_change_type_range_noflush(d, begin, nr, nt);

    p2m_flush(d);
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

    if ( !p2m->change_type_range || gfn > p2m_max_gfn() )
        return -EINVAL;
    return p2m->change_type_range(p2m, gfn, gfn + 1, p2m_ram_rw);
}

void p2m_flush(struct domain *d)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;

    if ( p2m->flush && p2m->root )
        p2m->flush(p2m);
}

/* ---- populating RAM, mapping guest frames --------------------------------- */

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
        assign_pages(d, mfn, order);
        rc = p2m_set_entry(d, gfn, mfn, order, p2m_ram_rw);
        if ( rc )
        {
            put_pages(mfn, order);
            return rc;
        }
        d->tot_pages += 1UL << order;
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

/* ---- foreign mappings (XENMAPSPACE_gmfn_foreign) -------------------------- */

/*
 * A foreign mapping holds a reference to the frame (get_page), so the
 * frame stays the one it was, and stays allocated, until it is unmapped:
 * if its owner dies meanwhile the frame is orphaned, not freed, and it is
 * freed with the last mapping (asm/mm.h).
 */
/* Map fd's frame mfn (fgfn in fd, or INVALID_GFN) at gfn of d, with a reference. */
static int add_foreign(struct domain *d, unsigned long gfn, struct domain *fd,
                       unsigned long fgfn, unsigned long mfn)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;
    struct foreign_map *fm;
    p2m_type_t t;
    int rc;

    if ( gfn > p2m_max_gfn() )
        return -EINVAL;
    if ( p2m_get_entry(d, gfn, &t) != INVALID_MFN )
    {
        if ( t != p2m_map_foreign )
            return -EBUSY;          /* never replace the caller's own RAM */
        if ( (rc = p2m_remove_foreign(d, gfn)) )
            return rc;
    }

    fm = xmalloc(struct foreign_map);
    if ( !fm )
        return -ENOMEM;
    if ( !get_page(mfn, fd) )
    {
        xfree(fm);
        return -EINVAL;             /* not (or no longer) fd's frame */
    }
    rc = p2m_set_entry(d, gfn, mfn, 0, p2m_map_foreign);
    if ( rc )
    {
        put_page(mfn);
        xfree(fm);
        return rc;
    }
    fm->gfn = gfn;
    fm->owner = fd->domain_id;
    fm->fgfn = fgfn;
    fm->mfn = mfn;
    fm->next = p2m->foreign;
    p2m->foreign = fm;
    return 0;
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
    return add_foreign(d, gfn, fd, fgfn, mfn);
}

int p2m_add_foreign_frame(struct domain *d, unsigned long gfn, struct domain *fd,
                          unsigned long mfn)
{
    return add_foreign(d, gfn, fd, INVALID_GFN, mfn);
}

int p2m_remove_foreign(struct domain *d, unsigned long gfn)
{
    struct foreign_map **pp, *fm;
    int rc;

    for ( pp = &d->arch.hvm.p2m.foreign; (fm = *pp); pp = &fm->next )
        if ( fm->gfn == gfn )
        {
            *pp = fm->next;
            rc = p2m_set_entry(d, gfn, INVALID_MFN, 0, p2m_mmio_dm);
            put_page(fm->mfn);
            xfree(fm);
            return rc;
        }
    return -ENOENT;
}

void p2m_drop_foreign_mappings_of(struct domain *fd)
{
    struct foreign_map *fm;

    /*
     * Its own mappings of others' frames go with its p2m; frames of its
     * own that others map are kept by their references.
     */
    while ( (fm = fd->arch.hvm.p2m.foreign) )
    {
        fd->arch.hvm.p2m.foreign = fm->next;
        put_page(fm->mfn);
        xfree(fm);
    }
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
    if ( p2m_get_entry(d, gfn, &t) != INVALID_MFN )
        return -EBUSY;
    return p2m_set_entry(d, gfn, mfn, 0, readonly ? p2m_grant_map_ro : p2m_grant_map_rw);
}

int p2m_remove_grant_mapping(struct domain *d, unsigned long gfn, unsigned long mfn)
{
    p2m_type_t t;

    if ( gfn > p2m_max_gfn() || p2m_get_entry(d, gfn, &t) != mfn || !p2m_is_grant(t) )
        return -EINVAL;
    return p2m_set_entry(d, gfn, INVALID_MFN, 0, p2m_mmio_dm);
}
