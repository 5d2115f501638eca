/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-domain HVM state. */
#ifndef __ASM_X86_HVM_DOMAIN_H__
#define __ASM_X86_HVM_DOMAIN_H__

#include <xen/spinlock.h>
#include <xen/types.h>
#include <public/hvm/params.h>
#include <public/hvm/start_info.h>
#include <asm/hvm/io.h>
#include <asm/hvm/rtc.h>
#include <asm/p2m.h>

struct hvm_domain {
    struct p2m_domain p2m;
    uint64_t          ram_bytes;        /* guest RAM at [0, ram_bytes) */
    uint64_t          start_info_gpa;   /* the PVH hvm_start_info */

    /* HVMOP_set_param / get_param values. */
    uint64_t          params[HVM_NR_PARAMS];
    /* HVM_PARAM_CALLBACK_IRQ of the vector type: its vector (0: none). */
    uint8_t           callback_via_vector;
    bool              callback_gsi_logged;   /* the GSI callback is not delivered */
    /*
     * The memory map the domain was built with, or the toolstack gave it
     * (XENMEM_set_memory_map), for XENMEM_memory_map.  memmap_lock (a
     * leaf) guards memmap and nr_memmap once the domain exists.
     */
#define HVM_MAX_MEMMAP 32
    struct hvm_memmap_table_entry memmap[HVM_MAX_MEMMAP];
    unsigned int      nr_memmap;        /* 0: none (a toolstack-built domain) */
    spinlock_t        memmap_lock;

    /* Emulated port I/O (hvm/intercept.c) and devices. */
    struct hvm_io_handler portio[MAX_PORTIO_HANDLERS];
    unsigned int      nr_portio;
    struct hvm_rtc    rtc;
    /*
     * Guest-physical accesses nothing claims (hvm/intercept.c, Xen's null
     * handler): counted, and the first one logged.
     */
    uint64_t          mmio_unclaimed;
    bool              mmio_unclaimed_logged;
    /* VMX "virtualize APIC accesses": mapped at 0xfee00000, never read itself. */
    void             *apic_access_page;
    /* Lowest-priority IPIs: where the next round-robin search starts. */
    unsigned int      lowest_prio_next;
};

#endif /* __ASM_X86_HVM_DOMAIN_H__ */
