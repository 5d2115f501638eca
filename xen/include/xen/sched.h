/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Domains and vCPUs, and the scheduler's interface.
 *
 * One physical CPU runs every vCPU of every domain, round robin, with a
 * time slice enforced by the local APIC timer.  A vCPU runs when it is up
 * (VCPUOP_up or the boot vCPU), not blocked, and its domain is neither
 * paused nor dying.
 */
#ifndef __XEN_SCHED_H__
#define __XEN_SCHED_H__

#include <xen/spinlock.h>
#include <xen/timer.h>
#include <xen/types.h>
#include <xen/xmalloc.h>
#include <public/xen.h>
#include <public/sched.h>
#include <public/vcpu.h>
#include <asm/current.h>
#include <asm/domain.h>

struct evtchn;
struct evtchn_port_ops;
struct evtchn_fifo_domain;

struct vcpu {
    unsigned int     vcpu_id;
    struct domain   *domain;
    struct vcpu     *next_in_list;   /* next vCPU of the same domain */

    bool             is_initialised; /* has a register context */
    bool             is_up;          /* may run (VCPUOP_up / boot vCPU) */
    bool             is_blocked;     /* SCHEDOP_block / HLT, until woken */
    bool             is_running;

    uint64_t         runtime;        /* TSC ticks spent running */
    uint64_t         last_start;     /* TSC at the last switch in */

    /*
     * Where the guest sees this vCPU's vcpu_info: its slot in shared_info
     * (vCPUs < XEN_LEGACY_MAX_VCPUS), a hypervisor-owned dummy, or the
     * frame+offset given by VCPUOP_register_vcpu_info (vcpu_info_gfn).
     */
    struct vcpu_info *vcpu_info;
    unsigned long    vcpu_info_gfn;  /* INVALID_GFN unless registered */
    unsigned long    vcpu_info_mfn;  /* its frame, referenced (get_page) */

    /* Until the guest gives one: vCPUs past the shared_info slots use this. */
    struct vcpu_info dummy_vcpu_info;

    /* VIRQ_* -> port bound on this vCPU (0: none). */
    uint32_t         virq_to_evtchn[NR_VIRQS];

    /* SCHEDOP_poll: blocked until one of the ports (or the timeout). */
    bool             is_polling;
    int              poll_evtchn;    /* the one port polled, -1 several */
    struct timer     poll_timer;

    /*
     * Time in each RUNSTATE_*, and where the guest wants a copy
     * (VCPUOP_register_runstate_memory_area: a handle to the guest's own
     * memory, written when the vCPU is next entered; null: none).
     */
    struct vcpu_runstate_info runstate;
    XEN_GUEST_HANDLE(vcpu_runstate_info_t) runstate_guest;
    bool             runstate_guest_stale;

    /* VCPUOP_register_vcpu_time_memory_area: a second copy of the time record. */
    XEN_GUEST_HANDLE(vcpu_time_info_t) time_info_guest;
    bool             time_info_guest_stale;

    /* Guest timers (vcpu_op), both delivering VIRQ_TIMER. */
    struct timer     singleshot_timer;
    struct timer     periodic_timer;
    s_time_t         periodic_period;
    unsigned long    periodic_ticks;     /* VIRQ_TIMER ticks sent by it ... */
    unsigned long    periodic_ticks_off; /* ... while the vCPU was not running */

    struct arch_vcpu arch;
};

enum domain_state {
    DOMSTATE_running,
    DOMSTATE_shutdown,               /* SCHEDOP_shutdown, not yet destroyed */
    DOMSTATE_crashed,
    DOMSTATE_dying,
};

struct domain {
    domid_t          domain_id;
    char             name[32];
    xen_domain_handle_t handle;      /* the toolstack's UUID for it (Xen's) */
    struct domain   *next_in_list;

    unsigned int     max_vcpus;
    struct vcpu    **vcpu;

    bool             is_privileged;  /* the control domain */
    /*
     * Made by the toolstack (XEN_DOMCTL_createdomain): once shut down or
     * crashed it stays, as every domain does in Xen, until the toolstack
     * destroys it (XEN_DOMCTL_destroydomain) or resumes it.  A domain
     * built at boot from a module has no toolstack to do either, and is
     * destroyed by the scheduler (sched/core.c domain_to_reap()).
     */
    bool             toolstack_owned;
    /*
     * shutdown_lock (Xen's d->shutdown_lock, a leaf, taken with interrupts
     * off: a timer may shut a domain down) protects the moves of
     * state between running and shut down / crashed, and shutdown_code:
     * domain_shutdown(), domain_crash(), domain_resume().  A domain shut
     * down with SHUTDOWN_suspend, and any toolstack_owned one, stays (it
     * is not reaped) until the toolstack resumes it
     * (XEN_DOMCTL_resumedomain) or destroys it.
     */
    spinlock_t       shutdown_lock;
    enum domain_state state;
    unsigned int     shutdown_code;  /* SHUTDOWN_* once shut down */
    unsigned int     pause_count;
    /*
     * First unpaused by the toolstack (XEN_DOMCTL_unpausedomain), as
     * Xen's: its CPU policy is fixed from then on.
     */
    bool             creation_finished;

    /*
     * What the domain holds (docs/misc/security.md has the whole list):
     * its frames (on page_list, tot_pages of them, at most max_pages;
     * asm/mm.h), hypervisor pages shared with it (shared_info), its
     * paging pool (d->arch.hvm.p2m.pool) and what the hypervisor keeps
     * for it on the heap (xmem: xen/xmalloc.h, at most xmem.limit pages).
     */
    struct page_list_head page_list;
    /*
     * Xen's page_alloc_lock: page_list, tot_pages and xenheap_pages, and
     * each frame's owner while it joins or leaves d (arch/x86/mm.c).  A
     * leaf: nothing is taken under it, so a zeroed one is right.
     */
    spinlock_t       page_alloc_lock;
    unsigned long    tot_pages;
    unsigned long    max_pages;
    unsigned long    xenheap_pages;
    /* What is left of its XENMEM_claim_pages claim (heap_lock: page_alloc.c). */
    unsigned long    outstanding_pages;
    struct xmem_pool xmem;

    unsigned long    vm_assist;         /* VMASST_TYPE_* enabled by vm_assist */

    /*
     * The shared_info page: a hypervisor page shared with the guest
     * (share_xen_page_with_guest), mapped where XENMEM_add_to_physmap puts
     * it (shared_info_gfn), freed when the domain goes.
     */
    struct shared_info *shared_info;
    unsigned long    shared_info_gfn;   /* INVALID_GFN until mapped */

    /* Grant table (common/grant_table.c): from creation to destruction. */
    struct grant_table *grant_table;

    /*
     * Event channels: buckets of EVTCHNS_PER_BUCKET, allocated as needed.
     * event_lock (level LOCK_LEVEL_EVENT, Xen's) covers allocating,
     * binding and closing ports, the fields below and the ABI switch;
     * sending takes only the channel's own lock (xen/event.h).  A bucket
     * table replaced by a larger one is kept (evtchn_retired) until the
     * domain's end: a sender on another CPU may still index it.
     */
    spinlock_t       event_lock;
    struct evtchn  **evtchn;
    struct evtchn  **evtchn_retired;
    unsigned int     nr_evtchn_buckets; /* room in evtchn[] */
    unsigned int     valid_evtchns;     /* ports [0, valid_evtchns) exist */
    unsigned int     max_evtchn_port;   /* the highest port it may have (createdomain's) */
    unsigned int     lowest_free_evtchn; /* no port below it is free */
    unsigned int     active_evtchns;    /* ports bound (port 0 not counted) */
    unsigned int     next_evtchn;       /* EVTCHNOP_reset: where to go on (0: none) */
    /* The port ABI: 2-level, or FIFO once EVTCHNOP_init_control succeeded. */
    const struct evtchn_port_ops *evtchn_port_ops;
    struct evtchn_fifo_domain *evtchn_fifo;

    /* Guest console output, printed a line at a time. */
    char             pbuf[256];
    unsigned int     pbuf_idx;

    /* SCHEDOP_watchdog (Xen has two per domain). */
#define NR_DOMAIN_WATCHDOG_TIMERS 2
    struct timer     watchdog_timer[NR_DOMAIN_WATCHDOG_TIMERS];
    unsigned int     watchdog_inuse_map;

    /*
     * The scheduler's parameters for it, as credit2's
     * (XEN_DOMCTL_scheduler_op): weight (1-65535, default 256) and cap (%
     * of one CPU, 0: none).  Recorded and reported, not yet honoured: the
     * round robin gives every vCPU the same slice.  Written only by
     * do_domctl (serialised by the domctl lock), read as single words.
     */
    unsigned int     sched_weight;
    unsigned int     sched_cap;

    struct arch_domain arch;
};

/*
 * The scheduler this hypervisor says it runs (XEN_SYSCTL_sched_id, Pool-0's
 * in cpupool_op, XEN_DOMCTL_scheduler_op's sched_id): credit2, Xen 4.17's
 * default, whose parameters it takes (see sched_weight).
 */
#define SCHED_ID                    XEN_SCHEDULER_CREDIT2
#define SCHED_DEFAULT_WEIGHT        256

extern struct domain *domain_list;

#define for_each_domain(d) \
    for ( (d) = domain_list; (d); (d) = (d)->next_in_list )
#define for_each_vcpu(d, v) \
    for ( (v) = (d)->vcpu ? (d)->vcpu[0] : NULL; (v); (v) = (v)->next_in_list )

static inline bool is_control_domain(const struct domain *d)
{
    return d->is_privileged;
}

/*
 * The hardware domain (Xen's hardware_domain): dom0, built from the first
 * boot module.  Its console is a real terminal, and its shutdown is the
 * host's (dom0_shutdown=, common/shutdown.c).
 */
static inline bool is_hardware_domain(const struct domain *d)
{
    return d->domain_id == 0 && d->is_privileged;
}

/*
 * The first control domain that is running, or NULL: the one that takes
 * console input and global VIRQs, and whose presence keeps stopped
 * domains for the toolstack (sched/core.c domain_to_reap()).
 */
static inline struct domain *running_control_domain(void)
{
    struct domain *d;

    for_each_domain ( d )
        if ( is_control_domain(d) && d->state == DOMSTATE_running )
            return d;
    return NULL;
}

/* common/domain.c */
struct xen_domctl_createdomain;
/*
 * A new domain; config (XEN_DOMCTL_createdomain's, checked by the caller)
 * gives its grant-table limits, NULL the host's defaults.
 */
struct domain *domain_create(domid_t domid, const char *name,
                             unsigned int max_vcpus, bool privileged,
                             const struct xen_domctl_createdomain *config);
struct domain *get_domain_by_id(domid_t domid);
/* common/domctl.c: getdomaininfo of the first domain with an id >= first. */
struct xen_domctl_getdomaininfo;
int fill_domaininfo_from(domid_t first, struct xen_domctl_getdomaininfo *info);
void domain_shutdown(struct domain *d, unsigned int reason);
/* XEN_DOMCTL_resumedomain: a shut-down domain runs on (Xen's domain_resume). */
void domain_resume(struct domain *d);
/* Shut down for suspend (SCHEDOP_shutdown(SHUTDOWN_suspend)), not resumed yet. */
static inline bool domain_is_suspended(const struct domain *d)
{
    return d->state == DOMSTATE_shutdown && d->shutdown_code == SHUTDOWN_suspend;
}
/* A guest did something fatal: it dies, nothing else does. */
void domain_crash(struct domain *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void domain_destroy(struct domain *d);
/* The heap's size before the first domain: checked when the last one goes. */
void domain_heap_baseline(void);
void domain_pause(struct domain *d);
void domain_unpause(struct domain *d);
struct vcpu *domain_vcpu(const struct domain *d, unsigned int vcpu_id);
/* DOMID_SELF or a domain id; NULL if there is no such domain. */
struct domain *get_domain_by_any_id(domid_t domid);
int map_vcpu_info(struct vcpu *v, unsigned long gfn, unsigned int offset);

/*
 * What common code asks of the architecture (arch/x86/domain.c, Xen's
 * names where Xen has them).
 */
/* Switch the CPU's vCPU state from prev (NULL: none yet) to next. */
void context_switch(struct vcpu *prev, struct vcpu *next);
/* Run v in guest mode until it must be descheduled (then return). */
void arch_vcpu_run(struct vcpu *v);
/* The architecture's part of a vCPU's state, on the console. */
void arch_dump_vcpu_info(struct vcpu *v);

/* common/sched/core.c */
void scheduler_init(void);
/* Every vCPU's scheduling, event and interrupt state, on the console. */
void dump_domains(void);
noreturn void scheduler_run(void);
void vcpu_yield(void);
/* Block v until vcpu_wake() (an event, a timer, VCPUOP_up...). */
void vcpu_block(struct vcpu *v);
void vcpu_down(struct vcpu *v);
void vcpu_wake(struct vcpu *v);
/* An event is pending for v: wake it if it blocked. */
static inline void vcpu_kick(struct vcpu *v)
{
    if ( v->is_blocked )
        vcpu_wake(v);
}
/* SCHEDOP_block: unmask the upcall, block unless an event is pending. */
void vcpu_block_enable_events(struct vcpu *v);
struct vcpu_set_singleshot_timer;
long vcpu_set_singleshot_timer(struct vcpu *v, const struct vcpu_set_singleshot_timer *t);
long vcpu_set_periodic_timer(struct vcpu *v, uint64_t period_ns);
/* The vCPU's flags changed (blocked, up): account the time (RUNSTATE_*). */
void vcpu_runstate_update(struct vcpu *v);
/* Set up and tear down a vCPU's guest timers (sched/core.c). */
void sched_init_vcpu(struct vcpu *v);
void sched_destroy_vcpu(struct vcpu *v);
extern unsigned long idle_halts;
bool vcpu_runnable(const struct vcpu *v);
void raise_resched(void);
/* Called with interrupts off just before a VM entry: false if v must not run on. */
bool sched_may_enter_guest(void);
/* TSC value at which the running vCPU's time slice ends. */
uint64_t sched_slice_deadline(void);
void watchdog_domain_init(struct domain *d);
void watchdog_domain_destroy(struct domain *d);

#endif /* __XEN_SCHED_H__ */
