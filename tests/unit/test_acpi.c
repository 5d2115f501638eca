/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/arch/x86/hvm/acpi_build.c: the control domain's ACPI tables, walked
 * as Linux walks them (RSDP -> XSDT -> MADT, FADT -> DSDT), every
 * signature, length and checksum checked, for 1 to 8 vCPUs.
 */
#include <xen/string.h>
#include <acpi/actbl.h>
#include <asm/hvm/acpi.h>

#include "harness.h"

#define BASE 0x9f000UL
static uint8_t page[4096];

static uint8_t sum(const void *p, size_t len)
{
    const uint8_t *b = p;
    uint8_t s = 0;

    while ( len-- )
        s += *b++;
    return s;
}

/* The table at guest address gpa, if inside the page. */
static const struct acpi_table_header *table_at(uint64_t gpa)
{
    if ( gpa < BASE || gpa + sizeof(struct acpi_table_header) > BASE + sizeof(page) )
        return NULL;
    return (const void *)(page + (gpa - BASE));
}

static void check_table(const struct acpi_table_header *h, const char *sig)
{
    CHECK(h != NULL);
    if ( !h )
        return;
    CHECK(!memcmp(h->signature, sig, 4));
    CHECK((uint8_t *)h + h->length <= page + sizeof(page));
    CHECK_EQ(sum(h, h->length), 0);
    CHECK(!memcmp(h->oem_id, "Xen", 3));
}

static void walk(unsigned int nr_vcpus, size_t used)
{
    const struct acpi_table_rsdp *rsdp = (const void *)page;
    const struct acpi_table_header *xsdt, *t, *dsdt = NULL;
    const struct acpi_table_madt *madt = NULL;
    const struct acpi_table_fadt *fadt = NULL;
    uint64_t entry;
    unsigned int i, n, lapics = 0;

    CHECK(used > 0 && used <= sizeof(page));
    CHECK(!memcmp(rsdp->signature, "RSD PTR ", 8));
    CHECK_EQ(rsdp->revision, 2);
    CHECK_EQ(rsdp->length, 36);
    CHECK_EQ(sum(rsdp, 20), 0);
    CHECK_EQ(sum(rsdp, 36), 0);
    CHECK_EQ(rsdp->rsdt_physical_address, 0);

    xsdt = table_at(rsdp->xsdt_physical_address);
    check_table(xsdt, "XSDT");
    if ( !xsdt )
        return;
    n = (xsdt->length - sizeof(*xsdt)) / 8;
    CHECK_EQ(n, 2);
    for ( i = 0; i < n; i++ )
    {
        memcpy(&entry, (const uint8_t *)(xsdt + 1) + 8 * i, 8);
        t = table_at(entry);
        CHECK(t != NULL);
        if ( !t )
            continue;
        if ( !memcmp(t->signature, "APIC", 4) )
            madt = (const void *)t;
        else if ( !memcmp(t->signature, "FACP", 4) )
            fadt = (const void *)t;
    }
    CHECK(madt && fadt);
    if ( !madt || !fadt )
        return;

    check_table(&madt->header, "APIC");
    CHECK_EQ(madt->address, 0xfee00000);
    CHECK_EQ(madt->flags & ACPI_MADT_PCAT_COMPAT, 0);
    CHECK_EQ(madt->header.length, 44 + 8 * nr_vcpus);
    for ( i = 44; i + 2 <= madt->header.length; )
    {
        const struct acpi_madt_local_apic *l = (const void *)((const uint8_t *)madt + i);

        CHECK(l->length >= 2);
        if ( l->length < 2 )
            break;
        if ( l->type == ACPI_MADT_TYPE_LOCAL_APIC )
        {
            CHECK_EQ(l->length, 8);
            CHECK_EQ(l->id, lapics);
            CHECK_EQ(l->processor_id, lapics);
            CHECK_EQ(l->lapic_flags, ACPI_MADT_ENABLED);
            lapics++;
        }
        i += l->length;
    }
    CHECK_EQ(lapics, nr_vcpus);

    check_table(&fadt->header, "FACP");
    CHECK_EQ(fadt->header.length, 276);
    CHECK_EQ(fadt->header.revision, 6);
    CHECK(fadt->flags & ACPI_FADT_HW_REDUCED);
    CHECK_EQ(fadt->pm_timer_block, 0);
    CHECK_EQ(fadt->sci_interrupt, 0);
    CHECK_EQ(fadt->century, 0x32);
    CHECK_EQ(fadt->xdsdt, fadt->dsdt);
    /* The reset register, as Xen's hvmloader gives it: 0x06 to port 0xCF9. */
    CHECK(fadt->flags & ACPI_FADT_RESET_REGISTER);
    CHECK_EQ(fadt->reset_register.space_id, ACPI_ADR_SPACE_SYSTEM_IO);
    CHECK_EQ(fadt->reset_register.bit_width, 8);
    CHECK_EQ(fadt->reset_register.address, 0xcf9);
    CHECK_EQ(fadt->reset_value, 0x06);
    dsdt = table_at(fadt->xdsdt);
    check_table(dsdt, "DSDT");
}

void test_main(void)
{
    unsigned int n;

    for ( n = 1; n <= 8; n++ )
    {
        memset(page, 0, sizeof(page));
        walk(n, acpi_build_tables(page, sizeof(page), BASE, n));
    }

    /* Refused: no vCPU, more than 255, a buffer too small. */
    CHECK_EQ(acpi_build_tables(page, sizeof(page), BASE, 0), 0);
    CHECK_EQ(acpi_build_tables(page, sizeof(page), BASE, 256), 0);
    CHECK_EQ(acpi_build_tables(page, 100, BASE, 1), 0);
    /* 255 vCPUs still fit in a page. */
    memset(page, 0, sizeof(page));
    walk(255, acpi_build_tables(page, sizeof(page), BASE, 255));

    CHECK_EQ(acpi_checksum("\x01\x02", 2), 0xfd);
}
