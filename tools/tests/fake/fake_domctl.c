/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's domctls (see fake.h), one handler each, as this
 * hypervisor answers them.
 */
#include <inttypes.h>

#include "fake_private.h"

#define EXT(dc, type) ((type *)(void *)&(dc)->u)

/* XEN_DOMCTL_getdomaininfo: the first domain from dc->domain on, as Xen 4.17. */
static long getdomaininfo(struct xen_domctl *dc, struct fake_dom *unused)
{
    struct xen_domctl_getdomaininfo *info = &dc->u.getdomaininfo;
    struct fake_dom *best = NULL;
    int rc = fake_injected("getdomaininfo");

    (void)unused;
    if ( rc )
        return rc;
    fake_guest_suspend_tick();
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
    {
        struct fake_dom *d = &fake.dom[i];

        if ( d->exists && d->id >= dc->domain && (!best || d->id < best->id) )
            best = d;
    }
    if ( !best )
        return -ESRCH;
    memset(info, 0, sizeof(*info));
    info->domain = best->id;
    info->flags = best->flags | (best->pause_count ? XEN_DOMINF_paused : 0);
    if ( best->flags & XEN_DOMINF_shutdown )
        info->flags |= (best->reason & XEN_DOMINF_shutdownmask)
                       << XEN_DOMINF_shutdownshift;
    if ( strcmp(best->type, "pv") )
        info->flags |= XEN_DOMINF_hvm_guest | XEN_DOMINF_hap;
    if ( !strcmp(best->type, "hvm") )
        info->arch_config.emulation_flags = XEN_X86_EMU_LAPIC;
    info->tot_pages = best->tot_pages;
    info->max_pages = best->max_pages;
    info->cpu_time = best->cpu_time;
    info->nr_online_vcpus = best->nr_cpus;
    info->max_vcpu_id = best->max_vcpus ? best->max_vcpus - 1 : 0;
    info->gpaddr_bits = 36;
    memcpy(info->handle, best->handle, sizeof(info->handle));
    dc->domain = best->id;
    return 0;
}

/*
 * XEN_DOMCTL_createdomain: HVM with HAP only.  Ids as Xen's rover gives
 * them: the first free one after the last this process made (each
 * process starts as on a fresh boot, at 1), so a domain made again after
 * its destruction (xl create's monitor, on_reboot=restart) has a new id.
 */
static long createdomain(struct xen_domctl *dc, struct fake_dom *unused)
{
    static uint32_t rover;
    struct xen_domctl_createdomain *cfg = &dc->u.createdomain;
    uint32_t id = dc->domain;
    struct fake_dom *d;
    int rc = fake_injected("create");

    (void)unused;
    if ( rc )
        return rc;
    if ( !(cfg->flags & XEN_DOMCTL_CDF_hvm) || !(cfg->flags & XEN_DOMCTL_CDF_hap) ||
         !cfg->max_vcpus )
        return -EINVAL;
    if ( !id || id >= DOMID_FIRST_RESERVED )
    {
        unsigned int tried;

        for ( id = rover, tried = 0; tried < DOMID_FIRST_RESERVED; tried++ )
        {
            if ( ++id >= DOMID_FIRST_RESERVED )
                id = 1;
            if ( !fake_find(id) )
                break;
        }
        if ( tried == DOMID_FIRST_RESERVED )
            return -ENOMEM;
        rover = id;
    }
    else if ( fake_find(id) )
        return -EEXIST;
    d = fake_dom_alloc(id);
    if ( !d )
        return -ENOMEM;
    memcpy(d->handle, cfg->handle, sizeof(d->handle));
    d->max_vcpus = cfg->max_vcpus;
    dc->domain = id;
    fake_log("create %u vcpus=%u", id, cfg->max_vcpus);
    fake_state_save();
    return 0;
}

static long pausedomain(struct xen_domctl *dc, struct fake_dom *d)
{
    int rc;

    fake_log("pause %u", dc->domain);
    if ( (rc = fake_injected("pause")) )
        return rc;
    fake.pauses++;
    if ( !d->pause_count++ )
        d->paused_at = fake.now_ns;
    fake_state_save();
    return 0;
}

static long unpausedomain(struct xen_domctl *dc, struct fake_dom *d)
{
    int rc;

    fake_log("unpause %u", dc->domain);
    if ( (rc = fake_injected("unpause")) )
        return rc;
    fake.unpauses++;
    if ( !d->pause_count )
        return -EINVAL;
    if ( !--d->pause_count )
    {
        uint64_t span = fake.now_ns - d->paused_at;

        d->pause_spans++;
        d->paused_ns += span;
        if ( span > d->max_pause_ns )
            d->max_pause_ns = span;
    }
    fake_state_save();
    return 0;
}

static long destroydomain(struct xen_domctl *dc, struct fake_dom *d)
{
    int rc;

    fake_log("destroy %u", dc->domain);
    if ( (rc = fake_injected("destroy")) )
        return rc;
    fake_state_forget(d->id);
    fake_dom_free(d);
    fake_state_save();
    return 0;
}

static long max_mem(struct xen_domctl *dc, struct fake_dom *d)
{
    int rc;

    fake_log("setmaxmem %u %" PRIu64, dc->domain, (uint64_t)dc->u.max_mem.max_memkb);
    if ( (rc = fake_injected("setmaxmem")) )
        return rc;
    d->max_pages = dc->u.max_mem.max_memkb >> 2;
    fake_state_save();
    return 0;
}

static long paging_mempool(struct xen_domctl *dc, struct fake_dom *d)
{
    uint64_t size = dc->u.paging_mempool.size;
    int rc;

    if ( dc->cmd == XEN_DOMCTL_get_paging_mempool_size )
    {
        dc->u.paging_mempool.size = d->paging_pool;
        return 0;
    }
    fake_log("paging_mempool %u %" PRIu64, dc->domain, size);
    if ( (rc = fake_injected("paging_mempool")) )
        return rc;
    if ( size & (XC_PAGE_SIZE - 1) )
        return -EINVAL;
    d->paging_pool = size;
    return 0;
}

/* ---- the HVM context: the HEADER, a CPU record per initialised vCPU, END ---- */

static long gethvmcontext(struct xen_domctl *dc, struct fake_dom *d)
{
    struct xen_domctl_hvmcontext *h = &dc->u.hvmcontext;
    struct hvm_save_descriptor desc;
    struct hvm_save_header hdr = {
        .magic = HVM_FILE_MAGIC, .version = HVM_FILE_VERSION,
        .changeset = 0x1234, .cpuid = FAKE_CPUID, .gtsc_khz = 2400000,
    };
    uint8_t *buf = h->buffer.p;
    uint32_t need = sizeof(desc), off = 0;
    int rc;

    if ( (rc = fake_injected("getcontext")) )
        return rc;
    if ( !fake.context_no_header )
        need += sizeof(desc) + sizeof(hdr) +
                d->nr_cpus * (sizeof(desc) + sizeof(struct hvm_hw_cpu));
    if ( !buf )
    {
        h->size = need;
        return 0;
    }
    if ( h->size < need )
        return -ENOSPC;
    if ( !fake.context_no_header )
    {
        desc = (struct hvm_save_descriptor){ HVM_SAVE_CODE(HEADER), 0, sizeof(hdr) };
        memcpy(buf, &desc, sizeof(desc));
        memcpy(buf + sizeof(desc), &hdr, sizeof(hdr));
        off = sizeof(desc) + sizeof(hdr);
        for ( unsigned int v = 0; v < d->nr_cpus; v++ )
        {
            desc = (struct hvm_save_descriptor){ HVM_SAVE_CODE(CPU), (uint16_t)v,
                                                 sizeof(struct hvm_hw_cpu) };
            memcpy(buf + off, &desc, sizeof(desc));
            memcpy(buf + off + sizeof(desc), &d->cpu[v], sizeof(d->cpu[v]));
            off += sizeof(desc) + sizeof(d->cpu[v]);
        }
    }
    desc = (struct hvm_save_descriptor){ HVM_SAVE_CODE(END), 0, 0 };
    memcpy(buf + off, &desc, sizeof(desc));
    h->size = need;
    return 0;
}

/* Records are checked as the hypervisor does; CPU records become the vCPUs. */
static long sethvmcontext(struct xen_domctl *dc, struct fake_dom *d)
{
    struct xen_domctl_hvmcontext *h = &dc->u.hvmcontext;
    const uint8_t *buf = h->buffer.p;
    struct hvm_save_descriptor desc;
    struct hvm_hw_cpu cpu0 = { 0 };
    uint32_t off = 0;
    unsigned int n = 0;
    int rc;

    while ( off + sizeof(desc) <= h->size )
    {
        memcpy(&desc, buf + off, sizeof(desc));
        off += sizeof(desc);
        if ( desc.length > h->size - off )
            return -EINVAL;
        if ( desc.typecode == HVM_SAVE_CODE(CPU) )
        {
            if ( desc.instance >= d->max_vcpus || desc.instance >= FAKE_CPU_RECORDS ||
                 desc.length != sizeof(struct hvm_hw_cpu) )
                return -EINVAL;
            if ( desc.instance == 0 )
                memcpy(&cpu0, buf + off, sizeof(cpu0));
            n++;
        }
        off += desc.length;
    }
    fake_log("setcontext %u rip=%#" PRIx64 " rbx=%#" PRIx64, dc->domain,
             cpu0.rip, cpu0.rbx);
    if ( (rc = fake_injected("setcontext")) )
        return rc;
    if ( h->size > sizeof(d->context) )
        return -EINVAL;
    for ( off = 0; off + sizeof(desc) <= h->size; off += desc.length )
    {
        memcpy(&desc, buf + off, sizeof(desc));
        off += sizeof(desc);
        if ( desc.typecode == HVM_SAVE_CODE(CPU) )
            memcpy(&d->cpu[desc.instance], buf + off, desc.length);
    }
    memcpy(d->context, buf, h->size);
    d->context_size = h->size;
    d->nr_cpus = n;
    d->context_set = true;
    fake_state_save();
    return 0;
}

/* ---- log-dirty (XEN_DOMCTL_shadow_op) -------------------------------------- */

static long shadow_op(struct xen_domctl *dc, struct fake_dom *d)
{
    struct xen_domctl_shadow_op *sc = &dc->u.shadow_op;
    bool clean = sc->op == XEN_DOMCTL_SHADOW_OP_CLEAN;
    uint8_t *bm = sc->dirty_bitmap.p;
    uint64_t covered;
    int rc;

    switch ( sc->op )
    {
    case XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY:
    case XEN_DOMCTL_SHADOW_OP_OFF:
        fake_log("shadow_op %u %s", dc->domain,
                 sc->op == XEN_DOMCTL_SHADOW_OP_OFF ? "off" : "enable_logdirty");
        if ( (rc = fake_injected("shadow_op")) )
            return rc;
        if ( sc->op == XEN_DOMCTL_SHADOW_OP_OFF )
        {
            d->logdirty = false;
            d->vram_nr = 0;
            d->vram_first = 0;
        }
        else if ( d->logdirty || d->vram_nr )
            return -EINVAL;
        else
            d->logdirty = true;
        memset(d->dirty, 0, sizeof(d->dirty));
        if ( d->logdirty )
            fake_guest_writes(d);           /* it writes on while tracked */
        fake_state_save();
        return 0;

    case XEN_DOMCTL_SHADOW_OP_CLEAN:
    case XEN_DOMCTL_SHADOW_OP_PEEK:
        fake_log("logdirty %u %s pages=%" PRIu64, dc->domain,
                 clean ? "clean" : "peek", (uint64_t)sc->pages);
        if ( (rc = fake_injected("logdirty")) ||
             (rc = fake_injected(clean ? "clean" : "peek")) )
            return rc;
        if ( !d->logdirty )
            return -EINVAL;
        covered = sc->pages < d->max_gpfn + 1 ? sc->pages : d->max_gpfn + 1;
        if ( covered > FAKE_MAX_PFNS )
            covered = FAKE_MAX_PFNS;
        if ( covered && !bm )
            return -EFAULT;
        for ( uint64_t p = 0; p < covered; p++ )
            if ( fake_bit_test(d->dirty, p) )
                fake_bit_set(bm, p);
            else
                fake_bit_clear(bm, p);
        sc->stats.fault_count = (uint32_t)d->faults;
        sc->stats.dirty_count = (uint32_t)d->dirty_total;
        sc->pages = covered;
        if ( !clean )
        {
            d->peek_calls++;
            fake_state_save();
            return 0;
        }
        d->clean_calls++;
        d->cleans++;
        if ( sc->mode & XEN_DOMCTL_SHADOW_LOGDIRTY_FINAL )
            d->final_cleans++;
        for ( uint64_t p = 0; p < covered; p++ )
            fake_bit_clear(d->dirty, p);
        /* The guest runs on while the toolstack looks at the bitmap. */
        fake_guest_writes(d);
        fake_run_writers(64);
        fake_state_save();
        return 0;

    default:
        return -EINVAL;
    }
}

/* ---- this project's counters (public/ext/dirty_stats.h) ---------------------- */

static long get_dirty_stats(struct xen_domctl *dc, struct fake_dom *d)
{
    xen_domctl_dirty_stats_t *st = EXT(dc, xen_domctl_dirty_stats_t);
    xen_dirty_vcpu_stats_t *vcpus = st->vcpus.p;
    unsigned int nv = d->max_vcpus ? d->max_vcpus : 1, room = st->nr_vcpus;
    int rc;

    fake_log("dirty_stats %u", dc->domain);
    if ( (rc = fake_injected("dirty_stats")) )
        return rc;
    memset(st, 0, sizeof(*st));
    st->mode = (d->logdirty ? XEN_DIRTY_MODE_LOGDIRTY : 0) |
               (d->vram_nr ? XEN_DIRTY_MODE_VRAM : 0);
    st->mechanism = st->mode ? (uint32_t)d->mech : XEN_DIRTY_MECH_NONE;
    st->nr_vcpus = nv;
    st->dirty_pages = d->dirty_total;
    st->writes_logged = d->dirty_total;
    st->fault_count = d->faults;
    st->clean_calls = d->clean_calls;
    st->peek_calls = d->peek_calls;
    st->vram_calls = d->vram_calls;
    for ( unsigned int i = 0; vcpus && i < nv && i < room; i++ )
    {
        memset(&vcpus[i], 0, sizeof(vcpus[i]));
        vcpus[i].pages_dirtied = i < FAKE_MAX_VCPUS ? d->vdirtied[i] : 0;
        vcpus[i].writes_logged = vcpus[i].pages_dirtied;
        if ( d->mech == XEN_DIRTY_MECH_PML )
            vcpus[i].pml_entries = vcpus[i].pages_dirtied;
        else
            vcpus[i].wp_faults = vcpus[i].pages_dirtied;
        vcpus[i].exits_total = 1000 + i;
    }
    return 0;
}

/* Samples of XEN_SYSCTL_get_dirty_stats_all taken (fake_sysctl.c). */
extern uint64_t fake_stats_samples;
/* A 'saturate' domain's logged writes grow only after a re-arm. */
void fake_rearmed(uint32_t domid);

static long get_exit_counts(struct xen_domctl *dc, struct fake_dom *d)
{
    xen_domctl_exit_counts_t *ec = EXT(dc, xen_domctl_exit_counts_t);
    uint64_t *counts = ec->counts.p;
    const unsigned int nr = 65;             /* EXIT_REASON_NR */
    unsigned int room = ec->nr_reasons, v = ec->vcpu;
    int rc;

    fake_log("exit_counts %u %u", dc->domain, v);
    if ( (rc = fake_injected("exit_counts")) )
        return rc;
    if ( v >= d->max_vcpus )
        return -EINVAL;
    for ( unsigned int r = 0; counts && r < nr && r < room; r++ )
        counts[r] = d->nr_erate ? 0 : r * 10 + v;
    /* erate: they grow with the samples of the dirty-stats sysctl. */
    for ( unsigned int e = 0; counts && e < d->nr_erate; e++ )
        if ( d->erate[e][0] < nr && d->erate[e][0] < room )
            counts[d->erate[e][0]] = fake_stats_samples * (v + 1) * d->erate[e][1];
    ec->nr_reasons = nr;
    return 0;
}

/*
 * XEN_DOMCTL_get_dirty_blocks: each call that fills counts adds brate[b]
 * to block b's counter if the domain is tracked (they stand still
 * otherwise); at the k-th call (size queries included) the clock reads
 * k * $FAKE_XEN_CLOCK_NS.  The hypervisor's checks: EINVAL for room
 * without a buffer or the reverse or room over the limit, ENOBUFS with the
 * size.
 */
static long get_dirty_blocks(struct xen_domctl *dc, struct fake_dom *d)
{
    static uint64_t k;
    static struct { uint32_t id; bool used; uint64_t n[FAKE_MAX_BLOCKS]; }
        accs[2][FAKE_MAX_DOMS];
    xen_domctl_dirty_blocks_t *db = EXT(dc, xen_domctl_dirty_blocks_t);
    uint64_t *counts = db->counts.p, *sum = NULL;
    const char *step = getenv("FAKE_XEN_CLOCK_NS");
    unsigned int room = db->nr_blocks;
    uint32_t counter = db->counter;
    int rc;

    fake_log("dirty_blocks %u%s", dc->domain,
             counter == XEN_DIRTY_BLOCKS_LOGGED ? " logged" : "");
    if ( (rc = fake_injected("dirty_blocks")) )
        return rc;
    if ( counter > XEN_DIRTY_BLOCKS_LOGGED || (!counts != !room) ||
         room > XEN_DIRTY_BLOCKS_MAX )
        return -EINVAL;
    db->nr_blocks = d->nr_brate;
    if ( counts && room < d->nr_brate )
        return -ENOBUFS;
    k++;
    db->block_shift = d->nr_brate ? d->bshift : 0;
    db->vram_first_pfn = d->vram_first;
    db->vram_nr = d->vram_nr;
    db->now = k * (step ? strtoull(step, NULL, 0) : 1000000000ULL);
    if ( !counts )
        return 0;
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS && !sum; i++ )
        if ( !accs[counter][i].used || accs[counter][i].id == d->id )
        {
            accs[counter][i].used = true;
            accs[counter][i].id = d->id;
            sum = accs[counter][i].n;
        }
    for ( unsigned int b = 0; b < d->nr_brate; b++ )
    {
        if ( sum && (d->logdirty || d->vram_nr) )
            sum[b] += d->brate[b];
        counts[b] = sum ? sum[b] : 0;
    }
    return 0;
}

/* XEN_DOMCTL_dirty_rearm: -EINVAL if nothing tracks the domain. */
static long dirty_rearm(struct xen_domctl *dc, struct fake_dom *d)
{
    int rc;

    fake_log("dirty_rearm %u", dc->domain);
    if ( (rc = fake_injected("dirty_rearm")) )
        return rc;
    if ( !d->logdirty && !d->vram_nr )
        return -EINVAL;
    fake_rearmed(d->id);
    EXT(dc, xen_domctl_dirty_rearm_t)->pages = 0;
    return 0;
}

/* ---- vCPUs, as the hypervisor: all on the one physical CPU ------------------------- */

/*
 * vCPUs 0 .. max_vcpus - 1; the first nr_cpus are up.  vCPU 0 carries the
 * domain's running flag and its CPU time; the others are blocked.
 */
static long getvcpuinfo(struct xen_domctl *dc, struct fake_dom *d)
{
    struct xen_domctl_getvcpuinfo *vi = &dc->u.getvcpuinfo;
    unsigned int nv = d->max_vcpus ? d->max_vcpus : 1, v = vi->vcpu;
    int rc;

    if ( (rc = fake_injected("getvcpuinfo")) )
        return rc;
    if ( v >= nv )
        return -ESRCH;
    vi->online = v < d->nr_cpus;
    vi->running = vi->online && v == 0 && (d->flags & XEN_DOMINF_running);
    vi->blocked = vi->online && !vi->running;
    vi->cpu_time = v == 0 ? d->cpu_time : 0;
    vi->cpu = 0;
    return 0;
}

static void fake_cpumap(struct xenctl_bitmap *b)
{
    uint8_t *map = b->bitmap.p;

    for ( unsigned int i = 0; map && i < (b->nr_bits + 7) / 8; i++ )
        map[i] = i == 0 ? 0x01 : 0;         /* CPU 0, the only one */
}

static long getvcpuaffinity(struct xen_domctl *dc, struct fake_dom *d)
{
    struct xen_domctl_vcpuaffinity *va = &dc->u.vcpuaffinity;
    unsigned int nv = d->max_vcpus ? d->max_vcpus : 1;

    if ( va->vcpu >= nv )
        return -ESRCH;
    if ( va->flags & XEN_VCPUAFFINITY_HARD )
        fake_cpumap(&va->cpumap_hard);
    if ( va->flags & XEN_VCPUAFFINITY_SOFT )
        fake_cpumap(&va->cpumap_soft);
    return 0;
}

/* XEN_DOMCTL_resumedomain: as the hypervisor (xen/common/domctl.c). */
static long resumedomain(struct xen_domctl *dc, struct fake_dom *d)
{
    int rc;

    fake_log("resumedomain %u rax=%#" PRIx64, dc->domain, d->cpu[0].rax);
    if ( (rc = fake_injected("resumedomain")) )
        return rc;
    if ( dc->domain == 0 )
        return -EINVAL;                 /* the caller itself */
    if ( d->flags & XEN_DOMINF_shutdown )
    {
        d->flags &= ~XEN_DOMINF_shutdown;
        d->flags |= XEN_DOMINF_running;
        d->reason = 0;
        fake_state_save();
    }
    return 0;
}

/* XEN_DOMCTL_getpageframeinfo3: NOTAB for a populated pfn, XTAB otherwise. */
static long getpageframeinfo3(struct xen_domctl *dc, struct fake_dom *d)
{
    struct xen_domctl_getpageframeinfo3 *pf = &dc->u.getpageframeinfo3;
    xen_pfn_t *arr = pf->array.p;
    int rc = fake_injected("pfinfo");

    if ( rc )
        return rc;
    if ( pf->num > 1024 )
        return -E2BIG;
    fake.pfinfo_calls++;
    for ( uint64_t i = 0; i < pf->num; i++ )
    {
        xen_pfn_t pfn = arr[i];
        bool ram = !(pfn & XEN_DOMCTL_PFINFO_LTAB_MASK) && pfn < FAKE_MAX_PFNS &&
                   fake_populated(d, pfn);

        arr[i] = pfn | (ram ? XEN_DOMCTL_PFINFO_NOTAB : XEN_DOMCTL_PFINFO_XTAB);
    }
    return 0;
}

/*
 * XEN_DOMCTL_gettscinfo / settscinfo, as this hypervisor answers: the
 * host's rate and its TSC (the fake's clock) as ns in mode 0; settscinfo
 * refuses what needs emulation (EOPNOTSUPP) and counts the incarnation.
 */
static long gettscinfo(struct xen_domctl *dc, struct fake_dom *d)
{
    struct xen_domctl_tsc_info *ti = &dc->u.tsc_info;

    memset(ti, 0, sizeof(*ti));
    ti->tsc_mode = d->tsc_mode;
    ti->incarnation = d->tsc_incarnation;
    if ( !d->tsc_mode )
    {
        ti->gtsc_khz = FAKE_CPU_KHZ;
        ti->elapsed_nsec = fake.now_ns;
    }
    return 0;
}

static long settscinfo(struct xen_domctl *dc, struct fake_dom *d)
{
    const struct xen_domctl_tsc_info *ti = &dc->u.tsc_info;

    fake_log("settscinfo %u mode=%u khz=%u inc=%u", d->id, ti->tsc_mode,
             ti->gtsc_khz, ti->incarnation);
    if ( ti->tsc_mode > 2 )
        return -EINVAL;
    if ( ti->tsc_mode == 1 || (ti->tsc_mode == 0 && ti->gtsc_khz &&
                               ti->gtsc_khz != FAKE_CPU_KHZ) )
        return -EOPNOTSUPP;
    d->tsc_mode = ti->tsc_mode;
    d->tsc_incarnation = ti->incarnation + 1;
    d->tsc_set = true;
    return 0;
}

/* ---- dispatch ---------------------------------------------------------------------- */

static const struct {
    uint32_t cmd;
    long (*fn)(struct xen_domctl *dc, struct fake_dom *d);
    bool no_domain;                     /* handles dc->domain itself */
} domctls[] = {
    { XEN_DOMCTL_getdomaininfo,            getdomaininfo,   true },
    { XEN_DOMCTL_createdomain,             createdomain,    true },
    { XEN_DOMCTL_pausedomain,              pausedomain,     false },
    { XEN_DOMCTL_unpausedomain,            unpausedomain,   false },
    { XEN_DOMCTL_destroydomain,            destroydomain,   false },
    { XEN_DOMCTL_resumedomain,             resumedomain,    false },
    { XEN_DOMCTL_max_mem,                  max_mem,         false },
    { XEN_DOMCTL_set_paging_mempool_size,  paging_mempool,  false },
    { XEN_DOMCTL_get_paging_mempool_size,  paging_mempool,  false },
    { XEN_DOMCTL_gethvmcontext,            gethvmcontext,   false },
    { XEN_DOMCTL_sethvmcontext,            sethvmcontext,   false },
    { XEN_DOMCTL_shadow_op,                shadow_op,       false },
    { XEN_DOMCTL_get_dirty_stats,          get_dirty_stats, false },
    { XEN_DOMCTL_get_exit_counts,          get_exit_counts, false },
    { XEN_DOMCTL_get_dirty_blocks,         get_dirty_blocks, false },
    { XEN_DOMCTL_dirty_rearm,              dirty_rearm,     false },
    { XEN_DOMCTL_getvcpuinfo,              getvcpuinfo,     false },
    { XEN_DOMCTL_getvcpuaffinity,          getvcpuaffinity, false },
    { XEN_DOMCTL_getpageframeinfo3,        getpageframeinfo3, false },
    { XEN_DOMCTL_gettscinfo,               gettscinfo,      false },
    { XEN_DOMCTL_settscinfo,               settscinfo,      false },
};

long fake_domctl(struct xen_domctl *dc)
{
    struct fake_dom *d = NULL;

    if ( dc->interface_version != XEN_DOMCTL_INTERFACE_VERSION )
        return -EACCES;
    for ( unsigned int i = 0; i < sizeof(domctls) / sizeof(domctls[0]); i++ )
    {
        if ( domctls[i].cmd != dc->cmd )
            continue;
        if ( !domctls[i].no_domain && !(d = fake_touch(dc->domain)) )
            return -ESRCH;
        return domctls[i].fn(dc, d);
    }
    return -ENOSYS;
}
