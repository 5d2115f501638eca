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
};
typedef struct xen_domctl_dirty_stats xen_domctl_dirty_stats_t;

/* XEN_DOMCTL_get_exit_counts: counts[reason] for one vCPU */
struct xen_domctl_exit_counts {
    uint32_t vcpu;              /* IN */
    uint32_t nr_reasons;        /* IN: room in 'counts'; OUT: reasons counted */
    XEN_GUEST_HANDLE_64(uint64) counts;  /* OUT */
};
typedef struct xen_domctl_exit_counts xen_domctl_exit_counts_t;

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_EXT_DIRTY_STATS_H__ */
