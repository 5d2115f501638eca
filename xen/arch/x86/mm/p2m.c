/* SPDX-License-Identifier: GPL-2.0-only */
/* Generic p2m operations: populating guest RAM, mapping guest frames. */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
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
