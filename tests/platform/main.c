// SPDX-License-Identifier: GPL-2.0-only
/*
 * The platform a PVH dom0 finds (docs/misc/platform.md), checked from a
 * control domain and from a domU (guest command line "domu"):
 *
 *   platform_op   XENPF_firmware_info / XENPF_get_dom0_console answered as
 *                 Xen does with nothing to report; -EPERM for a domU;
 *                 -EACCES for a wrong interface version; unknown -ENOSYS
 *   -ENOSYS       unknown hypercalls and memory_op sub-ops
 *   memory map    XENMEM_memory_map agrees with the start info's map;
 *                 XENMEM_machine_memory_map: the host's, dom0 only
 *   ACPI          dom0: RSDP from the start info, every signature and
 *                 checksum, XSDT -> MADT (one Local APIC per vCPU), FADT ->
 *                 DSDT, all inside an ACPI (type 3) entry of the map;
 *                 a domU gets no RSDP
 *   RTC           ports 0x70/0x71: the date Bochs's time0 gives
 *                 (2000-01-01, a Saturday), in BCD and in binary, 24- and
 *                 12-hour; UIP never set; writes to the time ignored
 */
#include "test.h"
#include "fault.h"
#include "public/memory.h"
#include "public/platform.h"
#include "public/ext/platform.h"
#include "acpi/actbl.h"

const char test_title[] = "Platform: platform_op, memory map, ACPI, RTC";

static bool is_dom0;

static long platform_op(struct xen_platform_op *op)
{
    return hypercall6(__HYPERVISOR_platform_op, (unsigned long)op, 0, 0, 0, 0);
}

static long firmware_info(uint32_t type, uint32_t index, struct xen_platform_op *op)
{
    memset(op, 0xa5, sizeof(*op));
    op->cmd = XENPF_firmware_info;
    op->interface_version = XENPF_INTERFACE_VERSION;
    op->u.firmware_info.type = type;
    op->u.firmware_info.index = index;
    return platform_op(op);
}

static void test_platform_op(void)
{
    struct xen_platform_op op;

    printk("platform_op:\n");
    if ( !is_dom0 )
    {
        check_val("firmware_info from a domU: -EPERM",
                  firmware_info(XEN_FW_DISK_INFO, 0, &op), -XEN_EPERM);
        op.cmd = XENPF_get_dom0_console;
        check_val("get_dom0_console from a domU: -EPERM", platform_op(&op), -XEN_EPERM);
        return;
    }
    check_val("firmware_info DISK_INFO 0: -ESRCH (no EDD)",
              firmware_info(XEN_FW_DISK_INFO, 0, &op), -XEN_ESRCH);
    check_val("firmware_info DISK_MBR_SIGNATURE 0: -ESRCH",
              firmware_info(XEN_FW_DISK_MBR_SIGNATURE, 0, &op), -XEN_ESRCH);
    check_val("firmware_info VBEDDC_INFO 0: -ESRCH (no EDID)",
              firmware_info(XEN_FW_VBEDDC_INFO, 0, &op), -XEN_ESRCH);
    check_val("firmware_info VBEDDC_INFO 1: -EINVAL",
              firmware_info(XEN_FW_VBEDDC_INFO, 1, &op), -XEN_EINVAL);
    check_val("firmware_info EFI_INFO: -ENOSYS (no EFI)",
              firmware_info(XEN_FW_EFI_INFO, 0, &op), -XEN_ENOSYS);
    check_val("firmware_info KBD_SHIFT_FLAGS 0: 0",
              firmware_info(XEN_FW_KBD_SHIFT_FLAGS, 0, &op), 0);
    check_val("  kbd_shift_flags written back as 0", op.u.firmware_info.u.kbd_shift_flags, 0);
    check_val("firmware_info KBD_SHIFT_FLAGS 1: -EINVAL",
              firmware_info(XEN_FW_KBD_SHIFT_FLAGS, 1, &op), -XEN_EINVAL);
    check_val("firmware_info type 99: -EINVAL", firmware_info(99, 0, &op), -XEN_EINVAL);

    memset(&op, 0, sizeof(op));
    op.cmd = XENPF_get_dom0_console;
    op.interface_version = XENPF_INTERFACE_VERSION;
    check_val("get_dom0_console: -ENODEV (no VGA console)", platform_op(&op), -XEN_ENODEV);
    op.interface_version = 0x03000000;
    check_val("wrong interface version: -EACCES", platform_op(&op), -XEN_EACCES);
    op.interface_version = XENPF_INTERFACE_VERSION;
    op.cmd = 1;                                 /* XENPF_settime32 */
    check_val("XENPF_settime32: -ENOSYS", platform_op(&op), -XEN_ENOSYS);
    check_val("unmapped argument: -EFAULT",
              hypercall6(__HYPERVISOR_platform_op, 0x8000000000UL, 0, 0, 0, 0), -XEN_EFAULT);
}

static void test_enosys(void)
{
    printk("Unimplemented hypercalls and sub-ops:\n");
    check_val("hypercall 37 (kexec_op): -ENOSYS",
              hypercall6(__HYPERVISOR_kexec_op, 0, 0, 0, 0, 0), -XEN_ENOSYS);
    check_val("hypercall 37 again: -ENOSYS (logged once)",
              hypercall6(__HYPERVISOR_kexec_op, 0, 0, 0, 0, 0), -XEN_ENOSYS);
    check_val("memory_op XENMEM_exchange: -ENOSYS",
              hypercall6(__HYPERVISOR_memory_op, XENMEM_exchange, 0, 0, 0, 0), -XEN_ENOSYS);
    check_val("memory_op 99: -ENOSYS",
              hypercall6(__HYPERVISOR_memory_op, 99, 0, 0, 0, 0), -XEN_ENOSYS);
}

/* ---- memory map ------------------------------------------------------------ */

struct e820entry_packed {
    uint64_t addr, size;
    uint32_t type;
} __attribute__((packed));

static const struct hvm_memmap_table_entry *si_map;
static unsigned int si_nr;

static long memory_map(unsigned int cmd, struct e820entry_packed *buf, unsigned int *nr)
{
    struct xen_memory_map map = { .nr_entries = *nr };
    long rc;

    set_xen_guest_handle(map.buffer, buf);
    rc = hypercall6(__HYPERVISOR_memory_op, cmd, (unsigned long)&map, 0, 0, 0);
    *nr = map.nr_entries;
    return rc;
}

static void test_memory_map(void)
{
    static struct e820entry_packed e[32];
    unsigned int i, nr = 32, same = 0, ram = 0;

    printk("Memory map:\n");
    si_map = (const void *)(uintptr_t)start_info->memmap_paddr;
    si_nr = start_info->memmap_entries;
    check_true("start info version >= 1 with a memory map",
               start_info->version >= 1 && si_nr > 0);
    for ( i = 0; i < si_nr; i++ )
        printk("       %#010lx-%#010lx type %u\n", (unsigned long)si_map[i].addr,
               (unsigned long)(si_map[i].addr + si_map[i].size), si_map[i].type);

    check_val("XENMEM_memory_map", memory_map(XENMEM_memory_map, e, &nr), 0);
    check_val("XENMEM_memory_map: as many entries as the start info", nr, si_nr);
    for ( i = 0; i < nr && i < si_nr; i++ )
        if ( e[i].addr == si_map[i].addr && e[i].size == si_map[i].size &&
             e[i].type == si_map[i].type )
            same++;
    check_val("XENMEM_memory_map: every entry as in the start info", same, si_nr);
    nr = 2;
    check_val("XENMEM_memory_map, room for 2", memory_map(XENMEM_memory_map, e, &nr), 0);
    check_val("  2 entries written", nr, 2);
    nr = 4;
    check_val("XENMEM_memory_map, unmapped buffer: -EFAULT",
              memory_map(XENMEM_memory_map, (void *)0x8000000000UL, &nr), -XEN_EFAULT);

    nr = 32;
    if ( !is_dom0 )
    {
        check_val("XENMEM_machine_memory_map from a domU: -EPERM",
                  memory_map(XENMEM_machine_memory_map, e, &nr), -XEN_EPERM);
        return;
    }
    check_val("XENMEM_machine_memory_map", memory_map(XENMEM_machine_memory_map, e, &nr), 0);
    for ( i = 0; i < nr; i++ )
        if ( e[i].type == 1 )
            ram += e[i].size >> 20;
    printk("       host map: %u entries, %u MiB of RAM\n", nr, ram);
    check_true("the host map has RAM", nr > 0 && ram > 0);
}

/* ---- ACPI ------------------------------------------------------------------ */

static uint8_t acpi_sum(const void *p, size_t len)
{
    const uint8_t *b = p;
    uint8_t s = 0;

    while ( len-- )
        s += *b++;
    return s;
}

/* The map entry holding [addr, addr + len), or NULL. */
static const struct hvm_memmap_table_entry *map_entry(uint64_t addr, uint64_t len)
{
    unsigned int i;

    for ( i = 0; i < si_nr; i++ )
        if ( addr >= si_map[i].addr && addr + len <= si_map[i].addr + si_map[i].size )
            return &si_map[i];
    return NULL;
}

static bool table_ok(const char *what, uint64_t gpa, const char *sig)
{
    const struct acpi_table_header *h = (const void *)(uintptr_t)gpa;
    const struct hvm_memmap_table_entry *m = map_entry(gpa, sizeof(*h));
    char name[80];

    snprintf(name, sizeof(name), "%s at %#lx: in an ACPI entry of the map", what,
             (unsigned long)gpa);
    check_true(name, m && m->type == XEN_HVM_MEMMAP_TYPE_ACPI &&
                     map_entry(gpa, h->length) == m);
    if ( !m || m->type != XEN_HVM_MEMMAP_TYPE_ACPI )
        return false;
    snprintf(name, sizeof(name), "%s: signature %.4s", what, sig);
    check_true(name, !memcmp(h->signature, sig, 4));
    snprintf(name, sizeof(name), "%s: checksum over %u bytes", what, h->length);
    check_val(name, acpi_sum(h, h->length), 0);
    return !memcmp(h->signature, sig, 4);
}

static void test_acpi(void)
{
    const struct acpi_table_rsdp *rsdp;
    const struct acpi_table_header *xsdt;
    const struct acpi_table_madt *madt = NULL;
    const struct acpi_table_fadt *fadt = NULL;
    unsigned int i, n, lapics = 0, vcpus = vcpu_count(), ids_ok = 1;
    uint64_t e;

    printk("ACPI:\n");
    if ( !is_dom0 )
    {
        check_val("a domU gets no RSDP", start_info->rsdp_paddr, 0);
        for ( i = 0; i < si_nr; i++ )
            if ( si_map[i].type == XEN_HVM_MEMMAP_TYPE_ACPI )
                xtf_failure("Fail: a domU's map has an ACPI entry\n");
        return;
    }
    check_true("start info rsdp_paddr set", start_info->rsdp_paddr != 0);
    if ( !start_info->rsdp_paddr )
        return;
    rsdp = (const void *)(uintptr_t)start_info->rsdp_paddr;
    check_true("RSDP: signature \"RSD PTR \"", !memcmp(rsdp->signature, "RSD PTR ", 8));
    check_true("RSDP: 16-byte aligned", !(start_info->rsdp_paddr & 15));
    check_val("RSDP: revision", rsdp->revision, 2);
    check_val("RSDP: checksum (20 bytes)", acpi_sum(rsdp, 20), 0);
    check_val("RSDP: extended checksum (36 bytes)", acpi_sum(rsdp, rsdp->length), 0);
    {
        const struct hvm_memmap_table_entry *m = map_entry(start_info->rsdp_paddr, 36);

        check_true("RSDP in an ACPI entry of the map", m && m->type == XEN_HVM_MEMMAP_TYPE_ACPI);
    }
    if ( !table_ok("XSDT", rsdp->xsdt_physical_address, "XSDT") )
        return;
    xsdt = (const void *)(uintptr_t)rsdp->xsdt_physical_address;
    n = (xsdt->length - sizeof(*xsdt)) / 8;
    check_val("XSDT: entries", n, 2);
    for ( i = 0; i < n; i++ )
    {
        const struct acpi_table_header *t;

        memcpy(&e, (const uint8_t *)(xsdt + 1) + 8 * i, 8);
        t = (const void *)(uintptr_t)e;
        if ( !map_entry(e, sizeof(*t)) )
        {
            xtf_failure("Fail: XSDT entry %u (%#lx) outside the map\n", i, (unsigned long)e);
            continue;
        }
        if ( !memcmp(t->signature, "APIC", 4) && table_ok("MADT", e, "APIC") )
            madt = (const void *)t;
        else if ( !memcmp(t->signature, "FACP", 4) && table_ok("FADT", e, "FACP") )
            fadt = (const void *)t;
    }
    check_true("XSDT lists a MADT and a FADT", madt && fadt);
    if ( !madt || !fadt )
        return;

    check_val("MADT: local APIC address", madt->address, 0xfee00000);
    check_val("MADT: no PCAT_COMPAT (no 8259s)", madt->flags & ACPI_MADT_PCAT_COMPAT, 0);
    for ( i = sizeof(*madt); i + 2 <= madt->header.length; )
    {
        const struct acpi_madt_local_apic *l = (const void *)((const uint8_t *)madt + i);

        if ( l->length < 2 )
        {
            xtf_failure("Fail: MADT entry of length %u\n", l->length);
            break;
        }
        if ( l->type == ACPI_MADT_TYPE_LOCAL_APIC )
        {
            if ( l->length != 8 || l->id != lapics || l->processor_id != lapics ||
                 !(l->lapic_flags & ACPI_MADT_ENABLED) )
                ids_ok = 0;
            lapics++;
        }
        else if ( l->type == 1 )
            xtf_failure("Fail: MADT has an I/O APIC entry, none is emulated\n");
        i += l->length;
    }
    printk("       %u vCPUs, %u Local APIC entries\n", vcpus, lapics);
    check_val("MADT: one Local APIC entry per vCPU", lapics, vcpus);
    check_true("MADT: enabled, APIC id = UID = vCPU id", ids_ok);

    check_true("FADT: hardware-reduced ACPI", fadt->flags & ACPI_FADT_HW_REDUCED);
    check_val("FADT: length (ACPI 6)", fadt->header.length, 276);
    check_val("FADT: century register", fadt->century, 0x32);
    check_val("FADT: X_DSDT = DSDT", fadt->xdsdt, fadt->dsdt);
    table_ok("DSDT", fadt->xdsdt, "DSDT");
}

static uint8_t cmos(unsigned int reg)
{
    outb(reg, 0x70);
    return inb(0x71);
}

static void cmos_write(unsigned int reg, uint8_t val)
{
    outb(reg, 0x70);
    outb(val, 0x71);
}

static bool bcd_ok(uint8_t v, unsigned int max)
{
    return (v & 0xf) <= 9 && (v >> 4) <= 9 && (unsigned int)((v >> 4) * 10 + (v & 0xf)) <= max;
}

static void test_rtc(void)
{
    unsigned int i, uip = 0;
    uint8_t sec, min, hour, b;

    printk("RTC (ports 0x70/0x71):\n");
    for ( i = 0; i < 1000; i++ )
        if ( cmos(0x0a) & 0x80 )
            uip++;
    check_val("status A: UIP clear in 1000 reads", uip, 0);
    check_val("status A: 32.768 kHz base, 1024 Hz rate", cmos(0x0a), 0x26);
    b = cmos(0x0b);
    check_val("status B: 24-hour, BCD", b, 0x02);
    check_val("status C: no interrupt flags", cmos(0x0c), 0);
    check_val("status D: valid RAM and time", cmos(0x0d), 0x80);
    check_val("index port reads 0xff", inb(0x70), 0xff);

    sec = cmos(0x00); min = cmos(0x02); hour = cmos(0x04);
    printk("       time %02x:%02x:%02x, date %02x%02x-%02x-%02x, weekday %x\n",
           hour, min, sec, cmos(0x32), cmos(0x09), cmos(0x08), cmos(0x07), cmos(0x06));
    check_true("seconds, minutes, hours are BCD in range",
               bcd_ok(sec, 59) && bcd_ok(min, 59) && bcd_ok(hour, 23));
    check_val("century (0x32, BCD)", cmos(0x32), 0x20);
    check_val("year (BCD)", cmos(0x09), 0x00);
    check_val("month (BCD)", cmos(0x08), 0x01);
    check_val("day (BCD)", cmos(0x07), 0x01);
    check_val("weekday: Saturday = 7", cmos(0x06), 7);

    cmos_write(0x0b, 0x06);                     /* binary, 24-hour */
    check_val("binary mode: status B kept", cmos(0x0b), 0x06);
    check_val("binary century", cmos(0x32), 20);
    check_val("binary month", cmos(0x08), 1);
    check_val("binary day", cmos(0x07), 1);
    check_true("binary hours < 24, minutes < 60",
               cmos(0x04) < 24 && cmos(0x02) < 60);
    cmos_write(0x0b, 0x04);                     /* binary, 12-hour */
    hour = cmos(0x04);
    check_true("12-hour mode: hours 1-12, PM in bit 7",
               (hour & 0x7f) >= 1 && (hour & 0x7f) <= 12);
    cmos_write(0x0b, 0x02);

    cmos_write(0x09, 0x55);                     /* writes to the time are ignored */
    check_val("year unchanged after a write", cmos(0x09), 0x00);
    cmos_write(0x0a, 0xa6);                     /* UIP is read-only */
    check_val("status A: UIP not writable", cmos(0x0a) & 0x80, 0);
    cmos_write(0x0a, 0x26);
    /* Every index, read and written with its own value back, word-sized too. */
    for ( i = 0; i < 256; i++ )
        cmos_write(i, cmos(i));
    check_val("word-sized read of 0x70 floats high", inw(0x70), 0xffff);
    check_val("date intact after touching every register", cmos(0x07) | (cmos(0x08) << 8), 0x0101);
    check_val("status B intact", cmos(0x0b), 0x02);
    cmos_write(0x40, 0x5a);
    check_val("CMOS RAM 0x40 keeps what was written", cmos(0x40), 0x5a);
    check_val("CMOS RAM via index | 0x80 (NMI bit)", cmos(0xc0), 0x5a);
}

void test_main(void)
{
    is_dom0 = start_info && (start_info->flags & SIF_INITDOMAIN);
    printk("Running as %s\n", is_dom0 ? "the control domain" : "a domU");

    test_platform_op();
    test_enosys();
    test_memory_map();
    test_acpi();
    test_rtc();

    printk("%u checks passed\n", checks_passed());
    if ( xtf_status() <= STATUS_SUCCESS )
        xtf_success("The platform is as Xen's\n");
}
