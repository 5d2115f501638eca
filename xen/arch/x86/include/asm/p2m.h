/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The physical-to-machine map of an HVM domain: guest frame -> machine
 * frame plus a type, kept in the EPT tables themselves (the type lives in
 * ignored bits of each leaf entry, as Xen does).
 */
#ifndef __ASM_X86_P2M_H__
#define __ASM_X86_P2M_H__

#include <xen/types.h>

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

struct p2m_domain {
    struct domain  *domain;
    void           *root;       /* EPT PML4 */
    uint64_t        eptp;
    unsigned long   max_mapped_pfn;
    unsigned long   nr_table_pages;
    unsigned long   superpages_logdirty; /* 2 MiB leaves made log-dirty (split on first write) */
    struct foreign_map *foreign;    /* frames of other domains mapped here */

    /*
     * The implementation's operations (EPT: ept_p2m_init in p2m-ept.c).
     * The generic functions below check their arguments (order,
     * alignment, the gfn width) and call these.  change_type_range works
     * on [begin, end) and does not flush; flush invalidates the cached
     * translations.
     */
    int  (*set_entry)(struct p2m_domain *p2m, unsigned long gfn, unsigned long mfn,
                      unsigned int order, p2m_type_t t);
    unsigned long (*get_entry)(struct p2m_domain *p2m, unsigned long gfn, p2m_type_t *t);
    int  (*change_type_range)(struct p2m_domain *p2m, unsigned long begin,
                              unsigned long end, p2m_type_t nt);
    void (*flush)(struct p2m_domain *p2m);
    void (*teardown)(struct p2m_domain *p2m);
};

struct foreign_map {
    struct foreign_map *next;
    unsigned long gfn;              /* where, in this domain */
    uint16_t      owner;            /* whose frame (when mapped) */
    unsigned long fgfn;             /* the frame's gfn in the owner */
    unsigned long mfn;
};

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

/* Populate [0, nr_pages) of guest RAM with fresh, zeroed frames. */
int p2m_populate_ram(struct domain *d, unsigned long nr_pages);

/* A machine pointer to guest-physical 'gpa' if it is RAM, else NULL. */
void *p2m_map_gpa(struct domain *d, uint64_t gpa, p2m_type_t *t);

/* Invalidate the cached translations of d's p2m (EPT: INVEPT). */
void p2m_flush(struct domain *d);

/* Map foreign domain fd's frame fgfn at gfn of d / undo it. */
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
 * fd is going away: drop its own foreign mappings.  Frames of fd that
 * other domains map stay valid where they are mapped (their references
 * keep them, asm/mm.h) until unmapped.
 */
void p2m_drop_foreign_mappings_of(struct domain *fd);

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
