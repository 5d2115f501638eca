/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event channels (common/event_channel.c): the 2-level ABI, VIRQs,
 * interdomain and IPI channels, and notifying vCPUs.
 */
#ifndef __XEN_EVENT_H__
#define __XEN_EVENT_H__

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

struct evtchn {
    uint8_t  state;
    uint16_t notify_vcpu_id;    /* the vCPU told about events */
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
};

#define EVTCHNS_PER_BUCKET  64
#define MAX_EVTCHNS         EVTCHN_2L_NR_CHANNELS   /* 4096 with 64-bit words */
#define NR_EVTCHN_BUCKETS   (MAX_EVTCHNS / EVTCHNS_PER_BUCKET)

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

#endif /* __XEN_EVENT_H__ */
