/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest: the steps that talk to the hypervisor -- bind the builder
 * to a domain, populate its RAM, and boot it (start info and vCPU 0's
 * registers, xg_dom_x86.c).  Xen's xg_dom_boot.c, for PVH guests.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "xg_private.h"
#include "xenforeignmemory.h"
#include <xen/grant_table.h>

/* Extents passed to XENMEM_populate_physmap at once (4 KiB of gfns). */
#define POPULATE_BATCH 512

int xc_dom_boot_xen_init(struct xc_dom_image *dom, xc_interface *xch,
                         uint32_t domid)
{
    if ( !xch )
    {
        errno = EINVAL;
        return -1;
    }
    dom->xch = xch;
    dom->guest_domid = domid;

    if ( !dom->fmem )
    {
        dom->fmem = xenforeignmemory_open(xch->error_handler, 0);
        if ( !dom->fmem )
        {
            xc_dom_panic(xch, XC_INTERNAL_ERROR, errno,
                         "cannot open the foreign memory interface: %s",
                         strerror(errno));
            return -1;
        }
    }

    DOMPRINTF("d%u", domid);
    return 0;
}

/* 4 KiB pages [gfn, gfn + nr), all or nothing. */
static int populate_small(struct xc_dom_image *dom, xen_pfn_t *list,
                          xen_pfn_t gfn, xen_pfn_t nr)
{
    xen_pfn_t i;

    for ( i = 0; i < nr; i++ )
        list[i] = gfn + i;
    return xc_domain_populate_physmap_exact(dom->xch, dom->guest_domid, nr, 0,
                                            0, list);
}

int xc_dom_boot_mem_init(struct xc_dom_image *dom)
{
    xc_interface *xch = dom->xch;
    const xen_pfn_t super = 1UL << XG_SUPERPAGE_ORDER;
    xen_pfn_t gfn = 0, *list, nr_super = 0, nr_small = 0;
    int rc = -1;

    if ( !dom->total_pages )
    {
        xc_dom_panic(xch, XC_INVALID_PARAM, EINVAL,
                     "no memory layout (xc_dom_mem_init first)");
        return -1;
    }

    list = malloc(POPULATE_BATCH * sizeof(*list));
    if ( !list )
    {
        xc_dom_panic(xch, XC_OUT_OF_MEMORY, ENOMEM, "no memory for the extent list");
        return -1;
    }
    /* As Xen's meminit_hvm: no claim, no domain (the host is short). */
    if ( dom->claim_enabled &&
         xc_domain_claim_pages(xch, dom->guest_domid, dom->total_pages) )
    {
        xc_dom_panic(xch, XC_OUT_OF_MEMORY, errno,
                     "cannot claim %lu pages for d%u: %s", (unsigned long)dom->total_pages,
                     dom->guest_domid, strerror(errno));
        free(list);
        return -1;
    }

    while ( gfn < dom->total_pages )
    {
        xen_pfn_t left = dom->total_pages - gfn, n, i;
        int done;

        if ( left < super )
        {
            /* The tail: 4 KiB pages. */
            n = left < POPULATE_BATCH ? left : POPULATE_BATCH;
            if ( populate_small(dom, list, gfn, n) )
                goto fail;
            nr_small += n;
            gfn += n;
            continue;
        }

        /* 2 MiB extents (gfn is aligned: RAM starts at 0). */
        n = left / super;
        if ( n > POPULATE_BATCH )
            n = POPULATE_BATCH;
        for ( i = 0; i < n; i++ )
            list[i] = gfn + i * super;
        done = xc_domain_populate_physmap(xch, dom->guest_domid, n,
                                          XG_SUPERPAGE_ORDER, 0, list);
        if ( done < 0 )
            goto fail;
        nr_super += done;
        gfn += (xen_pfn_t)done * super;
        if ( (xen_pfn_t)done < n )
        {
            /* No 2 MiB of host memory in one piece: this one in 4 KiB. */
            if ( populate_small(dom, list, gfn, super) )
                goto fail;
            nr_small += super;
            gfn += super;
        }
    }

    DOMPRINTF("d%u: %lu 2 MiB and %lu 4 KiB extents", dom->guest_domid,
              (unsigned long)nr_super, (unsigned long)nr_small);
    rc = 0;
    goto out;

 fail:
    xc_dom_panic(xch, XC_OUT_OF_MEMORY, errno,
                 "cannot populate d%u's RAM at gfn %#"PRIpfn": %s",
                 dom->guest_domid, gfn, strerror(errno));
 out:
    free(list);
    if ( dom->claim_enabled )
        xc_domain_claim_pages(xch, dom->guest_domid, 0);     /* what is left */
    return rc;
}

int xc_dom_boot_image(struct xc_dom_image *dom)
{
    if ( !dom->total_pages || !dom->fmem )
    {
        xc_dom_panic(dom->xch, XC_INVALID_PARAM, EINVAL,
                     "the domain is not built (xc_dom_build_image first)");
        return -1;
    }
    return xg_dom_pvh_boot(dom);
}

/* ---- the grant entries Xen reserves (xc_dom_gnttab_*) ----------------------- */

/* Entries 0 and 1 of frame 0 of the table, through fmem. */
static int gnttab_seed(xc_interface *xch, xenforeignmemory_handle *fmem,
                       uint32_t guest_domid, xen_pfn_t console_gfn,
                       xen_pfn_t xenstore_gfn, uint32_t console_domid,
                       uint32_t xenstore_domid)
{
    xenforeignmemory_resource_handle *fres;
    grant_entry_v1_t *gnttab;
    void *addr = NULL;

    /* Frame 0 of the shared table, as Xen's toolstack takes it. */
    fres = xenforeignmemory_map_resource(fmem, (uint16_t)guest_domid,
                                         XENMEM_resource_grant_table,
                                         XENMEM_resource_grant_table_id_shared,
                                         0, 1, &addr, PROT_READ | PROT_WRITE, 0);
    if ( !fres )
    {
        xc_dom_panic(xch, XC_INTERNAL_ERROR, errno,
                     "failed to acquire d%u's grant table: %s%s", guest_domid,
                     strerror(errno), errno == EOPNOTSUPP ?
                     " (no XENMEM_acquire_resource: the compat path is not "
                     "implemented here)" : "");
        return -1;
    }

    gnttab = addr;
    if ( console_gfn != INVALID_PFN )
    {
        gnttab[GNTTAB_RESERVED_CONSOLE].domid = (domid_t)console_domid;
        gnttab[GNTTAB_RESERVED_CONSOLE].frame = (uint32_t)console_gfn;
        __atomic_store_n(&gnttab[GNTTAB_RESERVED_CONSOLE].flags,
                         (uint16_t)GTF_permit_access, __ATOMIC_RELEASE);
    }
    if ( xenstore_gfn != INVALID_PFN )
    {
        gnttab[GNTTAB_RESERVED_XENSTORE].domid = (domid_t)xenstore_domid;
        gnttab[GNTTAB_RESERVED_XENSTORE].frame = (uint32_t)xenstore_gfn;
        __atomic_store_n(&gnttab[GNTTAB_RESERVED_XENSTORE].flags,
                         (uint16_t)GTF_permit_access, __ATOMIC_RELEASE);
    }
    if ( xenforeignmemory_unmap_resource(fmem, fres) )
    {
        xc_dom_panic(xch, XC_INTERNAL_ERROR, errno,
                     "failed to unmap d%u's grant table: %s", guest_domid,
                     strerror(errno));
        return -1;
    }
    return 0;
}

int xc_dom_gnttab_seed(xc_interface *xch, uint32_t guest_domid, bool is_hvm,
                       xen_pfn_t console_gfn, xen_pfn_t xenstore_gfn,
                       uint32_t console_domid, uint32_t xenstore_domid)
{
    xenforeignmemory_handle *fmem;
    int rc;

    (void)is_hvm;               /* the same for both with acquire_resource */
    fmem = xenforeignmemory_open(xch->error_handler, 0);
    if ( !fmem )
    {
        xc_dom_panic(xch, XC_INTERNAL_ERROR, errno,
                     "cannot open the foreign memory interface: %s",
                     strerror(errno));
        return -1;
    }
    rc = gnttab_seed(xch, fmem, guest_domid, console_gfn, xenstore_gfn,
                     console_domid, xenstore_domid);
    xenforeignmemory_close(fmem);
    return rc;
}

int xc_dom_gnttab_init(struct xc_dom_image *dom)
{
    if ( !dom->xch )
    {
        errno = EINVAL;
        return -1;
    }
    if ( !dom->fmem )
        return xc_dom_gnttab_seed(dom->xch, dom->guest_domid, xc_dom_translated(dom),
                                  dom->console_pfn, dom->xenstore_pfn,
                                  dom->console_domid, dom->xenstore_domid);
    return gnttab_seed(dom->xch, dom->fmem, dom->guest_domid, dom->console_pfn,
                       dom->xenstore_pfn, dom->console_domid, dom->xenstore_domid);
}
