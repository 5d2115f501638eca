/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Frames with an owner and a reference count (Xen's struct page_info and
 * frame_table, get_page/put_page), so that a frame a domain's memory is
 * made of cannot be freed, or handed to someone else, while anything still
 * uses it.
 *
 * A frame given to a domain (assign_pages) is on the domain's page list,
 * counted in its tot_pages (which may not exceed max_pages), and holds one
 * reference, the allocation's (PGC_allocated).  Its p2m entry is not a
 * reference: removing the frame from the guest (guest_remove_page) drops
 * the allocation reference.  Anything else that keeps using the frame
 * takes a reference of its own (get_page): a foreign mapping, a
 * registered vcpu_info.  The last put_page frees the frame, and only then
 * does it leave its owner's list and tot_pages, so a domain is charged for
 * every frame that exists because of it, mapped or not (Xen's rule).
 *
 * When the owner dies, its frames are relinquished: each leaves the list
 * and tot_pages and drops the allocation reference; one that is still
 * referenced (a foreign mapping of the control domain) is orphaned (owner
 * DOMID_INVALID), nobody can take a new reference to it, and it is freed
 * with its last one.
 *
 * A hypervisor page shared with a guest (shared_info, Xen's
 * share_xen_page_with_guest) is owned by the domain with PGC_xen_heap:
 * counted in xenheap_pages, not in tot_pages, not on the page list; it is
 * unhooked from the p2m, never freed, when the guest removes it.
 *
 * Pages of the hypervisor's own heap have no owner; xmalloc keeps its
 * bookkeeping of small-object pages in the same structure.
 */
#ifndef __ASM_X86_MM_H__
#define __ASM_X86_MM_H__

#include <xen/types.h>
#include <public/xen.h>

struct domain;

#define PGC_allocated       (1u << 31)      /* holds the allocation reference */
#define PGC_xen_heap        (1u << 30)      /* a hypervisor page shared with a guest */
#define PGC_xmalloc         (1u << 29)      /* xmalloc's: the count is blocks in use */
#define PGC_count_mask      ((1u << 29) - 1)

#define PAGE_LIST_NULL      0xffffffffu

struct page_info {
    uint32_t count_info;            /* PGC_* | references */
    uint16_t owner;                 /* domid, DOMID_INVALID if none */
    uint16_t xmalloc_free;          /* xmalloc: first free block / 16 + 1, 0 none */
    uint32_t next, prev;            /* list links (mfns) */
};

/* A doubly linked list of frames through the frame table (Xen's page_list). */
struct page_list_head {
    uint32_t head, tail;
};

#define PAGE_LIST_HEAD_INIT { PAGE_LIST_NULL, PAGE_LIST_NULL }

extern struct page_info *frame_table;
extern unsigned long max_page;

/* Allocate and initialise the frame table (after the boot allocator). */
void init_frame_table(unsigned long nr_frames);

static inline struct page_info *mfn_to_page(mfn_t mfn)
{
    return mfn < max_page ? &frame_table[mfn] : NULL;
}

static inline bool page_list_empty(const struct page_list_head *l)
{
    return l->head == PAGE_LIST_NULL;
}
void page_list_init(struct page_list_head *l);
void page_list_add(struct page_list_head *l, mfn_t mfn);
void page_list_del(struct page_list_head *l, mfn_t mfn);
/* The first frame of the list, removed; INVALID_MFN if empty. */
mfn_t page_list_remove_head(struct page_list_head *l);

/*
 * Give 2^order fresh frames to d (PGC_allocated, one reference each, on
 * d's page list, in tot_pages).  -E2BIG, and nothing changes, if d's
 * tot_pages would exceed max_pages (Xen's assign_pages).
 */
int assign_pages(struct domain *d, mfn_t mfn, unsigned int order);
/* Make a hypervisor page d's to map (PGC_xen_heap, not in tot_pages). */
void share_xen_page_with_guest(struct domain *d, mfn_t mfn);
/* A new reference to a frame d owns; false if it does not (or is free). */
bool get_page(mfn_t mfn, const struct domain *d);
/* Drop a reference; the last one frees the frame (and uncharges its owner). */
void put_page(mfn_t mfn);
/* Drop the allocation reference, if still held (Xen's put_page_alloc_ref). */
void put_page_alloc_ref(mfn_t mfn);
/*
 * d lets go of a frame it owns (or a page shared with it): it leaves d's
 * counts and drops the allocation reference; still referenced, it is
 * orphaned and freed with its last reference (the grant table's frames).
 */
void relinquish_page(struct domain *d, mfn_t mfn);
/* d dies: every frame on its list leaves it and drops its allocation ref. */
void relinquish_domain_pages(struct domain *d);
/* The owner's domid, or DOMID_INVALID. */
domid_t page_get_owner(mfn_t mfn);
/*
 * Frames to free, gathered into runs of consecutive mfns so that a
 * teardown takes the heap's lock once a run, not once a frame.
 */
struct free_run {
    mfn_t first;
    unsigned long nr;
};
void free_run_add(struct free_run *r, mfn_t mfn);
void free_run_flush(struct free_run *r);

/* Frames freed while orphaned, and orphaned now (for the heap report). */
unsigned long orphaned_pages(void);
/*
 * Frames with references (a domain's, or an orphan's someone still holds),
 * xmalloc's pages not counted: with no domain left it must be 0, or a
 * reference leaked.
 */
unsigned long frames_referenced(void);

#endif /* __ASM_X86_MM_H__ */
