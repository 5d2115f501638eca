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

#include <xen/types.h>
#include <public/xen.h>
#include <asm/domain.h>

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
    uint64_t         wake_deadline;  /* TSC at which a blocked vCPU wakes (0 = never) */

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
    struct domain   *next_in_list;

    unsigned int     max_vcpus;
    struct vcpu    **vcpu;

    bool             is_privileged;  /* the control domain */
    enum domain_state state;
    unsigned int     shutdown_code;  /* SHUTDOWN_* once shut down */
    unsigned int     pause_count;

    unsigned long    tot_pages;
    unsigned long    max_pages;

    /* Guest console output, printed a line at a time. */
    char             pbuf[256];
    unsigned int     pbuf_idx;

    /* SCHEDOP_watchdog: TSC deadlines, 0 = slot unused (Xen has two). */
#define NR_DOMAIN_WATCHDOG_TIMERS 2
    uint64_t         watchdog_deadline[NR_DOMAIN_WATCHDOG_TIMERS];

    struct arch_domain arch;
};

extern struct domain *domain_list;
extern struct vcpu *current;

#define for_each_domain(d) \
    for ( (d) = domain_list; (d); (d) = (d)->next_in_list )
#define for_each_vcpu(d, v) \
    for ( (v) = (d)->vcpu ? (d)->vcpu[0] : NULL; (v); (v) = (v)->next_in_list )

static inline bool is_control_domain(const struct domain *d)
{
    return d->is_privileged;
}

/* common/domain.c */
struct domain *domain_create(domid_t domid, const char *name,
                             unsigned int max_vcpus, bool privileged);
struct domain *get_domain_by_id(domid_t domid);
/* common/domctl.c: getdomaininfo of the first domain with an id >= first. */
struct xen_domctl_getdomaininfo;
int fill_domaininfo_from(domid_t first, struct xen_domctl_getdomaininfo *info);
void domain_shutdown(struct domain *d, unsigned int reason);
/* A guest did something fatal: it dies, nothing else does. */
void domain_crash(struct domain *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void domain_destroy(struct domain *d);
void domain_pause(struct domain *d);
void domain_unpause(struct domain *d);
long do_vcpu_op(int cmd, unsigned int vcpuid, unsigned long arg);

/* common/sched/core.c */
void scheduler_init(void);
noreturn void scheduler_run(void);
void vcpu_yield(void);
void vcpu_block(struct vcpu *v, uint64_t deadline);
void vcpu_down(struct vcpu *v);
void vcpu_wake(struct vcpu *v);
bool vcpu_runnable(const struct vcpu *v);
void raise_resched(void);
/* Called with interrupts off just before a VM entry: false if v must not run on. */
bool sched_may_enter_guest(void);
/* TSC value at which the running vCPU's time slice ends. */
uint64_t sched_slice_deadline(void);
long do_sched_op(int cmd, unsigned long arg);

#endif /* __XEN_SCHED_H__ */
