/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The counters of dirty tracking (asm/dirty_stats.h) as the public
 * records give them: XEN_DOMCTL_get_dirty_stats (public/ext/dirty_stats.h)
 * and XEN_SYSCTL_get_dirty_stats_all (public/ext/dirty_sysctl.h).  This
 * file alone reads the counters and the log-dirty state they describe.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <public/domctl.h>
#include <public/ext/dirty_stats.h>
#include <public/ext/dirty_sysctl.h>
#include <asm/dirty_stats.h>
#include <asm/paging.h>

static uint32_t dirty_mode(const struct log_dirty_domain *ld)
{
    if ( !ld->enabled )
        return 0;
    return (ld->global ? XEN_DIRTY_MODE_LOGDIRTY : 0) |
           (ld->vram_nr ? XEN_DIRTY_MODE_VRAM : 0);
}

static uint32_t dirty_mechanism(const struct log_dirty_domain *ld)
{
    if ( !ld->enabled )
        return XEN_DIRTY_MECH_NONE;
    return ld->pml ? XEN_DIRTY_MECH_PML : XEN_DIRTY_MECH_WP;
}

uint64_t dirty_stats_superpages_split(const struct domain *d)
{
    return d->arch.paging.dirty.superpages_split;
}

void dirty_stats_get_domain(const struct domain *d, struct xen_domctl_dirty_stats *st)
{
    const struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    const struct dirty_domain_counters *c = &d->arch.paging.dirty;
    const struct vcpu *v;

    st->mode = dirty_mode(ld);
    st->mechanism = dirty_mechanism(ld);
    st->nr_vcpus = d->max_vcpus;
    st->pad = 0;
    st->dirty_pages = c->pages_dirtied;
    st->fault_count = c->wp_faults;
    st->pml_full_exits = 0;
    for_each_vcpu ( d, v )
        st->pml_full_exits += v->arch.hvm.dirty.pml_full_exits;
    st->clean_calls = c->clean_calls;
    st->peek_calls = c->peek_calls;
    st->vram_calls = c->vram_calls;
    st->superpages_split = c->superpages_split;
    st->clean_preempted = c->clean_preempted;
    st->writes_logged = c->writes_logged;
    st->rearm_calls = c->rearm_calls;
    st->rearm_pages = c->rearm_pages;
    st->rearm_preempted = c->rearm_preempted;
}

void dirty_stats_get_vcpu(const struct vcpu *v, struct xen_dirty_vcpu_stats *vs)
{
    const struct dirty_vcpu_counters *c = &v->arch.hvm.dirty;

    memset(vs, 0, sizeof(*vs));
    vs->pml_full_exits = c->pml_full_exits;
    vs->pml_entries = c->pml_entries;
    vs->wp_faults = c->wp_faults;
    vs->pages_dirtied = c->pages_dirtied;
    vs->ple_exits = c->ple_exits;
    vs->exits_total = v->arch.hvm.exits_total;
    vs->writes_logged = c->writes_logged;
}

void dirty_stats_get_sysctl_domain(const struct domain *d, struct xen_dirty_sysctl_domain *r)
{
    const struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    const struct vcpu *v;

    r->mode = dirty_mode(ld);
    r->mechanism = dirty_mechanism(ld);
    r->tot_pages = d->tot_pages;
    r->pages_dirtied = d->arch.paging.dirty.pages_dirtied;
    r->writes_logged = d->arch.paging.dirty.writes_logged;
    r->nr_vcpus = 0;
    r->pml_full_exits = r->wp_faults = r->ple_exits = r->exits_total = 0;
    for_each_vcpu ( d, v )
    {
        r->nr_vcpus++;
        r->pml_full_exits += v->arch.hvm.dirty.pml_full_exits;
        r->wp_faults += v->arch.hvm.dirty.wp_faults;
        r->ple_exits += v->arch.hvm.dirty.ple_exits;
        r->exits_total += v->arch.hvm.exits_total;
    }
}

void dirty_stats_get_sysctl_vcpu(const struct vcpu *v, struct xen_dirty_sysctl_vcpu *r)
{
    const struct dirty_vcpu_counters *c = &v->arch.hvm.dirty;

    memset(r, 0, sizeof(*r));
    r->pages_dirtied = c->pages_dirtied;
    r->pml_full_exits = c->pml_full_exits;
    r->wp_faults = c->wp_faults;
    r->ple_exits = c->ple_exits;
    r->writes_logged = c->writes_logged;
}
