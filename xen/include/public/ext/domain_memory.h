/* SPDX-License-Identifier: MIT */
/*
 * This project's extension to the domctl interface (NOT in Xen): what a
 * domain holds of the host's memory, and its bounds, for the toolstack and
 * for tests (docs/misc/security.md, "What a domain can make the hypervisor
 * allocate").  Xen reports part of this in getdomaininfo (tot_pages,
 * max_pages) and XEN_DOMCTL_get_paging_mempool_size; the rest has no Xen
 * interface.  For the control domain only, like every domctl; the same
 * envelope and number range as public/ext/dirty_stats.h.
 */
#ifndef __LOCAL_PUBLIC_EXT_DOMAIN_MEMORY_H__
#define __LOCAL_PUBLIC_EXT_DOMAIN_MEMORY_H__

#include "../xen.h"

#define XEN_DOMCTL_get_domain_memory    0x4004

#ifndef __ASSEMBLY__

/* XEN_DOMCTL_get_domain_memory: every field OUT, in 4 KiB pages unless said. */
struct xen_domctl_domain_memory {
    uint64_aligned_t tot_pages;     /* frames the domain owns, mapped or not */
    uint64_aligned_t max_pages;     /* their bound (XEN_DOMCTL_max_mem) */
    uint64_aligned_t xenheap_pages; /* hypervisor pages shared with it (shared_info) */
    uint64_aligned_t pool_pages;    /* its paging pool (EPT tables, log-dirty trie) */
    uint64_aligned_t pool_used;     /* ... in use now */
    uint64_aligned_t pool_peak;     /* ... the most in use at once */
    uint64_aligned_t pool_failed;   /* allocations the pool could not serve */
    uint64_aligned_t heap_pages;    /* hypervisor heap kept on its behalf */
    uint64_aligned_t heap_peak;     /* ... the most at once */
    uint64_aligned_t heap_limit;    /* ... its bound */
    uint64_aligned_t heap_failed;   /* allocations refused (limit or heap) */
    uint32_t max_evtchn_port;       /* ports 1..max_evtchn_port may be allocated */
    uint32_t evtchn_ports;          /* ports whose structures exist now */
    uint64_aligned_t orphaned_pages; /* host-wide: frames whose owner died, still mapped */
};
typedef struct xen_domctl_domain_memory xen_domctl_domain_memory_t;

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_EXT_DOMAIN_MEMORY_H__ */
