/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The x86 side of grant tables (Xen's asm/grant_table.h and
 * hvm/grant_table.c): how a host mapping is made for an HVM/PVH caller
 * (a p2m entry at the guest-physical address host_addr), and the atomic
 * updates of the words the hypervisor shares with the granter.
 */
#ifndef __ASM_X86_GRANT_TABLE_H__
#define __ASM_X86_GRANT_TABLE_H__

#include <xen/types.h>
#include <public/grant_table.h>
#include <asm/page-bits.h>
#include <asm/p2m.h>
#include <asm/paging.h>

struct domain;

/* Frames a table starts with (Xen's INITIAL_NR_GRANT_FRAMES). */
#define INITIAL_NR_GRANT_FRAMES 1U

/*
 * Map frame mfn at guest-physical host_addr of d (Xen's
 * create_grant_p2m_mapping): only GNTMAP_host_map, optionally
 * GNTMAP_readonly, and no cache attributes; GNTST_*.
 */
static inline int create_grant_host_mapping(struct domain *d, uint64_t host_addr,
                                            unsigned long mfn, unsigned int flags,
                                            unsigned int cache_flags)
{
    if ( cache_flags || (flags & ~GNTMAP_readonly) != GNTMAP_host_map )
        return GNTST_general_error;
    if ( p2m_add_grant_mapping(d, host_addr >> PAGE_SHIFT, mfn, flags & GNTMAP_readonly) )
        return GNTST_general_error;
    return GNTST_okay;
}

/*
 * Undo it (Xen's replace_grant_p2m_mapping): host_addr must hold exactly
 * that grant mapping; an HVM caller cannot put another frame in its place
 * (new_addr != 0) nor name a PTE.
 */
static inline int replace_grant_host_mapping(struct domain *d, uint64_t host_addr,
                                             unsigned long mfn, uint64_t new_addr,
                                             unsigned int flags)
{
    if ( new_addr || (flags & GNTMAP_contains_pte) )
        return GNTST_general_error;
    if ( p2m_remove_grant_mapping(d, host_addr >> PAGE_SHIFT, mfn) )
        return GNTST_general_error;
    return GNTST_okay;
}

/* The hypervisor wrote (or let a mapper write) rd's frame gfn. */
static inline void gnttab_mark_dirty(struct domain *rd, unsigned long gfn)
{
    if ( gfn != INVALID_GFN )
        paging_mark_dirty(rd, gfn, NULL);
}

/* Clear bits of a 16-bit flags or status word the guest shares (Xen's). */
static inline void gnttab_clear_flags(unsigned int mask, uint16_t *addr)
{
    asm volatile ( "lock andw %1, %0" : "+m" (*addr) : "ir" ((uint16_t)~mask) : "memory" );
}

/* Set bits of such a word. */
static inline void gnttab_set_flags(unsigned int mask, uint16_t *addr)
{
    asm volatile ( "lock orw %1, %0" : "+m" (*addr) : "ir" ((uint16_t)mask) : "memory" );
}

/* Compare-and-exchange a 32-bit word the guest shares; returns what was there. */
static inline uint32_t guest_cmpxchg32(uint32_t *addr, uint32_t old, uint32_t new)
{
    asm volatile ( "lock cmpxchgl %2, %1"
                   : "+a" (old), "+m" (*addr) : "r" (new) : "memory" );
    return old;
}

#endif /* __ASM_X86_GRANT_TABLE_H__ */
