/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Frames with an owner and a reference count (Xen's struct page_info and
 * frame_table, get_page/put_page), so that a frame a domain's memory is
 * made of cannot be freed, or handed to someone else, while anything still
 * uses it.
 *
 * A frame given to a domain (assign_pages) holds one reference, the
 * allocation's; its p2m entry stands for that reference, and the p2m's
 * teardown drops it.  A foreign mapping takes a reference of its own
 * (get_page) and drops it when unmapped.  The last put_page frees the
 * frame.  When the owner goes while references remain, the frame is
 * orphaned (owner DOMID_INVALID): nobody can take a new reference to it,
 * and it is freed with its last one.
 *
 * Frames of the hypervisor's own heap (EPT tables, the log-dirty trie)
 * have no owner and are not counted.
 */
#ifndef __ASM_X86_MM_H__
#define __ASM_X86_MM_H__

#include <xen/types.h>
#include <public/xen.h>

struct domain;

struct page_info {
    uint32_t count_info;            /* references */
    uint16_t owner;                 /* domid, DOMID_INVALID if none */
    uint16_t pad;
};

extern struct page_info *frame_table;
extern unsigned long max_page;

/* Allocate and initialise the frame table (after the boot allocator). */
void init_frame_table(unsigned long nr_frames);

static inline struct page_info *mfn_to_page(mfn_t mfn)
{
    return mfn < max_page ? &frame_table[mfn] : NULL;
}

/* Give 2^order fresh frames to d, one (allocation) reference each. */
void assign_pages(struct domain *d, mfn_t mfn, unsigned int order);
/* A new reference to a frame d owns; false if it does not (or is free). */
bool get_page(mfn_t mfn, const struct domain *d);
/* Drop a reference; the last one frees the frame. */
void put_page(mfn_t mfn);
void put_pages(mfn_t mfn, unsigned int order);
/* The owner drops its allocation reference at teardown (orphans the rest). */
void relinquish_page(mfn_t mfn);
/* The owner's domid, or DOMID_INVALID. */
domid_t page_get_owner(mfn_t mfn);
/*
 * Frames with references (a domain's, or an orphan's someone still holds):
 * with no domain left it must be 0, or a reference leaked.
 */
unsigned long frames_referenced(void);

#endif /* __ASM_X86_MM_H__ */
