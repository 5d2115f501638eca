/* SPDX-License-Identifier: GPL-2.0-only */
/* Grant tables from a guest test kernel (see gnttab.h). */
#include "test.h"
#include "events.h"
#include "gnttab.h"

unsigned int gnttab_version;
grant_entry_v1_t *gnttab_v1;
grant_entry_v2_t *gnttab_v2;
grant_status_t *gnttab_status;

long gnttab_map_frame(domid_t dom, unsigned long idx, unsigned long gfn)
{
    struct xen_add_to_physmap xatp = {
        .domid = dom, .space = XENMAPSPACE_grant_table, .idx = idx, .gpfn = gfn,
    };

    return hypercall_memory_op(XENMEM_add_to_physmap, &xatp);
}

long gnttab_setup(unsigned int version, unsigned int nr_frames)
{
    struct gnttab_query_size q = { .dom = DOMID_SELF };
    struct gnttab_set_version v = { .version = version };
    unsigned int i, nr_status;
    long rc;

    if ( (rc = hypercall_grant_table_op(GNTTABOP_query_size, &q, 1)) )
        return rc;
    if ( q.status != GNTST_okay )
        return q.status;
    if ( nr_frames > q.max_nr_frames )
        return -XEN_EINVAL;
    if ( (rc = hypercall_grant_table_op(GNTTABOP_set_version, &v, 1)) )
        return rc;
    /* Backwards, so that the first call grows the table once (Linux's way). */
    for ( i = nr_frames; i-- > 0; )
        if ( (rc = gnttab_map_frame(DOMID_SELF, i, GNT_TABLE_GFN + i)) )
            return rc;
    gnttab_version = version;
    gnttab_v1 = gfn_va(GNT_TABLE_GFN);
    gnttab_v2 = gfn_va(GNT_TABLE_GFN);
    gnttab_status = NULL;
    if ( version == 2 )
    {
        nr_status = (nr_frames * (PAGE_SIZE / sizeof(grant_entry_v2_t)) +
                     PAGE_SIZE / sizeof(grant_status_t) - 1) /
                    (PAGE_SIZE / sizeof(grant_status_t));
        for ( i = 0; i < nr_status; i++ )
            if ( (rc = gnttab_map_frame(DOMID_SELF, XENMAPIDX_grant_table_status | i,
                                        GNT_STATUS_GFN + i)) )
                return rc;
        gnttab_status = gfn_va(GNT_STATUS_GFN);
    }
    return 0;
}

void gnttab_grant(grant_ref_t ref, domid_t domid, unsigned long gfn, uint16_t flags)
{
    if ( gnttab_version == 1 )
    {
        gnttab_v1[ref].domid = domid;
        gnttab_v1[ref].frame = gfn;
        barrier();
        ACCESS_ONCE(gnttab_v1[ref].flags) = GTF_permit_access | flags;
    }
    else
    {
        gnttab_v2[ref].hdr.domid = domid;
        gnttab_v2[ref].full_page.frame = gfn;
        barrier();
        ACCESS_ONCE(gnttab_v2[ref].hdr.flags) = GTF_permit_access | flags;
    }
}

void gnttab_grant_sub_page(grant_ref_t ref, domid_t domid, unsigned long gfn,
                           uint16_t off, uint16_t len, uint16_t flags)
{
    gnttab_v2[ref].hdr.domid = domid;
    gnttab_v2[ref].sub_page.frame = gfn;
    gnttab_v2[ref].sub_page.page_off = off;
    gnttab_v2[ref].sub_page.length = len;
    barrier();
    ACCESS_ONCE(gnttab_v2[ref].hdr.flags) = GTF_permit_access | GTF_sub_page | flags;
}

void gnttab_grant_transitive(grant_ref_t ref, domid_t domid, domid_t trans_domid,
                             grant_ref_t trans_ref)
{
    gnttab_v2[ref].hdr.domid = domid;
    gnttab_v2[ref].transitive.trans_domid = trans_domid;
    gnttab_v2[ref].transitive.gref = trans_ref;
    barrier();
    ACCESS_ONCE(gnttab_v2[ref].hdr.flags) = GTF_transitive;
}

uint16_t gnttab_in_use(grant_ref_t ref)
{
    if ( gnttab_version == 1 )
        return ACCESS_ONCE(gnttab_v1[ref].flags) & (GTF_reading | GTF_writing);
    return ACCESS_ONCE(gnttab_status[ref]) & (GTF_reading | GTF_writing);
}

/* Linux's gnttab_end_foreign_access_ref_v1/_v2. */
bool gnttab_end_access(grant_ref_t ref)
{
    if ( gnttab_version == 1 )
    {
        uint16_t flags = ACCESS_ONCE(gnttab_v1[ref].flags);

        for ( ; ; )
        {
            uint16_t seen = flags;

            if ( flags & (GTF_reading | GTF_writing) )
                return false;
            if ( __atomic_compare_exchange_n(&gnttab_v1[ref].flags, &seen, 0, false,
                                             __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) )
                return true;
            flags = seen;
        }
    }
    ACCESS_ONCE(gnttab_v2[ref].hdr.flags) = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if ( ACCESS_ONCE(gnttab_status[ref]) & (GTF_reading | GTF_writing) )
        return false;
    return true;
}

int16_t gnttab_map(domid_t dom, grant_ref_t ref, unsigned long gfn, uint32_t flags,
                   grant_handle_t *handle)
{
    struct gnttab_map_grant_ref op = {
        .host_addr = (uint64_t)gfn << PAGE_SHIFT, .flags = flags, .ref = ref, .dom = dom,
        .status = 0x7777,
    };
    long rc = hypercall_grant_table_op(GNTTABOP_map_grant_ref, &op, 1);

    if ( rc )
        return -100 + rc;               /* not a GNTST_*: the caller reports it */
    if ( handle )
        *handle = op.handle;
    return op.status;
}

int16_t gnttab_unmap(unsigned long gfn, grant_handle_t handle)
{
    struct gnttab_unmap_grant_ref op = {
        .host_addr = (uint64_t)gfn << PAGE_SHIFT, .handle = handle, .status = 0x7777,
    };
    long rc = hypercall_grant_table_op(GNTTABOP_unmap_grant_ref, &op, 1);

    return rc ? -100 + rc : op.status;
}

int16_t gnttab_copy_one(struct gnttab_copy *op)
{
    long rc;

    op->status = 0x7777;
    rc = hypercall_grant_table_op(GNTTABOP_copy, op, 1);
    return rc ? -100 + rc : op->status;
}
