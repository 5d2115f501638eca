/* SPDX-License-Identifier: MIT */
/*
 * This project's extension to the domctl interface (NOT in Xen): counters
 * for dirty-page tracking and VM exits, for the toolstack and the monitor.
 *
 * The commands use numbers far above Xen's (Xen's domctls are < 0x400, gdbsx
 * uses 1000-1003) and the ordinary struct xen_domctl envelope; their
 * arguments overlay its union 'u' (128 bytes).  Like every domctl they are
 * for the control domain only.
 */
#ifndef __LOCAL_PUBLIC_EXT_DIRTY_STATS_H__
#define __LOCAL_PUBLIC_EXT_DIRTY_STATS_H__

#include "../xen.h"

#define XEN_DOMCTL_get_dirty_stats      0x4000
#define XEN_DOMCTL_get_exit_counts      0x4001
#define XEN_DOMCTL_get_dirty_blocks     0x4002
#define XEN_DOMCTL_dirty_rearm          0x4003

/* xen_domctl_dirty_stats.mode: which tracking is active (bit mask) */
#define XEN_DIRTY_MODE_LOGDIRTY     (1u << 0)   /* global log-dirty (shadow_op) */
#define XEN_DIRTY_MODE_VRAM         (1u << 1)   /* dm_op track_dirty_vram */

/* xen_domctl_dirty_stats.mechanism */
#define XEN_DIRTY_MECH_NONE         0
#define XEN_DIRTY_MECH_PML          1           /* Page Modification Logging */
#define XEN_DIRTY_MECH_WP           2           /* write protection */

#ifndef __ASSEMBLY__

/* Per-vCPU counters (since the domain was created). */
struct xen_dirty_vcpu_stats {
    uint64_t pml_full_exits;    /* EXIT_REASON_PML_FULL */
    uint64_t pml_entries;       /* GPAs taken from this vCPU's PML buffer */
    uint64_t wp_faults;         /* write faults on write-protected pages */
    uint64_t pages_dirtied;     /* 0->1 bitmap transitions caused here */
    uint64_t ple_exits;         /* EXIT_REASON_PAUSE_INSTRUCTION */
    uint64_t exits_total;       /* all VM exits */
    uint64_t writes_logged;     /* writes logged here, bit already set or not */
};
typedef struct xen_dirty_vcpu_stats xen_dirty_vcpu_stats_t;
DEFINE_XEN_GUEST_HANDLE(xen_dirty_vcpu_stats_t);

/* XEN_DOMCTL_get_dirty_stats */
struct xen_domctl_dirty_stats {
    uint32_t mode;              /* OUT: XEN_DIRTY_MODE_* */
    uint32_t mechanism;         /* OUT: XEN_DIRTY_MECH_* */
    uint32_t nr_vcpus;          /* IN: room in 'vcpus'; OUT: vCPUs of the domain */
    uint32_t pad;
    uint64_aligned_t dirty_pages;       /* OUT: pages marked dirty (0->1), in total */
    uint64_aligned_t fault_count;       /* OUT: write faults while tracked */
    uint64_aligned_t pml_full_exits;    /* OUT: sum over vCPUs */
    uint64_aligned_t clean_calls;       /* OUT: SHADOW_OP_CLEAN */
    uint64_aligned_t peek_calls;        /* OUT: SHADOW_OP_PEEK */
    uint64_aligned_t vram_calls;        /* OUT: track_dirty_vram */
    XEN_GUEST_HANDLE_64(xen_dirty_vcpu_stats_t) vcpus; /* OUT, may be null */
    uint64_aligned_t superpages_split;  /* OUT: 2 MiB mappings split to 4 KiB */
    uint64_aligned_t clean_preempted;   /* OUT: CLEAN/PEEK preempted and continued */
    uint64_aligned_t writes_logged;     /* OUT: writes logged, bit set or not */
    uint64_aligned_t rearm_calls;       /* OUT: XEN_DOMCTL_dirty_rearm */
    uint64_aligned_t rearm_pages;       /* OUT: pages those re-armed */
    uint64_aligned_t rearm_preempted;   /* OUT: re-arms preempted and continued */
};
typedef struct xen_domctl_dirty_stats xen_domctl_dirty_stats_t;

/* XEN_DOMCTL_get_exit_counts: counts[reason] for one vCPU */
struct xen_domctl_exit_counts {
    uint32_t vcpu;              /* IN */
    uint32_t nr_reasons;        /* IN: room in 'counts'; OUT: reasons counted */
    XEN_GUEST_HANDLE_64(uint64) counts;  /* OUT */
};
typedef struct xen_domctl_exit_counts xen_domctl_exit_counts_t;

/*
 * XEN_DOMCTL_get_dirty_blocks: per block of the domain's guest-physical
 * memory, for xentop's heat map, one of two counters ('counter', IN):
 * XEN_DIRTY_BLOCKS_NEWLY, pages newly dirtied (log-dirty 0->1
 * transitions, the same events as pages_dirtied), or
 * XEN_DIRTY_BLOCKS_LOGGED, writes logged (the same events as
 * writes_logged: they go on after a XEN_DOMCTL_dirty_rearm).  Counters
 * only: no bitmap is cleaned or peeked.
 *
 * The counters are made the first time tracking is switched on for the
 * domain (global log-dirty or VRAM), for pfns [0, highest RAM pfn mapped
 * then]: blocks of 2 MiB (block_shift 9), or the smallest power-of-two
 * multiple of that which needs at most XEN_DIRTY_BLOCKS_MAX blocks.  They
 * stay, cumulative, until the domain is destroyed (they stand still while
 * tracking is off); pages dirtied above the last block are not counted
 * per block.  nr_blocks 0 on return: the domain was never tracked (or
 * the counters could not be allocated).
 *
 *   IN   nr_blocks: room in 'counts' (records)
 *   IN   counter: XEN_DIRTY_BLOCKS_*; pad: 0 (-EINVAL otherwise)
 *   OUT  nr_blocks: blocks counted;  block_shift: log2(pfns per block)
 *   OUT  vram_first_pfn, vram_nr: the dirty-VRAM range (nr 0: none)
 *   OUT  now: the hypervisor's system time (ns) when they were read
 *
 * 'counts' null with nr_blocks 0: a size query.  One without the other,
 * or room above XEN_DIRTY_BLOCKS_MAX: -EINVAL.  A buffer not writable in
 * full: -EFAULT (checked before anything is written).  Less room than
 * blocks: -ENOBUFS with nr_blocks set, nothing written.
 */
#define XEN_DIRTY_BLOCKS_MAX        1024
#define XEN_DIRTY_BLOCK_SHIFT_MIN   9           /* 2 MiB */
#define XEN_DIRTY_BLOCKS_NEWLY      0           /* 0->1 transitions */
#define XEN_DIRTY_BLOCKS_LOGGED     1           /* every logged write */

struct xen_domctl_dirty_blocks {
    uint32_t nr_blocks;         /* IN: room; OUT: blocks counted */
    uint32_t block_shift;       /* OUT */
    uint64_aligned_t vram_first_pfn;    /* OUT */
    uint64_aligned_t vram_nr;           /* OUT */
    uint64_aligned_t now;               /* OUT */
    XEN_GUEST_HANDLE_64(uint64) counts; /* OUT: counts[block] */
    uint32_t counter;           /* IN: XEN_DIRTY_BLOCKS_* */
    uint32_t pad;               /* IN: 0 */
};
typedef struct xen_domctl_dirty_blocks xen_domctl_dirty_blocks_t;

/*
 * XEN_DOMCTL_dirty_rearm: re-arm log-dirty tracking of the pages written
 * since they were last armed, WITHOUT touching the log-dirty bitmap, so
 * that their next write is logged (and counted in writes_logged) again.
 * For a monitor that needs rates while nothing CLEANs the domain (xentop
 * when it switched tracking on itself): a CLEAN or VRAM read by any
 * consumer returns exactly what it would have without these calls.
 *
 * A page is disarmed exactly when it was written since it was armed, and
 * then its bit is set, so the pages re-armed are the tracked pages whose
 * bits are set (after the PML buffers are drained): under PML their EPT
 * dirty flag is cleared, under write protection they are made read-only
 * again.  The cost is that of the pages dirtied, not the guest's size;
 * preemptible every 4096 pfns, as CLEAN.  Write protection / PML-full
 * exits the guest pays for its next writes are counted as usual.
 *
 *   IN   flags, pad: must be 0 (-EINVAL)
 *   OUT  pages: pages re-armed
 *
 * Log-dirty off (nothing tracked): -EINVAL, as CLEAN.  The calling
 * domain itself: -EINVAL.  One re-arm at a time per domain: another
 * caller's while one is preempted: -EBUSY.
 */
struct xen_domctl_dirty_rearm {
    uint32_t flags;             /* IN: 0 */
    uint32_t pad;               /* IN: 0 */
    uint64_aligned_t pages;     /* OUT */
};
typedef struct xen_domctl_dirty_rearm xen_domctl_dirty_rearm_t;

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_EXT_DIRTY_STATS_H__ */
