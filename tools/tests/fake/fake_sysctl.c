/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's sysctls, xen_version and sched_op (see fake.h).
 */
#include "fake_private.h"

/* Samples of XEN_SYSCTL_get_dirty_stats_all that filled records. */
uint64_t fake_stats_samples;

/*
 * writes_logged of the 'saturate' domains, kept by this process: it grows
 * by vrate's dirtied in a sample only if XEN_DOMCTL_dirty_rearm was issued
 * for the domain since the last sample (otherwise every page the guest
 * writes is dirty already and nothing is logged).  Other domains: k * vrate.
 */
static struct {
    uint32_t id;
    bool used, rearmed;
    uint64_t logged[FAKE_MAX_VCPUS];
} lacc[FAKE_MAX_DOMS];

static typeof(lacc[0]) *logged_of(uint32_t domid)
{
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
        if ( !lacc[i].used || lacc[i].id == domid )
        {
            lacc[i].used = true;
            lacc[i].id = domid;
            return &lacc[i];
        }
    return NULL;
}

void fake_rearmed(uint32_t domid)
{
    typeof(lacc[0]) *la = logged_of(domid);

    if ( la )
        la->rearmed = true;
}

static uint32_t dom_flags(const struct fake_dom *d)
{
    uint32_t flags = d->flags | (d->pause_count ? XEN_DOMINF_paused : 0);

    if ( d->flags & XEN_DOMINF_shutdown )
        flags |= (d->reason & XEN_DOMINF_shutdownmask) << XEN_DOMINF_shutdownshift;
    return flags;
}

/* XEN_SYSCTL_getdomaininfolist: domctl getdomaininfo's records, in id order. */
static long getdomaininfolist(struct xen_sysctl *sc)
{
    struct xen_sysctl_getdomaininfolist *l = &sc->u.getdomaininfolist;
    xen_domctl_getdomaininfo_t *out = l->buffer.p;
    struct xen_domctl dc = { .cmd = XEN_DOMCTL_getdomaininfo,
                             .interface_version = XEN_DOMCTL_INTERFACE_VERSION };
    uint32_t next = l->first_domain, n = 0;
    int rc = fake_injected("getdomaininfo");

    if ( rc )
        return rc;
    while ( n < l->max_domains && next < DOMID_FIRST_RESERVED )
    {
        dc.domain = next;
        if ( fake_domctl(&dc) )
            break;
        out[n++] = dc.u.getdomaininfo;
        next = dc.domain + 1;
    }
    l->num_domains = n;
    return 0;
}

/* A 2 GiB single-CPU host. */
static long physinfo(struct xen_sysctl *sc)
{
    struct xen_sysctl_physinfo *info = &sc->u.physinfo;
    int rc = fake_injected("physinfo");

    if ( rc )
        return rc;
    memset(info, 0, sizeof(*info));
    info->threads_per_core = 1;
    info->cores_per_socket = 1;
    info->nr_cpus = 1;
    info->max_cpu_id = 0;
    info->nr_nodes = 1;
    info->cpu_khz = FAKE_CPU_KHZ;
    info->capabilities = XEN_SYSCTL_PHYSCAP_hvm | XEN_SYSCTL_PHYSCAP_hap;
    info->total_pages = 524288;
    info->free_pages = 131072;
    info->max_mfn = 0x7ffff;
    info->hw_cap[0] = 0x178bfbff;
    info->hw_cap[1] = 0x80002001;
    return 0;
}

static long readconsole(struct xen_sysctl *sc)
{
    struct xen_sysctl_readconsole *rc = &sc->u.readconsole;

    fake_log("readconsolering clear=%d", rc->clear);
    return fake_console_read(rc->buffer.p, &rc->count, &rc->index,
                             rc->incremental, rc->clear);
}

/*
 * XEN_SYSCTL_get_dirty_stats_all, deterministic: at this process's k-th
 * sample vCPU v's counters are k * vrate[v] and the clock reads
 * k * $FAKE_XEN_CLOCK_NS (default 1 s), so two samples give exactly vrate
 * per clock step.  The hypervisor's checks: a size query with both
 * handles null, EINVAL for half a request, ENOBUFS with the sizes when
 * there is not room.
 */
static long dirty_stats_all(struct xen_sysctl *sc)
{
    xen_sysctl_dirty_stats_all_t *op = (void *)&sc->u;
    xen_dirty_sysctl_domain_t *domains = op->domains.p;
    xen_dirty_sysctl_vcpu_t *vcpus = op->vcpus.p;
    const char *step = getenv("FAKE_XEN_CLOCK_NS");
    unsigned int nd = 0, nv = 0;
    uint64_t k;
    int rc;

    fake_log("dirty_stats_all");
    if ( (rc = fake_injected("dirty_stats_all")) )
        return rc;
    if ( !domains != !vcpus )
        return -EINVAL;
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
        if ( fake.dom[i].exists )
        {
            nd++;
            nv += fake.dom[i].max_vcpus ? fake.dom[i].max_vcpus : 1;
        }
    op->nr_domains = nd;
    op->nr_vcpus = nv;
    if ( !domains )
        return 0;
    if ( nd > op->max_domains || nv > op->max_vcpus )
        return -ENOBUFS;
    k = ++fake_stats_samples;
    op->now = k * (step ? strtoull(step, NULL, 0) : 1000000000ULL);
    nd = nv = 0;
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
    {
        const struct fake_dom *d = &fake.dom[i];
        xen_dirty_sysctl_domain_t *r = &domains[nd];
        typeof(lacc[0]) *la;

        if ( !d->exists )
            continue;
        nd++;
        la = logged_of(d->id);
        memset(r, 0, sizeof(*r));
        r->domid = d->id;
        r->flags = dom_flags(d);
        r->nr_vcpus = d->max_vcpus ? d->max_vcpus : 1;
        r->first_vcpu = nv;
        r->mode = (d->logdirty ? XEN_DIRTY_MODE_LOGDIRTY : 0) |
                  (d->vram_nr ? XEN_DIRTY_MODE_VRAM : 0);
        r->mechanism = r->mode ? (uint32_t)d->mech : XEN_DIRTY_MECH_NONE;
        r->tot_pages = d->tot_pages;
        for ( unsigned int v = 0; v < r->nr_vcpus; v++, nv++ )
        {
            const uint64_t *rate = v < FAKE_MAX_VCPUS ? d->vrate[v] : d->vrate[0];

            memset(&vcpus[nv], 0, sizeof(vcpus[nv]));
            if ( !d->saturate )
                vcpus[nv].writes_logged = k * rate[0];
            else if ( la && v < FAKE_MAX_VCPUS )
            {
                if ( la->rearmed )
                    la->logged[v] += rate[0];
                vcpus[nv].writes_logged = la->logged[v];
            }
            r->writes_logged += vcpus[nv].writes_logged;
            vcpus[nv].pages_dirtied = k * rate[0];
            vcpus[nv].pml_full_exits = k * rate[1];
            vcpus[nv].wp_faults = k * rate[2];
            vcpus[nv].ple_exits = k * rate[3];
            r->pages_dirtied += k * rate[0];
            r->pml_full_exits += k * rate[1];
            r->wp_faults += k * rate[2];
            r->ple_exits += k * rate[3];
        }
        r->exits_total = r->pml_full_exits + r->wp_faults + r->ple_exits + k * 100;
        if ( la )
            la->rearmed = false;
    }
    return 0;
}

long fake_sysctl(struct xen_sysctl *sc)
{
    if ( sc->interface_version != XEN_SYSCTL_INTERFACE_VERSION )
        return -EACCES;
    switch ( sc->cmd )
    {
    case XEN_SYSCTL_getdomaininfolist:
        return getdomaininfolist(sc);
    case XEN_SYSCTL_physinfo:
        return physinfo(sc);
    case XEN_SYSCTL_sched_id:
        sc->u.sched_id.sched_id = XEN_SCHEDULER_CREDIT2;  /* the hypervisor's answer */
        return 0;
    case XEN_SYSCTL_readconsole:
        return readconsole(sc);
    case XEN_SYSCTL_debug_keys:
        /* As the hypervisor: at most 64 keys a call. */
        if ( sc->u.debug_keys.nr_keys > 64 )
            return -EINVAL;
        fake_log("debug_keys %.*s", (int)sc->u.debug_keys.nr_keys,
                 (const char *)sc->u.debug_keys.keys.p);
        return 0;
    case XEN_SYSCTL_get_dirty_stats_all:
        return dirty_stats_all(sc);
    default:
        return -ENOSYS;
    }
}

/* ---- xen_version ------------------------------------------------------------------ */

long fake_xen_version(unsigned long cmd, void *arg)
{
    switch ( cmd )
    {
    case XENVER_version:
        return FAKE_XEN_MAJOR << 16 | FAKE_XEN_MINOR;
    case XENVER_extraversion:
        strcpy(arg, ".0-fake");
        return 0;
    case XENVER_compile_info:
    {
        xen_compile_info_t *ci = arg;

        strcpy(ci->compiler, "gcc (fake) 12.2.0");
        strcpy(ci->compile_by, "tester");
        strcpy(ci->compile_domain, "example.org");
        strcpy(ci->compile_date, "Thu Jan  1 00:00:00 UTC 1970");
        return 0;
    }
    case XENVER_capabilities:
        strcpy(arg, "hvm-3.0-x86_32 hvm-3.0-x86_32p hvm-3.0-x86_64");
        return 0;
    case XENVER_changeset:
        strcpy(arg, "fake");
        return 0;
    case XENVER_platform_parameters:
        ((xen_platform_parameters_t *)arg)->virt_start = 0xffff800000000000UL;
        return 0;
    case XENVER_pagesize:
        return XC_PAGE_SIZE;
    case XENVER_commandline:
        strcpy(arg, "pml=1 ple_gap=64 ple_window=4096");
        return 0;
    case XENVER_build_id:
    {
        xen_build_id_t *b = arg;
        static const unsigned char id[] = { 0xde, 0xad, 0xbe, 0xef };

        if ( b->len < sizeof(id) )
            return -ENOBUFS;
        memcpy(b->buf, id, sizeof(id));
        return sizeof(id);
    }
    default:
        return -ENOSYS;
    }
}

/* ---- sched_op: the toolstack's remote shutdown ------------------------------------- */

long fake_sched_op(unsigned long cmd, void *arg)
{
    struct sched_remote_shutdown *rs = arg;
    struct fake_dom *d;
    int rc;

    if ( cmd != SCHEDOP_remote_shutdown )
        return -ENOSYS;
    fake_log("shutdown %u %u", rs->domain_id, rs->reason);
    d = fake_touch(rs->domain_id);
    if ( !d )
        return -ESRCH;
    if ( (rc = fake_injected("shutdown")) )
        return rc;
    d->flags |= XEN_DOMINF_shutdown;
    d->reason = rs->reason;
    fake_state_save();
    return 0;
}
