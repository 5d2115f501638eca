/* SPDX-License-Identifier: GPL-2.0-only */
/* Generic p2m operations: populating guest RAM, mapping guest frames. */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/xmalloc.h>
#include <asm/p2m.h>
#include <asm/paging.h>

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

        memset(mfn_to_virt(mfn), 0, PAGE_SIZE << order);
        rc = p2m_set_entry(d, gfn, mfn, order, p2m_ram_rw);
        if ( rc )
        {
            free_domheap_pages(mfn, order);
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

int p2m_add_foreign(struct domain *d, unsigned long gfn, struct domain *fd,
                    unsigned long fgfn)
{
    struct p2m_domain *p2m = &d->arch.hvm.p2m;
    struct foreign_map *fm;
    unsigned long mfn;
    p2m_type_t t;
    int rc;

    mfn = p2m_get_entry(fd, fgfn, &t);
    if ( mfn == INVALID_MFN || (t != p2m_ram_rw && t != p2m_ram_logdirty) )
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
    rc = p2m_set_entry(d, gfn, mfn, 0, p2m_map_foreign);
    if ( rc )
    {
        xfree(fm);
        return rc;
    }
    fm->gfn = gfn;
    fm->owner = fd->domain_id;
    fm->orphan = false;
    fm->fgfn = fgfn;
    fm->mfn = mfn;
    fm->next = p2m->foreign;
    p2m->foreign = fm;
    return 0;
}

/* Is an orphaned frame still mapped by some foreign mapping other than 'self'? */
static bool orphan_still_mapped(unsigned long mfn, const struct foreign_map *self)
{
    const struct foreign_map *fm;
    struct domain *d;

    for_each_domain ( d )
        for ( fm = d->arch.hvm.p2m.foreign; fm; fm = fm->next )
            if ( fm != self && fm->orphan && fm->mfn == mfn )
                return true;
    return false;
}

static void foreign_map_free(struct foreign_map *fm)
{
    if ( fm->orphan && !orphan_still_mapped(fm->mfn, fm) )
        free_domheap_pages(fm->mfn, 0);
    xfree(fm);
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
            foreign_map_free(fm);
            return rc;
        }
    return -ENOENT;
}

void p2m_drop_foreign_mappings_of(struct domain *fd)
{
    struct foreign_map *fm;
    struct domain *d;

    /* Its own mappings of others' frames go with its p2m. */
    while ( (fm = fd->arch.hvm.p2m.foreign) )
    {
        fd->arch.hvm.p2m.foreign = fm->next;
        foreign_map_free(fm);
    }

    /* Frames others map outlive it: take them out of its p2m. */
    for_each_domain ( d )
    {
        if ( d == fd )
            continue;
        for ( fm = d->arch.hvm.p2m.foreign; fm; fm = fm->next )
        {
            p2m_type_t t;

            if ( fm->owner != fd->domain_id || fm->orphan )
                continue;
            if ( p2m_get_entry(fd, fm->fgfn, &t) == fm->mfn )
            {
                p2m_set_entry(fd, fm->fgfn, INVALID_MFN, 0, p2m_mmio_dm);
                fd->tot_pages--;
            }
            fm->orphan = true;
        }
    }
}
