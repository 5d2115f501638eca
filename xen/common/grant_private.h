/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The grant table's own structures, shared by common/grant_table.c (the
 * table: frames, versions, sizes, the hypercall) and common/grant_map.c
 * (using other domains' grants: map, unmap, copy, release at death).
 */
#ifndef __COMMON_GRANT_PRIVATE_H__
#define __COMMON_GRANT_PRIVATE_H__

#include <xen/grant_table.h>
#include <xen/guest_access.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/rwlock.h>
#include <xen/sched.h>
#include <xen/spinlock.h>
#include <asm/config.h>
#include <asm/grant_table.h>

/*
 * Guest-caused failures of single operations: at debug level (hidden by
 * default), as Xen's gdprintk is compiled out of release builds, so that
 * a guest cannot fill the log.
 */
#define gdprintk(d, fmt, ...) \
    printk(XENLOG_G_DEBUG "d%u: gnttab: " fmt, (d)->domain_id, ##__VA_ARGS__)

/* smp_mb(): asm/system.h's (a full fence; xen/sched.h brings it now too). */
#include <asm/system.h>

/* The command's upper bits carry continuation state (part of the ABI: Xen's). */
#define GNTTABOP_CONTINUATION_ARG_SHIFT 12
#define GNTTABOP_CMD_MASK               ((1U << GNTTABOP_CONTINUATION_ARG_SHIFT) - 1)
#define GNTTABOP_ARG_MASK               (~GNTTABOP_CMD_MASK)

/*
 * One per grant: Xen's four 8-bit pin counts (host and device mappings,
 * writable and read-only; copies pin as host mappings while they run),
 * and what the first pin found.  Every field is read and changed under
 * lock (Xen's act->lock, taken by active_entry_acquire() with the table's
 * lock held for reading, or any number of them under its write lock).
 */
struct active_grant_entry {
    spinlock_t    lock;         /* LOCK_LEVEL_GNTTAB_ACTIVE */
    uint32_t      pin;
#define GNTPIN_cntr_width    8
#define GNTPIN_cntr_mask     ((1U << GNTPIN_cntr_width) - 1)
#define GNTPIN_hstw_shift    0
#define GNTPIN_hstw_inc      (1U << GNTPIN_hstw_shift)
#define GNTPIN_hstw_mask     (GNTPIN_cntr_mask << GNTPIN_hstw_shift)
#define GNTPIN_hstr_shift    (GNTPIN_hstw_shift + GNTPIN_cntr_width)
#define GNTPIN_hstr_inc      (1U << GNTPIN_hstr_shift)
#define GNTPIN_hstr_mask     (GNTPIN_cntr_mask << GNTPIN_hstr_shift)
#define GNTPIN_devw_shift    (GNTPIN_hstr_shift + GNTPIN_cntr_width)
#define GNTPIN_devw_inc      (1U << GNTPIN_devw_shift)
#define GNTPIN_devw_mask     (GNTPIN_cntr_mask << GNTPIN_devw_shift)
#define GNTPIN_devr_shift    (GNTPIN_devw_shift + GNTPIN_cntr_width)
#define GNTPIN_devr_inc      (1U << GNTPIN_devr_shift)
#define GNTPIN_devr_mask     (GNTPIN_cntr_mask << GNTPIN_devr_shift)
/* The counts an increment touches, at their top bit: set means full. */
#define GNTPIN_incr2oflow_mask(x) ((x) << (GNTPIN_cntr_width - 1))
    domid_t       domid;        /* who pinned it */
    domid_t       trans_domid;  /* whose frame it is (transitive: the other domain) */
    uint16_t      start:15;     /* sub-page grants: the bytes granted */
    uint16_t      is_sub_page:1;   /* also set for transitive grants: not mappable */
    uint16_t      length;
    grant_ref_t   trans_gref;   /* transitive grants: the grant in trans_domid */
    unsigned long mfn;          /* the pinned frame */
    unsigned long gfn;          /* the granter's gfn of it (INVALID_GFN: transitive) */
};

#define ACGNT_PER_PAGE (PAGE_SIZE / sizeof(struct active_grant_entry))

/*
 * One per mapping a domain holds, indexed by its handle (Xen's
 * grant_mapping, with the frame and the granter's table id where Xen has
 * the vCPU: a mapping is undone even after its granter died).  As in Xen,
 * an entry is filled in with flags written last (smp_wmb), a user reads
 * flags first, and an unmap changes it only under the granter's active
 * entry lock (two unmaps of one handle: the second finds flags 0), or,
 * for a mapping whose granter is gone, under the mapper's maptrack_lock.
 * On the free list, ref links to the next free handle.
 */
struct grant_mapping {
    grant_ref_t ref;            /* free: the next free handle */
    uint16_t    flags;          /* GNTMAP_*; 0: free */
    domid_t     domid;          /* the granter */
    uint32_t    mfn;            /* the frame */
    uint32_t    table_id;       /* the granter's table (grant_table.id) */
};

#define MAPTRACK_PER_PAGE       (PAGE_SIZE / sizeof(struct grant_mapping))
#define MAPTRACK_TAIL           (~0U)
#define INVALID_MAPTRACK_HANDLE (~0U)
/* Frames are below DIRECTMAP_SIZE: a 32-bit mfn is enough. */
_Static_assert((DIRECTMAP_SIZE >> PAGE_SHIFT) <= (1ULL << 32), "maptrack mfn width");

/* A frame of the table (shared or status), and where the domain maps it. */
struct grant_frame {
    unsigned long mfn;
    unsigned long gfn;          /* in the owner's p2m, INVALID_GFN if not */
};

/*
 * The locks (Xen's, docs/design.md "Locks and their order"):
 *   lock          Xen's gt->lock, a rwlock: held for reading by everything
 *                 that uses the table (map, unmap, copy, query, the pins of
 *                 a dying mapper's release), for writing by everything that
 *                 changes its shape (growing, set_version, setup_table,
 *                 swap, frames into the physmap, destruction): the version,
 *                 nr_*_frames, the frame arrays, the active pages, id;
 *   maptrack_lock the maptrack of the domain's own mappings: its pages,
 *                 maptrack_limit and the free list (Xen has per-vCPU free
 *                 lists under their own locks; one list under this lock
 *                 is its simpler equivalent, handles numbered alike).
 */
struct grant_table {
    rwlock_t      lock;         /* LOCK_LEVEL_GNTTAB */
    spinlock_t    maptrack_lock; /* LOCK_LEVEL_MAPTRACK */
    struct domain *domain;
    uint32_t      id;           /* unique: mappings name their granter's table; 0: destroyed */
    unsigned int  gt_version;   /* 1 or 2 (GNTTABOP_set_version) */
    unsigned int  max_version;  /* from createdomain's grant_opts */
    unsigned int  max_grant_frames, max_maptrack_frames;
    unsigned int  nr_grant_frames, nr_status_frames;
    struct grant_frame *shared; /* [max_grant_frames] */
    struct grant_frame *status; /* [grant_to_status_frames(max_grant_frames)] */
    struct active_grant_entry **active;     /* pages of entries */
    struct grant_mapping **maptrack;        /* [max_maptrack_frames] pages */
    unsigned int  maptrack_limit;           /* handles [0, limit) exist */
    grant_handle_t maptrack_free;           /* free list, MAPTRACK_TAIL: empty */
};

#define SHGNT_PER_PAGE_V1       (PAGE_SIZE / sizeof(grant_entry_v1_t))
#define SHGNT_PER_PAGE_V2       (PAGE_SIZE / sizeof(grant_entry_v2_t))
#define STGNT_PER_PAGE          (PAGE_SIZE / sizeof(grant_status_t))

/* Status frames for the entries of n v2 shared frames, and back (Xen's). */
static inline unsigned int grant_to_status_frames(unsigned int n)
{
    return DIV_ROUND_UP(n * SHGNT_PER_PAGE_V2, STGNT_PER_PAGE);
}

static inline unsigned int status_to_grant_frames(unsigned int n)
{
    return DIV_ROUND_UP(n * STGNT_PER_PAGE, SHGNT_PER_PAGE_V2);
}

/* Active pages for n shared frames (sized for v1 entries, the denser). */
static inline unsigned int num_act_frames(unsigned int n)
{
    return DIV_ROUND_UP(n * SHGNT_PER_PAGE_V1, ACGNT_PER_PAGE);
}

static inline unsigned int nr_grant_entries(const struct grant_table *gt)
{
    return gt->nr_grant_frames * (gt->gt_version == 1 ? SHGNT_PER_PAGE_V1 : SHGNT_PER_PAGE_V2);
}

static inline unsigned int nr_maptrack_frames(const struct grant_table *gt)
{
    return gt->maptrack_limit / MAPTRACK_PER_PAGE;
}

/* The caller checked the bounds (ref < nr_grant_entries, handle < limit). */
static inline grant_entry_v1_t *shared_entry_v1(const struct grant_table *gt, grant_ref_t ref)
{
    return (grant_entry_v1_t *)mfn_to_virt(gt->shared[ref / SHGNT_PER_PAGE_V1].mfn) +
           ref % SHGNT_PER_PAGE_V1;
}

static inline grant_entry_v2_t *shared_entry_v2(const struct grant_table *gt, grant_ref_t ref)
{
    return (grant_entry_v2_t *)mfn_to_virt(gt->shared[ref / SHGNT_PER_PAGE_V2].mfn) +
           ref % SHGNT_PER_PAGE_V2;
}

static inline grant_status_t *status_entry(const struct grant_table *gt, grant_ref_t ref)
{
    return (grant_status_t *)mfn_to_virt(gt->status[ref / STGNT_PER_PAGE].mfn) +
           ref % STGNT_PER_PAGE;
}

static inline grant_entry_header_t *shared_entry_header(const struct grant_table *gt,
                                                        grant_ref_t ref)
{
    if ( gt->gt_version == 1 )
        return (grant_entry_header_t *)shared_entry_v1(gt, ref);
    return &shared_entry_v2(gt, ref)->hdr;
}

/* The gfn a full-page grant names (v1: 32 bits; v2: 64). */
static inline unsigned long shared_entry_frame(const struct grant_table *gt, grant_ref_t ref)
{
    if ( gt->gt_version == 1 )
        return ACCESS_ONCE(shared_entry_v1(gt, ref)->frame);
    return ACCESS_ONCE(shared_entry_v2(gt, ref)->full_page.frame);
}

static inline struct active_grant_entry *active_entry(const struct grant_table *gt,
                                                      grant_ref_t ref)
{
    return &gt->active[ref / ACGNT_PER_PAGE][ref % ACGNT_PER_PAGE];
}

/* Xen's: the caller holds gt->lock (for reading, or writing). */
static inline struct active_grant_entry *active_entry_acquire(struct grant_table *gt,
                                                              grant_ref_t ref)
{
    struct active_grant_entry *act;

    act = active_entry(gt, ref);
#ifndef TEST_NO_GNTTAB_LOCKS
    ASSERT(rw_is_locked(&gt->lock));
    spin_lock(&act->lock);
#endif
    return act;
}

static inline void active_entry_release(struct active_grant_entry *act)
{
#ifndef TEST_NO_GNTTAB_LOCKS
    spin_unlock(&act->lock);
#else
    (void)act;
#endif
}

/*
 * Xen's grant_read_lock() and friends.  (tests/unit/test_gnttab_smp.c
 * compiles them and the entry locks out with TEST_NO_GNTTAB_LOCKS, to
 * show what they prevent.)
 */
#ifndef TEST_NO_GNTTAB_LOCKS
#define grant_read_lock(gt)     read_lock(&(gt)->lock)
#define grant_read_unlock(gt)   read_unlock(&(gt)->lock)
#define grant_write_lock(gt)    write_lock(&(gt)->lock)
#define grant_write_unlock(gt)  write_unlock(&(gt)->lock)
#else
#define grant_read_lock(gt)     ((void)(gt))
#define grant_read_unlock(gt)   ((void)(gt))
#define grant_write_lock(gt)    ((void)(gt))
#define grant_write_unlock(gt)  ((void)(gt))
#endif

/* A table still in use (destruction set its id to 0 under the write lock). */
static inline bool gnttab_alive(const struct grant_table *gt)
{
    return gt && gt->id;
}

static inline struct grant_mapping *maptrack_entry(const struct grant_table *gt,
                                                   grant_handle_t handle)
{
    return &gt->maptrack[handle / MAPTRACK_PER_PAGE][handle % MAPTRACK_PER_PAGE];
}

extern bool opt_transitive_grants, opt_grant_transfer;

/* grant_table.c */
/* The pages of d's active table and maptrack (bounded by d's limits). */
void *gnttab_alloc_page(struct domain *d);
void gnttab_free_page(struct domain *d, void *p);
int gnttab_grow_table(struct domain *d, unsigned int req);
/* Claim a grant's first (or first writable) use in the granter's entry. */
int gnttab_set_status(struct grant_table *rgt, grant_ref_t ref,
                      const struct active_grant_entry *act, bool readonly, bool mapflag,
                      domid_t ldomid);
void gnttab_reduce_status(const struct active_grant_entry *act, uint16_t *status,
                          bool readonly);
/* The word holding a grant's GTF_reading/GTF_writing (v1 flags, v2 status). */
uint16_t *gnttab_status_word(struct grant_table *gt, grant_ref_t ref);
int gnttab_get_frame(struct domain *rd, unsigned long gfn, bool readonly,
                     unsigned long *mfn);

/* grant_map.c: the operations on other domains' grants. */
long gnttab_map_grant_ref(XEN_GUEST_HANDLE_PARAM(gnttab_map_grant_ref_t) uop,
                          unsigned int count);
long gnttab_unmap_grant_ref(XEN_GUEST_HANDLE_PARAM(gnttab_unmap_grant_ref_t) uop,
                            unsigned int count);
long gnttab_unmap_and_replace(XEN_GUEST_HANDLE_PARAM(gnttab_unmap_and_replace_t) uop,
                              unsigned int count);
long gnttab_copy(XEN_GUEST_HANDLE_PARAM(gnttab_copy_t) uop, unsigned int count);
long gnttab_transfer(XEN_GUEST_HANDLE_PARAM(gnttab_transfer_t) uop, unsigned int count);
long gnttab_cache_flush(XEN_GUEST_HANDLE_PARAM(gnttab_cache_flush_t) uop,
                        grant_ref_t *cur_ref, unsigned int count);

#endif /* __COMMON_GRANT_PRIVATE_H__ */
