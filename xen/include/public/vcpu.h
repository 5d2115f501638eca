/* SPDX-License-Identifier: MIT */
/*
 * __HYPERVISOR_vcpu_op(cmd, vcpuid, arg): bring vCPUs up and down,
 * runstate accounting, per-vCPU timers and vcpu_info placement.
 */

#ifndef __LOCAL_PUBLIC_VCPU_H__
#define __LOCAL_PUBLIC_VCPU_H__

#include "xen.h"

/*
 * Set the initial state of a vCPU that has never run.  arg is a
 * vcpu_guest_context (PV) or a vcpu_hvm_context (HVM/PVH).
 */
#define VCPUOP_initialise 0
#define VCPUOP_up         1     /* arg: NULL */
#define VCPUOP_down       2     /* arg: NULL */
#define VCPUOP_is_up      3     /* arg: NULL; returns 1 if up */
#define VCPUOP_get_runstate_info 4
#define VCPUOP_register_runstate_memory_area 5
#define VCPUOP_set_periodic_timer   6
#define VCPUOP_stop_periodic_timer  7
#define VCPUOP_set_singleshot_timer 8
#define VCPUOP_stop_singleshot_timer 9
#define VCPUOP_register_vcpu_info   10
#define VCPUOP_send_nmi             11
#define VCPUOP_get_physid           12
#define VCPUOP_register_vcpu_time_memory_area 13

/* Runstates; time[] is indexed by them. */
#define RUNSTATE_running  0
#define RUNSTATE_runnable 1
#define RUNSTATE_blocked  2
#define RUNSTATE_offline  3

/* Set in state_entry_time while Xen updates a registered area. */
#define XEN_RUNSTATE_UPDATE (xen_mk_ullong(1) << 63)

/* Only arm the single-shot timer if the deadline is still ahead. */
#define _VCPU_SSHOTTMR_future (0)
#define VCPU_SSHOTTMR_future  (1U << _VCPU_SSHOTTMR_future)

#ifndef __ASSEMBLY__

struct vcpu_runstate_info {
    int state;                          /* RUNSTATE_* */
    uint64_t state_entry_time;          /* system time of last change */
    uint64_t time[4];                   /* ns spent in each state */
};
typedef struct vcpu_runstate_info vcpu_runstate_info_t;
DEFINE_XEN_GUEST_HANDLE(vcpu_runstate_info_t);

/* Guest address Xen keeps a vcpu_runstate_info updated at. */
struct vcpu_register_runstate_memory_area {
    union {
        XEN_GUEST_HANDLE(vcpu_runstate_info_t) h;
        struct vcpu_runstate_info *v;
        uint64_t p;
    } addr;
};
typedef struct vcpu_register_runstate_memory_area vcpu_register_runstate_memory_area_t;
DEFINE_XEN_GUEST_HANDLE(vcpu_register_runstate_memory_area_t);

struct vcpu_set_periodic_timer {
    uint64_t period_ns;
};
typedef struct vcpu_set_periodic_timer vcpu_set_periodic_timer_t;
DEFINE_XEN_GUEST_HANDLE(vcpu_set_periodic_timer_t);

struct vcpu_set_singleshot_timer {
    uint64_t timeout_abs_ns;            /* absolute system time */
    uint32_t flags;                     /* VCPU_SSHOTTMR_* */
};
typedef struct vcpu_set_singleshot_timer vcpu_set_singleshot_timer_t;
DEFINE_XEN_GUEST_HANDLE(vcpu_set_singleshot_timer_t);

/* Move this vCPU's vcpu_info to mfn:offset (must not cross a page). */
struct vcpu_register_vcpu_info {
    uint64_t mfn;
    uint32_t offset;
    uint32_t rsvd;                      /* must be zero */
};
typedef struct vcpu_register_vcpu_info vcpu_register_vcpu_info_t;
DEFINE_XEN_GUEST_HANDLE(vcpu_register_vcpu_info_t);

/* Physical CPU identity: APIC id in bits 31:0, ACPI id in 63:32. */
struct vcpu_get_physid {
    uint64_t phys_id;
};
typedef struct vcpu_get_physid vcpu_get_physid_t;
DEFINE_XEN_GUEST_HANDLE(vcpu_get_physid_t);
#define xen_vcpu_physid_to_x86_apicid(physid) ((uint32_t)(physid))
#define xen_vcpu_physid_to_x86_acpiid(physid) ((uint32_t)((physid) >> 32))

/* Extra guest copy of vcpu_time_info kept up to date by Xen. */
DEFINE_XEN_GUEST_HANDLE(vcpu_time_info_t);
struct vcpu_register_time_memory_area {
    union {
        XEN_GUEST_HANDLE(vcpu_time_info_t) h;
        struct vcpu_time_info *v;
        uint64_t p;
    } addr;
};
typedef struct vcpu_register_time_memory_area vcpu_register_time_memory_area_t;
DEFINE_XEN_GUEST_HANDLE(vcpu_register_time_memory_area_t);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_VCPU_H__ */
