/* SPDX-License-Identifier: MIT */
/*
 * __HYPERVISOR_domctl(struct xen_domctl *): the toolstack's per-domain
 * control interface.  Only the control domain may use it.
 *
 * XEN_DOMCTL_INTERFACE_VERSION is 0x15, the value of Xen 4.17 as shipped
 * in Debian 12's libxen-dev, so that toolstacks built against those
 * headers talk to us unchanged.  (Xen 4.19-4.21 use 0x17.)  The
 * hypervisor rejects any other version with -EACCES, as Xen does.
 */

#ifndef __LOCAL_PUBLIC_DOMCTL_H__
#define __LOCAL_PUBLIC_DOMCTL_H__

#if !defined(__XEN__) && !defined(__XEN_TOOLS__)
#error "public/domctl.h is for the hypervisor (__XEN__) and toolstack (__XEN_TOOLS__) only"
#endif

#include "xen.h"
#include "event_channel.h"
#include "memory.h"

#define XEN_DOMCTL_INTERFACE_VERSION 0x00000015

/* Commands (xen_domctl.cmd).  Gaps are retired numbers. */
#define XEN_DOMCTL_createdomain                 1
#define XEN_DOMCTL_destroydomain                2
#define XEN_DOMCTL_pausedomain                  3
#define XEN_DOMCTL_unpausedomain                4
#define XEN_DOMCTL_getdomaininfo                5
#define XEN_DOMCTL_setvcpuaffinity              9
#define XEN_DOMCTL_shadow_op                    10
#define XEN_DOMCTL_max_mem                      11
#define XEN_DOMCTL_setvcpucontext               12
#define XEN_DOMCTL_getvcpucontext               13
#define XEN_DOMCTL_getvcpuinfo                  14
#define XEN_DOMCTL_max_vcpus                    15
#define XEN_DOMCTL_scheduler_op                 16
#define XEN_DOMCTL_setdomainhandle              17
#define XEN_DOMCTL_setdebugging                 18
#define XEN_DOMCTL_irq_permission               19
#define XEN_DOMCTL_iomem_permission             20
#define XEN_DOMCTL_ioport_permission            21
#define XEN_DOMCTL_hypercall_init               22
#ifdef __XEN__
#define XEN_DOMCTL_soft_reset_cont              23  /* internal continuation */
#endif
#define XEN_DOMCTL_settimeoffset                24
#define XEN_DOMCTL_getvcpuaffinity              25
#define XEN_DOMCTL_real_mode_area               26  /* obsolete */
#define XEN_DOMCTL_resumedomain                 27
#define XEN_DOMCTL_sendtrigger                  28
#define XEN_DOMCTL_subscribe                    29
#define XEN_DOMCTL_gethvmcontext                33
#define XEN_DOMCTL_sethvmcontext                34
#define XEN_DOMCTL_set_address_size             35
#define XEN_DOMCTL_get_address_size             36
#define XEN_DOMCTL_assign_device                37
#define XEN_DOMCTL_bind_pt_irq                  38
#define XEN_DOMCTL_memory_mapping               39
#define XEN_DOMCTL_ioport_mapping               40
#define XEN_DOMCTL_set_ext_vcpucontext          42
#define XEN_DOMCTL_get_ext_vcpucontext          43
#define XEN_DOMCTL_set_opt_feature              44  /* obsolete */
#define XEN_DOMCTL_test_assign_device           45
#define XEN_DOMCTL_set_target                   46
#define XEN_DOMCTL_deassign_device              47
#define XEN_DOMCTL_unbind_pt_irq                48
#define XEN_DOMCTL_get_device_group             50
#define XEN_DOMCTL_debug_op                     54
#define XEN_DOMCTL_gethvmcontext_partial        55
#define XEN_DOMCTL_vm_event_op                  56
#define XEN_DOMCTL_mem_sharing_op               57
#define XEN_DOMCTL_gettscinfo                   59
#define XEN_DOMCTL_settscinfo                   60
#define XEN_DOMCTL_getpageframeinfo3            61
#define XEN_DOMCTL_setvcpuextstate              62
#define XEN_DOMCTL_getvcpuextstate              63
#define XEN_DOMCTL_set_access_required          64
#define XEN_DOMCTL_audit_p2m                    65
#define XEN_DOMCTL_set_virq_handler             66
#define XEN_DOMCTL_set_broken_page_p2m          67
#define XEN_DOMCTL_setnodeaffinity              68
#define XEN_DOMCTL_getnodeaffinity              69
#define XEN_DOMCTL_cacheflush                   71
#define XEN_DOMCTL_get_vcpu_msrs                72
#define XEN_DOMCTL_set_vcpu_msrs                73
#define XEN_DOMCTL_setvnumainfo                 74
#define XEN_DOMCTL_psr_cmt_op                   75
#define XEN_DOMCTL_monitor_op                   77
#define XEN_DOMCTL_psr_alloc                    78
#define XEN_DOMCTL_soft_reset                   79
#define XEN_DOMCTL_vuart_op                     81
#define XEN_DOMCTL_get_cpu_policy               82
#define XEN_DOMCTL_set_cpu_policy               83
#define XEN_DOMCTL_vmtrace_op                   84
#define XEN_DOMCTL_get_paging_mempool_size      85
#define XEN_DOMCTL_set_paging_mempool_size      86
#define XEN_DOMCTL_gdbsx_guestmemio             1000
#define XEN_DOMCTL_gdbsx_pausevcpu              1001
#define XEN_DOMCTL_gdbsx_unpausevcpu            1002
#define XEN_DOMCTL_gdbsx_domstatus              1003

#ifndef __ASSEMBLY__

/* XEN_DOMCTL_createdomain; domctl.domain is the wanted id or 0 for any. */
struct xen_domctl_createdomain {
    uint32_t ssidref;                   /* XSM label */
    xen_domain_handle_t handle;         /* UUID */
#define _XEN_DOMCTL_CDF_hvm          0
#define XEN_DOMCTL_CDF_hvm           (1U << _XEN_DOMCTL_CDF_hvm)
#define _XEN_DOMCTL_CDF_hap          1
#define XEN_DOMCTL_CDF_hap           (1U << _XEN_DOMCTL_CDF_hap)
#define _XEN_DOMCTL_CDF_s3_integrity 2
#define XEN_DOMCTL_CDF_s3_integrity  (1U << _XEN_DOMCTL_CDF_s3_integrity)
#define _XEN_DOMCTL_CDF_oos_off      3
#define XEN_DOMCTL_CDF_oos_off       (1U << _XEN_DOMCTL_CDF_oos_off)
#define _XEN_DOMCTL_CDF_xs_domain    4
#define XEN_DOMCTL_CDF_xs_domain     (1U << _XEN_DOMCTL_CDF_xs_domain)
#define _XEN_DOMCTL_CDF_iommu        5
#define XEN_DOMCTL_CDF_iommu         (1U << _XEN_DOMCTL_CDF_iommu)
#define _XEN_DOMCTL_CDF_nested_virt  6
#define XEN_DOMCTL_CDF_nested_virt   (1U << _XEN_DOMCTL_CDF_nested_virt)
#define XEN_DOMCTL_CDF_vpmu          (1U << 7)
#define XEN_DOMCTL_CDF_MAX           XEN_DOMCTL_CDF_vpmu
    uint32_t flags;
#define _XEN_DOMCTL_IOMMU_no_sharept 0
#define XEN_DOMCTL_IOMMU_no_sharept  (1U << _XEN_DOMCTL_IOMMU_no_sharept)
#define XEN_DOMCTL_IOMMU_MAX         XEN_DOMCTL_IOMMU_no_sharept
    uint32_t iommu_opts;
    uint32_t max_vcpus;
    uint32_t max_evtchn_port;
    int32_t max_grant_frames;           /* -1: host default */
    int32_t max_maptrack_frames;        /* -1: host default */
#define XEN_DOMCTL_GRANT_version_mask 0xf
#define XEN_DOMCTL_GRANT_version(v)   ((v) & XEN_DOMCTL_GRANT_version_mask)
    uint32_t grant_opts;
    uint32_t vmtrace_size;              /* bytes per vCPU; 0 = off */
    uint32_t cpupool_id;
    struct xen_arch_domainconfig arch;
};

/* XEN_DOMCTL_getdomaininfo, and the records of XEN_SYSCTL_getdomaininfolist. */
struct xen_domctl_getdomaininfo {
    domid_t domain;
    uint16_t pad1;
#define _XEN_DOMINF_dying     0
#define XEN_DOMINF_dying      (1U << _XEN_DOMINF_dying)
#define _XEN_DOMINF_hvm_guest 1
#define XEN_DOMINF_hvm_guest  (1U << _XEN_DOMINF_hvm_guest)
#define _XEN_DOMINF_shutdown  2
#define XEN_DOMINF_shutdown   (1U << _XEN_DOMINF_shutdown)
#define _XEN_DOMINF_paused    3
#define XEN_DOMINF_paused     (1U << _XEN_DOMINF_paused)
#define _XEN_DOMINF_blocked   4
#define XEN_DOMINF_blocked    (1U << _XEN_DOMINF_blocked)
#define _XEN_DOMINF_running   5
#define XEN_DOMINF_running    (1U << _XEN_DOMINF_running)
#define _XEN_DOMINF_debugged  6
#define XEN_DOMINF_debugged   (1U << _XEN_DOMINF_debugged)
#define _XEN_DOMINF_xs_domain 7
#define XEN_DOMINF_xs_domain  (1U << _XEN_DOMINF_xs_domain)
#define _XEN_DOMINF_hap       8
#define XEN_DOMINF_hap        (1U << _XEN_DOMINF_hap)
/* SHUTDOWN_* reason lives in flags bits 16-23 while XEN_DOMINF_shutdown. */
#define XEN_DOMINF_shutdownmask  255
#define XEN_DOMINF_shutdownshift 16
    uint32_t flags;
    uint64_aligned_t tot_pages;
    uint64_aligned_t max_pages;
    uint64_aligned_t outstanding_pages;
    uint64_aligned_t shr_pages;
    uint64_aligned_t paged_pages;
    uint64_aligned_t shared_info_frame; /* gfn of shared_info */
    uint64_aligned_t cpu_time;          /* ns, all vCPUs */
    uint32_t nr_online_vcpus;
#define XEN_INVALID_MAX_VCPU_ID (~0U)
    uint32_t max_vcpu_id;
    uint32_t ssidref;
    xen_domain_handle_t handle;
    uint32_t cpupool;
    uint8_t gpaddr_bits;
    uint8_t pad2[7];
    struct xen_arch_domainconfig arch_config;
};
typedef struct xen_domctl_getdomaininfo xen_domctl_getdomaininfo_t;
DEFINE_XEN_GUEST_HANDLE(xen_domctl_getdomaininfo_t);

/* XEN_DOMCTL_getpageframeinfo3: page types, in the top nibble of each pfn. */
#define XEN_DOMCTL_PFINFO_LTAB_SHIFT    28
#define XEN_DOMCTL_PFINFO_NOTAB         (0x0U << 28)
#define XEN_DOMCTL_PFINFO_L1TAB         (0x1U << 28)
#define XEN_DOMCTL_PFINFO_L2TAB         (0x2U << 28)
#define XEN_DOMCTL_PFINFO_L3TAB         (0x3U << 28)
#define XEN_DOMCTL_PFINFO_L4TAB         (0x4U << 28)
#define XEN_DOMCTL_PFINFO_LTABTYPE_MASK (0x7U << 28)
#define XEN_DOMCTL_PFINFO_LPINTAB       (0x1U << 31)
#define XEN_DOMCTL_PFINFO_XTAB          (0xfU << 28)  /* invalid */
#define XEN_DOMCTL_PFINFO_XALLOC        (0xeU << 28)  /* allocate-only */
#define XEN_DOMCTL_PFINFO_BROKEN        (0xdU << 28)
#define XEN_DOMCTL_PFINFO_LTAB_MASK     (0xfU << 28)

struct xen_domctl_getpageframeinfo3 {
    uint64_aligned_t num;
    XEN_GUEST_HANDLE_64(xen_pfn_t) array;
};

/*
 * XEN_DOMCTL_shadow_op: paging modes and log-dirty.
 *
 * CLEAN copies the dirty bitmap into dirty_bitmap (up to 'pages' bits)
 * and clears it; PEEK copies without clearing.  Both return the number
 * of bits covered in 'pages' and the counters in 'stats'.  With
 * XEN_DOMCTL_SHADOW_LOGDIRTY_FINAL in 'mode' the caller announces the
 * last pass of a migration (the domain is paused).
 */
#define XEN_DOMCTL_SHADOW_OP_OFF             0
#define XEN_DOMCTL_SHADOW_OP_ENABLE_TEST     1
#define XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY 2
/* 3 was ENABLE_TRANSLATE, withdrawn. */
#define XEN_DOMCTL_SHADOW_OP_CLEAN           11
#define XEN_DOMCTL_SHADOW_OP_PEEK            12
#define XEN_DOMCTL_SHADOW_OP_GET_ALLOCATION  30
#define XEN_DOMCTL_SHADOW_OP_SET_ALLOCATION  31
#define XEN_DOMCTL_SHADOW_OP_ENABLE          32 /* with XEN_DOMCTL_SHADOW_ENABLE_* in mode */

/* 'mode' bits for OP_ENABLE. */
#define XEN_DOMCTL_SHADOW_ENABLE_REFCOUNT  (1 << 1)
#define XEN_DOMCTL_SHADOW_ENABLE_LOG_DIRTY (1 << 2)
#define XEN_DOMCTL_SHADOW_ENABLE_TRANSLATE (1 << 3)
#define XEN_DOMCTL_SHADOW_ENABLE_EXTERNAL  (1 << 4)

/* 'mode' bit for OP_CLEAN / OP_PEEK. */
#define XEN_DOMCTL_SHADOW_LOGDIRTY_FINAL   (1 << 0)

struct xen_domctl_shadow_op_stats {
    uint32_t fault_count;               /* write faults taken */
    uint32_t dirty_count;               /* pages newly marked dirty */
};

struct xen_domctl_shadow_op {
    uint32_t op;                        /* XEN_DOMCTL_SHADOW_OP_* */
    uint32_t mode;
    uint32_t mb;                        /* shadow pool size, MiB */
    XEN_GUEST_HANDLE_64(uint8) dirty_bitmap;
    uint64_aligned_t pages;             /* IN: bitmap size in bits; OUT: used */
    struct xen_domctl_shadow_op_stats stats;
};

/* XEN_DOMCTL_max_mem. */
struct xen_domctl_max_mem {
    uint64_aligned_t max_memkb;
};

/* XEN_DOMCTL_{set,get}vcpucontext (PV context). */
struct xen_domctl_vcpucontext {
    uint32_t vcpu;
    XEN_GUEST_HANDLE_64(vcpu_guest_context_t) ctxt;
};

/* XEN_DOMCTL_getvcpuinfo. */
struct xen_domctl_getvcpuinfo {
    uint32_t vcpu;                      /* IN */
    uint8_t online;                     /* OUT */
    uint8_t blocked;                    /* OUT */
    uint8_t running;                    /* OUT */
    uint64_aligned_t cpu_time;          /* OUT: ns */
    uint32_t cpu;                       /* OUT: physical CPU */
};

/* XEN_DOMCTL_{set,get}nodeaffinity. */
struct xen_domctl_nodeaffinity {
    struct xenctl_bitmap nodemap;
};

/* XEN_DOMCTL_{set,get}vcpuaffinity. */
struct xen_domctl_vcpuaffinity {
    uint32_t vcpu;
#define _XEN_VCPUAFFINITY_HARD  0
#define XEN_VCPUAFFINITY_HARD   (1U << _XEN_VCPUAFFINITY_HARD)
#define _XEN_VCPUAFFINITY_SOFT  1
#define XEN_VCPUAFFINITY_SOFT   (1U << _XEN_VCPUAFFINITY_SOFT)
#define _XEN_VCPUAFFINITY_FORCE 2
#define XEN_VCPUAFFINITY_FORCE  (1U << _XEN_VCPUAFFINITY_FORCE)
    uint32_t flags;
    struct xenctl_bitmap cpumap_hard;
    struct xenctl_bitmap cpumap_soft;
};

/* XEN_DOMCTL_max_vcpus. */
struct xen_domctl_max_vcpus {
    uint32_t max;
};

/* XEN_DOMCTL_scheduler_op. */
#define XEN_SCHEDULER_CREDIT   5
#define XEN_SCHEDULER_CREDIT2  6
#define XEN_SCHEDULER_ARINC653 7
#define XEN_SCHEDULER_RTDS     8
#define XEN_SCHEDULER_NULL     9

struct xen_domctl_sched_credit {
    uint16_t weight;
    uint16_t cap;
};

struct xen_domctl_sched_credit2 {
    uint16_t weight;
    uint16_t cap;
};

struct xen_domctl_sched_rtds {
    uint32_t period;
    uint32_t budget;
#define _XEN_DOMCTL_SCHEDRT_extra 0
#define XEN_DOMCTL_SCHEDRT_extra  (1U << _XEN_DOMCTL_SCHEDRT_extra)
    uint32_t flags;
};

typedef struct xen_domctl_schedparam_vcpu {
    union {
        struct xen_domctl_sched_credit credit;
        struct xen_domctl_sched_credit2 credit2;
        struct xen_domctl_sched_rtds rtds;
    } u;
    uint32_t vcpuid;
} xen_domctl_schedparam_vcpu_t;
DEFINE_XEN_GUEST_HANDLE(xen_domctl_schedparam_vcpu_t);

#define XEN_DOMCTL_SCHEDOP_putinfo     0
#define XEN_DOMCTL_SCHEDOP_getinfo     1
#define XEN_DOMCTL_SCHEDOP_putvcpuinfo 2
#define XEN_DOMCTL_SCHEDOP_getvcpuinfo 3

struct xen_domctl_scheduler_op {
    uint32_t sched_id;                  /* XEN_SCHEDULER_* */
    uint32_t cmd;                       /* XEN_DOMCTL_SCHEDOP_* */
    union {
        struct xen_domctl_sched_credit credit;
        struct xen_domctl_sched_credit2 credit2;
        struct xen_domctl_sched_rtds rtds;
        struct {
            XEN_GUEST_HANDLE_64(xen_domctl_schedparam_vcpu_t) vcpus;
            uint32_t nr_vcpus;          /* IN: entries; OUT: processed */
            uint32_t padding;
        } v;
    } u;
};

/* XEN_DOMCTL_setdomainhandle. */
struct xen_domctl_setdomainhandle {
    xen_domain_handle_t handle;
};

/* XEN_DOMCTL_setdebugging. */
struct xen_domctl_setdebugging {
    uint8_t enable;
};

/* XEN_DOMCTL_irq_permission. */
struct xen_domctl_irq_permission {
    uint32_t pirq;
    uint8_t allow_access;
    uint8_t pad[3];
};

/* XEN_DOMCTL_iomem_permission. */
struct xen_domctl_iomem_permission {
    uint64_aligned_t first_mfn;
    uint64_aligned_t nr_mfns;
    uint8_t allow_access;
};

/* XEN_DOMCTL_ioport_permission. */
struct xen_domctl_ioport_permission {
    uint32_t first_port;
    uint32_t nr_ports;
    uint8_t allow_access;
};

/* XEN_DOMCTL_hypercall_init: write the hypercall page into gmfn. */
struct xen_domctl_hypercall_init {
    uint64_aligned_t gmfn;
};

/* XEN_DOMCTL_settimeoffset. */
struct xen_domctl_settimeoffset {
    int64_aligned_t time_offset_seconds;
};

/*
 * XEN_DOMCTL_{get,set}hvmcontext: the whole HVM save image.  A NULL
 * buffer on get returns the size needed.
 */
struct xen_domctl_hvmcontext {
    uint32_t size;                      /* IN/OUT: bytes */
    XEN_GUEST_HANDLE_64(uint8) buffer;
};

/* XEN_DOMCTL_{set,get}_address_size. */
struct xen_domctl_address_size {
    uint32_t size;
};

/* XEN_DOMCTL_sendtrigger. */
#define XEN_DOMCTL_SENDTRIGGER_NMI   0
#define XEN_DOMCTL_SENDTRIGGER_RESET 1
#define XEN_DOMCTL_SENDTRIGGER_INIT  2
#define XEN_DOMCTL_SENDTRIGGER_POWER 3
#define XEN_DOMCTL_SENDTRIGGER_SLEEP 4
struct xen_domctl_sendtrigger {
    uint32_t trigger;                   /* XEN_DOMCTL_SENDTRIGGER_* */
    uint32_t vcpu;
};

/* Device kinds of the (unimplemented here) assign_device family. */
#define XEN_DOMCTL_DEV_PCI 0
#define XEN_DOMCTL_DEV_DT  1

/* XEN_DOMCTL_memory_mapping: map host frames into an HVM guest. */
#define DPCI_ADD_MAPPING    1
#define DPCI_REMOVE_MAPPING 0
struct xen_domctl_memory_mapping {
    uint64_aligned_t first_gfn;
    uint64_aligned_t first_mfn;
    uint64_aligned_t nr_mfns;
    uint32_t add_mapping;               /* DPCI_* */
    uint32_t padding;
};

/* XEN_DOMCTL_ioport_mapping. */
struct xen_domctl_ioport_mapping {
    uint32_t first_gport;
    uint32_t first_mport;
    uint32_t nr_ports;
    uint32_t add_mapping;               /* DPCI_* */
};

/* Cache attributes (pin_memory_cacheattr). */
#define XEN_DOMCTL_MEM_CACHEATTR_UC  0
#define XEN_DOMCTL_MEM_CACHEATTR_WC  1
#define XEN_DOMCTL_MEM_CACHEATTR_WT  4
#define XEN_DOMCTL_MEM_CACHEATTR_WP  5
#define XEN_DOMCTL_MEM_CACHEATTR_WB  6
#define XEN_DOMCTL_MEM_CACHEATTR_UCM 7
#define XEN_DOMCTL_DELETE_MEM_CACHEATTR (~(uint32_t)0)

/* XEN_DOMCTL_set_target: let this domain manage 'target'. */
struct xen_domctl_set_target {
    domid_t target;
};

/* XEN_DOMCTL_{get,set}_cpu_policy. */
#define XEN_CPUID_INPUT_UNUSED 0xFFFFFFFF
struct xen_domctl_cpu_policy {
    uint32_t nr_leaves;                 /* IN/OUT */
    uint32_t nr_msrs;                   /* IN/OUT */
    XEN_GUEST_HANDLE_64(xen_cpuid_leaf_t) leaves;
    XEN_GUEST_HANDLE_64(xen_msr_entry_t) msrs;
    uint32_t err_leaf, err_subleaf, err_msr;  /* OUT: what was rejected */
};
typedef struct xen_domctl_cpu_policy xen_domctl_cpu_policy_t;
DEFINE_XEN_GUEST_HANDLE(xen_domctl_cpu_policy_t);

/* XEN_DOMCTL_subscribe: port to notify on domain state changes. */
struct xen_domctl_subscribe {
    uint32_t port;
};

/* XEN_DOMCTL_debug_op. */
#define XEN_DOMCTL_DEBUG_OP_SINGLE_STEP_OFF 0
#define XEN_DOMCTL_DEBUG_OP_SINGLE_STEP_ON  1
struct xen_domctl_debug_op {
    uint32_t op;
    uint32_t vcpu;
};

/* XEN_DOMCTL_gethvmcontext_partial: one record of the save image. */
struct xen_domctl_hvmcontext_partial {
    uint32_t type;
    uint32_t instance;
    uint64_aligned_t bufsz;
    XEN_GUEST_HANDLE_64(uint8) buffer;
};

/* XEN_DOMCTL_{get,set}tscinfo. */
struct xen_domctl_tsc_info {
    uint32_t tsc_mode;
    uint32_t gtsc_khz;
    uint32_t incarnation;
    uint32_t pad;
    uint64_aligned_t elapsed_nsec;
};

/* XEN_DOMCTL_vm_event_op. */
#define XEN_VM_EVENT_ENABLE      0
#define XEN_VM_EVENT_DISABLE     1
#define XEN_VM_EVENT_RESUME      2
#define XEN_VM_EVENT_GET_VERSION 3
#define XEN_DOMCTL_VM_EVENT_OP_PAGING  1
#define XEN_DOMCTL_VM_EVENT_OP_MONITOR 2
#define XEN_DOMCTL_VM_EVENT_OP_SHARING 3
struct xen_domctl_vm_event_op {
    uint32_t op;                        /* XEN_VM_EVENT_* */
    uint32_t mode;                      /* XEN_DOMCTL_VM_EVENT_OP_* */
    union {
        struct {
            uint32_t port;              /* OUT */
        } enable;
        uint32_t version;
    } u;
};

/* XEN_DOMCTL_audit_p2m. */
struct xen_domctl_audit_p2m {
    uint64_t orphans;
    uint64_t m2p_bad;
    uint64_t p2m_bad;
};

/* XEN_DOMCTL_set_virq_handler. */
struct xen_domctl_set_virq_handler {
    uint32_t virq;
};

/* XEN_DOMCTL_{get,set}vcpuextstate: XSAVE state. */
struct xen_domctl_vcpuextstate {
    uint32_t vcpu;
    uint64_aligned_t xfeature_mask;
    uint64_aligned_t size;
    XEN_GUEST_HANDLE_64(uint64) buffer;
};

/* XEN_DOMCTL_set_access_required. */
struct xen_domctl_set_access_required {
    uint8_t access_required;
};

/* XEN_DOMCTL_set_broken_page_p2m. */
struct xen_domctl_set_broken_page_p2m {
    uint64_aligned_t pfn;
};

/* XEN_DOMCTL_cacheflush. */
struct xen_domctl_cacheflush {
    xen_pfn_t start_pfn, nr_pfns;
};

/* XEN_DOMCTL_{get,set}_paging_mempool_size. */
struct xen_domctl_paging_mempool {
    uint64_aligned_t size;              /* bytes */
};

/* XEN_DOMCTL_{get,set}_vcpu_msrs. */
struct xen_domctl_vcpu_msr {
    uint32_t index;
    uint32_t reserved;
    uint64_aligned_t value;
};
typedef struct xen_domctl_vcpu_msr xen_domctl_vcpu_msr_t;
DEFINE_XEN_GUEST_HANDLE(xen_domctl_vcpu_msr_t);

struct xen_domctl_vcpu_msrs {
    uint32_t vcpu;
    uint32_t msr_count;                 /* IN/OUT */
    XEN_GUEST_HANDLE_64(xen_domctl_vcpu_msr_t) msrs;
};

/* XEN_DOMCTL_vmtrace_op (processor trace). */
struct xen_domctl_vmtrace_op {
    uint32_t cmd;
    uint32_t vcpu;
    uint64_aligned_t key;
    uint64_aligned_t value;
#define XEN_DOMCTL_vmtrace_enable           1
#define XEN_DOMCTL_vmtrace_disable          2
#define XEN_DOMCTL_vmtrace_reset_and_enable 3
#define XEN_DOMCTL_vmtrace_output_position  4
#define XEN_DOMCTL_vmtrace_get_option       5
#define XEN_DOMCTL_vmtrace_set_option       6
};
typedef struct xen_domctl_vmtrace_op xen_domctl_vmtrace_op_t;
DEFINE_XEN_GUEST_HANDLE(xen_domctl_vmtrace_op_t);

/*
 * The domctl itself.  The union is padded to 128 bytes so the structure
 * is 144 bytes whatever member is in use.
 */
struct xen_domctl {
    uint32_t cmd;                       /* XEN_DOMCTL_* */
    uint32_t interface_version;         /* XEN_DOMCTL_INTERFACE_VERSION */
    domid_t domain;
    uint16_t _pad[3];
    union {
        struct xen_domctl_createdomain createdomain;
        struct xen_domctl_getdomaininfo getdomaininfo;
        struct xen_domctl_getpageframeinfo3 getpageframeinfo3;
        struct xen_domctl_nodeaffinity nodeaffinity;
        struct xen_domctl_vcpuaffinity vcpuaffinity;
        struct xen_domctl_shadow_op shadow_op;
        struct xen_domctl_max_mem max_mem;
        struct xen_domctl_vcpucontext vcpucontext;
        struct xen_domctl_getvcpuinfo getvcpuinfo;
        struct xen_domctl_max_vcpus max_vcpus;
        struct xen_domctl_scheduler_op scheduler_op;
        struct xen_domctl_setdomainhandle setdomainhandle;
        struct xen_domctl_setdebugging setdebugging;
        struct xen_domctl_irq_permission irq_permission;
        struct xen_domctl_iomem_permission iomem_permission;
        struct xen_domctl_ioport_permission ioport_permission;
        struct xen_domctl_hypercall_init hypercall_init;
        struct xen_domctl_settimeoffset settimeoffset;
        struct xen_domctl_tsc_info tsc_info;
        struct xen_domctl_hvmcontext hvmcontext;
        struct xen_domctl_hvmcontext_partial hvmcontext_partial;
        struct xen_domctl_address_size address_size;
        struct xen_domctl_sendtrigger sendtrigger;
        struct xen_domctl_memory_mapping memory_mapping;
        struct xen_domctl_ioport_mapping ioport_mapping;
        struct xen_domctl_set_target set_target;
        struct xen_domctl_subscribe subscribe;
        struct xen_domctl_debug_op debug_op;
        struct xen_domctl_vm_event_op vm_event_op;
        struct xen_domctl_cpu_policy cpu_policy;
        struct xen_domctl_vcpuextstate vcpuextstate;
        struct xen_domctl_vcpu_msrs vcpu_msrs;
        struct xen_domctl_set_access_required access_required;
        struct xen_domctl_audit_p2m audit_p2m;
        struct xen_domctl_set_virq_handler set_virq_handler;
        struct xen_domctl_set_broken_page_p2m set_broken_page_p2m;
        struct xen_domctl_cacheflush cacheflush;
        struct xen_domctl_vmtrace_op vmtrace_op;
        struct xen_domctl_paging_mempool paging_mempool;
        uint8_t pad[128];
    } u;
};
typedef struct xen_domctl xen_domctl_t;
DEFINE_XEN_GUEST_HANDLE(xen_domctl_t);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_DOMCTL_H__ */
