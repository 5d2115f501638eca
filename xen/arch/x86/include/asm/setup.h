/* SPDX-License-Identifier: GPL-2.0-only */
/* What the boot loader handed us, and the boot-time set-up steps. */
#ifndef __ASM_X86_SETUP_H__
#define __ASM_X86_SETUP_H__

#include <xen/types.h>

#define MAX_BOOT_MODULES  16
#define MAX_E820_ENTRIES  64

struct boot_module {
    paddr_t start, end;          /* [start, end) */
    const char *cmdline;         /* as GRUB passed it */
};

struct e820entry {
    uint64_t addr, size;
    uint32_t type;
};
#define E820_RAM 1

struct boot_info {
    const char *cmdline;
    const char *loader;
    paddr_t mbi_start, mbi_end;
    unsigned int nr_modules;
    struct boot_module mods[MAX_BOOT_MODULES];
    unsigned int nr_e820;
    struct e820entry e820[MAX_E820_ENTRIES];
};

/* What the boot loader handed us (the host's memory map, ...). */
const struct boot_info *get_boot_info(void);

/* Parse the multiboot2 information; returns 0 or -errno. */
int multiboot2_parse(uint32_t magic, paddr_t mbi, struct boot_info *bi);

/* This CPU's GDT (with its own TSS) and the shared IDT. */
void percpu_traps_init(void);
/* head.S's GDT, CPU 0's; every other CPU runs on a copy (traps.c's gdt_table). */
extern uint64_t boot_gdt[];
extern char boot_gdt_end[];
#include <xen/percpu.h>
DECLARE_PER_CPU(uint64_t *, gdt_table);
void apic_init(void);
void create_boot_domains(const struct boot_info *bi);

extern char __image_start[], __image_end[];

#endif /* __ASM_X86_SETUP_H__ */
