/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Xen's event machinery from a guest test kernel: the shared_info page,
 * vcpu_info areas, system time, event channels (2-level) and the upcall
 * vector, the way a PVH guest (Linux) uses them.
 */
#ifndef GUEST_EVENTS_H
#define GUEST_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "public/xen.h"
#include "public/event_channel.h"
#include "public/hvm/hvm_op.h"
#include "public/hvm/params.h"
#include "public/memory.h"
#include "public/vcpu.h"

/* The vector tests use for the upcall (Linux uses 0xf3 too). */
#define UPCALL_VECTOR 0xf3

/* The shared_info page, once mapped by map_shared_info(). */
extern struct shared_info *shared_info;
/* Each vCPU's vcpu_info: the shared_info slot until registered elsewhere. */
extern struct vcpu_info *vcpu_info[GUEST_MAX_VCPUS];

/* Upcalls taken per vCPU, and events handled per port (by the handler). */
extern volatile unsigned long upcall_count[GUEST_MAX_VCPUS];
#define MAX_TEST_PORTS 256
extern volatile unsigned long port_events[MAX_TEST_PORTS];

/* Our domain id (CPUID leaf 4 of the Xen leaves). */
domid_t cpuid_domid(void);

long hypercall_memory_op(unsigned int cmd, void *arg);
long hypercall_event_channel_op(unsigned int cmd, void *arg);
long hypercall_hvm_op(unsigned int op, void *arg);

/* XENMEM_add_to_physmap(XENMAPSPACE_shared_info) at our page; 0 or -errno. */
long map_shared_info(void);
/* VCPUOP_register_vcpu_info for vCPU id into our own per-vCPU area. */
long register_vcpu_info(unsigned int id);
/* IDT gate for UPCALL_VECTOR and HVMOP_set_evtchn_upcall_vector for vCPU id. */
long setup_upcall_vector(unsigned int id);
/* Whether the upcall handler EOIs on vCPU id (setup_upcall_vector sets it). */
void set_upcall_eoi(unsigned int id, bool eoi);
void set_intr_gate(unsigned int vector, void (*handler)(void));
void evtchn_upcall_entry(void);

/* Xen system time (ns) from this vCPU's vcpu_time_info (version protocol). */
uint64_t xen_system_time(void);

/* Event channel operations; each returns 0 or -errno, the port via *port. */
long evtchn_alloc_unbound(domid_t dom, domid_t remote, evtchn_port_t *port);
long evtchn_bind_interdomain(domid_t remote, evtchn_port_t rport,
                             evtchn_port_t *port);
long evtchn_bind_virq(uint32_t virq, uint32_t vcpu, evtchn_port_t *port);
long evtchn_bind_ipi(uint32_t vcpu, evtchn_port_t *port);
long evtchn_send(evtchn_port_t port);
long evtchn_close(evtchn_port_t port);
long evtchn_unmask(evtchn_port_t port);
long evtchn_bind_vcpu(evtchn_port_t port, uint32_t vcpu);
long evtchn_status(domid_t dom, evtchn_port_t port, struct evtchn_status *st);

/*
 * Acknowledge this vCPU's upcall without the handler: clear
 * evtchn_upcall_pending and evtchn_pending_sel (in that order, before the
 * caller looks at ports).  Leaving either set would stop the hypervisor
 * from signalling later events (it signals only on their 0 -> 1 edge).
 */
void evtchn_ack_upcall(void);
void evtchn_mask(evtchn_port_t port);
bool evtchn_pending(evtchn_port_t port);
void evtchn_clear(evtchn_port_t port);

long hvm_get_param(domid_t dom, uint32_t index, uint64_t *value);
long hvm_set_param(domid_t dom, uint32_t index, uint64_t value);

long set_singleshot_timer(uint64_t abs_ns, uint32_t flags);
long stop_singleshot_timer(void);
long sched_block(void);
long sched_poll(evtchn_port_t *ports, unsigned int nr, uint64_t timeout);

static inline void sti(void)
{
    asm volatile ( "sti" ::: "memory" );
}

/* sti; hlt: wait for an interrupt (the STI shadow covers the HLT). */
static inline void safe_halt(void)
{
    asm volatile ( "sti; hlt" ::: "memory" );
}

#endif /* GUEST_EVENTS_H */
