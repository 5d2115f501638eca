/* SPDX-License-Identifier: GPL-2.0-only */
/* The host's ACPI tables as the hypervisor reads them (arch/x86/acpi/boot.c). */
#ifndef __ASM_X86_ACPI_H__
#define __ASM_X86_ACPI_H__

#include <acpi/actbl.h>

/* The host's MADT (found once, then remembered); NULL if it has none. */
const struct acpi_table_madt *acpi_find_madt(void);

/* A handler returns 0 for an entry it took, an error for one it refused. */
typedef int (*acpi_madt_entry_handler)(const struct acpi_subtable_header *header,
                                       unsigned long end);
/*
 * Call handler for each MADT entry of 'type' (up to max_entries taken,
 * 0 for no limit); the number taken, or -ENODEV without a MADT.
 */
int acpi_table_parse_madt(unsigned int type, acpi_madt_entry_handler handler,
                          unsigned int max_entries);

/* Read the CPUs from the MADT into cpu_present_map (smpboot.c's mp_register_lapic). */
int acpi_boot_init(void);

#endif /* __ASM_X86_ACPI_H__ */
