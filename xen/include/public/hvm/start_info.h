/* SPDX-License-Identifier: MIT */
/*
 * Start-of-day block for PVH (and HVM direct-boot) guests; its physical
 * address is in %ebx at the XEN_ELFNOTE_PHYS32_ENTRY point.  Address
 * fields equal to 0 mean "absent" (nothing is loaded at address 0).
 * All fields are little-endian; Xen puts the data below 4 GiB.
 *
 * Layout (byte offsets):
 *   hvm_start_info:          magic 0, version 4, flags 8, nr_modules 12,
 *                            modlist_paddr 16, cmdline_paddr 24,
 *                            rsdp_paddr 32, memmap_paddr 40 (v1+),
 *                            memmap_entries 48 (v1+), reserved 52; size 56
 *   hvm_modlist_entry:       paddr 0, size 8, cmdline_paddr 16,
 *                            reserved 24; size 32
 *   hvm_memmap_table_entry:  addr 0, size 8, type 16, reserved 20; size 24
 *
 * Version 0 ends after rsdp_paddr; version 1 adds the memory map.  A v1
 * reader must still check memmap_entries != 0.
 */

#ifndef __LOCAL_PUBLIC_HVM_START_INFO_H__
#define __LOCAL_PUBLIC_HVM_START_INFO_H__

/* "xEn3" with bit 7 of the 'E' set. */
#define XEN_HVM_START_MAGIC_VALUE 0x336ec578

/* Memory map entry types: the ACPI address range types. */
#define XEN_HVM_MEMMAP_TYPE_RAM      1
#define XEN_HVM_MEMMAP_TYPE_RESERVED 2
#define XEN_HVM_MEMMAP_TYPE_ACPI     3
#define XEN_HVM_MEMMAP_TYPE_NVS      4
#define XEN_HVM_MEMMAP_TYPE_UNUSABLE 5
#define XEN_HVM_MEMMAP_TYPE_DISABLED 6
#define XEN_HVM_MEMMAP_TYPE_PMEM     7

#ifndef __ASSEMBLY__

#include "../xen-compat.h"

struct hvm_start_info {
    uint32_t magic;                     /* XEN_HVM_START_MAGIC_VALUE */
    uint32_t version;                   /* 1 */
    uint32_t flags;                     /* SIF_* */
    uint32_t nr_modules;
    uint64_t modlist_paddr;             /* hvm_modlist_entry[nr_modules] */
    uint64_t cmdline_paddr;             /* NUL-terminated */
    uint64_t rsdp_paddr;                /* ACPI RSDP */
    uint64_t memmap_paddr;              /* hvm_memmap_table_entry[] */
    uint32_t memmap_entries;
    uint32_t reserved;                  /* zero */
};

struct hvm_modlist_entry {
    uint64_t paddr;
    uint64_t size;                      /* bytes */
    uint64_t cmdline_paddr;
    uint64_t reserved;
};

struct hvm_memmap_table_entry {
    uint64_t addr;
    uint64_t size;                      /* bytes */
    uint32_t type;                      /* XEN_HVM_MEMMAP_TYPE_* */
    uint32_t reserved;                  /* zero */
};

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_HVM_START_INFO_H__ */
