/* SPDX-License-Identifier: GPL-2.0-only */
/* Build-wide constants of the x86 hypervisor, usable from C and assembly. */
#ifndef __ASM_X86_CONFIG_H__
#define __ASM_X86_CONFIG_H__

#include <asm/x86-defns.h>
#include <asm/msr-index.h>
#include <asm/page-bits.h>

/* The image is linked and runs identity-mapped at 2 MiB. */
#define XEN_LOAD_ADDR       0x200000

#define STACK_ORDER         2
#define STACK_SIZE          (PAGE_SIZE << STACK_ORDER)

/* Selectors of the hypervisor's GDT (boot_gdt in head.S). */
#define __HYPERVISOR_CS     0x08
#define __HYPERVISOR_DS     0x10
#define TSS_SELECTOR        0x18
#define __BOOT_CS32         0x28        /* secondary CPUs leaving real mode */

/* How much of the physical address space head.S identity-maps. */
#define DIRECTMAP_SIZE      (4ULL << 30)

/*
 * CPUs the hypervisor can use: Xen's x86 default.  The xAPIC it programs
 * addresses APIC IDs 0-254, so more would need x2APIC mode; Bochs
 * emulates far fewer (docs/design.md).
 */
#define NR_CPUS             256

#endif /* __ASM_X86_CONFIG_H__ */
