/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The x86 HVM byte-level guest access under xen/guest_access.h's typed
 * macros (hvm/guest_access.c).  A guest pointer is a virtual address of
 * the current vCPU: it is translated through the guest's own page tables,
 * then through the p2m, one page at a time.  Nothing here checks types;
 * hypervisor code uses the handle macros, not these.
 */
#ifndef __ASM_X86_GUEST_ACCESS_H__
#define __ASM_X86_GUEST_ACCESS_H__

#include <xen/types.h>

/*
 * Copy len bytes; the number of bytes NOT copied (0 on success).  A range
 * that wraps past the top of the address space copies nothing.  A copy to
 * the guest writes only what the guest may write (p2m_is_guest_writable:
 * its RAM, p2m_ram_rw/logdirty, and its grant-table frames).
 */
unsigned long raw_copy_to_guest(void *to, const void *from, size_t len);
unsigned long raw_copy_from_guest(void *to, const void *from, size_t len);

/*
 * Is every byte of the nr objects of 'size' bytes at 'p' writable RAM of
 * the current guest now?  false if nr * size overflows or the range wraps.
 */
bool raw_guest_array_writable(const void *p, unsigned long nr, size_t size);

#endif /* __ASM_X86_GUEST_ACCESS_H__ */
