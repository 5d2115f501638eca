/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The physical-to-machine map of an HVM domain: guest frame -> machine
 * frame plus a type, kept in the EPT tables themselves (the type lives in
 * ignored bits of each leaf entry, as Xen does).
 */
#ifndef __ASM_X86_P2M_H__
#define __ASM_X86_P2M_H__

#include <xen/cpumask.h>
#include <xen/spinlock.h>
#include <xen/types.h>
#include <asm/mm.h>

/* p2m types (the names are Xen's; the numbers are this tree's own). */
typedef enum {
    p2m_ram_rw          = 0,    /* normal read/write guest RAM */
    p2m_ram_logdirty    = 1,    /* RAM being tracked for dirty pages */
    p2m_ram_ro          = 2,
    p2m_mmio_dm         = 4,    /* not present: emulated or nothing */
    p2m_mmio_direct     = 5,    /* a hypervisor page (the APIC-access page), UC */
    p2m_grant_map_rw    = 7,    /* another domain's frame, mapped through a grant */
    p2m_grant_map_ro    = 8,    /* ... a read-only grant mapping */
    p2m_map_foreign     = 14,   /* another domain's frame (control domain only) */
    p2m_invalid         = 15,
    /*
     * One of the domain's own grant-table frames (shared or v2 status),
     * mapped with XENMAPSPACE_grant_table.  Xen maps these as p2m_ram_rw
     * pages of the Xen heap; here they have a type of their own, so that
     * nothing that frees or retypes guest RAM (teardown, log-dirty,
     * add_to_physmap's displacement) touches them: the grant table owns
     * them and takes them out of the p2m before it frees them.
     */
    p2m_gnttab_frame    = 16,
} p2m_type_t;

#define p2m_is_grant(t)  ((t) == p2m_grant_map_rw || (t) == p2m_grant_map_ro)
/* What the hypervisor may write for the guest (copy_to_guest): its RAM and grant frames. */
#define p2m_is_guest_writable(t) \
    ((t) == p2m_ram_rw || (t) == p2m_ram_logdirty || (t) == p2m_gnttab_frame)

struct p2m_domain;
struct domain;

/*
 * The domain's paging pool (Xen's HAP pool, XEN_DOMCTL_set_paging_mempool_size
 * and SHADOW_OP_SET_ALLOCATION): pages taken from the heap in advance, of
 * which the domain's EPT tables and log-dirty trie are made.  Nothing the
 * guest does can make them grow past the pool: when it is used up a p2m
 * change fails with -ENOMEM and a log-dirty bit is lost (and reported).
 */
struct paging_pool {
    struct page_list_head free;     /* pages not in use */
    unsigned long   total;          /* pages in the pool, free or used */
    unsigned long   used;           /* EPT tables and log-dirty pages now */
    unsigned long   peak;           /* the most ever used at once */
    unsigned long   failed;         /* allocations it could not serve */
};

/* Pages a domain's pool starts with (Xen's hap_enable: 1 MiB). */
#define PAGING_POOL_DEFAULT_PAGES   256

/*
 * Locking (Xen's mm-locks.h order: the p2m lock before the paging lock):
 * p2m->lock, recursive (LOCK_LEVEL_P2M), is held across every change of
 * the EPT tables (set_entry, change_type_range, teardown), every lookup
 * (get_entry: Xen's p2m rwlock read-held; here one recursive lock, so
 * lookups on two CPUs take turns), and the check-then-change sequences
 * above them (a grant or foreign mapping into a hole, a removal of what
 * was found).  The paging pool (p2m-pool.c) and the log-dirty trie are
 * under d->arch.paging.lock (LOCK_LEVEL_PAGING), taken under the p2m's
 * where both are needed (an EPT split takes a pool page).  An EPT change
 * that removes or write-protects a mapping is complete only after the
 * INVEPT, done under the lock on this CPU and, through flush_mask(), on
 * every other CPU in dirty_cpumask (the CPUs that entered a vCPU of the
 * domain, Xen's p2m->dirty_cpumask; today only CPU 0 runs guests).
 */
struct p2m_domain {
    struct domain  *domain;
    spinlock_t      lock;       /* LOCK_LEVEL_P2M, recursive */
    cpumask_t       dirty_cpumask; /* CPUs that may cache its translations */
    void           *root;       /* EPT PML4 */
    uint64_t        eptp;
    unsigned long   max_mapped_pfn;
    unsigned long   nr_table_pages;
    unsigned long   superpages_logdirty; /* 2 MiB leaves made log-dirty (split on first write) */
    struct paging_pool pool;

    /*
     * The implementation's operations (EPT: ept_p2m_init in p2m-ept.c).
     * The generic functions below check their arguments (order,
     * alignment, the gfn width) and call these.  change_type_range works
     * on [begin, end) and does not flush; flush invalidates the cached
     * translations.
     */
    int  (*set_entry)(struct p2m_domain *p2m, unsigned long gfn, unsigned long mfn,
                      unsigned int order, p2m_type_t t);
    unsigned long (*get_entry)(struct p2m_domain *p2m, unsigned long gfn, p2m_type_t *t,
                               unsigned int *order);
    int  (*change_type_range)(struct p2m_domain *p2m, unsigned long begin,
                              unsigned long end, p2m_type_t nt);
    void (*flush)(struct p2m_domain *p2m);
    void (*teardown)(struct p2m_domain *p2m);
};

#ifndef TEST_NO_MM_LOCKS         /* tests/unit/test_p2m_smp.c: shown to fail without */
#define p2m_lock(p)     spin_lock_recursive(&(p)->lock)
#define p2m_unlock(p)   spin_unlock_recursive(&(p)->lock)
#else
#define p2m_lock(p)     ((void)(p))
#define p2m_unlock(p)   ((void)(p))
#endif

/* p2m-pool.c: the paging pool (under the domain's paging lock). */
int paging_pool_init(struct domain *d);
/*
 * Grow or shrink d's pool to 'pages' (never below what is in use).
 * -ENOMEM if the heap ran out (what was added stays), -ERESTART if
 * 'preemptible' and the caller should continue.
 */
int paging_pool_set_size(struct domain *d, unsigned long pages, bool preemptible);
/* A zeroed page from d's pool, or NULL (counted in 'failed'). */
void *paging_pool_alloc(struct domain *d);
void paging_pool_free(struct domain *d, void *p);
/* Every page back to the heap; nothing may be in use. */
void paging_pool_teardown(struct domain *d);
/* Xen's dom0_paging_pages(): the pool for a domain of nr_pages, in pages. */
unsigned long paging_pool_pages_for(unsigned int vcpus, unsigned long nr_pages);

int p2m_init(struct domain *d);
/* p2m-ept.c: set up p2m as an EPT p2m (root table, operations). */
int ept_p2m_init(struct p2m_domain *p2m);
void p2m_teardown(struct domain *d);

/*
 * The highest gfn of the guest-physical address width (CPUID 0x80000008,
 * at most 48 bits): every entry point refuses a gfn beyond it.
 */
unsigned long p2m_max_gfn(void);

/* Map 2^order frames at gfn (order 0 or 9; both gfn and mfn aligned). */
int p2m_set_entry(struct domain *d, unsigned long gfn, unsigned long mfn,
                  unsigned int order, p2m_type_t t);
/* Look up one 4 KiB frame; INVALID_MFN if not mapped. */
unsigned long p2m_get_entry(struct domain *d, unsigned long gfn, p2m_type_t *t);
/* The same, with the order of the leaf that maps it (0 or 9). */
unsigned long p2m_get_entry_order(struct domain *d, unsigned long gfn, p2m_type_t *t,
                                  unsigned int *order);

/* Populate [0, nr_pages) of guest RAM with fresh, zeroed frames. */
int p2m_populate_ram(struct domain *d, unsigned long nr_pages);
/*
 * Give d the 2^order fresh frames at mfn (assign_pages: -E2BIG past
 * max_pages) and map them at gfn as RAM; on failure they are freed.
 */
int p2m_add_ram(struct domain *d, unsigned long gfn, mfn_t mfn, unsigned int order);
/* Nothing mapped in [gfn, gfn + 2^order). */
bool p2m_range_empty(struct domain *d, unsigned long gfn, unsigned int order);

/* A machine pointer to guest-physical 'gpa' if it is RAM, else NULL. */
void *p2m_map_gpa(struct domain *d, uint64_t gpa, p2m_type_t *t);

/* Invalidate the cached translations of d's p2m (EPT: INVEPT). */
void p2m_flush(struct domain *d);

/*
 * Map foreign domain fd's frame fgfn at gfn of d / undo it.  The p2m entry
 * holds a reference to the frame, dropped when it is unmapped or d's p2m
 * is torn down; frames of fd that d maps stay valid (orphaned) if fd dies
 * first (asm/mm.h).
 */
int p2m_add_foreign(struct domain *d, unsigned long gfn, struct domain *fd,
                    unsigned long fgfn);
int p2m_remove_foreign(struct domain *d, unsigned long gfn);

/*
 * The same for a frame named by its mfn (XENMEM_acquire_resource: frames
 * of fd that need not be in fd's p2m, e.g. its grant table); fd must own
 * it.  Replaces a foreign mapping at gfn, never anything else.
 */
int p2m_add_foreign_frame(struct domain *d, unsigned long gfn, struct domain *fd,
                          unsigned long mfn);

/*
 * Grant mappings (Xen's create_grant_p2m_mapping and
 * replace_grant_p2m_mapping): map mfn at gfn of d as p2m_grant_map_rw/ro,
 * only where nothing is mapped (-EBUSY otherwise, -EINVAL past the gfn
 * width); remove one, which must be that mfn's grant mapping (-EINVAL).
 * The references are the grant table's (its maptrack), not the p2m's:
 * the teardown leaves these entries alone.
 */
int p2m_add_grant_mapping(struct domain *d, unsigned long gfn, unsigned long mfn,
                          bool readonly);
int p2m_remove_grant_mapping(struct domain *d, unsigned long gfn, unsigned long mfn);

/*
 * A reference to d's own RAM frame at gfn (Xen's get_page_from_gfn), for
 * the hypervisor to keep using it whatever the guest does to its p2m
 * (vcpu_info, FIFO control blocks...); INVALID_MFN if gfn is not d's RAM.
 * Drop it with put_page().
 */
unsigned long get_page_from_gfn(struct domain *d, unsigned long gfn, p2m_type_t *t);

/* Remove whatever is at gfn from d's p2m (4 KiB, or a 2 MiB leaf with order 9). */
int p2m_remove_entry(struct domain *d, unsigned long gfn, unsigned int order);

/* Retype the RAM in [begin, begin + nr) (ram_rw <-> ram_logdirty). */
int p2m_change_type_range(struct domain *d, unsigned long begin,
                          unsigned long nr, p2m_type_t nt);
/*
 * The same without invalidating the EPT caches: for batches, which end
 * with one p2m_flush() before the domain can run again.
 */
int p2m_change_type_range_noflush(struct domain *d, unsigned long begin,
                                  unsigned long nr, p2m_type_t nt);
/* The faulting log-dirty page becomes plain RAM; no EPT flush needed. */
int p2m_relax_after_violation(struct domain *d, unsigned long gfn);

/* The hypervisor wrote to guest frame gfn on the guest's behalf. */
void p2m_note_hypervisor_write(struct domain *d, unsigned long gfn);

#endif /* __ASM_X86_P2M_H__ */
