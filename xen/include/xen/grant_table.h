/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Grant tables (common/grant_table.c, Xen's): what the rest of the
 * hypervisor calls.  The guest ABI is public/grant_table.h.
 *
 * Each domain has one table from its creation to its destruction, sized
 * by its limits (Xen's max_grant_frames and max_maptrack_frames, from
 * XEN_DOMCTL_createdomain or the host defaults, boot parameters
 * gnttab_max_frames and gnttab_max_maptrack_frames).
 */
#ifndef __XEN_GRANT_TABLE_H__
#define __XEN_GRANT_TABLE_H__

#include <xen/types.h>
#include <public/grant_table.h>
#include <public/memory.h>

struct domain;
struct grant_table;

/* The highest version guests may use (boot parameter gnttab=max-ver:N). */
extern unsigned int opt_gnttab_max_version;

/*
 * XEN_DOMCTL_createdomain's grant fields, checked as Xen checks them: a
 * negative size is the host default, sizes beyond the host's limits and
 * unknown options -EINVAL, the version (options & 0xf) 1 or 2 and not
 * above opt_gnttab_max_version.
 */
int grant_table_check_config(int max_grant_frames, int max_maptrack_frames,
                             unsigned int options);
/* Give d its table (version 1, one frame); 0, -EINVAL or -ENOMEM. */
int grant_table_init(struct domain *d, int max_grant_frames, int max_maptrack_frames,
                     unsigned int options);
/* The most a table of these limits (createdomain's, <0: the defaults) holds on the heap, in pages. */
unsigned long gnttab_heap_pages(int max_grant_frames, int max_maptrack_frames);
/*
 * d is being destroyed: drop every mapping it holds of other domains'
 * grants (Xen's gnttab_release_mappings), unpinning them in their tables.
 */
void gnttab_release_mappings(struct domain *d);
/* Debug key 'g': every grant table's pinned entries (common/grant_usage.c). */
void gnttab_usage_print_all(unsigned char key);
/*
 * Then d's own table goes (under its write lock); frames others still map
 * are freed with them.  The structure, which holds the lock, stays until
 * the domain is freed: grant_table_free() (from domain_free).
 */
void grant_table_destroy(struct domain *d);
void grant_table_free(struct domain *d);

/*
 * XENMEM_add_to_physmap, XENMAPSPACE_grant_table: put frame idx of d's
 * table (a status frame with XENMAPIDX_grant_table_status under v2) at
 * gfn, growing the table up to its limit.  0 or -errno as Xen's.
 */
int gnttab_map_frame(struct domain *d, unsigned long idx, unsigned long gfn);
/* XENMEM_remove_from_physmap of a gfn holding such a frame (-ENOENT: none). */
int gnttab_unmap_frame(struct domain *d, unsigned long gfn);

/* XENMEM_acquire_resource, XENMEM_resource_grant_table (Xen's). */
unsigned int gnttab_resource_max_frames(const struct domain *d, unsigned int id);
/* Frames [frame, frame + nr_frames) of resource id: their mfns; nr_frames or -errno. */
int gnttab_acquire_resource(struct domain *d, unsigned int id, unsigned int frame,
                            unsigned int nr_frames, xen_pfn_t mfn_list[]);

#endif /* __XEN_GRANT_TABLE_H__ */
