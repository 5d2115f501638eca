/* SPDX-License-Identifier: MIT */
/*
 * __HYPERVISOR_sysctl(struct xen_sysctl *): host-wide control for the
 * toolstack (console ring, host facts, domain lists).  Control domain only.
 *
 * XEN_SYSCTL_INTERFACE_VERSION is 0x15, Xen 4.17's value (Debian 12).
 */

#ifndef __LOCAL_PUBLIC_SYSCTL_H__
#define __LOCAL_PUBLIC_SYSCTL_H__

#if !defined(__XEN__) && !defined(__XEN_TOOLS__)
#error "public/sysctl.h is for the hypervisor (__XEN__) and toolstack (__XEN_TOOLS__) only"
#endif

#include "xen.h"
#include "domctl.h"

#define XEN_SYSCTL_INTERFACE_VERSION 0x00000015

/* Commands (xen_sysctl.cmd). */
#define XEN_SYSCTL_readconsole             1
#define XEN_SYSCTL_tbuf_op                 2
#define XEN_SYSCTL_physinfo                3
#define XEN_SYSCTL_sched_id                4
#define XEN_SYSCTL_perfc_op                5
#define XEN_SYSCTL_getdomaininfolist       6
#define XEN_SYSCTL_debug_keys              7
#define XEN_SYSCTL_getcpuinfo              8
#define XEN_SYSCTL_availheap               9
#define XEN_SYSCTL_get_pmstat              10
#define XEN_SYSCTL_cpu_hotplug             11
#define XEN_SYSCTL_pm_op                   12
#define XEN_SYSCTL_page_offline_op         14
#define XEN_SYSCTL_lockprof_op             15
#define XEN_SYSCTL_cputopoinfo             16
#define XEN_SYSCTL_numainfo                17
#define XEN_SYSCTL_cpupool_op              18
#define XEN_SYSCTL_scheduler_op            19
#define XEN_SYSCTL_coverage_op             20
#define XEN_SYSCTL_psr_cmt_op              21
#define XEN_SYSCTL_pcitopoinfo             22
#define XEN_SYSCTL_psr_alloc               23
#define XEN_SYSCTL_get_cpu_levelling_caps  25
#define XEN_SYSCTL_get_cpu_featureset      26
#define XEN_SYSCTL_livepatch_op            27
#define XEN_SYSCTL_get_cpu_policy          29

#ifndef __ASSEMBLY__

/*
 * XEN_SYSCTL_readconsole: copy the hypervisor's console ring.
 * Non-incremental reads return the newest 'count' bytes; incremental
 * reads start at 'index' and return the index to continue from.
 * 'clear' empties the ring afterwards.
 */
struct xen_sysctl_readconsole {
    uint8_t clear;                      /* IN */
    uint8_t incremental;                /* IN */
    uint8_t pad0, pad1;
    uint32_t index;                     /* IN/OUT */
    XEN_GUEST_HANDLE_64(char) buffer;   /* IN */
    uint32_t count;                     /* IN: size; OUT: bytes written */
};

/* XEN_SYSCTL_tbuf_op: trace buffers. */
struct xen_sysctl_tbuf_op {
#define XEN_SYSCTL_TBUFOP_get_info     0
#define XEN_SYSCTL_TBUFOP_set_cpu_mask 1
#define XEN_SYSCTL_TBUFOP_set_evt_mask 2
#define XEN_SYSCTL_TBUFOP_set_size     3
#define XEN_SYSCTL_TBUFOP_enable       4
#define XEN_SYSCTL_TBUFOP_disable      5
    uint32_t cmd;
    struct xenctl_bitmap cpu_mask;
    uint32_t evt_mask;
    uint64_aligned_t buffer_mfn;        /* OUT */
    uint32_t size;                      /* IN/OUT */
};

/* XEN_SYSCTL_physinfo.capabilities. */
#define _XEN_SYSCTL_PHYSCAP_hvm                0
#define XEN_SYSCTL_PHYSCAP_hvm                 (1u << _XEN_SYSCTL_PHYSCAP_hvm)
#define _XEN_SYSCTL_PHYSCAP_pv                 1
#define XEN_SYSCTL_PHYSCAP_pv                  (1u << _XEN_SYSCTL_PHYSCAP_pv)
#define _XEN_SYSCTL_PHYSCAP_directio           2
#define XEN_SYSCTL_PHYSCAP_directio            (1u << _XEN_SYSCTL_PHYSCAP_directio)
#define _XEN_SYSCTL_PHYSCAP_hap                3
#define XEN_SYSCTL_PHYSCAP_hap                 (1u << _XEN_SYSCTL_PHYSCAP_hap)
#define _XEN_SYSCTL_PHYSCAP_shadow             4
#define XEN_SYSCTL_PHYSCAP_shadow              (1u << _XEN_SYSCTL_PHYSCAP_shadow)
#define _XEN_SYSCTL_PHYSCAP_iommu_hap_pt_share 5
#define XEN_SYSCTL_PHYSCAP_iommu_hap_pt_share  (1u << _XEN_SYSCTL_PHYSCAP_iommu_hap_pt_share)
#define XEN_SYSCTL_PHYSCAP_vmtrace             (1u << 6)
#define XEN_SYSCTL_PHYSCAP_vpmu                (1u << 7)
#define XEN_SYSCTL_PHYSCAP_gnttab_v1           (1u << 8)
#define XEN_SYSCTL_PHYSCAP_gnttab_v2           (1u << 9)
#define XEN_SYSCTL_PHYSCAP_MAX                 XEN_SYSCTL_PHYSCAP_gnttab_v2

/* XEN_SYSCTL_physinfo. */
struct xen_sysctl_physinfo {
    uint32_t threads_per_core;
    uint32_t cores_per_socket;
    uint32_t nr_cpus;                   /* online */
    uint32_t max_cpu_id;
    uint32_t nr_nodes;                  /* online */
    uint32_t max_node_id;
    uint32_t cpu_khz;
    uint32_t capabilities;              /* XEN_SYSCTL_PHYSCAP_* */
    uint32_t arch_capabilities;
    uint32_t pad;
    uint64_aligned_t total_pages;
    uint64_aligned_t free_pages;
    uint64_aligned_t scrub_pages;
    uint64_aligned_t outstanding_pages;
    uint64_aligned_t max_mfn;
    uint32_t hw_cap[8];                 /* CPUID feature words */
};

/* XEN_SYSCTL_sched_id. */
struct xen_sysctl_sched_id {
    uint32_t sched_id;                  /* XEN_SCHEDULER_* */
};

/* XEN_SYSCTL_perfc_op: performance counters. */
#define XEN_SYSCTL_PERFCOP_reset 1
#define XEN_SYSCTL_PERFCOP_query 2
struct xen_sysctl_perfc_desc {
    char name[80];
    uint32_t nr_vals;
};
typedef struct xen_sysctl_perfc_desc xen_sysctl_perfc_desc_t;
DEFINE_XEN_GUEST_HANDLE(xen_sysctl_perfc_desc_t);
typedef uint32_t xen_sysctl_perfc_val_t;
DEFINE_XEN_GUEST_HANDLE(xen_sysctl_perfc_val_t);

struct xen_sysctl_perfc_op {
    uint32_t cmd;                       /* XEN_SYSCTL_PERFCOP_* */
    uint32_t nr_counters;               /* OUT */
    uint32_t nr_vals;                   /* OUT */
    XEN_GUEST_HANDLE_64(xen_sysctl_perfc_desc_t) desc;
    XEN_GUEST_HANDLE_64(xen_sysctl_perfc_val_t) val;
};

/* XEN_SYSCTL_getdomaininfolist: domains with id >= first_domain. */
struct xen_sysctl_getdomaininfolist {
    domid_t first_domain;               /* IN */
    uint32_t max_domains;               /* IN */
    XEN_GUEST_HANDLE_64(xen_domctl_getdomaininfo_t) buffer;
    uint32_t num_domains;               /* OUT */
};

/* XEN_SYSCTL_debug_keys: act as if the keys were typed on the console. */
struct xen_sysctl_debug_keys {
    XEN_GUEST_HANDLE_64(const_char) keys;
    uint32_t nr_keys;
};

/* XEN_SYSCTL_getcpuinfo. */
struct xen_sysctl_cpuinfo {
    uint64_aligned_t idletime;          /* ns */
};
typedef struct xen_sysctl_cpuinfo xen_sysctl_cpuinfo_t;
DEFINE_XEN_GUEST_HANDLE(xen_sysctl_cpuinfo_t);

struct xen_sysctl_getcpuinfo {
    uint32_t max_cpus;                  /* IN */
    XEN_GUEST_HANDLE_64(xen_sysctl_cpuinfo_t) info;
    uint32_t nr_cpus;                   /* OUT */
};

/* XEN_SYSCTL_availheap. */
struct xen_sysctl_availheap {
    uint32_t min_bitwidth;              /* 0: any */
    uint32_t max_bitwidth;              /* 0: any */
    int32_t node;                       /* -1: all */
    uint64_aligned_t avail_bytes;       /* OUT */
};

/* XEN_SYSCTL_cpu_hotplug. */
struct xen_sysctl_cpu_hotplug {
    uint32_t cpu;
#define XEN_SYSCTL_CPU_HOTPLUG_ONLINE      0
#define XEN_SYSCTL_CPU_HOTPLUG_OFFLINE     1
#define XEN_SYSCTL_CPU_HOTPLUG_SMT_ENABLE  2
#define XEN_SYSCTL_CPU_HOTPLUG_SMT_DISABLE 3
    uint32_t op;
};

/* XEN_SYSCTL_cputopoinfo. */
#define XEN_INVALID_CORE_ID   (~0U)
#define XEN_INVALID_SOCKET_ID (~0U)
#define XEN_INVALID_NODE_ID   (~0U)
struct xen_sysctl_cputopo {
    uint32_t core;
    uint32_t socket;
    uint32_t node;
};
typedef struct xen_sysctl_cputopo xen_sysctl_cputopo_t;
DEFINE_XEN_GUEST_HANDLE(xen_sysctl_cputopo_t);

struct xen_sysctl_cputopoinfo {
    uint32_t num_cpus;                  /* IN/OUT */
    XEN_GUEST_HANDLE_64(xen_sysctl_cputopo_t) cputopo;
};

/* XEN_SYSCTL_numainfo. */
#define XEN_INVALID_MEM_SZ    (~0U)
#define XEN_INVALID_NODE_DIST (~0U)
struct xen_sysctl_meminfo {
    uint64_t memsize;
    uint64_t memfree;
};
typedef struct xen_sysctl_meminfo xen_sysctl_meminfo_t;
DEFINE_XEN_GUEST_HANDLE(xen_sysctl_meminfo_t);

struct xen_sysctl_numainfo {
    uint32_t num_nodes;                 /* IN/OUT */
    XEN_GUEST_HANDLE_64(xen_sysctl_meminfo_t) meminfo;
    XEN_GUEST_HANDLE_64(uint32) distance;   /* num_nodes x num_nodes */
};

/* XEN_SYSCTL_cpupool_op. */
#define XEN_SYSCTL_CPUPOOL_OP_CREATE     1  /* C */
#define XEN_SYSCTL_CPUPOOL_OP_DESTROY    2  /* D */
#define XEN_SYSCTL_CPUPOOL_OP_INFO       3  /* I */
#define XEN_SYSCTL_CPUPOOL_OP_ADDCPU     4  /* A */
#define XEN_SYSCTL_CPUPOOL_OP_RMCPU      5  /* R */
#define XEN_SYSCTL_CPUPOOL_OP_MOVEDOMAIN 6  /* M */
#define XEN_SYSCTL_CPUPOOL_OP_FREEINFO   7  /* F */
#define XEN_SYSCTL_CPUPOOL_PAR_ANY       0xFFFFFFFF
struct xen_sysctl_cpupool_op {
    uint32_t op;                        /* IN */
    uint32_t cpupool_id;                /* IN: CDIARM OUT: CI */
    uint32_t sched_id;                  /* IN: C      OUT: I  */
    uint32_t domid;                     /* IN: M              */
    uint32_t cpu;                       /* IN: AR             */
    uint32_t n_dom;                     /*            OUT: I  */
    struct xenctl_bitmap cpumap;        /*            OUT: IF */
};
typedef struct xen_sysctl_cpupool_op xen_sysctl_cpupool_op_t;

/* XEN_SYSCTL_get_cpu_levelling_caps. */
struct xen_sysctl_cpu_levelling_caps {
#define XEN_SYSCTL_CPU_LEVELCAP_faulting    (1ul << 0)
#define XEN_SYSCTL_CPU_LEVELCAP_ecx         (1ul << 1)
#define XEN_SYSCTL_CPU_LEVELCAP_edx         (1ul << 2)
#define XEN_SYSCTL_CPU_LEVELCAP_extd_ecx    (1ul << 3)
#define XEN_SYSCTL_CPU_LEVELCAP_extd_edx    (1ul << 4)
#define XEN_SYSCTL_CPU_LEVELCAP_xsave_eax   (1ul << 5)
#define XEN_SYSCTL_CPU_LEVELCAP_thermal_ecx (1ul << 6)
#define XEN_SYSCTL_CPU_LEVELCAP_l7s0_eax    (1ul << 7)
#define XEN_SYSCTL_CPU_LEVELCAP_l7s0_ebx    (1ul << 8)
    uint32_t caps;
};

/* XEN_SYSCTL_get_cpu_featureset. */
struct xen_sysctl_cpu_featureset {
#define XEN_SYSCTL_cpu_featureset_raw     0
#define XEN_SYSCTL_cpu_featureset_host    1
#define XEN_SYSCTL_cpu_featureset_pv      2
#define XEN_SYSCTL_cpu_featureset_hvm     3
#define XEN_SYSCTL_cpu_featureset_pv_max  4
#define XEN_SYSCTL_cpu_featureset_hvm_max 5
    uint32_t index;                     /* IN */
    uint32_t nr_features;               /* IN/OUT */
    XEN_GUEST_HANDLE_64(uint32) features;
};

/* XEN_SYSCTL_get_cpu_policy. */
struct xen_sysctl_cpu_policy {
#define XEN_SYSCTL_cpu_policy_raw         0
#define XEN_SYSCTL_cpu_policy_host        1
#define XEN_SYSCTL_cpu_policy_pv_max      2
#define XEN_SYSCTL_cpu_policy_hvm_max     3
#define XEN_SYSCTL_cpu_policy_pv_default  4
#define XEN_SYSCTL_cpu_policy_hvm_default 5
    uint32_t index;                     /* IN */
    uint32_t nr_leaves;                 /* IN/OUT */
    uint32_t nr_msrs;                   /* IN/OUT */
    uint32_t _rsvd;                     /* zero */
    XEN_GUEST_HANDLE_64(xen_cpuid_leaf_t) leaves;
    XEN_GUEST_HANDLE_64(xen_msr_entry_t) msrs;
};
typedef struct xen_sysctl_cpu_policy xen_sysctl_cpu_policy_t;
DEFINE_XEN_GUEST_HANDLE(xen_sysctl_cpu_policy_t);

/*
 * The sysctl itself: 8 bytes of header and a union padded to 128 bytes
 * (136 bytes in all).
 */
struct xen_sysctl {
    uint32_t cmd;                       /* XEN_SYSCTL_* */
    uint32_t interface_version;         /* XEN_SYSCTL_INTERFACE_VERSION */
    union {
        struct xen_sysctl_readconsole readconsole;
        struct xen_sysctl_tbuf_op tbuf_op;
        struct xen_sysctl_physinfo physinfo;
        struct xen_sysctl_cputopoinfo cputopoinfo;
        struct xen_sysctl_numainfo numainfo;
        struct xen_sysctl_cpupool_op cpupool_op;
        struct xen_sysctl_sched_id sched_id;
        struct xen_sysctl_perfc_op perfc_op;
        struct xen_sysctl_getdomaininfolist getdomaininfolist;
        struct xen_sysctl_debug_keys debug_keys;
        struct xen_sysctl_getcpuinfo getcpuinfo;
        struct xen_sysctl_availheap availheap;
        struct xen_sysctl_cpu_hotplug cpu_hotplug;
        struct xen_sysctl_cpu_levelling_caps cpu_levelling_caps;
        struct xen_sysctl_cpu_featureset cpu_featureset;
        struct xen_sysctl_cpu_policy cpu_policy;
        uint8_t pad[128];
    } u;
};
typedef struct xen_sysctl xen_sysctl_t;
DEFINE_XEN_GUEST_HANDLE(xen_sysctl_t);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_SYSCTL_H__ */
