/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-domain HVM state. */
#ifndef __ASM_X86_HVM_DOMAIN_H__
#define __ASM_X86_HVM_DOMAIN_H__

#include <xen/types.h>
#include <public/hvm/params.h>
#include <asm/p2m.h>

struct hvm_domain {
    struct p2m_domain p2m;
    uint64_t          ram_bytes;        /* guest RAM at [0, ram_bytes) */
    uint64_t          start_info_gpa;   /* the PVH hvm_start_info */

    /* HVMOP_set_param / get_param values. */
    uint64_t          params[HVM_NR_PARAMS];
    /* HVM_PARAM_CALLBACK_IRQ of the vector type: its vector (0: none). */
    uint8_t           callback_via_vector;
};

#endif /* __ASM_X86_HVM_DOMAIN_H__ */
