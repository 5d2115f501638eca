/* SPDX-License-Identifier: GPL-2.0-only */
/* Foreign mappings for control-domain test kernels (see foreign.h). */
#include "test.h"
#include "foreign.h"
#include "public/memory.h"

void *foreign_map(uint16_t domid, unsigned long gfn, unsigned int slot, int *err)
{
    xen_ulong_t idx = gfn;
    xen_pfn_t gpfn = FOREIGN_MAP_BASE_GFN + slot;
    int e = 0;
    struct xen_add_to_physmap_batch b = {
        .domid = DOMID_SELF,
        .space = XENMAPSPACE_gmfn_foreign,
        .size = 1,
        .u.foreign_domid = domid,
    };
    long rc;

    set_xen_guest_handle_raw(b.idxs, &idx);
    set_xen_guest_handle_raw(b.gpfns, &gpfn);
    set_xen_guest_handle_raw(b.errs, &e);
    rc = hypercall6(__HYPERVISOR_memory_op, XENMEM_add_to_physmap_batch,
                    (unsigned long)&b, 0, 0, 0);
    if ( rc || e )
    {
        *err = rc ? rc : e;
        return NULL;
    }
    *err = 0;
    return (void *)(gpfn << PAGE_SHIFT);
}

int foreign_unmap(unsigned int slot)
{
    struct xen_remove_from_physmap r = {
        .domid = DOMID_SELF,
        .gpfn = FOREIGN_MAP_BASE_GFN + slot,
    };

    return hypercall6(__HYPERVISOR_memory_op, XENMEM_remove_from_physmap,
                      (unsigned long)&r, 0, 0, 0);
}
