/* SPDX-License-Identifier: MIT */
/*
 * __HYPERVISOR_hvm_op(cmd, arg): HVM parameters and a few HVM-only
 * services.  The parameter indices are in hvm/params.h.
 */

#ifndef __LOCAL_PUBLIC_HVM_HVM_OP_H__
#define __LOCAL_PUBLIC_HVM_HVM_OP_H__

#include "../xen.h"
#include "../event_channel.h"

#define HVMOP_set_param                0
#define HVMOP_get_param                1
/* 2-4 (PCI INTx / ISA IRQ / link route) moved to dm_op in Xen 4.9. */
#define HVMOP_flush_tlbs               5
/* 6-8 (memory type, modified memory) moved to dm_op. */
#define HVMOP_pagetable_dying          9
#define HVMOP_get_time                 10
#define HVMOP_xentrace                 11
#if defined(__XEN__) || defined(__XEN_TOOLS__)
#define HVMOP_set_mem_access           12
#define HVMOP_get_mem_access           13
#endif
#define HVMOP_get_mem_type             15
/* 16-22 are retired ioreq-server calls, now dm_op. */
#define HVMOP_set_evtchn_upcall_vector 23
#define HVMOP_guest_request_vm_event   24
#define HVMOP_altp2m                   25

#define HVMOP_ALTP2M_INTERFACE_VERSION 0x00000001

#if defined(__XEN__) || defined(__XEN_TOOLS__)
/* handle_bufioreq values of XEN_DMOP_create_ioreq_server. */
#define HVM_IOREQSRV_BUFIOREQ_OFF    0
#define HVM_IOREQSRV_BUFIOREQ_LEGACY 1
#define HVM_IOREQSRV_BUFIOREQ_ATOMIC 2
#endif

#ifndef __ASSEMBLY__

/* HVMOP_set_param / HVMOP_get_param. */
struct xen_hvm_param {
    domid_t domid;                      /* IN */
    uint16_t pad;
    uint32_t index;                     /* IN: HVM_PARAM_* */
    uint64_t value;                     /* IN/OUT */
};
typedef struct xen_hvm_param xen_hvm_param_t;
DEFINE_XEN_GUEST_HANDLE(xen_hvm_param_t);

/* p2m types visible through HVMOP_get_mem_type / XEN_DMOP_set_mem_type. */
typedef enum {
    HVMMEM_ram_rw,                      /* ordinary RAM */
    HVMMEM_ram_ro,                      /* writes dropped */
    HVMMEM_mmio_dm,                     /* all accesses go to the device model */
    HVMMEM_unused,                      /* formerly mmio_write_dm */
    HVMMEM_ioreq_server                 /* claimed by an ioreq server */
} hvmmem_type_t;

/* The guest tells Xen it is done with a page table (shadow hint). */
struct xen_hvm_pagetable_dying {
    domid_t domid;
    uint16_t pad[3];
    uint64_t gpa;
};
typedef struct xen_hvm_pagetable_dying xen_hvm_pagetable_dying_t;
DEFINE_XEN_GUEST_HANDLE(xen_hvm_pagetable_dying_t);

struct xen_hvm_get_time {
    uint64_t now;                       /* OUT: system time, ns */
};
typedef struct xen_hvm_get_time xen_hvm_get_time_t;
DEFINE_XEN_GUEST_HANDLE(xen_hvm_get_time_t);

/* Room for the trace record's extra words (TRACE_EXTRA_MAX of trace.h). */
#ifndef TRACE_EXTRA_MAX
#define TRACE_EXTRA_MAX 7
#endif
struct xen_hvm_xentrace {
    uint16_t event, extra_bytes;
    uint8_t extra[TRACE_EXTRA_MAX * sizeof(uint32_t)];
};
typedef struct xen_hvm_xentrace xen_hvm_xentrace_t;
DEFINE_XEN_GUEST_HANDLE(xen_hvm_xentrace_t);

struct xen_hvm_get_mem_type {
    domid_t domid;                      /* IN */
    uint16_t mem_type;                  /* OUT: hvmmem_type_t */
    uint16_t pad[2];
    uint64_t pfn;                       /* IN */
};
typedef struct xen_hvm_get_mem_type xen_hvm_get_mem_type_t;
DEFINE_XEN_GUEST_HANDLE(xen_hvm_get_mem_type_t);

/*
 * Deliver event-channel upcalls for 'vcpu' as a plain LAPIC vector
 * instead of through HVM_PARAM_CALLBACK_IRQ (vector >= 0x10).
 */
struct xen_hvm_evtchn_upcall_vector {
    uint32_t vcpu;
    uint8_t vector;
};
typedef struct xen_hvm_evtchn_upcall_vector xen_hvm_evtchn_upcall_vector_t;
DEFINE_XEN_GUEST_HANDLE(xen_hvm_evtchn_upcall_vector_t);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_HVM_HVM_OP_H__ */
