/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Mapping another domain's frames into a control-domain test kernel
 * (XENMEM_add_to_physmap_batch, XENMAPSPACE_gmfn_foreign), the mechanism
 * under Linux's privcmd foreign mappings.  Frames are placed at
 * guest-physical FOREIGN_MAP_BASE and up, inside the test kernel's
 * identity map.
 */
#ifndef GUEST_FOREIGN_H
#define GUEST_FOREIGN_H

#include <stdint.h>

#define FOREIGN_MAP_BASE_GFN 0x40000UL      /* 1 GiB */

/* Map frame 'gfn' of domain 'domid' at slot 'slot'; NULL on error (*err set). */
void *foreign_map(uint16_t domid, unsigned long gfn, unsigned int slot, int *err);
int foreign_unmap(unsigned int slot);

#endif /* GUEST_FOREIGN_H */
