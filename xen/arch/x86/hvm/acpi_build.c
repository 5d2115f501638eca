/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control domain's ACPI tables, built the way Xen builds them for a
 * PVH dom0 (hvm/dom0_build.c: pvh_setup_acpi_madt, pvh_setup_acpi_xsdt),
 * except that there is no host firmware to take the rest from: every
 * table is ours.
 *
 *   RSDP  revision 2, pointing at the XSDT (no RSDT)
 *   XSDT  -> MADT, FADT
 *   MADT  local APIC at 0xfee00000, no PCAT_COMPAT (no 8259s); one enabled
 *         Local APIC entry per vCPU, processor UID = APIC id = vCPU id
 *         (what CPUID leaf 1 reports); no I/O APIC entry: none is emulated
 *   FADT  hardware-reduced ACPI (no PM timer, SCI, PM1 or GPE blocks, no
 *         FACS), no VGA, CMOS RTC present with its century register; the
 *         reset register: 0x06 to port 0xCF9, as Xen's hvmloader gives
 *         HVM guests (a write there reboots the domain: hvm/intercept.c)
 *   DSDT  a header and Scope (\_SB) {}; no \_S5 (see docs/misc/platform.md)
 *
 * Pure code: no hypervisor state, so tests/unit builds it on the host.
 */
#include <xen/string.h>
#include <acpi/actbl.h>
#include <asm/hvm/acpi.h>
#include <asm/mc146818rtc.h>

#define ACPI_OEM_ID         "Xen"
#define ACPI_OEM_TABLE_ID   "PVH"
#define ACPI_OEM_REVISION   1
#define ACPI_CREATOR_ID     "XPML"          /* this hypervisor */
#define ACPI_CREATOR_REVISION 1

#define MADT_REVISION       4               /* Xen caps the host's at 4 */
#define FADT_REVISION       6               /* ACPI 6.x, 276 bytes */
#define FADT_MINOR_REVISION 0
#define XSDT_REVISION       1
#define DSDT_REVISION       2               /* 64-bit AML integers */

_Static_assert(sizeof(struct acpi_table_rsdp) == 36, "RSDP");
_Static_assert(sizeof(struct acpi_table_header) == 36, "table header");
_Static_assert(sizeof(struct acpi_table_madt) == 44, "MADT");
_Static_assert(sizeof(struct acpi_madt_local_apic) == 8, "MADT Local APIC");
_Static_assert(sizeof(struct acpi_table_fadt) == 276, "FADT");

/* AML: Scope (\_SB) {} -- ScopeOp, PkgLength 6, "\_SB_" */
static const uint8_t dsdt_aml[] = { 0x10, 0x06, 0x5c, '_', 'S', 'B', '_' };

uint8_t acpi_checksum(const void *p, size_t len)
{
    const uint8_t *b = p;
    uint8_t sum = 0;

    while ( len-- )
        sum += *b++;
    return -sum;
}

static void fill_header(struct acpi_table_header *h, const char *sig,
                        uint32_t length, uint8_t revision)
{
    memcpy(h->signature, sig, ACPI_NAME_SIZE);
    h->length = length;
    h->revision = revision;
    memcpy(h->oem_id, ACPI_OEM_ID, sizeof(ACPI_OEM_ID) - 1);
    memcpy(h->oem_table_id, ACPI_OEM_TABLE_ID, sizeof(ACPI_OEM_TABLE_ID) - 1);
    h->oem_revision = ACPI_OEM_REVISION;
    memcpy(h->asl_compiler_id, ACPI_CREATOR_ID, ACPI_NAME_SIZE);
    h->asl_compiler_revision = ACPI_CREATOR_REVISION;
}

/* Checksum a finished table (its checksum field was 0 until now). */
static void seal(struct acpi_table_header *h)
{
    h->checksum = acpi_checksum(h, h->length);
}

#define ALIGN_UP(x, a) (((x) + (a) - 1) & ~((size_t)(a) - 1))

size_t acpi_build_tables(void *buf, size_t size, uint64_t base,
                         unsigned int nr_vcpus)
{
    uint8_t *p = buf;
    size_t rsdp_off = 0, xsdt_off, madt_off, fadt_off, dsdt_off, end;
    size_t madt_len = sizeof(struct acpi_table_madt) +
                      nr_vcpus * sizeof(struct acpi_madt_local_apic);
    size_t xsdt_len = sizeof(struct acpi_table_header) + 2 * sizeof(uint64_t);
    size_t dsdt_len = sizeof(struct acpi_table_header) + sizeof(dsdt_aml);
    struct acpi_table_rsdp *rsdp;
    struct acpi_table_header *xsdt, *dsdt;
    struct acpi_table_madt *madt;
    struct acpi_madt_local_apic *lapic;
    struct acpi_table_fadt *fadt;
    uint64_t entries[2];
    unsigned int i;

    if ( !nr_vcpus || nr_vcpus > 255 )
        return 0;
    /* Tables 16-byte aligned, one after the other. */
    xsdt_off = ALIGN_UP(rsdp_off + sizeof(*rsdp), 16);
    madt_off = ALIGN_UP(xsdt_off + xsdt_len, 16);
    fadt_off = ALIGN_UP(madt_off + madt_len, 16);
    dsdt_off = ALIGN_UP(fadt_off + sizeof(*fadt), 16);
    end = dsdt_off + dsdt_len;
    if ( end > size )
        return 0;

    dsdt = (void *)(p + dsdt_off);
    fill_header(dsdt, ACPI_SIG_DSDT, dsdt_len, DSDT_REVISION);
    memcpy(dsdt + 1, dsdt_aml, sizeof(dsdt_aml));
    seal(dsdt);

    fadt = (void *)(p + fadt_off);
    fill_header(&fadt->header, ACPI_SIG_FADT, sizeof(*fadt), FADT_REVISION);
    fadt->minor_revision = FADT_MINOR_REVISION;
    fadt->dsdt = base + dsdt_off;
    fadt->xdsdt = base + dsdt_off;
    fadt->flags = ACPI_FADT_WBINVD | ACPI_FADT_POWER_BUTTON |
                  ACPI_FADT_SLEEP_BUTTON | ACPI_FADT_HW_REDUCED |
                  ACPI_FADT_RESET_REGISTER;
    fadt->reset_register.space_id = ACPI_ADR_SPACE_SYSTEM_IO;
    fadt->reset_register.bit_width = 8;
    fadt->reset_register.access_width = ACPI_ACCESS_BYTE;
    fadt->reset_register.address = ACPI_RESET_PORT;
    fadt->reset_value = ACPI_RESET_VALUE;
    fadt->boot_flags = ACPI_FADT_NO_VGA | ACPI_FADT_NO_ASPM;
    fadt->century = RTC_CENTURY;
    seal(&fadt->header);

    madt = (void *)(p + madt_off);
    fill_header(&madt->header, ACPI_SIG_MADT, madt_len, MADT_REVISION);
    madt->address = ACPI_LAPIC_ADDRESS;
    madt->flags = 0;
    lapic = (void *)(madt + 1);
    for ( i = 0; i < nr_vcpus; i++ )
    {
        lapic[i].type = ACPI_MADT_TYPE_LOCAL_APIC;
        lapic[i].length = sizeof(lapic[i]);
        lapic[i].processor_id = i;
        lapic[i].id = i;
        lapic[i].lapic_flags = ACPI_MADT_ENABLED;
    }
    seal(&madt->header);

    xsdt = (void *)(p + xsdt_off);
    fill_header(xsdt, ACPI_SIG_XSDT, xsdt_len, XSDT_REVISION);
    entries[0] = base + madt_off;
    entries[1] = base + fadt_off;
    memcpy(xsdt + 1, entries, sizeof(entries));     /* unaligned in the table */
    seal(xsdt);

    rsdp = (void *)(p + rsdp_off);
    memcpy(rsdp->signature, ACPI_SIG_RSDP, sizeof(rsdp->signature));
    memcpy(rsdp->oem_id, ACPI_OEM_ID, sizeof(ACPI_OEM_ID) - 1);
    rsdp->revision = 2;
    rsdp->length = sizeof(*rsdp);
    rsdp->xsdt_physical_address = base + xsdt_off;
    rsdp->checksum = acpi_checksum(rsdp, 20);       /* the ACPI 1.0 part */
    rsdp->extended_checksum = acpi_checksum(rsdp, sizeof(*rsdp));

    return end;
}
