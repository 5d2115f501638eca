/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The counters of dirty tracking, in one place (mm/dirty_stats.c).
 *
 * Each event is counted where it happens, with dirty_vcpu_count() or
 * dirty_domain_count(), and nowhere else; every reader (the domctl and the
 * sysctl the monitor uses, the boot log) goes through dirty_stats.c, which
 * alone turns them into the public records (public/ext/dirty_stats.h,
 * dirty_sysctl.h).  Per-vCPU counters are only ever bumped by the CPU that
 * runs that vCPU; per-domain ones by the log-dirty code, under what
 * serialises it.  All count from the domain's creation and never go back.
 */
#ifndef __ASM_X86_DIRTY_STATS_H__
#define __ASM_X86_DIRTY_STATS_H__

#include <xen/types.h>

/* On behalf of one vCPU. */
struct dirty_vcpu_counters {
    uint64_t pml_full_exits;    /* PML buffer full: a VM exit */
    uint64_t pml_entries;       /* GPAs drained from this vCPU's PML buffer */
    uint64_t wp_faults;         /* write faults on write-protected pages */
    uint64_t pages_dirtied;     /* 0->1 bitmap transitions caused here */
    uint64_t writes_logged;     /* writes logged here, bit already set or not */
    uint64_t ple_exits;         /* PAUSE-loop exits (the monitor shows them) */
};

/* For the whole domain. */
struct dirty_domain_counters {
    uint64_t pages_dirtied;     /* 0->1 bitmap transitions, by anyone */
    uint64_t wp_faults;         /* write faults while tracked */
    uint64_t writes_logged;     /* writes logged, bit set or not */
    uint64_t clean_calls;       /* SHADOW_OP_CLEAN */
    uint64_t peek_calls;        /* SHADOW_OP_PEEK */
    uint64_t vram_calls;        /* track_dirty_vram */
    uint64_t clean_preempted;   /* CLEAN/PEEK continued */
    uint64_t rearm_calls;       /* XEN_DOMCTL_dirty_rearm */
    uint64_t rearm_pages;       /* pages those re-armed */
    uint64_t rearm_preempted;   /* re-arms continued */
    uint64_t superpages_split;  /* 2 MiB mappings split to 4 KiB */
};

#define dirty_vcpu_count(v, ctr)        ((v)->arch.hvm.dirty.ctr++)
#define dirty_vcpu_add(v, ctr, n)       ((v)->arch.hvm.dirty.ctr += (n))
#define dirty_domain_count(d, ctr)      ((d)->arch.paging.dirty.ctr++)
#define dirty_domain_add(d, ctr, n)     ((d)->arch.paging.dirty.ctr += (n))

struct domain;
struct vcpu;
struct xen_domctl_dirty_stats;
struct xen_dirty_vcpu_stats;
struct xen_dirty_sysctl_domain;
struct xen_dirty_sysctl_vcpu;

/* The domain's part of XEN_DOMCTL_get_dirty_stats (its vCPUs': below). */
void dirty_stats_get_domain(const struct domain *d, struct xen_domctl_dirty_stats *st);
void dirty_stats_get_vcpu(const struct vcpu *v, struct xen_dirty_vcpu_stats *vs);
/* The same for XEN_SYSCTL_get_dirty_stats_all's records. */
void dirty_stats_get_sysctl_domain(const struct domain *d, struct xen_dirty_sysctl_domain *r);
void dirty_stats_get_sysctl_vcpu(const struct vcpu *v, struct xen_dirty_sysctl_vcpu *r);
/* superpages_split now (the log-dirty enable reports how many it split). */
uint64_t dirty_stats_superpages_split(const struct domain *d);

#endif /* __ASM_X86_DIRTY_STATS_H__ */
