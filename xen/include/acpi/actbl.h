/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ACPI tables this hypervisor builds for its control domain (ACPI 6.x
 * layouts; Xen and Linux take these names from ACPICA's actbl*.h): RSDP,
 * the common table header, XSDT, MADT with Local APIC entries, FADT and
 * the DSDT (a header plus AML).  All little-endian and packed.  The RSDT
 * and the MADT's IO-APIC, interrupt source override and x2APIC entries are
 * read from the host's tables (acpi/boot.c).
 */
#ifndef __ACPI_ACTBL_H__
#define __ACPI_ACTBL_H__

#include <xen/types.h>

#define ACPI_SIG_RSDP       "RSD PTR "
#define ACPI_SIG_XSDT       "XSDT"
#define ACPI_SIG_MADT       "APIC"
#define ACPI_SIG_FADT       "FACP"
#define ACPI_SIG_DSDT       "DSDT"

#define ACPI_NAME_SIZE      4
#define ACPI_OEM_ID_SIZE    6
#define ACPI_OEM_TABLE_ID_SIZE 8

struct acpi_table_rsdp {
    char     signature[8];              /* "RSD PTR " */
    uint8_t  checksum;                  /* bytes 0-19 sum to 0 */
    char     oem_id[ACPI_OEM_ID_SIZE];
    uint8_t  revision;                  /* 2: ACPI 2.0+, has the XSDT */
    uint32_t rsdt_physical_address;
    uint32_t length;                    /* 36 */
    uint64_t xsdt_physical_address;
    uint8_t  extended_checksum;         /* all 36 bytes sum to 0 */
    uint8_t  reserved[3];
} __attribute__((packed));

struct acpi_table_header {
    char     signature[ACPI_NAME_SIZE];
    uint32_t length;                    /* the whole table */
    uint8_t  revision;
    uint8_t  checksum;                  /* the whole table sums to 0 */
    char     oem_id[ACPI_OEM_ID_SIZE];
    char     oem_table_id[ACPI_OEM_TABLE_ID_SIZE];
    uint32_t oem_revision;
    char     asl_compiler_id[ACPI_NAME_SIZE];
    uint32_t asl_compiler_revision;
} __attribute__((packed));

/* The RSDT (ACPI 1.0): as the XSDT with 32-bit addresses. */
struct acpi_table_rsdt {
    struct acpi_table_header header;
    uint32_t table_offset_entry[];
} __attribute__((packed));

struct acpi_table_xsdt {
    struct acpi_table_header header;
    uint64_t table_offset_entry[];      /* physical addresses of tables */
} __attribute__((packed));

struct acpi_table_madt {
    struct acpi_table_header header;
    uint32_t address;                   /* the local APIC's physical address */
    uint32_t flags;                     /* ACPI_MADT_PCAT_COMPAT: dual 8259s */
} __attribute__((packed));
#define ACPI_MADT_PCAT_COMPAT   (1u << 0)

#define ACPI_MADT_TYPE_LOCAL_APIC 0
struct acpi_madt_local_apic {
    uint8_t  type;                      /* ACPI_MADT_TYPE_LOCAL_APIC */
    uint8_t  length;                    /* 8 */
    uint8_t  processor_id;              /* ACPI processor UID */
    uint8_t  id;                        /* local APIC id */
    uint32_t lapic_flags;
} __attribute__((packed));
#define ACPI_MADT_ENABLED       (1u << 0)

#define ACPI_MADT_TYPE_IO_APIC 1
struct acpi_madt_io_apic {
    uint8_t  type;                      /* ACPI_MADT_TYPE_IO_APIC */
    uint8_t  length;                    /* 12 */
    uint8_t  id;
    uint8_t  reserved;
    uint32_t address;                   /* its registers' physical address */
    uint32_t global_irq_base;           /* the GSI of its first pin */
} __attribute__((packed));

#define ACPI_MADT_TYPE_INTERRUPT_OVERRIDE 2
struct acpi_madt_interrupt_override {
    uint8_t  type;                      /* ACPI_MADT_TYPE_INTERRUPT_OVERRIDE */
    uint8_t  length;                    /* 10 */
    uint8_t  bus;                       /* 0: ISA */
    uint8_t  source_irq;                /* the ISA IRQ */
    uint32_t global_irq;                /* the GSI it is wired to */
    uint16_t inti_flags;                /* ACPI_MADT_POLARITY_*, ACPI_MADT_TRIGGER_* */
} __attribute__((packed));

/* Local x2APIC (ACPI 4.0), for APIC IDs of 255 and above. */
#define ACPI_MADT_TYPE_LOCAL_X2APIC 9
struct acpi_madt_local_x2apic {
    uint8_t  type;                      /* ACPI_MADT_TYPE_LOCAL_X2APIC */
    uint8_t  length;                    /* 16 */
    uint16_t reserved;
    uint32_t local_apic_id;
    uint32_t lapic_flags;               /* ACPI_MADT_ENABLED */
    uint32_t uid;
} __attribute__((packed));

/* What every MADT entry starts with. */
struct acpi_subtable_header {
    uint8_t  type;
    uint8_t  length;
} __attribute__((packed));

#define ACPI_MADT_POLARITY_MASK         0x3
#define ACPI_MADT_POLARITY_ACTIVE_LOW   0x3
#define ACPI_MADT_TRIGGER_MASK          0xc
#define ACPI_MADT_TRIGGER_LEVEL         0xc

/* Generic Address Structure; its address spaces and access sizes. */
#define ACPI_ADR_SPACE_SYSTEM_IO    1
#define ACPI_ACCESS_BYTE            1
struct acpi_generic_address {
    uint8_t  space_id;
    uint8_t  bit_width;
    uint8_t  bit_offset;
    uint8_t  access_width;
    uint64_t address;
} __attribute__((packed));

struct acpi_table_fadt {
    struct acpi_table_header header;
    uint32_t facs;
    uint32_t dsdt;
    uint8_t  model;
    uint8_t  preferred_profile;
    uint16_t sci_interrupt;
    uint32_t smi_command;
    uint8_t  acpi_enable;
    uint8_t  acpi_disable;
    uint8_t  s4_bios_request;
    uint8_t  pstate_control;
    uint32_t pm1a_event_block;
    uint32_t pm1b_event_block;
    uint32_t pm1a_control_block;
    uint32_t pm1b_control_block;
    uint32_t pm2_control_block;
    uint32_t pm_timer_block;
    uint32_t gpe0_block;
    uint32_t gpe1_block;
    uint8_t  pm1_event_length;
    uint8_t  pm1_control_length;
    uint8_t  pm2_control_length;
    uint8_t  pm_timer_length;
    uint8_t  gpe0_block_length;
    uint8_t  gpe1_block_length;
    uint8_t  gpe1_base;
    uint8_t  cst_control;
    uint16_t c2_latency;
    uint16_t c3_latency;
    uint16_t flush_size;
    uint16_t flush_stride;
    uint8_t  duty_offset;
    uint8_t  duty_width;
    uint8_t  day_alarm;
    uint8_t  month_alarm;
    uint8_t  century;                   /* CMOS index of the century */
    uint16_t boot_flags;                /* IA-PC boot architecture flags */
    uint8_t  reserved;
    uint32_t flags;
    struct acpi_generic_address reset_register;
    uint8_t  reset_value;
    uint16_t arm_boot_flags;
    uint8_t  minor_revision;
    uint64_t xfacs;
    uint64_t xdsdt;
    struct acpi_generic_address xpm1a_event_block;
    struct acpi_generic_address xpm1b_event_block;
    struct acpi_generic_address xpm1a_control_block;
    struct acpi_generic_address xpm1b_control_block;
    struct acpi_generic_address xpm2_control_block;
    struct acpi_generic_address xpm_timer_block;
    struct acpi_generic_address xgpe0_block;
    struct acpi_generic_address xgpe1_block;
    struct acpi_generic_address sleep_control;
    struct acpi_generic_address sleep_status;
    uint64_t hypervisor_id;
} __attribute__((packed));

/* FADT flags */
#define ACPI_FADT_WBINVD            (1u << 0)
#define ACPI_FADT_POWER_BUTTON      (1u << 4)   /* no fixed power button */
#define ACPI_FADT_SLEEP_BUTTON      (1u << 5)   /* no fixed sleep button */
#define ACPI_FADT_RESET_REGISTER    (1u << 10)  /* reset_register is valid */
#define ACPI_FADT_HW_REDUCED        (1u << 20)
/* FADT boot_flags (IA-PC boot architecture) */
#define ACPI_FADT_NO_VGA            (1u << 2)
#define ACPI_FADT_NO_MSI            (1u << 3)
#define ACPI_FADT_NO_ASPM           (1u << 4)
#define ACPI_FADT_NO_CMOS_RTC       (1u << 5)

#endif /* __ACPI_ACTBL_H__ */
