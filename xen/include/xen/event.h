/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event channels (common/event_channel.c): ports, VIRQs, interdomain and
 * IPI channels, and notifying vCPUs.  How a port is made pending, masked
 * and delivered is the domain's port ABI (struct evtchn_port_ops): the
 * 2-level bitmaps in shared_info (event_channel.c) or the FIFO queues
 * (event_fifo.c, xen/event_fifo.h).
 */
#ifndef __XEN_EVENT_H__
#define __XEN_EVENT_H__

#include <xen/spinlock.h>
#include <xen/types.h>
#include <public/event_channel.h>
#include <public/xen.h>

struct domain;
struct vcpu;

/* Channel states (Xen's ECS_*). */
#define ECS_FREE         0
#define ECS_RESERVED     1      /* port 0: never bound */
#define ECS_UNBOUND      2
#define ECS_INTERDOMAIN  3
#define ECS_VIRQ         5
#define ECS_IPI          6

/*
 * A channel.  lock (level LOCK_LEVEL_EVTCHN) is held by whoever changes
 * state, notify_vcpu_id or u (binding and closing, which hold the
 * domain's event_lock as well) and by the send and notification paths,
 * which take it alone: under it the channel stays bound as it was seen.
 */
struct evtchn {
    spinlock_t lock;
    uint8_t  state;
    uint8_t  priority;          /* FIFO: the queue new events go to */
    uint16_t notify_vcpu_id;    /* the vCPU told about events */
    evtchn_port_t port;         /* its own number */
    union {
        struct {
            domid_t remote_domid;
        } unbound;
        struct {
            domid_t remote_dom;
            evtchn_port_t remote_port;
        } interdomain;
        uint32_t virq;
    } u;
    /* FIFO: the queue (vCPU, priority) it was last linked on (Xen's fifo_lastq). */
    uint16_t last_vcpu_id;
    uint8_t  last_priority;
    bool     pending;           /* FIFO: raised before its event word existed */
};

#define EVTCHNS_PER_BUCKET  64
/* Ports of the 2-level ABI: 4096 with 64-bit words. */
#define EVTCHN_2L_MAX       EVTCHN_2L_NR_CHANNELS
/* Ports a domain can ever have (the FIFO ABI's 2^17). */
#define MAX_EVTCHNS         EVTCHN_FIFO_NR_CHANNELS
#define NR_EVTCHN_BUCKETS   (MAX_EVTCHNS / EVTCHNS_PER_BUCKET)
/* Xen's default port limit of a domain other than the control domain (libxl's). */
#define EVTCHN_DEFAULT_MAX_PORT 1023

/*
 * A port ABI (Xen's struct evtchn_port_ops).  Called only for ports in
 * use (not ECS_FREE/ECS_RESERVED), except is_busy.  init is optional
 * (called when a port is bound), set_priority is NULL where the ABI has
 * none (2-level: EVTCHNOP_set_priority is -ENOSYS), is_busy says a freed
 * port may not be reused yet (FIFO: still LINKED in a guest queue).
 */
struct evtchn_port_ops {
    void (*init)(struct domain *d, struct evtchn *chn);
    void (*set_pending)(struct vcpu *v, struct evtchn *chn);
    void (*clear_pending)(struct domain *d, struct evtchn *chn);
    void (*unmask)(struct domain *d, struct evtchn *chn);
    bool (*is_pending)(const struct domain *d, const struct evtchn *chn);
    bool (*is_masked)(const struct domain *d, const struct evtchn *chn);
    bool (*is_busy)(const struct domain *d, const struct evtchn *chn);
    int  (*set_priority)(struct domain *d, struct evtchn *chn, unsigned int priority);
    void (*print_state)(const struct domain *d, const struct evtchn *chn);
};

int evtchn_init(struct domain *d);
/* Close every port (interdomain peers become unbound) and free them. */
void evtchn_destroy(struct domain *d);

/* VIRQs: per-vCPU ones to a given vCPU, global ones to vCPU 0's binding. */
void send_guest_vcpu_virq(struct vcpu *v, unsigned int virq);
void send_guest_global_virq(struct domain *d, unsigned int virq);
/* A global VIRQ for the control domain (VIRQ_DOM_EXC, VIRQ_CONSOLE). */
void send_global_virq(unsigned int virq);

/* Set evtchn_upcall_pending and interrupt v (upcall vector) / wake it. */
void vcpu_mark_events_pending(struct vcpu *v);
/* Is any event pending for v (evtchn_upcall_pending)? */
bool vcpu_events_pending(const struct vcpu *v);
/* Is the port pending?  Invalid ports are not. */
bool evtchn_port_is_pending(struct domain *d, unsigned int port);
bool evtchn_port_valid(const struct domain *d, unsigned int port);

/* For the port ABIs (event_fifo.c). */
struct evtchn *evtchn_from_port(const struct domain *d, unsigned int port);
/* Wake vCPUs of d in SCHEDOP_poll on this port. */
void evtchn_check_pollers(struct domain *d, unsigned int port);
/* Print d's ports in use and their ABI state (debug key 'q'). */
void evtchn_dump(const struct domain *d);
/* The 2-level ABI, every domain's until EVTCHNOP_init_control. */
void evtchn_2l_init(struct domain *d);

#endif /* __XEN_EVENT_H__ */
