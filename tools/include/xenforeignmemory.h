/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenforeignmemory: map another domain's memory into this program.
 *
 * The subset of Xen 4.17's xenforeignmemory.h a domain builder and a
 * migration stream need, with Xen's names and signatures.  Two backends
 * sit under it, chosen when the library is built:
 *
 *   linux   in a Linux control domain: mmap() of /dev/xen/privcmd, then
 *           IOCTL_PRIVCMD_MMAPBATCH_V2 fills the range with the frames;
 *   direct  in this project's control-domain test kernels:
 *           XENMEM_add_to_physmap_batch (XENMAPSPACE_gmfn_foreign) places
 *           each frame at a page of a window of the test kernel's own
 *           guest-physical space above its RAM (identity-mapped, so the
 *           guest-physical address is the pointer returned);
 *           XENMEM_remove_from_physmap undoes it.
 *
 * Only the control domain may map other domains' memory.
 */
#ifndef XENFOREIGNMEMORY_H
#define XENFOREIGNMEMORY_H

#include <stddef.h>
#include <stdint.h>

#include <xen/xen.h>

/* Callers who do not log need not include xentoollog.h. */
struct xentoollog_logger;

typedef struct xenforeignmemory_handle xenforeignmemory_handle;

/*
 * Open a handle.  A NULL logger means messages go to stderr (level
 * XTL_PROGRESS and above).  Returns NULL with errno set, after logging
 * why, when foreign mappings are not available (e.g. not a Xen control
 * domain).  open_flags must be 0.
 */
xenforeignmemory_handle *xenforeignmemory_open(struct xentoollog_logger *logger,
                                               unsigned open_flags);

/*
 * Close a handle; NULL is accepted.  Mappings should be unmapped first;
 * with the Linux backend they stay valid until unmapped.
 */
int xenforeignmemory_close(xenforeignmemory_handle *fmem);

/*
 * Map 'pages' frames of domain 'dom', the guest frame numbers arr[0..),
 * one after the other at the address returned (page aligned).  prot is as
 * for mmap(2) (PROT_READ | PROT_WRITE); the direct backend always maps
 * read-write.
 *
 * With err (pages entries) the call may partly succeed: it returns the
 * address and err[i] is 0 for each page mapped, or the negated errno of
 * the reason it was not (e.g. -EINVAL for a frame the domain does not
 * have); such a page must not be touched.  Without err, one failed page
 * undoes the whole mapping: NULL, errno the first page's error.
 *
 * NULL with errno set (and err undefined) when nothing could be tried:
 * no such domain (ESRCH), not the control domain (EPERM), no room (ENOMEM).
 */
void *xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom,
                           int prot, size_t pages,
                           const xen_pfn_t arr[/*pages*/], int err[/*pages*/]);

/* Undo a mapping: addr and pages as xenforeignmemory_map gave and took. */
int xenforeignmemory_unmap(xenforeignmemory_handle *fmem,
                           void *addr, size_t pages);

/*
 * Resources of another domain that are not in its physmap (Xen 4.17's
 * API over XENMEM_acquire_resource): map frames [frame, frame + nr_frames)
 * of resource 'type'/'id' (XENMEM_resource_*) of 'domid'.  *paddr is a
 * hint (NULL: anywhere) and on success the address of the mapping; prot
 * and flags as for mmap().  NULL with errno set on failure: EOPNOTSUPP
 * when the kernel or the hypervisor cannot (callers fall back, as Xen's
 * xc_dom_gnttab_seed does).  Unmap with xenforeignmemory_unmap_resource.
 */
typedef struct xenforeignmemory_resource_handle xenforeignmemory_resource_handle;

xenforeignmemory_resource_handle *xenforeignmemory_map_resource(
    xenforeignmemory_handle *fmem, uint16_t domid, unsigned int type,
    unsigned int id, unsigned long frame, unsigned long nr_frames,
    void **paddr, int prot, int flags);
int xenforeignmemory_unmap_resource(xenforeignmemory_handle *fmem,
                                    xenforeignmemory_resource_handle *fres);

#endif /* XENFOREIGNMEMORY_H */
