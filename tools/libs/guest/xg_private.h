/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest internals: the ELF64 structures the loader reads, the PVH
 * layout, logging, and the steps xc_dom_* calls (exposed here for the
 * host unit tests in tools/tests/guest).
 */
#ifndef XG_PRIVATE_H
#define XG_PRIVATE_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "xc_private.h"         /* tools/libs/ctrl */
#include "xenguest.h"
#include "xenforeignmemory.h"
#include "public/hvm/save.h"
#include "public/hvm/start_info.h"

/* ---- ELF64 (the System V ABI's layouts; only what the loader reads) --- */

#define XG_ELFMAG           "\177ELF"
#define XG_SELFMAG          4
#define XG_EI_CLASS         4
#define XG_EI_DATA          5
#define XG_ELFCLASS64       2
#define XG_ELFDATA2LSB      1
#define XG_ET_EXEC          2
#define XG_EM_X86_64        62
#define XG_PT_LOAD          1
#define XG_PT_NOTE          4

struct xg_elf64_ehdr {
    uint8_t  e_ident[16];
    uint16_t e_type;
    uint16_t e_machine;
    uint32_t e_version;
    uint64_t e_entry;
    uint64_t e_phoff;
    uint64_t e_shoff;
    uint32_t e_flags;
    uint16_t e_ehsize;
    uint16_t e_phentsize;
    uint16_t e_phnum;
    uint16_t e_shentsize;
    uint16_t e_shnum;
    uint16_t e_shstrndx;
};

struct xg_elf64_phdr {
    uint32_t p_type;
    uint32_t p_flags;
    uint64_t p_offset;
    uint64_t p_vaddr;
    uint64_t p_paddr;
    uint64_t p_filesz;
    uint64_t p_memsz;
    uint64_t p_align;
};

/* A note: header, name (padded to 4 bytes), descriptor (padded to 4). */
struct xg_elf_note {
    uint32_t namesz;
    uint32_t descsz;
    uint32_t type;
};

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
#define XG_PVH_MEMMAP_ENTRIES   4

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
 * xg_dom_elfloader.c: check the kernel image (every message distinct) and
 * fill dom->phys_entry and dom->kernel_seg; load its segments.
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

#endif /* XG_PRIVATE_H */
