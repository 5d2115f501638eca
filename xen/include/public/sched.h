/* SPDX-License-Identifier: MIT */
/*
 * __HYPERVISOR_sched_op(cmd, arg): yield, block, poll and shut down.
 */

#ifndef __LOCAL_PUBLIC_SCHED_H__
#define __LOCAL_PUBLIC_SCHED_H__

#include "event_channel.h"

#define SCHEDOP_yield           0   /* arg: NULL */
#define SCHEDOP_block           1   /* arg: NULL; wakes on an event */
#define SCHEDOP_shutdown        2   /* arg: struct sched_shutdown */
#define SCHEDOP_poll            3   /* arg: struct sched_poll */
#define SCHEDOP_remote_shutdown 4   /* arg: struct sched_remote_shutdown */
#define SCHEDOP_shutdown_code   5   /* arg: struct sched_shutdown; record only */
#define SCHEDOP_watchdog        6   /* arg: struct sched_watchdog */
#define SCHEDOP_pin_override    7   /* arg: struct sched_pin_override */

/* Shutdown reasons. */
#define SHUTDOWN_poweroff   0
#define SHUTDOWN_reboot     1
#define SHUTDOWN_suspend    2
#define SHUTDOWN_crash      3
#define SHUTDOWN_watchdog   4
#define SHUTDOWN_soft_reset 5
#define SHUTDOWN_MAX        5

#ifndef __ASSEMBLY__

struct sched_shutdown {
    unsigned int reason;                /* SHUTDOWN_* */
};
typedef struct sched_shutdown sched_shutdown_t;
DEFINE_XEN_GUEST_HANDLE(sched_shutdown_t);

/* Block until one of the ports is pending or the timeout passes. */
struct sched_poll {
    XEN_GUEST_HANDLE(evtchn_port_t) ports;
    unsigned int nr_ports;
    uint64_t timeout;                   /* absolute system time; 0 = none */
};
typedef struct sched_poll sched_poll_t;
DEFINE_XEN_GUEST_HANDLE(sched_poll_t);

/* Shut another domain down (privileged). */
struct sched_remote_shutdown {
    domid_t domain_id;
    unsigned int reason;                /* SHUTDOWN_* */
};
typedef struct sched_remote_shutdown sched_remote_shutdown_t;
DEFINE_XEN_GUEST_HANDLE(sched_remote_shutdown_t);

/* id 0 creates a watchdog; timeout 0 destroys id. */
struct sched_watchdog {
    uint32_t id;
    uint32_t timeout;                   /* seconds */
};
typedef struct sched_watchdog sched_watchdog_t;
DEFINE_XEN_GUEST_HANDLE(sched_watchdog_t);

struct sched_pin_override {
    int32_t pcpu;                       /* -1 ends the override */
};
typedef struct sched_pin_override sched_pin_override_t;
DEFINE_XEN_GUEST_HANDLE(sched_pin_override_t);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_SCHED_H__ */
