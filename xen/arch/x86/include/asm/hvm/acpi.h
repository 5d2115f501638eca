/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ACPI tables for the control domain (Xen's pvh_setup_acpi): the pure
 * builder (hvm/acpi_build.c, also compiled into a host unit test) and its
 * placement in the domain's memory (hvm/dom0_acpi.c).
 */
#ifndef __ASM_X86_HVM_ACPI_H__
#define __ASM_X86_HVM_ACPI_H__

#include <xen/types.h>

struct domain;
struct hvm_memmap_table_entry;

/* The local APIC's address in the MADT, as on real hardware. */
#define ACPI_LAPIC_ADDRESS  0xfee00000u

/*
 * The FADT's reset register, as in Xen's hvmloader tables: the PCI reset
 * control port, written with "reset the CPU, hard" (hvm/intercept.c).
 */
#define ACPI_RESET_PORT     0xcf9
#define ACPI_RESET_VALUE    0x06

/* Bytes summing to 'sum' mod 256: the checksum byte that makes it 0. */
uint8_t acpi_checksum(const void *p, size_t len);

/*
 * Build RSDP (at offset 0), XSDT, MADT (one enabled Local APIC per vCPU,
 * APIC id = vCPU id), FADT (hardware-reduced) and DSDT into buf, a zeroed
 * buffer of 'size' bytes that the guest sees at guest-physical 'base'.
 * Returns the bytes used, or 0 if they do not fit or nr_vcpus is 0 or
 * above 255.
 */
size_t acpi_build_tables(void *buf, size_t size, uint64_t base,
                         unsigned int nr_vcpus);

/*
 * For the control domain: take the last page of the highest RAM entry
 * below 1 MiB in 'map' (*nr entries, room for max), build the tables
 * there, mark it XEN_HVM_MEMMAP_TYPE_ACPI and return the RSDP's address
 * (0 and the map untouched on failure).
 */
uint64_t pvh_setup_acpi(struct domain *d, struct hvm_memmap_table_entry *map,
                        unsigned int *nr, unsigned int max);

#endif /* __ASM_X86_HVM_ACPI_H__ */
