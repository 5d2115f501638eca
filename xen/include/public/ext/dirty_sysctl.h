/* SPDX-License-Identifier: MIT */
/*
 * This project's extension to the sysctl interface (NOT in Xen): the
 * dirty-tracking and VM-exit counters of every domain in one call, for
 * xentop (`xl top`).  Counters only: it never CLEANs or PEEKs a log-dirty
 * bitmap, so a monitor can never take dirty pages from a migration or a
 * VRAM consumer.
 *
 * XEN_SYSCTL_get_dirty_stats_all, in the ordinary struct xen_sysctl
 * envelope (control domain only, -EPERM otherwise; its arguments overlay
 * the union 'u').  Xen's sysctls are < 0x100; this number is far above.
 *
 *   IN   max_domains, max_vcpus: room in 'domains' and 'vcpus' (records)
 *   OUT  nr_domains, nr_vcpus:   records needed for every domain now
 *   OUT  now: the hypervisor's system time (ns) when the counters were
 *        read, so that rates are per interval of the sampler's own clock
 *        however late the caller runs
 *
 * Both handles null: a size query (0, nr_* filled in, nothing written).
 * Otherwise both must be non-null with room > 0, each at most
 * XEN_DIRTY_SYSCTL_MAX_* records (-EINVAL), and both buffers writable in
 * full (-EFAULT, checked before anything is written).  Not enough room
 * for every domain, or for their vCPUs: -ENOBUFS with nr_* set (nothing
 * written), as Xen's cputopoinfo.  On success the domains are in domid
 * order and the vCPU records of domain i follow those of domain i - 1,
 * domains[i].nr_vcpus of them (vcpus[domains[i].first_vcpu ...]).
 */
#ifndef __LOCAL_PUBLIC_EXT_DIRTY_SYSCTL_H__
#define __LOCAL_PUBLIC_EXT_DIRTY_SYSCTL_H__

#include "../xen.h"
#include "dirty_stats.h"

#define XEN_SYSCTL_get_dirty_stats_all  0x4000

#define XEN_DIRTY_SYSCTL_MAX_DOMAINS    1024
#define XEN_DIRTY_SYSCTL_MAX_VCPUS      (1024 * 8)

#ifndef __ASSEMBLY__

/* One vCPU's cumulative counters (since the domain was created). */
struct xen_dirty_sysctl_vcpu {
    uint64_aligned_t pages_dirtied;     /* 0->1 log-dirty transitions here */
    uint64_aligned_t pml_full_exits;    /* EXIT_REASON_PML_FULL */
    uint64_aligned_t wp_faults;         /* write faults on write-protected pages */
    uint64_aligned_t ple_exits;         /* EXIT_REASON_PAUSE_INSTRUCTION */
    uint64_aligned_t writes_logged;     /* every logged write, bit set or not */
};
typedef struct xen_dirty_sysctl_vcpu xen_dirty_sysctl_vcpu_t;
DEFINE_XEN_GUEST_HANDLE(xen_dirty_sysctl_vcpu_t);

/* One domain. */
struct xen_dirty_sysctl_domain {
    uint32_t domid;
    uint32_t flags;                     /* XEN_DOMINF_* as getdomaininfo */
    uint32_t nr_vcpus;                  /* vCPU records of this domain */
    uint32_t first_vcpu;                /* index of the first in 'vcpus' */
    uint32_t mode;                      /* XEN_DIRTY_MODE_* (0: off) */
    uint32_t mechanism;                 /* XEN_DIRTY_MECH_* */
    uint64_aligned_t tot_pages;
    uint64_aligned_t pages_dirtied;     /* the domain's total (0->1) */
    uint64_aligned_t pml_full_exits;    /* sums over its vCPUs */
    uint64_aligned_t wp_faults;
    uint64_aligned_t ple_exits;
    uint64_aligned_t exits_total;
    uint64_aligned_t writes_logged;     /* every logged write, bit set or not */
};
typedef struct xen_dirty_sysctl_domain xen_dirty_sysctl_domain_t;
DEFINE_XEN_GUEST_HANDLE(xen_dirty_sysctl_domain_t);

struct xen_sysctl_dirty_stats_all {
    uint32_t max_domains;               /* IN */
    uint32_t max_vcpus;                 /* IN */
    uint32_t nr_domains;                /* OUT */
    uint32_t nr_vcpus;                  /* OUT */
    XEN_GUEST_HANDLE_64(xen_dirty_sysctl_domain_t) domains;
    XEN_GUEST_HANDLE_64(xen_dirty_sysctl_vcpu_t) vcpus;
    uint64_aligned_t now;               /* OUT: system time (ns) of the sample */
};
typedef struct xen_sysctl_dirty_stats_all xen_sysctl_dirty_stats_all_t;

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_EXT_DIRTY_SYSCTL_H__ */
