/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the HVM code: hypercall page, guest page-table walks. */
#ifndef __ASM_X86_HVM_SUPPORT_H__
#define __ASM_X86_HVM_SUPPORT_H__

#include <xen/types.h>

struct vcpu;
struct domain;

/* Xen's hypercall-page MSR (CPUID 0x40000002 EBX). */
#define HVM_HYPERCALL_PAGE_MSR  0x40000000

/* Fill the guest frame at 'gpa' with hypercall stubs; -errno on failure. */
int hvm_init_hypercall_page(struct domain *d, uint64_t gpa);

/*
 * Translate a guest virtual address of v through its paging mode.
 * Returns the guest-physical address, or ~0 if not mapped (or, for
 * 'write', not writable).
 */
uint64_t hvm_gva_to_gpa(struct vcpu *v, unsigned long gva, bool write);

/*
 * Read len bytes of the current vCPU's memory at linear address addr (not
 * a hypercall argument: the hypervisor's own reads, e.g. instruction
 * bytes).  Returns the number of bytes NOT read.
 */
unsigned long hvm_fetch_from_guest_linear(void *buf, unsigned long addr,
                                          size_t len);

#endif /* __ASM_X86_HVM_SUPPORT_H__ */
