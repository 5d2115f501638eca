/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Grant tables from a guest test kernel, the way a PVH guest (Linux) sets
 * them up: query_size, set_version, then XENMEM_add_to_physmap of each
 * frame (XENMAPSPACE_grant_table) at gfns it chooses, and the grant and
 * revoke protocol on the entries (public/grant_table.h).
 *
 * The test kernels identity-map [0, 4 GiB), so a frame mapped at a gfn
 * above RAM is reached at the address gfn << PAGE_SHIFT.  Grant-table
 * frames go at GNT_TABLE_GFN, host mappings of other domains' grants are
 * made at GNT_MAP_GFN onwards: holes in every test domain's physmap.
 */
#ifndef GUEST_GNTTAB_H
#define GUEST_GNTTAB_H

#include <stdbool.h>
#include <stdint.h>

#include "public/xen.h"
#include "public/grant_table.h"
#include "public/memory.h"

#define GNT_TABLE_GFN       0x80000UL       /* 2 GiB: our table's frames */
#define GNT_STATUS_GFN      0x80800UL       /* v2 status frames */
#define GNT_MAP_GFN         0x90000UL       /* 2.25 GiB: where we map grants */

static inline void *gfn_va(unsigned long gfn)
{
    return (void *)(gfn << PAGE_SHIFT);
}

static inline unsigned long va_gfn(const void *p)
{
    return (unsigned long)p >> PAGE_SHIFT;
}

static inline long hypercall_grant_table_op(unsigned int cmd, void *uop, unsigned int count)
{
    return hypercall6(__HYPERVISOR_grant_table_op, cmd, (unsigned long)uop, count, 0, 0);
}

/* The version in use, and the entries (v1 or v2) once set up. */
extern unsigned int gnttab_version;
extern grant_entry_v1_t *gnttab_v1;
extern grant_entry_v2_t *gnttab_v2;
extern grant_status_t *gnttab_status;

/*
 * Linux's sequence for a PVH guest: set_version(version), then map
 * nr_frames frames (and under v2 their status frames) at GNT_TABLE_GFN.
 * 0 or a negative Xen errno (or the GNTST_* of a query).
 */
long gnttab_setup(unsigned int version, unsigned int nr_frames);
/* XENMEM_add_to_physmap(XENMAPSPACE_grant_table): frame idx of dom at gfn. */
long gnttab_map_frame(domid_t dom, unsigned long idx, unsigned long gfn);

/* Write entry ref: grant frame gfn to domid (GTF_permit_access | flags). */
void gnttab_grant(grant_ref_t ref, domid_t domid, unsigned long gfn, uint16_t flags);
/* Entry ref as a v2 sub-page grant of bytes [off, off + len). */
void gnttab_grant_sub_page(grant_ref_t ref, domid_t domid, unsigned long gfn,
                           uint16_t off, uint16_t len, uint16_t flags);
/* Entry ref as a v2 transitive grant of (trans_domid, trans_ref). */
void gnttab_grant_transitive(grant_ref_t ref, domid_t domid, domid_t trans_domid,
                             grant_ref_t trans_ref);
/* The GTF_reading/GTF_writing bits of entry ref (v1 flags, v2 status). */
uint16_t gnttab_in_use(grant_ref_t ref);
/*
 * Revoke entry ref as Linux does: true if it was not in use and is now
 * invalid, false (entry untouched) if GTF_reading or GTF_writing is set.
 */
bool gnttab_end_access(grant_ref_t ref);

/* One map_grant_ref; its status, *handle on success. */
int16_t gnttab_map(domid_t dom, grant_ref_t ref, unsigned long gfn, uint32_t flags,
                   grant_handle_t *handle);
/* One unmap_grant_ref at gfn; its status. */
int16_t gnttab_unmap(unsigned long gfn, grant_handle_t handle);
/* One copy; its status. */
int16_t gnttab_copy_one(struct gnttab_copy *op);

#endif /* GUEST_GNTTAB_H */
