/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One fake hypervisor for the tools' host tests.  Every suite under
 * tools/tests links the real libraries (libxenctrl, libxenguest, libxl ...)
 * over it: it is a libxencall backend (fake_call.c: the osdep_* interface
 * of tools/libs/call/private.h) and a libxenforeignmemory backend
 * (fake_fmem.c), and answers the hypercalls the libraries make as this
 * hypervisor does, for a handful of domains whose memory is host pages:
 *
 *   domctl   getdomaininfo, createdomain, pause/unpause, destroy, max_mem,
 *            get/set_paging_mempool_size, get/sethvmcontext, shadow_op
 *            (log-dirty ENABLE, OFF, CLEAN with LOGDIRTY_FINAL, PEEK), and
 *            getvcpuinfo, getvcpuaffinity (every vCPU on CPU 0), and
 *            this project's get_dirty_stats, get_dirty_blocks,
 *            get_exit_counts, dirty_rearm (fake_domctl.c)
 *   sysctl   getdomaininfolist, physinfo, readconsole, get_dirty_stats_all
 *   others   xen_version, sched_op remote_shutdown, memory_op
 *            populate_physmap / current_reservation / maximum_gpfn, dm_op
 *            track_dirty_vram (fake_sysctl.c, fake_memory.c); hvm_op
 *            set_param / get_param, event_channel_op alloc_unbound /
 *            status / close (fake_hvm.c); XENMEM_acquire_resource of a
 *            grant table's frame 0 (fake_fmem.c)
 *
 * A test drives it in one of three ways:
 *  - programmatically (fake_reset, fake_new_domain ...), in one process:
 *    tools/tests/{guest,migrate};
 *  - from a state file, $FAKE_XEN_STATE, re-read by each process and
 *    rewritten after each change, so that a sequence of xl commands sees
 *    one machine (fake_state.c, which documents its lines); each call that
 *    changes or samples something is appended to $FAKE_XEN_LOG, one line
 *    ("pause 1", "shadow_op 5 enable_logdirty", "logdirty 5 clean
 *    pages=32768"): tools/tests/{xl,xentop,libs};
 *  - by answering each hypercall itself (fake_answer): every call is
 *    recorded with a copy of what the library handed over, and the test's
 *    handler answers, to check the exact structures a wrapper builds:
 *    tools/tests/ctrl.
 *
 * Guests act too: a domain's "write set" is written again after each
 * CLEAN (and when log-dirty is switched on), and a migrate "writer" writes
 * pages while the saver maps them or as the fake clock runs
 * (fake_clock.c: the test program's clock_gettime and nanosleep, linked
 * by the suites that want exact rates instead of wall-clock time).
 */
#ifndef TOOLS_TESTS_FAKE_H
#define TOOLS_TESTS_FAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xenctrl.h>
#include <xen/hvm/params.h>
#include <xen/hvm/save.h>

#define FAKE_MAX_DOMS       16
/* A domain's pfn space: the low 4 GiB (RAM, ACPI tables, Xen's special pages). */
#define FAKE_MAX_PFNS       0x100000UL
#define FAKE_CPU_KHZ        2400000u        /* physinfo's, the guests' TSC */
#define FAKE_MAX_VCPUS      8
#define FAKE_CPU_RECORDS    2               /* vCPU contexts kept */
#define FAKE_XEN_MAJOR      4
#define FAKE_XEN_MINOR      17
#define FAKE_CPUID          0x000906ea      /* the HVM context HEADER's */
#define FAKE_MAX_BLOCKS     64
#define FAKE_MAX_ERATES     8
#define FAKE_MAX_LINES      64
#define FAKE_MAX_PORTS      64              /* event channels a domain */
/* A foreign mapping takes this long per page on the fake clock. */
#define FAKE_NS_PER_PAGE    1000

/* A domain's memory: which frames are populated, and what they hold. */
struct fake_mem {
    uint32_t id;
    bool used;
    uint8_t populated[FAKE_MAX_PFNS / 8];
    uint8_t *page[FAKE_MAX_PFNS];           /* NULL: the default contents */
    unsigned long stored;                   /* pages not NULL */
};

struct fake_dom {
    bool exists;
    uint32_t id;
    uint8_t handle[16];                     /* the UUID */
    unsigned int flags;                     /* XEN_DOMINF_running|blocked|shutdown|dying */
    unsigned int reason;                    /* SHUTDOWN_* */
    char type[8];                           /* pvh, hvm or pv */
    uint64_t cpu_time;

    /* Pause by the toolstack, and the spans paused on the fake clock. */
    unsigned int pause_count;
    uint64_t paused_at, pause_spans, paused_ns, max_pause_ns;

    /* Memory.  A domain from the state file has [0, tot_pages) populated. */
    unsigned long tot_pages, max_pages;
    uint64_t max_gpfn;
    uint64_t paging_pool;                   /* bytes */
    bool explicit_map;                      /* populated[] says, not tot_pages */
    struct fake_mem *mem;                   /* NULL until needed */
    uint64_t seed;                          /* default contents: a pattern of seed */
    uint8_t fill;                           /* ... or this byte everywhere */
    uint64_t memhash;                       /* digest of [0, tot), state file */
    unsigned int extents_2m, extents_4k;    /* populated so far */

    /* vCPUs: how many may be, how many are up, their registers. */
    unsigned int max_vcpus, nr_cpus;
    struct hvm_hw_cpu cpu[FAKE_CPU_RECORDS];
    bool context_set;
    uint32_t tsc_mode, tsc_incarnation;     /* XEN_DOMCTL_{get,set}tscinfo */
    bool tsc_set;
    uint8_t context[4096];                  /* the last sethvmcontext */
    uint32_t context_size;

    /* Dirty tracking. */
    bool logdirty;
    int mech;                               /* XEN_DIRTY_MECH_* */
    uint8_t dirty[FAKE_MAX_PFNS / 8];
    uint8_t write[FAKE_MAX_PFNS / 8];       /* the guest's write set */
    uint64_t vram_first;
    uint32_t vram_nr;
    unsigned int cleans, final_cleans;
    uint64_t clean_calls, peek_calls, vram_calls, faults, dirty_total;
    uint64_t vdirtied[FAKE_MAX_VCPUS];

    /* The counters' rates per sample (xentop's tests; fake_state.c). */
    uint64_t vrate[FAKE_MAX_VCPUS][4];      /* dirtied, pml, wp, ple */
    uint64_t brate[FAKE_MAX_BLOCKS];
    unsigned int nr_brate, bshift;
    unsigned int erate[FAKE_MAX_ERATES][2]; /* reason, exits */
    unsigned int nr_erate;
    int saturate;                           /* logged writes need a re-arm */

    /* The migrate writer: pages it writes while the domain runs. */
    unsigned long w_first, w_nr, w_next, w_rate;
    uint64_t w_gen, w_writes;
    uint64_t w_period_ns, w_time_ns;

    /* HVM parameters (hvm_op set_param), and which were set. */
    uint64_t params[HVM_NR_PARAMS];
    bool param_set[HVM_NR_PARAMS];

    /* Event channels: port p (1 up) is open, unbound for port_remote[p]. */
    bool port_open[FAKE_MAX_PORTS];
    uint16_t port_remote[FAKE_MAX_PORTS];

    /* Frame 0 of its grant table (XENMEM_acquire_resource), mappings of it. */
    uint8_t gnttab[4096] __attribute__((aligned(4096)));
    unsigned int resource_maps, live_resource_maps;

    /* The suspend protocol (fake_suspend.c): FAKE_SUSPEND_*, 0: no PV drivers. */
    int suspend_mode;
    uint64_t suspend_at;                    /* late: when it suspends (fake clock) */

    bool touched;                           /* changed since the state was read */
};

enum {
    FAKE_SUSPEND_NONE, FAKE_SUSPEND_ACK, FAKE_SUSPEND_LATE, FAKE_SUSPEND_NOACK,
    FAKE_SUSPEND_NOSUSPEND, FAKE_SUSPEND_CRASH,
};
/* The mode named (state file "suspend=<name>"), -1 if none is. */
int fake_suspend_mode(const char *name);
const char *fake_suspend_mode_name(int mode);
/*
 * xenstore wrote value at path (fake_xs.c): a guest answers a suspend
 * request; true if it acknowledged (cleared the node).
 */
bool fake_guest_control(const char *path, const char *value);
/* A guest that acknowledged late suspends once its time has come. */
void fake_guest_suspend_tick(void);

struct fake {
    struct fake_dom dom[FAKE_MAX_DOMS];
    uint32_t next_id;                       /* fake_new_domain's */
    unsigned int hypercalls, pauses, unpauses;
    unsigned int populate_calls, pfinfo_calls, maps, unmaps, live_maps;
    bool bad_map;                           /* a frame not populated was mapped */

    /* Behaviour. */
    bool refuse_2m;                         /* 2 MiB extents fail (fragmented host) */
    bool context_no_header;                 /* gethvmcontext returns only END */

    /* The clock (fake_clock.c): clock_gettime and nanosleep read it. */
    uint64_t now_ns;
    uint64_t sleeps, slept_ns;
};

extern struct fake fake;

/* ---- the machine ------------------------------------------------------- */

/* Forget everything: no domain, no failure, the clock at 1 s. */
void fake_reset(void);
/* A new domain: paused once, max_pages, pages [0, populate) there. */
struct fake_dom *fake_new_domain(unsigned long max_pages,
                                 unsigned long populate, unsigned int vcpus);
/* The same with the id given (0 when taken or no room). */
struct fake_dom *fake_new_domain_id(uint32_t id, unsigned long max_pages,
                                    unsigned long populate, unsigned int vcpus);
struct fake_dom *fake_find(uint32_t id);

/* Populated frames and their contents. */
bool fake_populated(const struct fake_dom *d, uint64_t pfn);
bool fake_populate(struct fake_dom *d, uint64_t pfn);
void fake_page_read(const struct fake_dom *d, uint64_t pfn, uint8_t *buf);
/* The page's own storage (made from the default contents). */
uint8_t *fake_page(struct fake_dom *d, uint64_t pfn);
/* The guest's byte at paddr, -1 if not populated; len bytes, false if not. */
int fake_byte(const struct fake_dom *d, uint64_t paddr);
bool fake_read(const struct fake_dom *d, uint64_t paddr, void *buf, size_t len);
/* Fill every page with a pattern of 'seed'; two vCPUs' registers. */
void fake_fill(struct fake_dom *d, uint64_t seed);
/* Pfns at which a and b differ (or differ in being populated); 0: equal. */
unsigned long fake_compare(const struct fake_dom *a, const struct fake_dom *b,
                           unsigned long *first_diff);

/* The writer writes 'rate' pages of [first, first + nr) per 64 mapped. */
void fake_set_writer(struct fake_dom *d, unsigned long first,
                     unsigned long nr, unsigned long rate);
/* Or one page every period_ns of the clock while the domain runs. */
void fake_set_timed_writer(struct fake_dom *d, unsigned long first,
                           unsigned long nr, uint64_t period_ns);
/* The running writers write, as if while 'work' pages were mapped. */
void fake_run_writers(size_t work);
/* The clock advances; timed writers of running domains write meanwhile. */
void fake_clock_pass(uint64_t ns);

/* Hypercall buffer pages still allocated. */
unsigned long fake_live_buffer_pages(void);
/* [p, p + size) lies inside one live hypercall buffer allocation. */
bool fake_is_safe(const void *p, size_t size);

/* ---- failures on demand ----------------------------------------------------- */

/*
 * The nth call (1-based; 0: every call) of an operation fails with errno
 * err.  Operations are named as the call log names them: open (libxencall),
 * fmem_open, map, getdomaininfo, create, setmaxmem, paging_mempool,
 * populate, getcontext, setcontext, pause, unpause, destroy, shutdown,
 * shadow_op, logdirty (or clean, peek), physinfo, readconsolering,
 * dirty_stats, dirty_stats_all, dirty_blocks, exit_counts, dirty_rearm,
 * track_dirty_vram, set_param, alloc_unbound, acquire_resource.
 */
void fake_fail(const char *op, unsigned int nth, int err);
void fake_fail_clear(void);

/* ---- answering the hypercalls oneself (tools/tests/ctrl) ---------------------- */

#define FAKE_MAX_CALLS   64
#define FAKE_MAX_DM_BUFS 4
#define FAKE_MAX_EXTENTS 8

struct fake_call {
    uint64_t op;
    uint64_t arg[5];

    /* Copies of what arg pointed to when the call was made. */
    bool arg_safe;                      /* arg was inside a buffer */
    struct xen_domctl domctl;           /* __HYPERVISOR_domctl */
    struct xen_sysctl sysctl;           /* __HYPERVISOR_sysctl */
    struct sched_remote_shutdown remote_shutdown;   /* sched_op */
    unsigned int nr_dm_bufs;            /* __HYPERVISOR_dm_op */
    xen_dm_op_buf_t dm_bufs[FAKE_MAX_DM_BUFS];
    bool dm_bufs_safe;                  /* every buffer inside a buffer */
    struct xen_dm_op dm_op;
    /* __HYPERVISOR_memory_op: a reservation and its first extents, or a domid. */
    struct xen_memory_reservation reservation;
    xen_pfn_t extents[FAKE_MAX_EXTENTS];
    bool extents_safe;                  /* the list inside a buffer */
    struct xen_memory_domain memory_domain;
};

/*
 * A test's answer to a call: the hypercall's result (-Exxx for an error).
 * 'live' is the memory arg[0] (domctl, sysctl), arg[1] (sched_op,
 * xen_version) or the dm_op buffer array points to, which the handler may
 * change as the hypervisor would.
 */
typedef long (*fake_handler_t)(struct fake_call *call, void *live);

extern struct fake_call fake_calls[FAKE_MAX_CALLS];
extern unsigned int fake_nr_calls;

/*
 * Forget the recorded calls; from now on h answers every hypercall
 * (NULL: the fake machine answers again).  fake_answer_zero answers 0.
 */
void fake_answer(fake_handler_t h);
long fake_answer_zero(struct fake_call *call, void *live);

#endif /* TOOLS_TESTS_FAKE_H */
