/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The physical page allocator and the hypervisor heap.
 *
 * All RAM below DIRECTMAP_SIZE is identity-mapped, so a machine address is
 * also a usable pointer (maddr_to_virt is the identity).
 */
#ifndef __XEN_MM_H__
#define __XEN_MM_H__

#include <xen/types.h>
#include <asm/page-bits.h>

#define PFN_DOWN(x)   ((x) >> PAGE_SHIFT)
#define PFN_UP(x)     (((x) + PAGE_SIZE - 1) >> PAGE_SHIFT)

static inline void *maddr_to_virt(paddr_t ma) { return (void *)(unsigned long)ma; }
static inline paddr_t virt_to_maddr(const void *va) { return (paddr_t)(unsigned long)va; }
static inline void *mfn_to_virt(mfn_t mfn) { return maddr_to_virt(mfn << PAGE_SHIFT); }
static inline mfn_t virt_to_mfn(const void *va) { return virt_to_maddr(va) >> PAGE_SHIFT; }

/* Boot: hand the allocator a RAM range, then take out reserved ranges. */
void init_boot_pages(paddr_t start, paddr_t end);
void reserve_boot_pages(paddr_t start, paddr_t end);
void end_boot_allocator(void);

/* 2^order contiguous, naturally aligned frames; INVALID_MFN if none. */
mfn_t alloc_domheap_pages(unsigned int order);
/* For d: may use d's claim (XENMEM_claim_pages), which it takes down. */
struct domain;
mfn_t alloc_domheap_pages_for(struct domain *d, unsigned int order);
int domain_set_outstanding_pages(struct domain *d, unsigned long pages);
unsigned long total_outstanding_claims(void);
void free_domheap_pages(mfn_t mfn, unsigned int order);
/* n frames from mfn, any n (a domain's teardown frees its frames in runs). */
void free_domheap_range(mfn_t mfn, unsigned long n);

/* Zeroed hypervisor pages. */
void *alloc_xenheap_pages(unsigned int order);
void free_xenheap_pages(void *v, unsigned int order);
static inline void *alloc_xenheap_page(void) { return alloc_xenheap_pages(0); }
static inline void free_xenheap_page(void *v) { free_xenheap_pages(v, 0); }

unsigned long total_pages(void);
/* One past the highest frame the allocator manages. */
unsigned long max_boot_pfn(void);
unsigned long avail_pages(void);

struct domain;
/* Take the frame at gfn out of d (XENMEM_decrease_reservation's step): memory.c. */
int guest_remove_page(struct domain *d, unsigned long gfn);

/* Zero one page, or 2^order pages from a page-aligned p. */
void clear_page(void *p);
void clear_pages(void *p, unsigned int order);

#endif /* __XEN_MM_H__ */
