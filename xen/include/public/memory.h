/* SPDX-License-Identifier: MIT */
/*
 * __HYPERVISOR_memory_op(cmd, arg): a domain's memory reservation, its
 * physical map (p2m) and the host memory map.
 */

#ifndef __LOCAL_PUBLIC_MEMORY_H__
#define __LOCAL_PUBLIC_MEMORY_H__

#include "xen.h"

/* Reservation changes; arg: struct xen_memory_reservation. */
#define XENMEM_increase_reservation 0
#define XENMEM_decrease_reservation 1
#define XENMEM_populate_physmap     6

/* Returns the highest machine frame number; arg: NULL. */
#define XENMEM_maximum_ram_page     2
/* Return page counts; arg: domid_t. */
#define XENMEM_current_reservation  3
#define XENMEM_maximum_reservation  4
#define XENMEM_machphys_mfn_list    5
#define XENMEM_add_to_physmap       7
/* 8 is unused */
#define XENMEM_memory_map           9
#define XENMEM_machine_memory_map   10
#define XENMEM_exchange             11
#define XENMEM_machphys_mapping     12
#define XENMEM_set_memory_map       13
/* Returns the highest gfn of a domain; arg: domid_t. */
#define XENMEM_maximum_gpfn         14
#define XENMEM_remove_from_physmap  15
#define XENMEM_set_pod_target       16
#define XENMEM_get_pod_target       17
#if defined(__XEN__) || defined(__XEN_TOOLS__)
#define XENMEM_get_sharing_freed_pages  18
#define XENMEM_get_sharing_shared_pages 19
#define XENMEM_paging_op                20
#define XENMEM_access_op                21
#define XENMEM_sharing_op               22
#endif
#define XENMEM_add_to_physmap_batch 23
#if defined(__XEN__) || defined(__XEN_TOOLS__)
#define XENMEM_claim_pages          24
#endif
#define XENMEM_machphys_compat_mfn_list 25
#define XENMEM_get_vnumainfo        26
#if defined(__XEN__) || defined(__XEN_TOOLS__)
#define XENMEM_reserved_device_memory_map 27
#endif
#define XENMEM_acquire_resource     28

/*
 * xen_memory_reservation.mem_flags: bits 0-7 maximum address width of
 * the frames, bits 8-15 NUMA node + 1, then single-bit options.
 */
#define XENMEMF_address_bits(x)     (x)
#define XENMEMF_get_address_bits(x) ((x) & 0xffu)
#define XENMEMF_node(x)             (((x) + 1) << 8)
#define XENMEMF_get_node(x)         ((((x) >> 8) - 1) & 0xffu)
#define XENMEMF_populate_on_demand  (1 << 16)
#define XENMEMF_exact_node_request  (1 << 17)
#define XENMEMF_exact_node(n)       (XENMEMF_node(n) | XENMEMF_exact_node_request)
#define XENMEMF_vnode               (1 << 18)

/* Spaces XENMEM_add_to_physmap{,_batch} can map from. */
#define XENMAPSPACE_shared_info  0      /* the shared_info page */
#define XENMAPSPACE_grant_table  1      /* a grant table frame */
#define XENMAPSPACE_gmfn         2      /* move one of the domain's own frames */
#define XENMAPSPACE_gmfn_range   3      /* ... 'size' of them (not in _batch) */
#define XENMAPSPACE_gmfn_foreign 4      /* a frame of another domain */
#define XENMAPSPACE_dev_mmio     5      /* device MMIO (Arm only) */

/* idx flag for XENMAPSPACE_grant_table: a status frame. */
#define XENMAPIDX_grant_table_status 0x80000000

#ifndef __ASSEMBLY__

struct xen_memory_reservation {
    /*
     * increase: OUT machine frames allocated (may be NULL);
     * decrease: IN frames to release;
     * populate: IN gfns to fill, each the base of a 2^extent_order extent.
     */
    XEN_GUEST_HANDLE(xen_pfn_t) extent_start;
    xen_ulong_t nr_extents;
    unsigned int extent_order;
    unsigned int mem_flags;             /* XENMEMF_* */
    domid_t domid;                      /* usually DOMID_SELF */
};
typedef struct xen_memory_reservation xen_memory_reservation_t;
DEFINE_XEN_GUEST_HANDLE(xen_memory_reservation_t);

/* Swap extents of one size/constraint for another. */
struct xen_memory_exchange {
    struct xen_memory_reservation in;
    struct xen_memory_reservation out;
    xen_ulong_t nr_exchanged;           /* OUT; must be 0 on entry */
};
typedef struct xen_memory_exchange xen_memory_exchange_t;
DEFINE_XEN_GUEST_HANDLE(xen_memory_exchange_t);

struct xen_memory_domain {
    domid_t domid;
};
typedef struct xen_memory_domain xen_memory_domain_t;
DEFINE_XEN_GUEST_HANDLE(xen_memory_domain_t);

/* Frames holding the M2P table (PV). */
struct xen_machphys_mfn_list {
    unsigned int max_extents;           /* IN */
    XEN_GUEST_HANDLE(xen_pfn_t) extent_start;
    unsigned int nr_extents;            /* OUT */
};
typedef struct xen_machphys_mfn_list xen_machphys_mfn_list_t;
DEFINE_XEN_GUEST_HANDLE(xen_machphys_mfn_list_t);

/* Where the M2P table is mapped (PV). */
struct xen_machphys_mapping {
    xen_ulong_t v_start, v_end;
    xen_ulong_t max_mfn;
};
typedef struct xen_machphys_mapping xen_machphys_mapping_t;
DEFINE_XEN_GUEST_HANDLE(xen_machphys_mapping_t);

/* Map something from 'space' at guest frame gpfn. */
struct xen_add_to_physmap {
    domid_t domid;
    uint16_t size;                      /* XENMAPSPACE_gmfn_range only */
    unsigned int space;                 /* XENMAPSPACE_* */
    xen_ulong_t idx;                    /* index within the space */
    xen_pfn_t gpfn;                     /* where to map it */
};
typedef struct xen_add_to_physmap xen_add_to_physmap_t;
DEFINE_XEN_GUEST_HANDLE(xen_add_to_physmap_t);

/* Many add_to_physmap calls at once, with a per-entry error. */
struct xen_add_to_physmap_batch {
    domid_t domid;
    uint16_t space;                     /* XENMAPSPACE_* */
    uint16_t size;                      /* entries in idxs/gpfns/errs */
    union xen_add_to_physmap_batch_extra {
        domid_t foreign_domid;          /* XENMAPSPACE_gmfn_foreign */
        uint16_t res0;                  /* other spaces: zero */
    } u;
    XEN_GUEST_HANDLE(xen_ulong_t) idxs;
    XEN_GUEST_HANDLE(xen_pfn_t) gpfns;
    XEN_GUEST_HANDLE(int) errs;         /* OUT */
};
typedef struct xen_add_to_physmap_batch xen_add_to_physmap_batch_t;
DEFINE_XEN_GUEST_HANDLE(xen_add_to_physmap_batch_t);

struct xen_remove_from_physmap {
    domid_t domid;
    xen_pfn_t gpfn;
};
typedef struct xen_remove_from_physmap xen_remove_from_physmap_t;
DEFINE_XEN_GUEST_HANDLE(xen_remove_from_physmap_t);

/*
 * E820-style map (XENMEM_memory_map for the caller's own pseudo-physical
 * map, XENMEM_machine_memory_map for the host's).  nr_entries is IN the
 * buffer's capacity and OUT the number written.
 */
struct xen_memory_map {
    unsigned int nr_entries;
    XEN_GUEST_HANDLE(void) buffer;
};
typedef struct xen_memory_map xen_memory_map_t;
DEFINE_XEN_GUEST_HANDLE(xen_memory_map_t);

/* XENMEM_set_memory_map: the toolstack sets a domain's map. */
struct xen_foreign_memory_map {
    domid_t domid;
    struct xen_memory_map map;
};
typedef struct xen_foreign_memory_map xen_foreign_memory_map_t;
DEFINE_XEN_GUEST_HANDLE(xen_foreign_memory_map_t);

/* Populate-on-demand target. */
struct xen_pod_target {
    uint64_t target_pages;              /* IN */
    uint64_t tot_pages;                 /* OUT */
    uint64_t pod_cache_pages;           /* OUT */
    uint64_t pod_entries;               /* OUT */
    domid_t domid;                      /* IN */
};
typedef struct xen_pod_target xen_pod_target_t;

/* Map frames of a resource owned by a domain (ioreq pages, grant table). */
struct xen_mem_acquire_resource {
    domid_t domid;
    uint16_t type;
#define XENMEM_resource_ioreq_server 0
#define XENMEM_resource_grant_table  1
#define XENMEM_resource_vmtrace_buf  2
    uint32_t id;
#define XENMEM_resource_grant_table_id_shared 0
#define XENMEM_resource_grant_table_id_status 1
    uint32_t nr_frames;                 /* IN/OUT */
    uint32_t pad;
    uint64_t frame;                     /* first frame of the resource */
#define XENMEM_resource_ioreq_server_frame_bufioreq 0
#define XENMEM_resource_ioreq_server_frame_ioreq(n) (1 + (n))
    XEN_GUEST_HANDLE(xen_pfn_t) frame_list;
};
typedef struct xen_mem_acquire_resource xen_mem_acquire_resource_t;
DEFINE_XEN_GUEST_HANDLE(xen_mem_acquire_resource_t);

/* Virtual NUMA layout of a domain. */
struct xen_vmemrange {
    uint64_t start, end;
    unsigned int flags;
    unsigned int nid;
};
typedef struct xen_vmemrange xen_vmemrange_t;
DEFINE_XEN_GUEST_HANDLE(xen_vmemrange_t);

struct xen_vnuma_topology_info {
    domid_t domid;                      /* IN */
    uint16_t pad;
    unsigned int nr_vnodes;             /* IN/OUT */
    unsigned int nr_vcpus;              /* IN/OUT */
    unsigned int nr_vmemranges;         /* IN/OUT */
    union {
        XEN_GUEST_HANDLE(uint) h;
        uint64_t pad;
    } vdistance;
    union {
        XEN_GUEST_HANDLE(uint) h;
        uint64_t pad;
    } vcpu_to_vnode;
    union {
        XEN_GUEST_HANDLE(xen_vmemrange_t) h;
        uint64_t pad;
    } vmemrange;
};
typedef struct xen_vnuma_topology_info xen_vnuma_topology_info_t;
DEFINE_XEN_GUEST_HANDLE(xen_vnuma_topology_info_t);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_MEMORY_H__ */
