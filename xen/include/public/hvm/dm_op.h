/* SPDX-License-Identifier: MIT */
/*
 * __HYPERVISOR_dm_op(domid, nr_bufs, bufs): calls a device model makes
 * about the HVM domain it serves.  bufs[0] holds a struct xen_dm_op; any
 * further buffers carry op-specific data (e.g. the dirty bitmap of
 * XEN_DMOP_track_dirty_vram comes back in bufs[1]).
 */

#ifndef __LOCAL_PUBLIC_HVM_DM_OP_H__
#define __LOCAL_PUBLIC_HVM_DM_OP_H__

#include "../xen.h"
#include "../event_channel.h"

#define XEN_DMOP_create_ioreq_server              1
#define XEN_DMOP_get_ioreq_server_info            2
#define XEN_DMOP_map_io_range_to_ioreq_server     3
#define XEN_DMOP_unmap_io_range_from_ioreq_server 4
#define XEN_DMOP_set_ioreq_server_state           5
#define XEN_DMOP_destroy_ioreq_server             6
#define XEN_DMOP_track_dirty_vram                 7
#define XEN_DMOP_set_pci_intx_level               8
#define XEN_DMOP_set_isa_irq_level                9
#define XEN_DMOP_set_pci_link_route               10
#define XEN_DMOP_modified_memory                  11
#define XEN_DMOP_set_mem_type                     12
#define XEN_DMOP_inject_event                     13
#define XEN_DMOP_inject_msi                       14
#define XEN_DMOP_map_mem_type_to_ioreq_server     15
#define XEN_DMOP_remote_shutdown                  16
#define XEN_DMOP_relocate_memory                  17
#define XEN_DMOP_pin_memory_cacheattr             18
#define XEN_DMOP_set_irq_level                    19
#define XEN_DMOP_nr_vcpus                         20

#define XEN_DMOP_PCI_SBDF(s, b, d, f)                                         \
    ((((s) & 0xffff) << 16) | (((b) & 0xff) << 8) | (((d) & 0x1f) << 3) |     \
     ((f) & 0x07))

#ifndef __ASSEMBLY__

typedef uint16_t ioservid_t;

struct xen_dm_op_create_ioreq_server {
    uint8_t handle_bufioreq;            /* IN: HVM_IOREQSRV_BUFIOREQ_* */
    uint8_t pad[3];
    ioservid_t id;                      /* OUT */
};
typedef struct xen_dm_op_create_ioreq_server xen_dm_op_create_ioreq_server_t;

struct xen_dm_op_get_ioreq_server_info {
    ioservid_t id;                      /* IN */
    uint16_t flags;                     /* IN */
#define _XEN_DMOP_no_gfns 0
#define XEN_DMOP_no_gfns  (1u << _XEN_DMOP_no_gfns)
    evtchn_port_t bufioreq_port;        /* OUT */
    uint64_aligned_t ioreq_gfn;         /* OUT */
    uint64_aligned_t bufioreq_gfn;      /* OUT */
};
typedef struct xen_dm_op_get_ioreq_server_info xen_dm_op_get_ioreq_server_info_t;

/* Map / unmap [start, end] of one I/O space to an ioreq server. */
struct xen_dm_op_ioreq_server_range {
    ioservid_t id;
    uint16_t pad;
    uint32_t type;
#define XEN_DMOP_IO_RANGE_PORT   0
#define XEN_DMOP_IO_RANGE_MEMORY 1
#define XEN_DMOP_IO_RANGE_PCI    2      /* values from XEN_DMOP_PCI_SBDF() */
    uint64_aligned_t start, end;        /* inclusive */
};
typedef struct xen_dm_op_ioreq_server_range xen_dm_op_ioreq_server_range_t;

struct xen_dm_op_set_ioreq_server_state {
    ioservid_t id;
    uint8_t enabled;
    uint8_t pad;
};
typedef struct xen_dm_op_set_ioreq_server_state xen_dm_op_set_ioreq_server_state_t;

struct xen_dm_op_destroy_ioreq_server {
    ioservid_t id;
    uint16_t pad;
};
typedef struct xen_dm_op_destroy_ioreq_server xen_dm_op_destroy_ioreq_server_t;

/*
 * Report which of nr frames from first_pfn were written since the last
 * call; the bitmap (one bit per frame) goes into bufs[1].  nr == 0 stops
 * tracking.
 */
struct xen_dm_op_track_dirty_vram {
    uint32_t nr;
    uint32_t pad;
    uint64_aligned_t first_pfn;
};
typedef struct xen_dm_op_track_dirty_vram xen_dm_op_track_dirty_vram_t;

struct xen_dm_op_set_pci_intx_level {
    uint16_t domain;
    uint8_t bus, device, intx;
    uint8_t level;
};
typedef struct xen_dm_op_set_pci_intx_level xen_dm_op_set_pci_intx_level_t;

struct xen_dm_op_set_isa_irq_level {
    uint8_t isa_irq;
    uint8_t level;
};
typedef struct xen_dm_op_set_isa_irq_level xen_dm_op_set_isa_irq_level_t;

struct xen_dm_op_set_pci_link_route {
    uint8_t link;
    uint8_t isa_irq;                    /* 0 disables the link */
};
typedef struct xen_dm_op_set_pci_link_route xen_dm_op_set_pci_link_route_t;

/* Tell Xen the DM wrote guest memory; extents are in bufs[1]. */
struct xen_dm_op_modified_memory {
    uint32_t nr_extents;
    uint32_t opaque;                    /* continuation state; zero */
};
typedef struct xen_dm_op_modified_memory xen_dm_op_modified_memory_t;

struct xen_dm_op_modified_memory_extent {
    uint32_t nr;
    uint32_t pad;
    uint64_aligned_t first_pfn;
};

struct xen_dm_op_set_mem_type {
    uint32_t nr;
    uint16_t mem_type;                  /* hvmmem_type_t */
    uint16_t pad;
    uint64_aligned_t first_pfn;
};
typedef struct xen_dm_op_set_mem_type xen_dm_op_set_mem_type_t;

struct xen_dm_op_inject_event {
    uint32_t vcpuid;
    uint8_t vector;
    uint8_t type;
#define XEN_DMOP_EVENT_ext_int    0
#define XEN_DMOP_EVENT_nmi        2
#define XEN_DMOP_EVENT_hw_exc     3
#define XEN_DMOP_EVENT_sw_int     4
#define XEN_DMOP_EVENT_pri_sw_exc 5
#define XEN_DMOP_EVENT_sw_exc     6
    uint8_t insn_len;
    uint8_t pad0;
    uint32_t error_code;                /* ~0 for none */
    uint32_t pad1;
    uint64_aligned_t cr2;               /* for #PF */
};
typedef struct xen_dm_op_inject_event xen_dm_op_inject_event_t;

struct xen_dm_op_inject_msi {
    uint32_t data;
    uint32_t pad;
    uint64_aligned_t addr;
};
typedef struct xen_dm_op_inject_msi xen_dm_op_inject_msi_t;

struct xen_dm_op_map_mem_type_to_ioreq_server {
    ioservid_t id;
    uint16_t type;                      /* hvmmem_type_t */
    uint32_t flags;                     /* 0 unmaps */
#define XEN_DMOP_IOREQ_MEM_ACCESS_READ  (1u << 0)
#define XEN_DMOP_IOREQ_MEM_ACCESS_WRITE (1u << 1)
    uint64_t opaque;                    /* continuation state; zero */
};
typedef struct xen_dm_op_map_mem_type_to_ioreq_server
    xen_dm_op_map_mem_type_to_ioreq_server_t;

struct xen_dm_op_remote_shutdown {
    uint32_t reason;                    /* SHUTDOWN_* */
};
typedef struct xen_dm_op_remote_shutdown xen_dm_op_remote_shutdown_t;

struct xen_dm_op_relocate_memory {
    uint32_t size;
    uint32_t pad;
    uint64_aligned_t src_gfn;
    uint64_aligned_t dst_gfn;
};
typedef struct xen_dm_op_relocate_memory xen_dm_op_relocate_memory_t;

struct xen_dm_op_pin_memory_cacheattr {
    uint64_aligned_t start;             /* first gfn */
    uint64_aligned_t end;               /* last gfn, inclusive */
#define XEN_DMOP_MEM_CACHEATTR_UC  0
#define XEN_DMOP_MEM_CACHEATTR_WC  1
#define XEN_DMOP_MEM_CACHEATTR_WT  4
#define XEN_DMOP_MEM_CACHEATTR_WP  5
#define XEN_DMOP_MEM_CACHEATTR_WB  6
#define XEN_DMOP_MEM_CACHEATTR_UCM 7
#define XEN_DMOP_DELETE_MEM_CACHEATTR (~(uint32_t)0)
    uint32_t type;
    uint32_t pad;
};
typedef struct xen_dm_op_pin_memory_cacheattr xen_dm_op_pin_memory_cacheattr_t;

struct xen_dm_op_set_irq_level {
    uint32_t irq;
    uint8_t level;
    uint8_t pad[3];
};
typedef struct xen_dm_op_set_irq_level xen_dm_op_set_irq_level_t;

struct xen_dm_op_nr_vcpus {
    uint32_t vcpus;                     /* OUT */
};
typedef struct xen_dm_op_nr_vcpus xen_dm_op_nr_vcpus_t;

struct xen_dm_op {
    uint32_t op;                        /* XEN_DMOP_* */
    uint32_t pad;
    union {
        xen_dm_op_create_ioreq_server_t create_ioreq_server;
        xen_dm_op_get_ioreq_server_info_t get_ioreq_server_info;
        xen_dm_op_ioreq_server_range_t map_io_range_to_ioreq_server;
        xen_dm_op_ioreq_server_range_t unmap_io_range_from_ioreq_server;
        xen_dm_op_set_ioreq_server_state_t set_ioreq_server_state;
        xen_dm_op_destroy_ioreq_server_t destroy_ioreq_server;
        xen_dm_op_track_dirty_vram_t track_dirty_vram;
        xen_dm_op_set_pci_intx_level_t set_pci_intx_level;
        xen_dm_op_set_isa_irq_level_t set_isa_irq_level;
        xen_dm_op_set_irq_level_t set_irq_level;
        xen_dm_op_set_pci_link_route_t set_pci_link_route;
        xen_dm_op_modified_memory_t modified_memory;
        xen_dm_op_set_mem_type_t set_mem_type;
        xen_dm_op_inject_event_t inject_event;
        xen_dm_op_inject_msi_t inject_msi;
        xen_dm_op_map_mem_type_to_ioreq_server_t map_mem_type_to_ioreq_server;
        xen_dm_op_remote_shutdown_t remote_shutdown;
        xen_dm_op_relocate_memory_t relocate_memory;
        xen_dm_op_pin_memory_cacheattr_t pin_memory_cacheattr;
        xen_dm_op_nr_vcpus_t nr_vcpus;
    } u;
};

/* One buffer of a dm_op call. */
struct xen_dm_op_buf {
    XEN_GUEST_HANDLE(void) h;
    xen_ulong_t size;
};
typedef struct xen_dm_op_buf xen_dm_op_buf_t;
DEFINE_XEN_GUEST_HANDLE(xen_dm_op_buf_t);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_HVM_DM_OP_H__ */
