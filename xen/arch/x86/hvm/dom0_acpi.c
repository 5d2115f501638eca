/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the control domain's ACPI tables go (Xen's pvh_setup_acpi): the
 * tables (hvm/acpi_build.c) fill one page stolen from the end of the
 * highest RAM entry below 1 MiB, which becomes an ACPI entry (E820 type 3)
 * in the memory map, and the start info's rsdp_paddr points at the RSDP.
 * Xen steals its pages from the top of RAM below 4 GiB; the top of RAM
 * here holds the start info and the initrd, so the low page that PC
 * firmware also keeps for itself is taken instead (below the 640 KiB hole).
 * domUs get no tables (Xen's PVH domUs get theirs from the toolstack).
 */
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <public/hvm/start_info.h>
#include <asm/hvm/acpi.h>
#include <asm/p2m.h>

#define LOW_MEMORY_END  0x100000ULL

uint64_t pvh_setup_acpi(struct domain *d, struct hvm_memmap_table_entry *map,
                        unsigned int *nr, unsigned int max)
{
    struct hvm_memmap_table_entry *ram = NULL;
    uint64_t base;
    unsigned int i;
    p2m_type_t t;
    void *page;
    size_t used;

    for ( i = 0; i < *nr; i++ )
        if ( map[i].type == XEN_HVM_MEMMAP_TYPE_RAM && map[i].size >= 2 * PAGE_SIZE &&
             map[i].addr + map[i].size <= LOW_MEMORY_END &&
             (!ram || map[i].addr > ram->addr) )
            ram = &map[i];
    if ( !ram || *nr >= max )
        goto fail;

    base = ROUNDDOWN(ram->addr + ram->size, (uint64_t)PAGE_SIZE) - PAGE_SIZE;
    page = p2m_map_gpa(d, base, &t);
    if ( !page || t != p2m_ram_rw )
        goto fail;
    memset(page, 0, PAGE_SIZE);
    used = acpi_build_tables(page, PAGE_SIZE, base, d->max_vcpus);
    if ( !used )
        goto fail;

    /* Shrink the RAM entry and put the ACPI entry right after it. */
    i = ram - map + 1;
    memmove(&map[i + 1], &map[i], (*nr - i) * sizeof(*map));
    (*nr)++;
    map[i].addr = base;
    map[i].size = ram->addr + ram->size - base;
    map[i].type = XEN_HVM_MEMMAP_TYPE_ACPI;
    map[i].reserved = 0;
    ram->size = base - ram->addr;

    printk(XENLOG_INFO "d%u: ACPI tables at %#lx (%lu bytes): RSDP, XSDT, MADT (%u CPUs), FADT, DSDT\n",
           d->domain_id, (unsigned long)base, (unsigned long)used, d->max_vcpus);
    return base;                        /* the RSDP comes first */

 fail:
    printk(XENLOG_ERR "d%u: no room for ACPI tables: none given\n", d->domain_id);
    return 0;
}
