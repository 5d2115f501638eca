/* SPDX-License-Identifier: MIT */
/*
 * Event channels (__HYPERVISOR_event_channel_op): ports that carry
 * notifications between domains, from virtual IRQs, physical IRQs and
 * IPIs.  Commands take a pointer to the matching evtchn_* structure.
 */

#ifndef __LOCAL_PUBLIC_EVENT_CHANNEL_H__
#define __LOCAL_PUBLIC_EVENT_CHANNEL_H__

#include "xen.h"

#define EVTCHNOP_bind_interdomain 0
#define EVTCHNOP_bind_virq        1
#define EVTCHNOP_bind_pirq        2
#define EVTCHNOP_close            3
#define EVTCHNOP_send             4
#define EVTCHNOP_status           5
#define EVTCHNOP_alloc_unbound    6
#define EVTCHNOP_bind_ipi         7
#define EVTCHNOP_bind_vcpu        8
#define EVTCHNOP_unmask           9
#define EVTCHNOP_reset            10
#define EVTCHNOP_init_control     11
#define EVTCHNOP_expand_array     12
#define EVTCHNOP_set_priority     13
#ifdef __XEN__
#define EVTCHNOP_reset_cont       14    /* hypervisor-internal continuation */
#endif

/* Channel counts of the two ABIs: 2-level bitmaps and FIFO queues. */
#define EVTCHN_2L_NR_CHANNELS (sizeof(xen_ulong_t) * sizeof(xen_ulong_t) * 64)

#ifndef __ASSEMBLY__

typedef uint32_t evtchn_port_t;
DEFINE_XEN_GUEST_HANDLE(evtchn_port_t);

/* Make a port in 'dom' that 'remote_dom' may later bind to. */
struct evtchn_alloc_unbound {
    domid_t dom, remote_dom;            /* IN */
    evtchn_port_t port;                 /* OUT */
};
typedef struct evtchn_alloc_unbound evtchn_alloc_unbound_t;

/* Connect a new local port to a remote domain's unbound port. */
struct evtchn_bind_interdomain {
    domid_t remote_dom;                 /* IN */
    evtchn_port_t remote_port;          /* IN */
    evtchn_port_t local_port;           /* OUT */
};
typedef struct evtchn_bind_interdomain evtchn_bind_interdomain_t;

/* Bind a VIRQ_* on a given vCPU to a new port. */
struct evtchn_bind_virq {
    uint32_t virq;                      /* IN: VIRQ_* */
    uint32_t vcpu;                      /* IN */
    evtchn_port_t port;                 /* OUT */
};
typedef struct evtchn_bind_virq evtchn_bind_virq_t;

/* Bind a physical IRQ to a new port. */
struct evtchn_bind_pirq {
    uint32_t pirq;                      /* IN */
#define BIND_PIRQ__WILL_SHARE 1
    uint32_t flags;                     /* IN: BIND_PIRQ__* */
    evtchn_port_t port;                 /* OUT */
};
typedef struct evtchn_bind_pirq evtchn_bind_pirq_t;

/* New port for IPIs to this domain's vCPU 'vcpu'. */
struct evtchn_bind_ipi {
    uint32_t vcpu;                      /* IN */
    evtchn_port_t port;                 /* OUT */
};
typedef struct evtchn_bind_ipi evtchn_bind_ipi_t;

struct evtchn_close {
    evtchn_port_t port;                 /* IN */
};
typedef struct evtchn_close evtchn_close_t;

struct evtchn_send {
    evtchn_port_t port;                 /* IN */
};
typedef struct evtchn_send evtchn_send_t;

/* What a port of 'dom' is bound to. */
struct evtchn_status {
    domid_t dom;                        /* IN */
    evtchn_port_t port;                 /* IN */
#define EVTCHNSTAT_closed      0
#define EVTCHNSTAT_unbound     1
#define EVTCHNSTAT_interdomain 2
#define EVTCHNSTAT_pirq        3
#define EVTCHNSTAT_virq        4
#define EVTCHNSTAT_ipi         5
    uint32_t status;                    /* OUT: EVTCHNSTAT_* */
    uint32_t vcpu;                      /* OUT: vCPU notified */
    union {
        struct {
            domid_t dom;
        } unbound;
        struct {
            domid_t dom;
            evtchn_port_t port;
        } interdomain;
        uint32_t pirq;
        uint32_t virq;
    } u;
};
typedef struct evtchn_status evtchn_status_t;

/* Deliver the port's notifications to another vCPU. */
struct evtchn_bind_vcpu {
    evtchn_port_t port;
    uint32_t vcpu;
};
typedef struct evtchn_bind_vcpu evtchn_bind_vcpu_t;

/* Clear the mask bit and re-deliver if pending. */
struct evtchn_unmask {
    evtchn_port_t port;
};
typedef struct evtchn_unmask evtchn_unmask_t;

/* Close every port of 'dom' and go back to the 2-level ABI. */
struct evtchn_reset {
    domid_t dom;
};
typedef struct evtchn_reset evtchn_reset_t;

/*
 * FIFO ABI: register a vCPU's control block (struct
 * evtchn_fifo_control_block) at byte 'offset' (8-byte aligned, inside the
 * page) of the caller's frame control_gfn; the first call switches the
 * domain from 2-level to FIFO.  Returns link_bits (EVTCHN_FIFO_LINK_BITS).
 */
struct evtchn_init_control {
    uint64_t control_gfn;               /* IN */
    uint32_t offset;                    /* IN */
    uint32_t vcpu;                      /* IN */
    uint8_t link_bits;                  /* OUT */
    uint8_t _pad[7];
};
typedef struct evtchn_init_control evtchn_init_control_t;

/* Add the next page of FIFO event words (1024 ports), at array_gfn. */
struct evtchn_expand_array {
    uint64_t array_gfn;
};
typedef struct evtchn_expand_array evtchn_expand_array_t;

/* The FIFO queue (EVTCHN_FIFO_PRIORITY_*) of a port's later events. */
struct evtchn_set_priority {
    evtchn_port_t port;
    uint32_t priority;
};
typedef struct evtchn_set_priority evtchn_set_priority_t;

/* Argument of the old event_channel_op_compat hypercall. */
struct evtchn_op {
    uint32_t cmd;                       /* EVTCHNOP_* */
    union {
        evtchn_alloc_unbound_t alloc_unbound;
        evtchn_bind_interdomain_t bind_interdomain;
        evtchn_bind_virq_t bind_virq;
        evtchn_bind_pirq_t bind_pirq;
        evtchn_bind_ipi_t bind_ipi;
        evtchn_close_t close;
        evtchn_send_t send;
        evtchn_status_t status;
        evtchn_bind_vcpu_t bind_vcpu;
        evtchn_unmask_t unmask;
    } u;
};
typedef struct evtchn_op evtchn_op_t;
DEFINE_XEN_GUEST_HANDLE(evtchn_op_t);

/*
 * FIFO ABI.  Each port has a 32-bit event word: PENDING, MASKED, LINKED,
 * BUSY and the LINK (EVTCHN_FIFO_LINK_BITS) to the next port of its
 * queue.  Each vCPU has one queue per priority, 0 the highest; HEAD[q]
 * names its first port and bit q of READY says it is not empty.
 */
#define EVTCHN_FIFO_PRIORITY_MAX     0
#define EVTCHN_FIFO_PRIORITY_DEFAULT 7
#define EVTCHN_FIFO_PRIORITY_MIN     15
#define EVTCHN_FIFO_MAX_QUEUES       (EVTCHN_FIFO_PRIORITY_MIN + 1)

typedef uint32_t event_word_t;

#define EVTCHN_FIFO_PENDING   31
#define EVTCHN_FIFO_MASKED    30
#define EVTCHN_FIFO_LINKED    29
#define EVTCHN_FIFO_BUSY      28
#define EVTCHN_FIFO_LINK_BITS 17
#define EVTCHN_FIFO_LINK_MASK ((1 << EVTCHN_FIFO_LINK_BITS) - 1)
#define EVTCHN_FIFO_NR_CHANNELS (1 << EVTCHN_FIFO_LINK_BITS)

struct evtchn_fifo_control_block {
    uint32_t ready;
    uint32_t _rsvd;
    uint32_t head[EVTCHN_FIFO_MAX_QUEUES];
};
typedef struct evtchn_fifo_control_block evtchn_fifo_control_block_t;

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_EVENT_CHANNEL_H__ */
