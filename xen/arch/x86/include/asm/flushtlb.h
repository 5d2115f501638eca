/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TLB shootdown (Xen's asm/flushtlb.h names): flush_local() on this CPU,
 * flush_mask() on a set of CPUs, through INVALIDATE_TLB_VECTOR, returning
 * once every target has flushed.
 *
 *   FLUSH_TLB            the hypervisor's non-global translations (CR3 reload)
 *   FLUSH_TLB_GLOBAL     all of them, global pages too (CR4.PGE toggle)
 *   FLUSH_HVM_ASID_CORE  every guest translation the CPU caches: on VMX,
 *                        INVEPT and INVVPID all-context (hvm_funcs->flush_guest_tlbs)
 */
#ifndef __ASM_X86_FLUSHTLB_H__
#define __ASM_X86_FLUSHTLB_H__

#include <xen/cpumask.h>

#define FLUSH_TLB           0x100
#define FLUSH_TLB_GLOBAL    0x200
#define FLUSH_HVM_ASID_CORE 0x4000

void flush_local(unsigned int flags);
/* Flush on every online CPU of mask (this one too if it is in it). */
void flush_mask(const cpumask_t *mask, unsigned int flags);

#endif /* __ASM_X86_FLUSHTLB_H__ */
