/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host's IO-APICs, for the hypervisor's own ISA devices (the UART).
 *
 * Found as Xen finds them, through the ACPI MADT (acpi/boot.c), whose
 * IO-APIC entries give each one's address and first GSI and whose
 * interrupt source overrides say where an ISA IRQ is wired
 * when it is not GSI n (and its polarity and trigger mode).  An ISA IRQ
 * without an override is GSI n, edge-triggered, active high.
 *
 * On first use every pin of every IO-APIC is masked, then the requested
 * pin is pointed at a vector on this CPU (fixed delivery, physical
 * destination).  Guests never see these IO-APICs: dom0's MADT (acpi_build.c)
 * has none.  Everything here is identity-mapped (head.S; the 4th GiB,
 * where IO-APICs live, uncached).
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/string.h>
#include <acpi/actbl.h>
#include <asm/acpi.h>
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/io_apic.h>

#define IO_APIC_REGSEL      0x00
#define IO_APIC_WINDOW      0x10

#define IO_APIC_REG_VERSION 0x01
#define IO_APIC_REG_RTE(pin) (0x10 + 2 * (pin))

#define RTE_POLARITY_LOW    (1u << 13)
#define RTE_LEVEL           (1u << 15)
#define RTE_MASKED          (1u << 16)

#define MAX_IO_APICS        8
#define NR_ISA_IRQS         16

static struct io_apic {
    unsigned long addr;
    unsigned int gsi_base, nr_pins, id;
} io_apics[MAX_IO_APICS];
static unsigned int nr_io_apics;

static struct {
    bool present;
    unsigned int gsi;
    uint16_t flags;
} isa_override[NR_ISA_IRQS];

static bool probed;

static uint32_t io_apic_read(const struct io_apic *a, unsigned int reg)
{
    writel(reg, (volatile void *)a->addr + IO_APIC_REGSEL);
    return readl((volatile void *)a->addr + IO_APIC_WINDOW);
}

static void io_apic_write(const struct io_apic *a, unsigned int reg, uint32_t v)
{
    writel(reg, (volatile void *)a->addr + IO_APIC_REGSEL);
    writel(v, (volatile void *)a->addr + IO_APIC_WINDOW);
}

static void add_io_apic(const struct acpi_madt_io_apic *e)
{
    struct io_apic *a;
    unsigned int pin;

    if ( nr_io_apics == MAX_IO_APICS )
    {
        printk(XENLOG_WARNING "IOAPIC: more than %u, id %u ignored\n", MAX_IO_APICS, e->id);
        return;
    }
    a = &io_apics[nr_io_apics++];
    a->addr = e->address;
    a->gsi_base = e->global_irq_base;
    a->id = e->id;
    a->nr_pins = ((io_apic_read(a, IO_APIC_REG_VERSION) >> 16) & 0xff) + 1;
    printk(XENLOG_INFO "IOAPIC[%u]: apic_id %u, version %u, address %#lx, GSI %u-%u\n",
           nr_io_apics - 1, a->id, io_apic_read(a, IO_APIC_REG_VERSION) & 0xff,
           a->addr, a->gsi_base, a->gsi_base + a->nr_pins - 1);
    /* Nothing is delivered until a driver asks for its pin. */
    for ( pin = 0; pin < a->nr_pins; pin++ )
        io_apic_write(a, IO_APIC_REG_RTE(pin),
                      io_apic_read(a, IO_APIC_REG_RTE(pin)) | RTE_MASKED);
}

static int parse_io_apic(const struct acpi_subtable_header *h, unsigned long end)
{
    if ( h->length < sizeof(struct acpi_madt_io_apic) )
        return -EINVAL;
    add_io_apic((const void *)h);
    return 0;
}

static int parse_override(const struct acpi_subtable_header *h, unsigned long end)
{
    const struct acpi_madt_interrupt_override *o = (const void *)h;

    if ( h->length < sizeof(*o) || o->bus != 0 || o->source_irq >= NR_ISA_IRQS )
        return -EINVAL;
    isa_override[o->source_irq].present = true;
    isa_override[o->source_irq].gsi = o->global_irq;
    isa_override[o->source_irq].flags = o->inti_flags;
    printk(XENLOG_INFO "ACPI: INT_SRC_OVR (bus 0 bus_irq %u global_irq %u flags %#x)\n",
           o->source_irq, o->global_irq, o->inti_flags);
    return 0;
}

static void io_apic_probe(void)
{
    probed = true;
    if ( !acpi_find_madt() )
    {
        printk(XENLOG_WARNING "IOAPIC: no ACPI MADT found\n");
        return;
    }
    acpi_table_parse_madt(ACPI_MADT_TYPE_IO_APIC, parse_io_apic, 0);
    acpi_table_parse_madt(ACPI_MADT_TYPE_INTERRUPT_OVERRIDE, parse_override, 0);
    if ( !nr_io_apics )
        printk(XENLOG_WARNING "IOAPIC: the MADT lists none\n");
}

/* The IO-APIC and pin of ISA IRQ 'irq', and its RTE's mode bits. */
static struct io_apic *isa_irq_pin(unsigned int irq, unsigned int *pin, uint32_t *mode)
{
    unsigned int gsi = irq, i;
    uint16_t flags = 0;

    if ( !probed )
        io_apic_probe();
    if ( irq >= NR_ISA_IRQS )
        return NULL;
    if ( isa_override[irq].present )
    {
        gsi = isa_override[irq].gsi;
        flags = isa_override[irq].flags;
    }
    /* "Conforms to the bus" is ISA's: edge, active high. */
    *mode = 0;
    if ( (flags & ACPI_MADT_POLARITY_MASK) == ACPI_MADT_POLARITY_ACTIVE_LOW )
        *mode |= RTE_POLARITY_LOW;
    if ( (flags & ACPI_MADT_TRIGGER_MASK) == ACPI_MADT_TRIGGER_LEVEL )
        *mode |= RTE_LEVEL;
    for ( i = 0; i < nr_io_apics; i++ )
        if ( gsi >= io_apics[i].gsi_base && gsi - io_apics[i].gsi_base < io_apics[i].nr_pins )
        {
            *pin = gsi - io_apics[i].gsi_base;
            return &io_apics[i];
        }
    return NULL;
}

int io_apic_route_isa_irq(unsigned int irq, unsigned int vector)
{
    unsigned int pin;
    uint32_t mode;
    struct io_apic *a = isa_irq_pin(irq, &pin, &mode);

    if ( !a )
        return -ENODEV;
    /* Destination first, with the pin masked; then vector and unmask. */
    io_apic_write(a, IO_APIC_REG_RTE(pin), RTE_MASKED);
    io_apic_write(a, IO_APIC_REG_RTE(pin) + 1, get_apic_id() << 24);
    io_apic_write(a, IO_APIC_REG_RTE(pin), (vector & 0xff) | mode);
    printk(XENLOG_INFO "IOAPIC[%u]: IRQ %u on pin %u -> vector %#x, %s, active %s\n",
           (unsigned int)(a - io_apics), irq, pin, vector,
           mode & RTE_LEVEL ? "level" : "edge", mode & RTE_POLARITY_LOW ? "low" : "high");
    return 0;
}

void io_apic_mask_isa_irq(unsigned int irq)
{
    unsigned int pin;
    uint32_t mode;
    struct io_apic *a = isa_irq_pin(irq, &pin, &mode);

    if ( a )
        io_apic_write(a, IO_APIC_REG_RTE(pin),
                      io_apic_read(a, IO_APIC_REG_RTE(pin)) | RTE_MASKED);
}
