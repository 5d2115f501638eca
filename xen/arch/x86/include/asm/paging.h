/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log-dirty paging: the per-domain dirty bitmap and its modes.
 *
 * paging.c owns the bitmap (a lazily allocated 4-level trie, Xen's shape)
 * and XEN_DOMCTL_shadow_op; hap/hap.c owns the mechanisms (PML or write
 * protection) and dirty-VRAM tracking; the EPT code changes entry types
 * and the VMX code owns the PML buffers.
 */
#ifndef __ASM_X86_PAGING_H__
#define __ASM_X86_PAGING_H__

#include <xen/types.h>

struct domain;
struct vcpu;
struct xen_domctl_shadow_op;

struct log_dirty_domain {
    void           *top;            /* trie root (NULL: no bit set yet) */
    unsigned long  *last_leaf;      /* the leaf last marked (PML drains hit it) */
    unsigned long   last_leaf_base; /* its first pfn */
    unsigned int    allocs;         /* trie pages in use */
    unsigned int    failed_allocs;  /* since the last CLEAN/PEEK: -ENOMEM */

    bool            enabled;        /* log-dirty mode on */
    bool            global;         /* all RAM tracked (shadow_op ENABLE) */
    bool            pml;            /* mechanism: PML, else write protection */
    unsigned long   vram_begin;     /* dirty-VRAM range (vram_nr 0: none) */
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

    /* This project's totals (XEN_DOMCTL_get_dirty_stats). */
    uint64_t        total_dirty;
    uint64_t        total_faults;
    uint64_t        clean_calls;
    uint64_t        peek_calls;
    uint64_t        vram_calls;
    uint64_t        clean_preempted;    /* continuations of CLEAN/PEEK */
};

struct paging_domain {
    struct log_dirty_domain log_dirty;
};


/* Record that gfn was written (by v, or by the hypervisor if v is NULL). */
void paging_mark_dirty(struct domain *d, unsigned long gfn, struct vcpu *v);
bool paging_gfn_tracked(const struct domain *d, unsigned long gfn);

int paging_domctl(struct domain *d, struct xen_domctl_shadow_op *sc);
int paging_track_dirty_vram(struct domain *d, uint64_t first_pfn, uint32_t nr,
                            unsigned long bitmap_gva, unsigned long bitmap_size);
void paging_teardown(struct domain *d);

/* hap/hap.c: the mechanisms. */
int hap_enable_log_dirty(struct domain *d, bool global);
void hap_disable_log_dirty(struct domain *d);
/* Re-arm tracking for [begin, begin + nr) after their bits were cleared. */
void hap_rearm_range(struct domain *d, unsigned long begin, unsigned long nr);
/* The same, leaving the EPT flush (ept_sync_domain) to the caller. */
void hap_rearm_range_noflush(struct domain *d, unsigned long begin, unsigned long nr);
/* Stop tracking [begin, begin + nr) (make the pages plainly writable). */
void hap_unarm_range(struct domain *d, unsigned long begin, unsigned long nr);
/* Flush every vCPU's PML buffer into the bitmap. */
void hap_flush_dirty_logs(struct domain *d);
/* A write hit a write-protected log-dirty page: log it, make it writable. */
bool hap_handle_logdirty_fault(struct vcpu *v, unsigned long gfn);

#endif /* __ASM_X86_PAGING_H__ */
