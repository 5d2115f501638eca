/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: the control domain's low-level interface to the hypervisor
 * (domctl, sysctl, and the hypercalls around them).
 *
 * A subset of Xen 4.17's xenctrl.h with Xen's names, types and signatures,
 * so programs written against Xen's library build unchanged against the
 * part implemented here.  Only what is implemented is declared.
 *
 * Unless said otherwise a function returns 0 (or a non-NULL pointer) on
 * success and -1 (or NULL) on failure with errno set: to the positive
 * value of the error the hypervisor returned (e.g. EPERM when the caller
 * is not the control domain, ESRCH for a domain that does not exist,
 * EACCES for an interface version mismatch), or to the reason a local
 * step failed (ENOMEM ...).
 *
 * The public ABI is the hypervisor's (Xen 4.17 layouts), seen as <xen/...>
 * as in Xen: in the tree tools/include/xen/ (links into xen/include/public,
 * made by tools/include/Makefile), installed as $(includedir)/xen/.  Build
 * with -I<tree>/tools/include, or against an installed tree.
 */
#ifndef XENCTRL_H
#define XENCTRL_H

/* Tell the public headers that this is the toolstack. */
#ifndef __XEN_TOOLS__
#define __XEN_TOOLS__ 1
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xen/xen.h>
#include <xen/domctl.h>
#include <xen/sysctl.h>
#include <xen/version.h>
#include <xen/ext/dirty_sysctl.h>
#include <xen/sched.h>
#include <xen/memory.h>
#include <xen/event_channel.h>
#include <xen/hvm/hvm_op.h>
#include <xen/hvm/dm_op.h>
#include <xen/hvm/params.h>
#include <xen/ext/dirty_stats.h>
#include <xen/ext/domain_memory.h>

#include "xentoollog.h"

#define XC_PAGE_SHIFT           12
#define XC_PAGE_SIZE            (1UL << XC_PAGE_SHIFT)
#define XC_PAGE_MASK            (~(XC_PAGE_SIZE - 1))

#ifndef INVALID_MFN
#define INVALID_MFN             (~0UL)
#endif

/* Memory barriers between the toolstack and shared pages (x86-64). */
#define xen_barrier()   __asm__ __volatile__ ( "" ::: "memory" )
#define xen_mb()        __asm__ __volatile__ ( "lock addl $0, -32(%%rsp)" ::: "memory" )
#define xen_rmb()       xen_barrier()
#define xen_wmb()       xen_barrier()

/* xc_interface_open() returns a pointer (Xen 4.1 and later). */
#define XENCTRL_HAS_XC_INTERFACE 1

/* ---- the interface handle ------------------------------------------------- */

typedef struct xc_interface_core xc_interface;

enum xc_error_code {
    XC_ERROR_NONE = 0,
    XC_INTERNAL_ERROR = 1,
    XC_INVALID_KERNEL = 2,
    XC_INVALID_PARAM = 3,
    XC_OUT_OF_MEMORY = 4,
};
typedef enum xc_error_code xc_error_code;

enum xc_open_flags {
    XC_OPENFLAG_DUMMY = 1 << 0,          /* open no hypervisor interface */
    XC_OPENFLAG_NON_REENTRANT = 1 << 1,  /* caller serialises all calls */
};

/*
 * Open a handle.  logger receives error messages (NULL: stderr, level
 * XTL_PROGRESS and above); dombuild_logger receives the domain builder's
 * messages (NULL: the same as logger; Xen writes a file instead).
 * Returns NULL, after logging why, when the hypervisor interface cannot be
 * opened (not a Xen control domain, no permission).
 */
xc_interface *xc_interface_open(xentoollog_logger *logger,
                                xentoollog_logger *dombuild_logger,
                                unsigned open_flags);

/* Close a handle; NULL is accepted. */
int xc_interface_close(xc_interface *xch);

/* The libxencall and libxendevicemodel handles xch uses. */
struct xencall_handle *xc_interface_xcall_handle(xc_interface *xch);
struct xendevicemodel_handle *xc_interface_dmod_handle(xc_interface *xch);

/* ---- hypercall buffers ------------------------------------------------------ */

/*
 * Memory a hypercall reads or writes must be hypercall-safe (see
 * xencall.h).  Each such buffer is a user pointer _name plus a shadow
 * xc_hypercall_buffer_t that the macros below find by name, so a guest
 * handle can only be set from memory allocated the right way:
 *
 *     DECLARE_HYPERCALL_BUFFER(uint8_t, bitmap);
 *
 *     bitmap = xc_hypercall_buffer_alloc(xch, bitmap, size);
 *     ...
 *     set_xen_guest_handle(op.buffer, bitmap);
 *     ...
 *     xc_hypercall_buffer_free(xch, bitmap);
 *
 * A function taking an xc_hypercall_buffer_t *name parameter declares
 * DECLARE_HYPERCALL_BUFFER_ARGUMENT(name) to use it the same way.  The
 * structure is opaque: use the macros.
 */
struct xc_hypercall_buffer {
    void *hbuf;                                 /* the hypercall-safe memory */
    struct xc_hypercall_buffer *param_shadow;   /* the buffer this stands for */
    int dir;                                    /* bouncing (internal) */
    void *ubuf;
    size_t sz;
};
typedef struct xc_hypercall_buffer xc_hypercall_buffer_t;

/* The shadow's name for a user pointer (internal). */
#define XC__HYPERCALL_BUFFER_NAME(_name) xc__hypercall_buffer_##_name

/* The xc_hypercall_buffer_t * behind a declared buffer or argument. */
#define HYPERCALL_BUFFER(_name) ({                                            \
    xc_hypercall_buffer_t *xc_hb_self_ = &XC__HYPERCALL_BUFFER_NAME(_name);   \
    xc_hb_self_->param_shadow ? xc_hb_self_->param_shadow : xc_hb_self_;      \
})

#define HYPERCALL_BUFFER_INIT_NO_BOUNCE .dir = 0, .sz = 0, .ubuf = (void *)-1

/* A user pointer _name of type _type * (NULL) and its shadow. */
#define DECLARE_HYPERCALL_BUFFER(_type, _name)                                \
    _type *(_name) = NULL;                                                    \
    xc_hypercall_buffer_t XC__HYPERCALL_BUFFER_NAME(_name) = {                \
        .hbuf = NULL,                                                         \
        .param_shadow = NULL,                                                 \
        HYPERCALL_BUFFER_INIT_NO_BOUNCE                                       \
    }

/* A user pointer _name into the already allocated buffer *_hbuf. */
#define DECLARE_HYPERCALL_BUFFER_SHADOW(_type, _name, _hbuf)                  \
    _type *(_name) = (_hbuf)->hbuf;                                           \
    __attribute__((unused))                                                   \
    xc_hypercall_buffer_t XC__HYPERCALL_BUFFER_NAME(_name) = {                \
        .hbuf = (void *)-1,                                                   \
        .param_shadow = (_hbuf),                                              \
        HYPERCALL_BUFFER_INIT_NO_BOUNCE                                       \
    }

/* Make the parameter "xc_hypercall_buffer_t *_name" usable by name. */
#define DECLARE_HYPERCALL_BUFFER_ARGUMENT(_name)                              \
    xc_hypercall_buffer_t XC__HYPERCALL_BUFFER_NAME(_name) = {                \
        .hbuf = (void *)-1,                                                   \
        .param_shadow = (_name),                                              \
        HYPERCALL_BUFFER_INIT_NO_BOUNCE                                       \
    }

/* The buffer's address as a hypercall argument. */
#define HYPERCALL_BUFFER_AS_ARG(_name) ({                                     \
    xc_hypercall_buffer_t *xc_hb_arg_ = HYPERCALL_BUFFER(_name);              \
    (unsigned long)xc_hb_arg_->hbuf;                                          \
})

/* Point a guest handle at a hypercall buffer, _byte_off bytes in. */
#define set_xen_guest_handle_impl(_hnd, _val, _byte_off) do {                 \
    xc_hypercall_buffer_t *xc_hb_hnd_ = HYPERCALL_BUFFER(_val);               \
    set_xen_guest_handle_raw(_hnd,                                            \
        (void *)((char *)xc_hb_hnd_->hbuf + (_byte_off)));                    \
} while ( 0 )

#undef set_xen_guest_handle
#define set_xen_guest_handle(_hnd, _val)                                      \
    set_xen_guest_handle_impl(_hnd, _val, 0)

/* ... at element _off of the buffer. */
#define set_xen_guest_handle_offset(_hnd, _val, _off)                         \
    set_xen_guest_handle_impl(_hnd, _val, sizeof(*(_val)) * (_off))

/* Use with set_xen_guest_handle() for a NULL handle. */
extern xc_hypercall_buffer_t XC__HYPERCALL_BUFFER_NAME(HYPERCALL_BUFFER_NULL);

/* Byte-granular buffers (zeroed). */
void *xc__hypercall_buffer_alloc(xc_interface *xch, xc_hypercall_buffer_t *b,
                                 size_t size);
#define xc_hypercall_buffer_alloc(_xch, _name, _size)                         \
    xc__hypercall_buffer_alloc(_xch, HYPERCALL_BUFFER(_name), _size)
void xc__hypercall_buffer_free(xc_interface *xch, xc_hypercall_buffer_t *b);
#define xc_hypercall_buffer_free(_xch, _name)                                 \
    xc__hypercall_buffer_free(_xch, HYPERCALL_BUFFER(_name))

/* Page-aligned buffers of whole pages (zeroed). */
void *xc__hypercall_buffer_alloc_pages(xc_interface *xch,
                                       xc_hypercall_buffer_t *b,
                                       int nr_pages);
#define xc_hypercall_buffer_alloc_pages(_xch, _name, _nr)                     \
    xc__hypercall_buffer_alloc_pages(_xch, HYPERCALL_BUFFER(_name), _nr)
void xc__hypercall_buffer_free_pages(xc_interface *xch,
                                     xc_hypercall_buffer_t *b, int nr_pages);
#define xc_hypercall_buffer_free_pages(_xch, _name, _nr) do {                 \
    if ( _name )                                                              \
        xc__hypercall_buffer_free_pages(_xch, HYPERCALL_BUFFER(_name), _nr);  \
} while ( 0 )

/* ---- domains ------------------------------------------------------------------ */

/* One domain, decoded (xc_domain_getinfo). */
typedef struct xc_dominfo {
    uint32_t      domid;
    uint32_t      ssidref;
    unsigned int  dying:1, crashed:1, shutdown:1,
                  paused:1, blocked:1, running:1,
                  hvm:1, debugged:1, xenstore:1, hap:1;
    unsigned int  shutdown_reason;      /* SHUTDOWN_*, if shutdown */
    unsigned long nr_pages;             /* current, not maximum */
    unsigned long nr_outstanding_pages;
    unsigned long nr_shared_pages;
    unsigned long nr_paged_pages;
    unsigned long shared_info_frame;
    uint64_t      cpu_time;             /* ns */
    unsigned long max_memkb;
    unsigned int  nr_online_vcpus;
    unsigned int  max_vcpu_id;
    xen_domain_handle_t handle;
    unsigned int  cpupool;
    uint8_t       gpaddr_bits;
    struct xen_arch_domainconfig arch_config;
} xc_dominfo_t;

/* One domain, as the hypervisor reports it (xc_domain_getinfolist). */
typedef xen_domctl_getdomaininfo_t xc_domaininfo_t;

int xc_domain_pause(xc_interface *xch, uint32_t domid);
int xc_domain_unpause(xc_interface *xch, uint32_t domid);
/* The domain's UUID (its handle; createdomain sets it first). */
int xc_domain_sethandle(xc_interface *xch, uint32_t domid,
                        xen_domain_handle_t handle);

/* Destroy a domain: it is gone once this returns 0. */
int xc_domain_destroy(xc_interface *xch, uint32_t domid);

/* Shut a domain down as if it asked to, for 'reason' (SHUTDOWN_*). */
int xc_domain_shutdown(xc_interface *xch, uint32_t domid, int reason);

/*
 * One vCPU's state (XEN_DOMCTL_getvcpuinfo: online, blocked, running,
 * cpu_time in ns, the physical CPU), and its hard and soft CPU affinity
 * (XEN_DOMCTL_getvcpuaffinity, flags XEN_VCPUAFFINITY_HARD and/or _SOFT;
 * each map xc_get_cpumap_size() bytes).
 */
/* CPU maps: a byte per 8 CPUs, bit c%8 of byte c/8 for CPU c (Xen's). */
typedef uint8_t *xc_cpumap_t;

typedef struct xen_domctl_getvcpuinfo xc_vcpuinfo_t;
int xc_vcpu_getinfo(xc_interface *xch, uint32_t domid, uint32_t vcpu,
                    xc_vcpuinfo_t *info);
int xc_vcpu_getaffinity(xc_interface *xch, uint32_t domid, int vcpu,
                        xc_cpumap_t cpumap_hard, xc_cpumap_t cpumap_soft,
                        uint32_t flags);

/*
 * Up to max_doms domains with ids >= first_domid, one getdomaininfo domctl
 * each, in id order (Xen 4.17's getdomaininfo returns the first domain
 * whose id is >= the one asked for).  Returns how many were stored in
 * info[]; -1 if not even one (errno ESRCH: no such domain).  When asking
 * for one domain, check info->domid: it is the next existing one.
 */
int xc_domain_getinfo(xc_interface *xch, uint32_t first_domid,
                      unsigned int max_doms, xc_dominfo_t *info);

/*
 * Up to max_domains domains with ids >= first_domain in one sysctl.
 * Returns how many were stored in info[], or -1.
 */
int xc_domain_getinfolist(xc_interface *xch, uint32_t first_domain,
                          unsigned int max_domains, xc_domaininfo_t *info);

/* ---- event channels and HVM parameters --------------------------------------- */

typedef int xc_evtchn_port_or_error_t;
typedef struct evtchn_status xc_evtchn_status_t;

/*
 * A port of domain 'dom' left unbound for 'remote_dom' to bind
 * (EVTCHNOP_alloc_unbound): the port, or -1 with errno set.
 */
xc_evtchn_port_or_error_t xc_evtchn_alloc_unbound(xc_interface *xch, uint32_t dom,
                                                  uint32_t remote_dom);
/* EVTCHNOP_status of status->dom's status->port; fills in the rest. */
int xc_evtchn_status(xc_interface *xch, xc_evtchn_status_t *status);

/* HVMOP_set_param / HVMOP_get_param of domain 'dom' (HVM_PARAM_*). */
int xc_hvm_param_set(xc_interface *handle, uint32_t dom, uint32_t param,
                     uint64_t value);
int xc_hvm_param_get(xc_interface *handle, uint32_t dom, uint32_t param,
                     uint64_t *value);

/* ---- building domains ------------------------------------------------------ */

/*
 * Create an empty, paused domain: *pdomid 0 picks a free id, anything else
 * asks for that id; on return *pdomid is the new domain.  Only HVM with HAP
 * (XEN_DOMCTL_CDF_hvm | XEN_DOMCTL_CDF_hap) is supported here.
 */
int xc_domain_create(xc_interface *xch, uint32_t *pdomid,
                     struct xen_domctl_createdomain *config);

int xc_domain_setmaxmem(xc_interface *xch, uint32_t domid, uint64_t max_memkb);

/*
 * Fill nr_extents extents of 2^extent_order frames (order 0 or 9) at the
 * gfns in extent_start.  populate_physmap returns the extents done or -1;
 * the _exact form fails (errno EBUSY) unless all were done.
 */
int xc_domain_populate_physmap(xc_interface *xch, uint32_t domid,
                               unsigned long nr_extents,
                               unsigned int extent_order,
                               unsigned int mem_flags,
                               xen_pfn_t *extent_start);
int xc_domain_populate_physmap_exact(xc_interface *xch, uint32_t domid,
                                     unsigned long nr_extents,
                                     unsigned int extent_order,
                                     unsigned int mem_flags,
                                     xen_pfn_t *extent_start);

/*
 * A domain's reservation (Xen's libxenctrl): increase_reservation gives
 * it nr_extents extents of 2^extent_order frames that are mapped nowhere
 * (an HVM guest's frames: extent_start may be NULL); decrease_reservation
 * takes back the extents at the gfns in extent_start (ballooning: holes
 * where they were).  Both return the extents done, or -1; the _exact forms
 * fail unless all were done (errno ENOMEM, and EINVAL for decrease, as
 * Xen's).  Within max_pages (xc_domain_setmaxmem); a domU may do either to
 * itself only.
 */
int xc_domain_increase_reservation(xc_interface *xch, uint32_t domid,
                                   unsigned long nr_extents, unsigned int extent_order,
                                   unsigned int mem_flags, xen_pfn_t *extent_start);
int xc_domain_increase_reservation_exact(xc_interface *xch, uint32_t domid,
                                         unsigned long nr_extents,
                                         unsigned int extent_order,
                                         unsigned int mem_flags,
                                         xen_pfn_t *extent_start);
int xc_domain_decrease_reservation(xc_interface *xch, uint32_t domid,
                                   unsigned long nr_extents, unsigned int extent_order,
                                   xen_pfn_t *extent_start);
int xc_domain_decrease_reservation_exact(xc_interface *xch, uint32_t domid,
                                         unsigned long nr_extents,
                                         unsigned int extent_order,
                                         xen_pfn_t *extent_start);
/*
 * XENMEM_claim_pages: reserve the host memory for domid to hold nr_pages
 * in all (what it holds counts), so that building it cannot run out
 * because others allocate meanwhile; 0 cancels what is left of the claim.
 * 0, or -1 with errno (EINVAL: a claim already, or nr_pages not above what
 * it holds or above max_pages; ENOMEM: the host cannot cover it).
 */
int xc_domain_claim_pages(xc_interface *xch, uint32_t domid, unsigned long nr_pages);
/* XENMEM_current_reservation: the frames the domain holds, or -1. */
int xc_domain_get_tot_pages(xc_interface *xch, uint32_t domid);
/* XENMEM_maximum_gpfn: its highest mapped gfn in *gpfns; 0 or -1. */
int xc_domain_maximum_gpfn(xc_interface *xch, uint32_t domid, xen_pfn_t *gpfns);
/* XEN_DOMCTL_gettscinfo / settscinfo (TSC_MODE_*: 0 default, 2 never emulate). */
int xc_domain_get_tsc_info(xc_interface *xch, uint32_t domid, uint32_t *tsc_mode,
                           uint64_t *elapsed_nsec, uint32_t *gtsc_khz,
                           uint32_t *incarnation);
int xc_domain_set_tsc_info(xc_interface *xch, uint32_t domid, uint32_t tsc_mode,
                           uint64_t elapsed_nsec, uint32_t gtsc_khz,
                           uint32_t incarnation);
/* XEN_DOMCTL_getpageframeinfo3: types (XEN_DOMCTL_PFINFO_*) into arr's top nibble. */
int xc_get_pfn_type_batch(xc_interface *xch, uint32_t dom,
                          unsigned int num, xen_pfn_t *arr);

/*
 * The domain's paging pool (EPT tables, log-dirty trie), in bytes
 * (XEN_DOMCTL_{get,set}_paging_mempool_size, Xen 4.17): whole pages.
 */
int xc_get_paging_mempool_size(xc_interface *xch, uint32_t domid, uint64_t *size);
int xc_set_paging_mempool_size(xc_interface *xch, uint32_t domid, uint64_t size);

/*
 * xc_domain_get_memory: what the domain holds of the host -- frames,
 * shared pages, paging pool, hypervisor heap -- and their bounds
 * (XEN_DOMCTL_get_domain_memory, NOT in Xen; public/ext/domain_memory.h).
 */
#define XENCTRL_HAS_DOMAIN_MEMORY 1

int xc_domain_get_memory(xc_interface *xch, uint32_t domid,
                         struct xen_domctl_domain_memory *mem);

/*
 * The domain's HVM context (public/hvm/save.h: HEADER, a CPU record per
 * initialised vCPU, END).  getcontext with a NULL buffer returns the size
 * needed, else the size written; -1 on error.
 */
int xc_domain_hvm_getcontext(xc_interface *xch, uint32_t domid,
                             uint8_t *ctxt_buf, uint32_t size);
int xc_domain_hvm_setcontext(xc_interface *xch, uint32_t domid,
                             uint8_t *hvm_ctxt, uint32_t size);

/* ---- log-dirty and paging modes (XEN_DOMCTL_shadow_op) ---------------------- */

typedef struct xen_domctl_shadow_op_stats xc_shadow_op_stats_t;

/*
 * A shadow_op without a bitmap: sop is XEN_DOMCTL_SHADOW_OP_* (OFF,
 * ENABLE_LOGDIRTY, ENABLE with mode XEN_DOMCTL_SHADOW_ENABLE_*, the
 * allocation ops); mb, if not NULL, is passed in and gets the pool size
 * back.
 */
int xc_shadow_control(xc_interface *xch, uint32_t domid, unsigned int sop,
                      unsigned int *mb, unsigned int mode);

/*
 * CLEAN or PEEK: copy the log-dirty bitmap (one bit per pfn, 'pages'
 * bits) into the hypercall buffer dirty_bitmap (may be NULL: counters
 * only); CLEAN also clears it.  mode may hold
 * XEN_DOMCTL_SHADOW_LOGDIRTY_FINAL.  stats (may be NULL) gets the fault
 * and dirty counts.  Returns the number of pages the bitmap covers, or -1.
 */
long long xc_logdirty_control(xc_interface *xch, uint32_t domid,
                              unsigned int sop,
                              xc_hypercall_buffer_t *dirty_bitmap,
                              unsigned long pages, unsigned int mode,
                              xc_shadow_op_stats_t *stats);

/* ---- the host ------------------------------------------------------------------ */

/*
 * Read the hypervisor's console ring into buffer (*pnr_chars bytes of
 * room; on return, the number stored, not NUL-terminated), from the oldest
 * text it still holds.  clear empties the ring after reading.  With pindex
 * and incremental, reading starts at *pindex instead (or the oldest text,
 * if that is gone), and *pindex is set to where to continue.
 */
int xc_readconsolering(xc_interface *xch, char *buffer,
                       unsigned int *pnr_chars, int clear, int incremental,
                       uint32_t *pindex);

/*
 * XEN_SYSCTL_debug_keys: the hypervisor acts on each character of keys as
 * if typed on its console after Ctrl-A x3 ('h' lists them); at most 64.
 */
int xc_send_debug_keys(xc_interface *xch, const char *keys);

typedef struct xen_sysctl_physinfo xc_physinfo_t;

int xc_physinfo(xc_interface *xch, xc_physinfo_t *info);
int xc_sched_id(xc_interface *xch, int *sched_id);

/* return maximum number of cpus the hypervisor supports */
int xc_get_max_cpus(xc_interface *xch);

/* return the number of online cpus */
int xc_get_online_cpus(xc_interface *xch);

/* return array size for cpumap */
int xc_get_cpumap_size(xc_interface *xch);

/* allocate a cpumap (calloc; free() it) */
xc_cpumap_t xc_cpumap_alloc(xc_interface *xch);

/*
 * XENVER_* query; arg points to the type the command fills (none for
 * XENVER_version and XENVER_pagesize, whose result is the return value).
 */
int xc_version(xc_interface *xch, int cmd, void *arg);

/* ---- raw operations ----------------------------------------------------------- */

/*
 * Issue a domctl / sysctl as given (interface_version is filled in); the
 * structure is updated with what the hypervisor returned.  Handles inside
 * must point to hypercall buffers.
 */
int xc_domctl(xc_interface *xch, struct xen_domctl *domctl);
int xc_sysctl(xc_interface *xch, struct xen_sysctl *sysctl);

/* ---- errors ---------------------------------------------------------------------- */

#define XC_MAX_ERROR_MSG_LEN 1024
typedef struct xc_error {
    enum xc_error_code code;
    char message[XC_MAX_ERROR_MSG_LEN];
} xc_error;

/* A fixed description of an xc_error_code ("Internal error" ...). */
const char *xc_error_code_to_desc(int code);

/* strerror() for an errno value. */
const char *xc_strerror(xc_interface *xch, int errcode);

/* The last error this library reported on xch, until the next call. */
const xc_error *xc_get_last_error(xc_interface *handle);
void xc_clear_last_error(xc_interface *xch);

/* ---- this project's extension: dirty-tracking and exit counters ---------------- */

/*
 * NOT in Xen.  These wrap this project's domctls XEN_DOMCTL_get_dirty_stats
 * and XEN_DOMCTL_get_exit_counts (xen/include/public/ext/dirty_stats.h):
 * the counters the monitor and `xl dirty-rate` show.
 *
 * xc_dirty_stats: the domain's tracking mode, mechanism (PML or
 * write-protection) and counters into *stats; per-vCPU counters into
 * vcpus[] (may be NULL), which has room for *nr_vcpus entries.  On
 * return *nr_vcpus is the domain's number of vCPUs (entries past the
 * room given are not written).
 *
 * xc_vcpu_exit_counts: VM exits of one vCPU by basic exit reason,
 * counts[reason], with room for *nr_reasons entries; on return
 * *nr_reasons is the number of reasons the hypervisor counts.
 */
#define XENCTRL_HAS_DIRTY_STATS 1

int xc_dirty_stats(xc_interface *xch, uint32_t domid,
                   xen_domctl_dirty_stats_t *stats,
                   xen_dirty_vcpu_stats_t *vcpus, unsigned int *nr_vcpus);

int xc_vcpu_exit_counts(xc_interface *xch, uint32_t domid, uint32_t vcpu,
                        uint64_t *counts, unsigned int *nr_reasons);

/*
 * xc_dirty_stats_all: every domain's tracking mode and counters, and its
 * vCPUs', in one sysctl (XEN_SYSCTL_get_dirty_stats_all, NOT in Xen;
 * public/ext/dirty_sysctl.h).  domains[] has room for *nr_domains
 * records, vcpus[] for *nr_vcpus.  Both NULL: a size query.  On success,
 * and on failure with errno ENOBUFS (not enough room, nothing written),
 * *nr_domains and *nr_vcpus are the records every domain needs, and
 * *now (may be NULL) the hypervisor's time of the sample in ns.
 * Counters only: it never cleans or peeks a log-dirty bitmap.
 */
#define XENCTRL_HAS_DIRTY_STATS_ALL 1

int xc_dirty_stats_all(xc_interface *xch,
                       xen_dirty_sysctl_domain_t *domains, unsigned int *nr_domains,
                       xen_dirty_sysctl_vcpu_t *vcpus, unsigned int *nr_vcpus,
                       uint64_t *now);

/*
 * xc_dirty_blocks: one domain's pages newly dirtied per block of its
 * guest-physical memory, cumulative (XEN_DOMCTL_get_dirty_blocks, NOT in
 * Xen; public/ext/dirty_stats.h), for a heat map.  counts[] has room for
 * *nr_blocks records; NULL: a size query.  On success, and on failure
 * with errno ENOBUFS (nothing written), *nr_blocks is the domain's number
 * of blocks (0: never tracked); *info (may be NULL) gets the block size,
 * the VRAM range and the hypervisor's time.  Counters only.
 */
#define XENCTRL_HAS_DIRTY_BLOCKS 1

int xc_dirty_blocks(xc_interface *xch, uint32_t domid,
                    uint64_t *counts, unsigned int *nr_blocks,
                    xen_domctl_dirty_blocks_t *info);
/* The same for either counter: XEN_DIRTY_BLOCKS_NEWLY or _LOGGED. */
int xc_dirty_blocks_counter(xc_interface *xch, uint32_t domid, uint32_t counter,
                            uint64_t *counts, unsigned int *nr_blocks,
                            xen_domctl_dirty_blocks_t *info);

/*
 * xc_dirty_rearm: re-arm log-dirty tracking of the domain's pages written
 * since they were last armed, so that their next writes are logged (and
 * counted in writes_logged) again, WITHOUT touching the log-dirty bitmap
 * (XEN_DOMCTL_dirty_rearm, NOT in Xen; public/ext/dirty_stats.h): what a
 * CLEAN returns is unchanged.  *pages (may be NULL): pages re-armed.
 * For a monitor that switched tracking on itself and never CLEANs.
 */
#define XENCTRL_HAS_DIRTY_REARM 1

int xc_dirty_rearm(xc_interface *xch, uint32_t domid, uint64_t *pages);

#endif /* XENCTRL_H */
