/* SPDX-License-Identifier: GPL-2.0-only */
/* x86 parts of struct domain and struct vcpu: every domain is an HVM (PVH) one. */
#ifndef __ASM_X86_DOMAIN_H__
#define __ASM_X86_DOMAIN_H__

#include <asm/cpu-policy.h>
#include <asm/hvm/domain.h>
#include <asm/hvm/vcpu.h>
#include <asm/paging.h>

struct arch_domain {
    struct hvm_domain hvm;
    struct paging_domain paging;
    /*
     * XEN_DOMCTL_settscinfo's mode (TSC_MODE_*) and incarnation (+1 per
     * set, as Xen).  Written by the domctl only (the domctl lock).
     */
    uint32_t tsc_mode;
    uint32_t incarnation;
    /* What XEN_DOMCTL_set_cpu_policy hid from it (cpu-policy.c). */
    struct domain_cpu_policy cpu_policy;
};

#define paging_mode_log_dirty(d) ((d)->arch.paging.log_dirty.enabled)

struct arch_vcpu {
    struct hvm_vcpu hvm;
    /* An NMI waits to be injected (Xen's v->arch.nmi_pending): one at most. */
    bool            nmi_pending;
};

#endif /* __ASM_X86_DOMAIN_H__ */
