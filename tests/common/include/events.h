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
#include "x86.h"
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

/*
 * The FIFO ABI (common/events_fifo.c), consumed as Linux's events_fifo.c
 * does.  Once a vCPU's control block is registered the upcall handler
 * takes that vCPU's events from its queues instead of the 2-level bitmaps:
 * highest priority first, FIFO within a priority, each handled port's
 * PENDING cleared and the port logged in fifo_log[cpu].
 */
#define FIFO_WORDS_PER_PAGE (PAGE_SIZE / sizeof(event_word_t))
#define FIFO_MAX_PAGES      (EVTCHN_FIFO_NR_CHANNELS / FIFO_WORDS_PER_PAGE)
extern struct evtchn_fifo_control_block *fifo_control_block[GUEST_MAX_VCPUS];
extern event_word_t *fifo_event_array[FIFO_MAX_PAGES];
extern unsigned int fifo_array_pages;

/* Raw calls: 0 or -errno.  link_bits may be NULL. */
long evtchn_init_control(uint64_t gfn, uint32_t offset, uint32_t vcpu, uint8_t *link_bits);
long evtchn_expand_array(uint64_t gfn);
long evtchn_set_priority(evtchn_port_t port, uint32_t priority);
long evtchn_reset(domid_t dom);

/* init_control for vCPU id with its block at cb (any 8-aligned place); records it. */
long fifo_setup_vcpu(unsigned int id, struct evtchn_fifo_control_block *cb);
/* expand_array with the page at va (its words as the caller left them); records it. */
long fifo_add_page(void *va);
/* Forget every control block and page (after EVTCHNOP_reset). */
void fifo_forget(void);
/* The event word of a port, NULL if no page has it. */
event_word_t *fifo_word(evtchn_port_t port);

#define FIFO_BIT(b) (1u << EVTCHN_FIFO_##b)
static inline bool fifo_test(evtchn_port_t port, unsigned int bit)
{
    event_word_t *w = fifo_word(port);

    return w && (__atomic_load_n(w, __ATOMIC_ACQUIRE) & (1u << bit));
}
void fifo_mask(evtchn_port_t port);
/* Linux's evtchn_fifo_unmask: clear MASKED; if PENDING, EVTCHNOP_unmask. */
void fifo_unmask(evtchn_port_t port);

/*
 * Consume vCPU cpu's queues now (what the upcall handler does), logging
 * the ports handled; returns how many.  Call it on that vCPU with its
 * upcall held off (interrupts disabled), or from the handler.
 */
unsigned int fifo_consume(unsigned int cpu);
#define FIFO_LOG_SIZE 512
extern evtchn_port_t fifo_log[GUEST_MAX_VCPUS][FIFO_LOG_SIZE];
extern volatile unsigned int fifo_log_len[GUEST_MAX_VCPUS];

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
