/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host's ACPI tables, as far as the hypervisor reads them (Xen's
 * arch/x86/acpi/boot.c): the RSDP is searched for in the first KiB of the
 * EBDA and in 0xe0000-0xfffff, its RSDT (or the XSDT of an ACPI 2.0+
 * RSDP) names the MADT, and acpi_table_parse_madt() hands each MADT entry
 * of one type to a handler.  The CPUs (Local APIC and Local x2APIC
 * entries) are read here, by acpi_boot_init(); the IO-APICs and interrupt
 * source overrides by io_apic.c.  Everything is identity-mapped (head.S).
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/string.h>
#include <acpi/actbl.h>
#include <asm/acpi.h>
#include <asm/smp.h>

static bool checksum_ok(const void *p, size_t len)
{
    const uint8_t *b = p;
    uint8_t sum = 0;

    while ( len-- )
        sum += *b++;
    return sum == 0;
}

static const struct acpi_table_rsdp *rsdp_scan(unsigned long start, unsigned long len)
{
    unsigned long a;

    for ( a = start; a + 20 <= start + len; a += 16 )
    {
        const struct acpi_table_rsdp *r = (const void *)a;

        if ( !memcmp(r->signature, ACPI_SIG_RSDP, 8) && checksum_ok(r, 20) )
            return r;
    }
    return NULL;
}

static const struct acpi_table_header *table_at(uint64_t addr, const char *sig)
{
    const struct acpi_table_header *h = (const void *)(unsigned long)addr;

    if ( !addr || addr >= (1ULL << 32) || memcmp(h->signature, sig, 4) ||
         h->length < sizeof(*h) || !checksum_ok(h, h->length) )
        return NULL;
    return h;
}

static const struct acpi_table_madt *madt;
static bool madt_searched;

/* The MADT, through the RSDT (or the XSDT of an ACPI 2.0+ RSDP); NULL if none. */
const struct acpi_table_madt *acpi_find_madt(void)
{
    unsigned long bda_ebda = 0x40e;     /* the BIOS data area's EBDA segment */
    const struct acpi_table_rsdp *rsdp = NULL;
    unsigned long ebda;
    const struct acpi_table_header *t, *h;
    unsigned int i, n;

    if ( madt_searched )
        return madt;
    madt_searched = true;

    asm ( "" : "+r" (bda_ebda) );       /* an address, not an object */
    ebda = (unsigned long)*(const volatile uint16_t *)bda_ebda << 4;
    if ( ebda >= 0x80000 && ebda < 0xa0000 )
        rsdp = rsdp_scan(ebda, 1024);
    if ( !rsdp )
        rsdp = rsdp_scan(0xe0000, 0x20000);
    if ( !rsdp )
        return NULL;

    if ( rsdp->revision >= 2 && (t = table_at(rsdp->xsdt_physical_address, ACPI_SIG_XSDT)) )
    {
        const struct acpi_table_xsdt *x = (const void *)t;

        n = (t->length - sizeof(*t)) / 8;
        for ( i = 0; i < n && !madt; i++ )
            if ( (h = table_at(x->table_offset_entry[i], ACPI_SIG_MADT)) )
                madt = (const void *)h;
    }
    else if ( (t = table_at(rsdp->rsdt_physical_address, "RSDT")) )
    {
        const struct acpi_table_rsdt *r = (const void *)t;

        n = (t->length - sizeof(*t)) / 4;
        for ( i = 0; i < n && !madt; i++ )
            if ( (h = table_at(r->table_offset_entry[i], ACPI_SIG_MADT)) )
                madt = (const void *)h;
    }
    return madt;
}

int acpi_table_parse_madt(unsigned int type, acpi_madt_entry_handler handler,
                          unsigned int max_entries)
{
    const struct acpi_table_madt *m = acpi_find_madt();
    const uint8_t *p, *end;
    unsigned int count = 0;

    if ( !m )
        return -ENODEV;
    p = (const uint8_t *)(m + 1);
    end = (const uint8_t *)m + m->header.length;
    /* An entry shorter than its header or running past the table ends the walk. */
    for ( ; p + 2 <= end && p[1] >= 2 && p + p[1] <= end; p += p[1] )
    {
        if ( p[0] != type )
            continue;
        if ( max_entries && count >= max_entries )
            break;
        if ( handler((const struct acpi_subtable_header *)p, (unsigned long)end) == 0 )
            count++;
    }
    return count;
}

/* ---- processors ------------------------------------------------------- */

static int acpi_parse_lapic(const struct acpi_subtable_header *h, unsigned long end)
{
    const struct acpi_madt_local_apic *e = (const void *)h;

    if ( h->length < sizeof(*e) )
        return -EINVAL;
    printk(XENLOG_INFO "ACPI: LAPIC (acpi_id[0x%02x] lapic_id[0x%02x] %s)\n",
           e->processor_id, e->id, e->lapic_flags & ACPI_MADT_ENABLED ? "enabled" : "disabled");
    /* As Xen (and Linux): an entry not enabled is a CPU that is not there. */
    if ( !(e->lapic_flags & ACPI_MADT_ENABLED) )
        return 0;
    return mp_register_lapic(e->id, true) < 0 ? -ENOSPC : 0;
}

static int acpi_parse_x2apic(const struct acpi_subtable_header *h, unsigned long end)
{
    const struct acpi_madt_local_x2apic *e = (const void *)h;

    if ( h->length < sizeof(*e) )
        return -EINVAL;
    printk(XENLOG_INFO "ACPI: X2APIC (apic_id[0x%02x] uid[0x%02x] %s)\n", e->local_apic_id,
           e->uid, e->lapic_flags & ACPI_MADT_ENABLED ? "enabled" : "disabled");
    if ( !(e->lapic_flags & ACPI_MADT_ENABLED) )
        return 0;
    return mp_register_lapic(e->local_apic_id, true) < 0 ? -ENOSPC : 0;
}

int acpi_boot_init(void)
{
    int n;

    if ( !acpi_find_madt() )
    {
        printk(XENLOG_WARNING "ACPI: no MADT: the boot CPU alone is used\n");
        return -ENODEV;
    }
    printk(XENLOG_INFO "ACPI: Local APIC address %#x\n", madt->address);
    n = acpi_table_parse_madt(ACPI_MADT_TYPE_LOCAL_X2APIC, acpi_parse_x2apic, 0);
    n += acpi_table_parse_madt(ACPI_MADT_TYPE_LOCAL_APIC, acpi_parse_lapic, 0);
    return n;
}
