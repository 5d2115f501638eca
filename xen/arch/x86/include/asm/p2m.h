/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The physical-to-machine map of an HVM domain: guest frame -> machine
 * frame plus a type, kept in the EPT tables themselves (the type lives in
 * ignored bits of each leaf entry, as Xen does).
 */
#ifndef __ASM_X86_P2M_H__
#define __ASM_X86_P2M_H__

#include <xen/types.h>

/* Xen's p2m type numbers. */
typedef enum {
    p2m_ram_rw          = 0,    /* normal read/write guest RAM */
    p2m_ram_logdirty    = 1,    /* RAM being tracked for dirty pages */
    p2m_ram_ro          = 2,
    p2m_mmio_dm         = 4,    /* not present: emulated or nothing */
    p2m_map_foreign     = 14,   /* another domain's frame (control domain only) */
    p2m_invalid         = 15,
} p2m_type_t;

struct p2m_domain {
    void           *root;       /* EPT PML4 */
    uint64_t        eptp;
    unsigned long   max_mapped_pfn;
    unsigned long   nr_table_pages;
    unsigned long   superpages_split;   /* 2 MiB leaves split to 4 KiB */
    struct foreign_map *foreign;    /* frames of other domains mapped here */
};

struct foreign_map {
    struct foreign_map *next;
    unsigned long gfn;              /* where, in this domain */
    uint16_t      owner;            /* whose frame */
    bool          orphan;           /* the owner is gone: the frame is ours to free */
    unsigned long fgfn;             /* the frame's gfn in the owner */
    unsigned long mfn;
};

/* The highest gfn the 4-level EPT can map (48-bit guest-physical). */
#define P2M_MAX_GFN ((1UL << (48 - 12)) - 1)

struct domain;

int p2m_init(struct domain *d);
void p2m_teardown(struct domain *d);

/* Map 2^order frames at gfn (order 0 or 9; both gfn and mfn aligned). */
int p2m_set_entry(struct domain *d, unsigned long gfn, unsigned long mfn,
                  unsigned int order, p2m_type_t t);
/* Look up one 4 KiB frame; INVALID_MFN if not mapped. */
unsigned long p2m_get_entry(struct domain *d, unsigned long gfn, p2m_type_t *t);

/* Populate [0, nr_pages) of guest RAM with fresh, zeroed frames. */
int p2m_populate_ram(struct domain *d, unsigned long nr_pages);

/* A machine pointer to guest-physical 'gpa' if it is RAM, else NULL. */
void *p2m_map_gpa(struct domain *d, uint64_t gpa, p2m_type_t *t);

void ept_sync_domain(struct domain *d);

/* Map foreign domain fd's frame fgfn at gfn of d / undo it. */
int p2m_add_foreign(struct domain *d, unsigned long gfn, struct domain *fd,
                    unsigned long fgfn);
int p2m_remove_foreign(struct domain *d, unsigned long gfn);
/*
 * fd is going away.  Frames of fd that other domains map are taken out of
 * fd's p2m before it is freed and stay valid where they are mapped, until
 * unmapped (as a page reference keeps them in Xen); fd's own mappings of
 * others' frames are dropped.
 */
void p2m_drop_foreign_mappings_of(struct domain *fd);

/* Retype the RAM in [begin, begin + nr) (ram_rw <-> ram_logdirty). */
int p2m_change_type_range(struct domain *d, unsigned long begin,
                          unsigned long nr, p2m_type_t nt);
/* The faulting log-dirty page becomes plain RAM; no EPT flush needed. */
int p2m_relax_after_violation(struct domain *d, unsigned long gfn);

/* The hypervisor wrote to guest frame gfn on the guest's behalf. */
void p2m_note_hypervisor_write(struct domain *d, unsigned long gfn);

#endif /* __ASM_X86_P2M_H__ */
