/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log-dirty paging: the per-domain dirty bitmap and its modes.
 *
 * paging.c owns the bitmap (a lazily allocated 4-level trie, Xen's shape)
 * and XEN_DOMCTL_shadow_op, and calls the mechanism through the
 * log_dirty_ops the paging mode registered; hap/hap.c implements them (PML
 * or write protection) and dirty-VRAM tracking; the generic p2m (p2m.c)
 * changes entry types through the EPT code's p2m operations (p2m-ept.c),
 * and the VMX code owns the PML buffers.
 */
#ifndef __ASM_X86_PAGING_H__
#define __ASM_X86_PAGING_H__

#include <xen/spinlock.h>
#include <xen/types.h>
#include <public/xen.h>
#include <asm/dirty_stats.h>

struct domain;
struct vcpu;
struct xen_domctl_shadow_op;

/*
 * The mechanism's operations, registered by the paging mode (HAP:
 * hap_domain_init), as Xen's paging_log_dirty_init(d, &ops).
 */
struct log_dirty_ops {
    int  (*enable)(struct domain *d, bool global);  /* arm what is tracked */
    void (*disable)(struct domain *d);              /* stop: all plainly writable */
    /* Re-arm [begin, begin + nr) after its bits were read; no TLB flush yet. */
    void (*clean_range)(struct domain *d, unsigned long begin, unsigned long nr);
    /* The flush that ends a batch of clean_range calls. */
    void (*clean_done)(struct domain *d);
    /* Drain hardware dirty logs (PML buffers) into the bitmap. */
    void (*flush)(struct domain *d);
};

struct log_dirty_domain {
    const struct log_dirty_ops *ops;
    void           *top;            /* trie root (NULL: no bit set yet) */
    unsigned long  *last_leaf;      /* the leaf last marked (PML drains hit it) */
    unsigned long   last_leaf_base; /* its first pfn */
    unsigned int    allocs;         /* trie pages in use */
    unsigned int    failed_allocs;  /* since the last CLEAN/PEEK: -ENOMEM */

    bool            enabled;        /* log-dirty mode on */
    bool            global;         /* all RAM tracked (shadow_op ENABLE) */
    bool            pml;            /* mechanism: PML, else write protection */
    unsigned long   vram_begin;     /* dirty-VRAM range (vram_nr 0: none), set by hap.c */
    unsigned long   vram_nr;

    /* Xen's shadow_op stats, reset by CLEAN. */
    uint32_t        fault_count;
    uint32_t        dirty_count;

    /*
     * A CLEAN/PEEK preempted half-way (Xen's d->arch.paging.preempt): who
     * asked, what, and where to go on.  The statistics are those at its
     * start; the bitmap is copied out and re-armed a chunk at a time.
     */
    struct {
        bool          active;
        domid_t       caller;
        uint32_t      op;
        unsigned long next;         /* first pfn not done yet */
        unsigned long pages;        /* pfns the caller's bitmap holds */
        uint32_t      fault_count, dirty_count;
    } preempt;

    /*
     * The monitor's re-arms (XEN_DOMCTL_dirty_rearm), preemptible as
     * CLEAN, with their own place to go on from.  A re-arm never changes
     * a bit.  (Their counters, with every other: asm/dirty_stats.h.)
     */
    struct {
        bool          active;
        domid_t       caller;
        unsigned long next;         /* first pfn not done yet */
        uint64_t      pages;        /* re-armed by this call so far */
    } rearm;

    /*
     * Pages newly dirtied (0->1) per block of 2^block_shift pfns
     * (XEN_DOMCTL_get_dirty_blocks): made when tracking is first
     * switched on, kept until the domain is destroyed.
     */
    uint64_t       *block_dirty;
    uint64_t       *block_logged;   /* every logged write, per block */
    unsigned int    nr_blocks;
    unsigned int    block_shift;
};

/*
 * d->arch.paging.lock: Xen's paging lock (mm-locks.h), recursive, level
 * LOCK_LEVEL_PAGING, below the p2m lock in the order (taken under it):
 * the log-dirty trie, its counts and the CLEAN/PEEK and re-arm state
 * (everything in log_dirty but ops), and the paging pool.
 */
struct paging_domain {
    spinlock_t lock;
    struct log_dirty_domain log_dirty;
    struct dirty_domain_counters dirty;     /* asm/dirty_stats.h */
};


#ifndef TEST_NO_MM_LOCKS         /* tests/unit/test_p2m_smp.c: shown to fail without */
#define paging_lock(d)      spin_lock_recursive(&(d)->arch.paging.lock)
#define paging_unlock(d)    spin_unlock_recursive(&(d)->arch.paging.lock)
#else
#define paging_lock(d)      ((void)(d))
#define paging_unlock(d)    ((void)(d))
#endif

/* Record that gfn was written (by v, or by the hypervisor if v is NULL). */
void paging_mark_dirty(struct domain *d, unsigned long gfn, struct vcpu *v);
/* paging_mark_dirty() for each of n guest-physical addresses v wrote (PML). */
void paging_mark_dirty_gpas(struct domain *d, const uint64_t *gpa, unsigned int n,
                            struct vcpu *v);
bool paging_gfn_tracked(const struct domain *d, unsigned long gfn);

int paging_domctl(struct domain *d, struct xen_domctl_shadow_op *sc);
struct xen_domctl_dirty_rearm;
/* XEN_DOMCTL_dirty_rearm: re-arm the dirtied pages, bits untouched. */
int paging_log_dirty_rearm(struct domain *d, struct xen_domctl_dirty_rearm *op);
void paging_teardown(struct domain *d);

/* For the mechanisms (hap.c). */
void paging_log_dirty_init(struct domain *d, const struct log_dirty_ops *ops);
int paging_log_dirty_enable(struct domain *d, bool global);
void paging_log_dirty_disable(struct domain *d);
/* Read and clear the bits of [begin, begin + nr) into bitmap; re-arm them if asked. */
int paging_log_dirty_range(struct domain *d, unsigned long begin, unsigned long nr,
                           XEN_GUEST_HANDLE(void) bitmap, bool rearm);

/* hap/hap.c: the HAP mechanisms (PML or write protection). */
void hap_domain_init(struct domain *d);
/* A write hit a write-protected log-dirty page: log it, make it writable. */
bool hap_handle_logdirty_fault(struct vcpu *v, unsigned long gfn);
/* XEN_DMOP_track_dirty_vram. */
int hap_track_dirty_vram(struct domain *d, uint64_t first_pfn, uint32_t nr,
                         XEN_GUEST_HANDLE(void) bitmap, unsigned long bitmap_size);

#endif /* __ASM_X86_PAGING_H__ */
