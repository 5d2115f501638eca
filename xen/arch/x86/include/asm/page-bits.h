/* SPDX-License-Identifier: GPL-2.0-only */
/* Page sizes and page-table entry bits (x86 paging; usable from assembly). */
#ifndef __ASM_X86_PAGE_BITS_H__
#define __ASM_X86_PAGE_BITS_H__

#define PAGE_SHIFT          12
#define PAGE_SIZE           (1 << PAGE_SHIFT)
#define PAGE_MASK           (~(PAGE_SIZE - 1))
#define SUPERPAGE_SHIFT     21
#define SUPERPAGE_ORDER     9
#define SUPERPAGE_SIZE      (1 << SUPERPAGE_SHIFT)
#define PAGETABLE_ORDER     9
#define L1_PAGETABLE_ENTRIES 512

#define PTE_P               0x001
#define PTE_W               0x002
#define PTE_U               0x004
#define PTE_PWT             0x008
#define PTE_PCD             0x010
#define PTE_A               0x020
#define PTE_D               0x040
#define PTE_PSE             0x080
#define PTE_G               0x100

#define PADDR_BITS          52
#define PADDR_MASK          ((1ULL << PADDR_BITS) - 1)

#endif /* __ASM_X86_PAGE_BITS_H__ */
