/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest internals: the PVH layout, logging, and the steps xc_dom_*
 * calls (exposed here for the host unit tests in tools/tests/guest).  The
 * ELF format is libelf's (<xen/libelf/libelf.h>, the hypervisor's
 * xen/include/xen/libelf.h as Xen's tools see it).
 */
#ifndef XG_PRIVATE_H
#define XG_PRIVATE_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "xc_private.h"         /* tools/libs/ctrl */
#include "xenguest.h"
#include "xenforeignmemory.h"
#include <xen/hvm/save.h>
#include <xen/hvm/start_info.h>

/* ---- the PVH guest's layout (as the hypervisor's own builder) --------- */

#define XG_PAGE_SHIFT           XC_PAGE_SHIFT
#define XG_PAGE_SIZE            XC_PAGE_SIZE
#define XG_SUPERPAGE_ORDER      9           /* 2 MiB extents */

#define XG_PVH_LOW_RAM_END      0xa0000ULL  /* legacy VGA/BIOS hole above */
#define XG_PVH_HIGH_RAM_START   0x100000ULL
#define XG_PVH_MIN_MEM_MB       2
/* RAM stays below the local APIC, and the 32-bit entry reaches it all. */
#define XG_PVH_MAX_MEM_MB       3072

/* Offsets in the start-info page (the last page of RAM). */
#define XG_PVH_SI_MEMMAP        0x100
#define XG_PVH_SI_MODLIST       0x200
#define XG_PVH_SI_CMDLINE       0x400
#define XG_PVH_MEMMAP_ENTRIES   4       /* and one per ACPI module */

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)           (sizeof(a) / sizeof((a)[0]))
#endif
#ifndef INVALID_PFN
#define INVALID_PFN             ((xen_pfn_t)-1)
#endif

/* ---- logging ------------------------------------------------------------ */

/* Progress to the domain builder's logger. */
#define DOMPRINTF(fmt, ...)                                                   \
    xc_report(dom->xch, dom->xch->dombuild_logger, XTL_DETAIL, 0,             \
              "%s: " fmt, __func__, ##__VA_ARGS__)

/*
 * A failure: logged on the error logger, kept as xch's last error with
 * 'code' (Xen's xc_dom_panic), errno set to 'err'.
 */
#define xc_dom_panic(xch, code, err, fmt, ...) do {                           \
        xc_report(xch, (xch)->error_handler, XTL_ERROR, code,                 \
                  fmt, ##__VA_ARGS__);                                        \
        errno = (err);                                                        \
    } while ( 0 )

/* ---- the steps ---------------------------------------------------------- */

/*
 * xg_dom_elfloader.c: check the kernel image with libelf (every message
 * distinct) and fill dom->phys_entry and dom->kernel_seg; check its
 * segments against RAM; load them.
 */
int xg_dom_elf_parse(struct xc_dom_image *dom);
int xg_dom_elf_check_ram(struct xc_dom_image *dom, xen_paddr_t ram_start,
                         xen_paddr_t ram_end);
int xg_dom_elf_load(struct xc_dom_image *dom);

/*
 * xg_dom_x86.c: the start-info page (XG_PAGE_SIZE bytes at 'page', to be
 * placed at dom->start_info_seg) and vCPU 0's HVM context (HEADER 'hdr',
 * CPU, END) into buf (room bytes); the context's size, or 0 if no room.
 */
int xg_dom_pvh_start_info(struct xc_dom_image *dom, void *page);
size_t xg_dom_pvh_vcpu_context(const struct xc_dom_image *dom,
                               const struct hvm_save_header *hdr,
                               uint8_t *buf, size_t room);
int xg_dom_pvh_boot(struct xc_dom_image *dom);

/*
 * xg_dom_core.c: copy len bytes of src (NULL: zeroes) to guest-physical
 * paddr through foreign mappings.
 */
int xg_dom_copy_to_guest(struct xc_dom_image *dom, xen_paddr_t paddr,
                         const void *src, size_t len);
/* The same anywhere in the guest's physmap (special pages, ACPI tables). */
int xg_dom_write_frames(struct xc_dom_image *dom, xen_paddr_t paddr,
                        const void *src, size_t len);

/*
 * xg_dom_x86.c, from xc_dom_build_image: Xen's special pages (xenstore
 * and console rings, identity-map page table) and their HVM parameters;
 * the caller's ACPI modules placed in the guest.
 */
int xg_dom_alloc_magic_pages(struct xc_dom_image *dom);
int xg_dom_load_acpi(struct xc_dom_image *dom);

#endif /* XG_PRIVATE_H */
