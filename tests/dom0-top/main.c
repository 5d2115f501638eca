/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XEN_SYSCTL_get_dirty_stats_all (public/ext/dirty_sysctl.h), what xentop
 * reads, from the control domain while domain 1 (tests/dirtier) writes in
 * log-dirty mode and this kernel also consumes its dirty log by CLEAN
 * rounds checked against the writer (dirty-check.c): the monitor must not
 * disturb the consumer (counters only, never CLEAN or PEEK), every vCPU's
 * dirtied counter grows, their sum is the domain's, and the PML / WP
 * counters follow the mechanism.  Then the heat map's counters
 * (XEN_DOMCTL_get_dirty_blocks): between two CLEANs every 2 MiB block's
 * count grows by exactly the bits the CLEAN returned in it, the blocks
 * above the writer's region stay cold, and under VRAM tracking only the
 * VRAM block moves, by exactly the bits the VRAM read returned.  Then
 * the monitor's re-arm (XEN_DOMCTL_dirty_rearm, test_rearm): with the
 * monitor as the only consumer, each re-armed interval logs exactly the
 * pages the writer wrote in it (and the one interval without a re-arm
 * fewer), and a consumer's CLEAN rounds stay exact while the monitor
 * re-arms between and inside them.  Then the error cases, and what one
 * call costs in TSC ticks (one tick per instruction under Bochs).
 *
 * Guest command line: domu=<id> (default 1).
 */
#include "dirty-check.h"
#include <errno.h>
#include <xendevicemodel.h>
#include <string.h>

const char test_title[] = "xentop's sysctl: every domain's dirty counters";

#define MAX_DOMS 4
#define MAX_RECS 16

static xen_dirty_sysctl_domain_t doms[MAX_DOMS];
static xen_dirty_sysctl_vcpu_t vcpus[MAX_RECS];
static unsigned long bad;
static uint64_t now, last_now;      /* the hypervisor's time of a sample */

static void check(bool ok, const char *fmt, unsigned long a, unsigned long b)
{
    if ( ok )
        return;
    bad++;
    xtf_failure("Fail: ");
    printk(fmt, a, b);
}

/* One sample; the record of 'dom' (or NULL). */
static const xen_dirty_sysctl_domain_t *sample(uint32_t dom)
{
    unsigned int nd = MAX_DOMS, nv = MAX_RECS, i;

    if ( xc_dirty_stats_all(xch, doms, &nd, vcpus, &nv, &now) )
    {
        bad++;
        xtf_failure("Fail: xc_dirty_stats_all: errno %d\n", errno);
        return NULL;
    }
    check(now > last_now, "sample time %lu after %lu\n", now, last_now);
    last_now = now;
    for ( i = 0; i < nd; i++ )
        if ( doms[i].domid == dom )
            return &doms[i];
    return NULL;
}

/* A raw call: the errno, and the sizes it returned. */
static int raw(uint32_t maxd, uint32_t maxv, void *d, void *v,
               struct xen_sysctl_dirty_stats_all *out)
{
    struct xen_sysctl s;
    struct xen_sysctl_dirty_stats_all *op = (void *)&s.u;

    memset(&s, 0, sizeof(s));
    s.cmd = XEN_SYSCTL_get_dirty_stats_all;
    s.interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    op->max_domains = maxd;
    op->max_vcpus = maxv;
    set_xen_guest_handle_raw(op->domains, (xen_dirty_sysctl_domain_t *)d);
    set_xen_guest_handle_raw(op->vcpus, (xen_dirty_sysctl_vcpu_t *)v);
    if ( xc_sysctl(xch, &s) == 0 )
    {
        *out = *op;
        return 0;
    }
    *out = *op;
    return errno;
}

static bool untouched(const void *p, size_t n)
{
    const unsigned char *c = p;

    while ( n-- )
        if ( *c++ != 0xa5 )
            return false;
    return true;
}

static void expect(const char *what, int got, int want)
{
    if ( got == want )
        printk("  ok   %-44s errno %d\n", what, got);
    else
    {
        bad++;
        xtf_failure("Fail: %s: errno %d, expected %d\n", what, got, want);
    }
}

static void test_errors(unsigned int want_d, unsigned int want_v)
{
    static xen_dirty_sysctl_domain_t d[MAX_DOMS];
    static xen_dirty_sysctl_vcpu_t v[MAX_RECS];
    struct xen_sysctl_dirty_stats_all o;
    unsigned int nd = 0, nv = 0;
    int rc;

    rc = xc_dirty_stats_all(xch, NULL, &nd, NULL, &nv, NULL);
    check(!rc && nd == want_d && nv == want_v,
          "size query: %lu domains, %lu vCPUs\n", nd, nv);
    printk("  ok   size query: %u domains, %u vCPUs\n", nd, nv);

    memset(d, 0xa5, sizeof(d));
    memset(v, 0xa5, sizeof(v));
    rc = raw(want_d - 1, MAX_RECS, d, v, &o);
    expect("room for one domain too few", rc, ENOBUFS);
    check(o.nr_domains == want_d && o.nr_vcpus == want_v,
          "ENOBUFS sizes %lu, %lu\n", o.nr_domains, o.nr_vcpus);
    check(untouched(d, sizeof(d)) && untouched(v, sizeof(v)),
          "ENOBUFS wrote into the buffers (%lu%lu)\n", 0, 0);
    rc = raw(MAX_DOMS, want_v - 1, d, v, &o);
    expect("room for one vCPU too few", rc, ENOBUFS);
    rc = raw(MAX_DOMS, MAX_RECS, d, NULL, &o);
    expect("vCPU handle null, domain handle not", rc, EINVAL);
    rc = raw(0, MAX_RECS, d, v, &o);
    expect("no room at all", rc, EINVAL);
    rc = raw(XEN_DIRTY_SYSCTL_MAX_DOMAINS + 1, MAX_RECS, d, v, &o);
    expect("more room than the limit", rc, EINVAL);
    rc = raw(MAX_DOMS, MAX_RECS, d, (void *)0x7fff00000000UL, &o);
    expect("vCPU buffer outside our memory", rc, EFAULT);
    /* Room claimed past the end of our buffer (and of our memory). */
    rc = raw(MAX_DOMS, XEN_DIRTY_SYSCTL_MAX_VCPUS, d, (void *)0x7fff0000UL, &o);
    expect("vCPU room past the end of our memory", rc, EFAULT);
    check(untouched(d, sizeof(d)), "EFAULT wrote the domains (%lu%lu)\n", 0, 0);
}

/* ---- the heat map's counters (XEN_DOMCTL_get_dirty_blocks) ---- */

#define MAX_BLOCKS XEN_DIRTY_BLOCKS_MAX
#define VRAM_NR    512                  /* one 2 MiB block: pfns 0x400-0x5ff */

static uint64_t blk0[MAX_BLOCKS], blk1[MAX_BLOCKS];
static unsigned long vbits[VRAM_NR / BITS_PER_LONG];

static unsigned int blocks(uint64_t *b, xen_domctl_dirty_blocks_t *info)
{
    unsigned int n = MAX_BLOCKS;

    if ( xc_dirty_blocks(xch, domu, b, &n, info) )
    {
        bad++;
        xtf_failure("Fail: xc_dirty_blocks: errno %d\n", errno);
        return 0;
    }
    return n;
}

static unsigned long bits_in(const unsigned long *bm, unsigned long first,
                             unsigned long nr)
{
    unsigned long n = 0;

    for ( unsigned long p = first; p < first + nr; p++ )
        n += test_bit(bm, p);
    return n;
}

static int raw_blocks_of(uint32_t dom, uint32_t room, void *buf, uint32_t counter,
                         uint32_t pad, xen_domctl_dirty_blocks_t *out)
{
    struct xen_domctl d;
    xen_domctl_dirty_blocks_t *db = (void *)&d.u;
    int rc;

    memset(&d, 0, sizeof(d));
    d.cmd = XEN_DOMCTL_get_dirty_blocks;
    d.interface_version = XEN_DOMCTL_INTERFACE_VERSION;
    d.domain = dom;
    db->nr_blocks = room;
    db->counter = counter;
    db->pad = pad;
    set_xen_guest_handle_raw(db->counts, (uint64_t *)buf);
    rc = xc_domctl(xch, &d) ? errno : 0;
    *out = *db;
    return rc;
}

static int raw_blocks(uint32_t dom, uint32_t room, void *buf,
                      xen_domctl_dirty_blocks_t *out)
{
    return raw_blocks_of(dom, room, buf, XEN_DIRTY_BLOCKS_NEWLY, 0, out);
}

static void test_block_errors(unsigned int want)
{
    static uint64_t b[MAX_BLOCKS];
    xen_domctl_dirty_blocks_t o;
    unsigned int n = 0;
    int rc;

    rc = xc_dirty_blocks(xch, domu, NULL, &n, &o);
    check(!rc && n == want && o.block_shift >= XEN_DIRTY_BLOCK_SHIFT_MIN,
          "blocks size query: %lu blocks, shift %lu\n", n, o.block_shift);
    printk("  ok   blocks size query: %u blocks of 2^%u pfns\n", n, o.block_shift);
    n = 4;
    rc = xc_dirty_blocks(xch, 0, b, &n, &o);
    check(!rc && n == 0, "dom0, never tracked: rc %lu, %lu blocks\n", rc, n);
    memset(b, 0xa5, sizeof(b));
    rc = raw_blocks(domu, want - 1, b, &o);
    expect("blocks: room for one too few", rc, ENOBUFS);
    check(o.nr_blocks == want && untouched(b, sizeof(b)),
          "blocks ENOBUFS: %lu blocks returned, buffer %lu\n", o.nr_blocks,
          untouched(b, sizeof(b)));
    expect("blocks: room without a buffer", raw_blocks(domu, want, NULL, &o), EINVAL);
    expect("blocks: a buffer without room", raw_blocks(domu, 0, b, &o), EINVAL);
    expect("blocks: more room than the limit",
           raw_blocks(domu, XEN_DIRTY_BLOCKS_MAX + 1, b, &o), EINVAL);
    expect("blocks: buffer outside our memory",
           raw_blocks(domu, want, (void *)0x7fff00000000UL, &o), EFAULT);
    expect("blocks: no such domain", raw_blocks(0x7ff0, want, b, &o), ESRCH);
    expect("blocks: no such counter",
           raw_blocks_of(domu, want, b, XEN_DIRTY_BLOCKS_LOGGED + 1, 0, &o), EINVAL);
    expect("blocks: pad not 0",
           raw_blocks_of(domu, want, b, XEN_DIRTY_BLOCKS_LOGGED, 1, &o), EINVAL);
}

/*
 * Domain paused, global log-dirty on.  Two CLEANs around a run: the
 * counts of each block grow by the bits the second CLEAN returned there.
 */
static void test_blocks(xc_hypercall_buffer_t *buf, unsigned long *bitmap,
                        uint64_t dirtied_before)
{
    xen_domctl_dirty_blocks_t info;
    const xen_dirty_sysctl_domain_t *r;
    unsigned long data_end = DT_DATA_GFN + ctrl->data_pages, sum = 0, hot = 0;
    unsigned int n, n1, b, shift;
    xendevicemodel_handle *dmod;
    int rc;

    logdirty_op(XEN_DOMCTL_SHADOW_OP_CLEAN, buf, NULL);
    n = blocks(blk0, &info);
    shift = info.block_shift;
    check(n && ((unsigned long)n << shift) >= data_end,
          "%lu blocks of 2^%lu pfns\n", n, shift);
    if ( !n )
        return;
    test_block_errors(n);
    r = sample(domu);
    dirtied_before = r ? r->pages_dirtied : dirtied_before;

    xc_domain_unpause(xch, domu);
    run_domu(1500);
    xc_domain_pause(xch, domu);
    logdirty_op(XEN_DOMCTL_SHADOW_OP_CLEAN, buf, NULL);
    n1 = blocks(blk1, &info);
    r = sample(domu);
    check(n1 == n, "blocks %lu then %lu\n", n, n1);
    for ( b = 0; b < n; b++ )
    {
        unsigned long d = blk1[b] - blk0[b];
        unsigned long pop = bits_in(bitmap, (unsigned long)b << shift, 1UL << shift);

        if ( d != pop )
            printk("  block %u: +%lu, the CLEAN's bits there %lu\n", b, d, pop);
        check(d == pop, "block %lu differs from its CLEAN bits (+%lu)\n", b, d);
        if ( ((unsigned long)b << shift) >= data_end )
            check(d == 0, "block %lu above the data: +%lu\n", b, d);
        if ( ((unsigned long)b << shift) >= DT_DATA_GFN &&
             ((unsigned long)(b + 1) << shift) <= data_end )
            check(d > 0, "data block %lu: +%lu\n", b, d);
        if ( d )
            printk("  block %u (pfn %#lx): +%lu pages dirtied\n", b,
                   (unsigned long)b << shift, d);
        hot += d > 0;
        sum += d;
    }
    check(r && r->pages_dirtied - dirtied_before == sum,
          "domain +%lu, blocks +%lu\n", r ? r->pages_dirtied - dirtied_before : 0, sum);
    printk("heat map: %lu of %u blocks hot, +%lu pages, each block its CLEAN's bits\n",
           hot, n, sum);

    /* VRAM tracking only: the VRAM block moves, by the VRAM read's bits. */
    dmod = xendevicemodel_open(NULL, 0);
    xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0);
    rc = dmod ? xendevicemodel_track_dirty_vram(dmod, domu, DT_VRAM_GFN, VRAM_NR, vbits) : -1;
    if ( rc )
    {
        bad++;
        xtf_failure("Fail: VRAM tracking: errno %d\n", errno);
        return;
    }
    blocks(blk0, &info);
    check(info.vram_first_pfn == DT_VRAM_GFN && info.vram_nr == VRAM_NR,
          "VRAM range %#lx+%lu\n", info.vram_first_pfn, info.vram_nr);
    xc_domain_unpause(xch, domu);
    run_domu(1500);
    xc_domain_pause(xch, domu);
    rc = xendevicemodel_track_dirty_vram(dmod, domu, DT_VRAM_GFN, VRAM_NR, vbits);
    blocks(blk1, &info);
    for ( b = 0; !rc && b < n; b++ )
    {
        unsigned long d = blk1[b] - blk0[b];
        bool vram = ((unsigned long)DT_VRAM_GFN >> shift) == b;
        unsigned long pop = vram ? bits_in(vbits, 0, VRAM_NR) : 0;

        check(d == pop && (!vram || d > 0),
              "VRAM phase: block %lu +%lu\n", b, d);
        if ( vram )
            printk("VRAM block %u: +%lu pages, the VRAM read's bits %lu\n", b, d, pop);
    }
    check(!rc, "VRAM read: errno %lu%lu\n", errno, 0);
    xendevicemodel_track_dirty_vram(dmod, domu, DT_VRAM_GFN, 0, vbits);
    xendevicemodel_close(dmod);
}

/* ---- the monitor's re-arm (XEN_DOMCTL_dirty_rearm) ---- */

static int raw_rearm(uint32_t dom, uint32_t flags, uint32_t pad, uint64_t *pages)
{
    struct xen_domctl d;
    xen_domctl_dirty_rearm_t *ra = (void *)&d.u;
    int rc;

    memset(&d, 0, sizeof(d));
    d.cmd = XEN_DOMCTL_dirty_rearm;
    d.interface_version = XEN_DOMCTL_INTERFACE_VERSION;
    d.domain = dom;
    ra->flags = flags;
    ra->pad = pad;
    rc = xc_domctl(xch, &d) ? errno : 0;
    if ( pages )
        *pages = ra->pages;
    return rc;
}

static unsigned long data_bits(const unsigned long *bm)
{
    return bits_in(bm, DT_DATA_GFN, ctrl->data_pages);
}

/* Pages a writer's stack and control page add to an interval's count. */
#define REARM_SLACK 32

/*
 * Domain paused, log-dirty off.  The monitor alone: log-dirty on and
 * never a CLEAN; at each interval's end a PEEK (it drains the PML
 * buffers and says how many bits are set) and, but for one interval,
 * a re-arm.  Each re-armed interval must log every page the writer wrote
 * in it (its record says which), and no more than it may have written
 * plus its stack and control page; the interval without a re-arm logs
 * only pages never written before, as xentop did before re-arms.  Then
 * the consumer's CLEAN rounds, the monitor re-arming between them and in
 * the middle of each while the writer writes: every bitmap still exact.
 */
static unsigned int logged_blocks(uint64_t *b, unsigned int *shift)
{
    xen_domctl_dirty_blocks_t info;
    unsigned int n = MAX_BLOCKS;

    if ( xc_dirty_blocks_counter(xch, domu, XEN_DIRTY_BLOCKS_LOGGED, b, &n, &info) )
    {
        bad++;
        xtf_failure("Fail: xc_dirty_blocks_counter: errno %d\n", errno);
        return 0;
    }
    *shift = info.block_shift;
    return n;
}

static void test_rearm(xc_hypercall_buffer_t *buf, unsigned long *bitmap)
{
    const xen_dirty_sysctl_domain_t *r;
    xen_domctl_dirty_stats_t st0, st1;
    uint64_t logged, dirtied, exits, pages, t0, t1;
    struct mark m0, m1;
    unsigned int i, n, nb, shift = 0;
    int rc;

    printk("Re-arm errors:\n");
    expect("re-arm: tracking off", raw_rearm(domu, 0, 0, NULL), EINVAL);
    if ( xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0) )
    {
        bad++;
        xtf_failure("Fail: ENABLE_LOGDIRTY for the re-arms: errno %d\n", errno);
        return;
    }
    expect("re-arm: flags not 0", raw_rearm(domu, 1, 0, NULL), EINVAL);
    expect("re-arm: pad not 0", raw_rearm(domu, 0, 0x80000000u, NULL), EINVAL);
    expect("re-arm: the calling domain", raw_rearm(0, 0, 0, NULL), EINVAL);
    expect("re-arm: no such domain", raw_rearm(0x7ff0, 0, 0, NULL), ESRCH);

    xc_dirty_stats(xch, domu, &st0, NULL, &n);
    measure(&m0, true);
    r = sample(domu);
    if ( !r )
        return;
    logged = r->writes_logged;
    dirtied = r->pages_dirtied;
    exits = r->pml_full_exits + r->wp_faults;
    nb = logged_blocks(blk0, &shift);
    for ( i = 0; i < 6; i++ )
    {
        unsigned long must, may, set, d, bsum = 0;

        xc_domain_unpause(xch, domu);
        run_domu(1500);
        xc_domain_pause(xch, domu);
        measure(&m1, true);
        if ( logdirty_op(XEN_DOMCTL_SHADOW_OP_PEEK, buf, NULL) )
        {
            bad++;
            xtf_failure("Fail: PEEK: errno %d\n", errno);
            return;
        }
        set = bits_in(bitmap, 0, domu_pages);
        r = sample(domu);
        if ( !r )
            return;
        expected_since(&m0, &m1);
        must = data_bits(bm_must);
        may = data_bits(bm_may);
        d = r->writes_logged - logged;
        printk("interval %u%s: %lu writes logged, written %lu..%lu pages, "
               "+%lu pages newly dirtied, +%lu %s\n", i,
               i == 1 ? " (no re-arm before it)" : "", d, must, may,
               (unsigned long)(r->pages_dirtied - dirtied),
               (unsigned long)(r->pml_full_exits + r->wp_faults - exits),
               r->mechanism == XEN_DIRTY_MECH_PML ? "PML-full exits" : "WP faults");
        if ( i == 1 )
            check(d < must, "without a re-arm %lu logged of %lu written\n", d, must);
        else
            check(d >= must && d <= may + REARM_SLACK,
                  "re-armed interval: %lu logged, %lu written\n", d, must);

        /* The heat map's logged counters: the same writes, per block. */
        check(logged_blocks(blk1, &shift) == nb && nb, "%lu blocks, %lu before\n",
              nb, nb);
        for ( unsigned int b = 0; b < nb; b++ )
        {
            unsigned long first = (unsigned long)b << shift, db = blk1[b] - blk0[b];
            unsigned long bmust = bits_in(bm_must, first, 1UL << shift);
            unsigned long bmay = bits_in(bm_may, first, 1UL << shift);

            bsum += db;
            check((i == 1 || db >= bmust) && (first < DT_DATA_GFN || db <= bmay),
                  "logged block: +%lu, written %lu\n", db, bmust);
        }
        check(bsum == d, "logged blocks +%lu, domain +%lu\n", bsum, d);
        if ( i == 5 )
            printk("interval 5: logged per block add up to %lu, each within what was written there\n",
                   bsum);
        memcpy(blk0, blk1, nb * sizeof(*blk0));
        logged = r->writes_logged;
        dirtied = r->pages_dirtied;
        exits = r->pml_full_exits + r->wp_faults;
        m0 = m1;

        /* The re-arm for the next interval (none before interval 1). */
        if ( i == 0 )
            continue;
        t0 = rdtsc();
        rc = xc_dirty_rearm(xch, domu, &pages);
        t1 = rdtsc();
        check(!rc && pages == set, "re-arm: %lu pages, %lu bits set\n",
              rc ? 0 : pages, set);
        if ( i == 2 )
            printk("cost: one xc_dirty_rearm re-arming %lu pages (%lu pfns): %lu ticks\n",
                   (unsigned long)pages, domu_pages, (unsigned long)(t1 - t0));
    }
    r = sample(domu);
    check(r && r->pages_dirtied - dirtied == 0,
          "re-arm and PEEK dirtied %lu pages\n", r ? r->pages_dirtied - dirtied : 0, 0);

    /* A consumer's CLEAN rounds, the monitor re-arming as it likes. */
    measure(&last, true);
    t0 = rdtsc();
    logdirty_op(XEN_DOMCTL_SHADOW_OP_CLEAN, buf, NULL);
    t1 = rdtsc();
    printk("cost: the CLEAN after them, %lu pages (%lu pfns): %lu ticks\n",
           bits_in(bitmap, 0, domu_pages), domu_pages, (unsigned long)(t1 - t0));
    xc_domain_unpause(xch, domu);
    for ( i = 0; i < 4; i++ )
    {
        char what[32];

        xc_dirty_rearm(xch, domu, NULL);
        run_domu(700);
        rc = xc_dirty_rearm(xch, domu, &pages);
        check(!rc, "re-arm while the writer runs: errno %lu%lu\n", errno, 0);
        snprintf(what, sizeof(what), "CLEAN with re-arms %u", i);
        clean_rounds(what, buf, bitmap, 1, 700, i & 1);
    }
    xc_domain_pause(xch, domu);
    xc_dirty_stats(xch, domu, &st1, NULL, &n);
    check(st1.rearm_calls - st0.rearm_calls == 5 + 8,
          "%lu re-arm calls counted\n", st1.rearm_calls - st0.rearm_calls, 0);
    check(st1.clean_calls - st0.clean_calls == 1 + 4,
          "%lu CLEAN calls\n", st1.clean_calls - st0.clean_calls, 0);
    printk("re-arms: %lu calls, %lu continuations, %lu pages re-armed; "
           "%lu writes logged, %lu pages newly dirtied\n",
           (unsigned long)(st1.rearm_calls - st0.rearm_calls),
           (unsigned long)(st1.rearm_preempted - st0.rearm_preempted),
           (unsigned long)(st1.rearm_pages - st0.rearm_pages),
           (unsigned long)(st1.writes_logged - st0.writes_logged),
           (unsigned long)(st1.dirty_pages - st0.dirty_pages));
    xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0);
}

static uint64_t sum_dirtied(const xen_dirty_sysctl_domain_t *r)
{
    uint64_t s = 0;

    for ( unsigned int i = 0; i < r->nr_vcpus; i++ )
        s += vcpus[r->first_vcpu + i].pages_dirtied;
    return s;
}

void test_main(void)
{
    DECLARE_HYPERCALL_BUFFER(unsigned long, bitmap);
    const xen_dirty_sysctl_domain_t *r;
    xen_domctl_dirty_stats_t before, after;
    xen_dirty_sysctl_vcpu_t first[DT_MAX_VCPUS];
    unsigned int n, v, rounds, nd, nv;
    bool pml;
    uint64_t t0, t1;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    if ( dc_attach(cmdline_ulong("domu", 1)) )
        return;
    bitmap = xc_hypercall_buffer_alloc(xch, bitmap, DIV_ROUND_UP(domu_pages, 8));
    if ( !bitmap )
        return xtf_error("Error: no hypercall buffer\n");

    printk("Errors:\n");
    test_errors(2, 1 + nr_vcpus);

    /* Not tracked yet: mode off, mechanism none. */
    r = sample(domu);
    check(r && r->mode == 0 && r->mechanism == XEN_DIRTY_MECH_NONE,
          "untracked: mode %lu mechanism %lu\n", r ? r->mode : 99, r ? r->mechanism : 99);

    pause_and_measure(&last);
    ctrl->go = DT_GO_RUN;
    if ( xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0) )
        return xtf_failure("Fail: ENABLE_LOGDIRTY: %d\n", -errno);
    r = sample(domu);
    if ( !r )
        return xtf_failure("Fail: d%u missing from the sample\n", domu);
    pml = r->mechanism == XEN_DIRTY_MECH_PML;
    check(r->mode == XEN_DIRTY_MODE_LOGDIRTY && r->nr_vcpus == nr_vcpus,
          "tracked: mode %lu, %lu vCPUs\n", r->mode, r->nr_vcpus);
    printk("d%u: log-dirty by %s\n", domu, pml ? "PML" : "write protection");
    for ( v = 0; v < nr_vcpus; v++ )
        first[v] = vcpus[r->first_vcpu + v];
    xc_dirty_stats(xch, domu, &before, NULL, &n);
    xc_domain_unpause(xch, domu);

    /* The consumer's CLEAN rounds, the monitor sampling between them. */
    for ( rounds = 0; rounds < 4; rounds++ )
    {
        clean_rounds("CLEAN with the monitor", HYPERCALL_BUFFER(bitmap), bitmap,
                     1, 1500, rounds & 1);
        for ( n = 0; n < 5; n++ )
            r = sample(domu);
    }
    xc_domain_pause(xch, domu);
    r = sample(domu);
    xc_dirty_stats(xch, domu, &after, NULL, &n);
    if ( !r )
        return xtf_failure("Fail: d%u missing from the sample\n", domu);

    check(after.clean_calls == before.clean_calls + 4 &&
          after.peek_calls == before.peek_calls,
          "the monitor cleaned or peeked: %lu CLEANs, %lu PEEKs\n",
          after.clean_calls - before.clean_calls, after.peek_calls - before.peek_calls);
    check(sum_dirtied(r) == r->pages_dirtied,
          "sum over vCPUs %lu, domain %lu\n", sum_dirtied(r), r->pages_dirtied);
    check(r->pages_dirtied == after.dirty_pages,
          "sysctl %lu, domctl %lu pages dirtied\n", r->pages_dirtied, after.dirty_pages);
    for ( v = 0; v < nr_vcpus; v++ )
    {
        const xen_dirty_sysctl_vcpu_t *c = &vcpus[r->first_vcpu + v];

        printk("  d%uv%u: +%lu pages dirtied, +%lu PML-full exits, +%lu WP faults, %lu PLE exits\n",
               domu, v, (unsigned long)(c->pages_dirtied - first[v].pages_dirtied),
               (unsigned long)(c->pml_full_exits - first[v].pml_full_exits),
               (unsigned long)(c->wp_faults - first[v].wp_faults),
               (unsigned long)c->ple_exits);
        check(c->pages_dirtied > first[v].pages_dirtied,
              "vCPU %lu dirtied nothing (%lu)\n", v, c->pages_dirtied);
        /*
         * PML: PML-full exits, and a few write faults only (the first
         * write to a 2 MiB mapping splits it); write protection: a fault
         * for (at least) every page dirtied, never a PML-full exit.
         */
        if ( pml )
            check(c->pml_full_exits > first[v].pml_full_exits &&
                  (c->wp_faults - first[v].wp_faults) * 10 <
                  c->pages_dirtied - first[v].pages_dirtied,
                  "PML: vCPU %lu: %lu WP faults\n", v, c->wp_faults);
        else
            check(c->wp_faults - first[v].wp_faults >=
                  c->pages_dirtied - first[v].pages_dirtied &&
                  c->pml_full_exits == 0,
                  "WP: vCPU %lu: %lu PML-full exits\n", v, c->pml_full_exits);
    }
    check(r->pml_full_exits + r->wp_faults > 0 && r->exits_total > 0,
          "domain sums: %lu, %lu\n", r->pml_full_exits + r->wp_faults, r->exits_total);
    printk("d%u: %lu pages dirtied (%u vCPUs), %lu PML-full exits, %lu WP faults, %lu exits\n",
           domu, (unsigned long)r->pages_dirtied, r->nr_vcpus,
           (unsigned long)r->pml_full_exits, (unsigned long)r->wp_faults,
           (unsigned long)r->exits_total);

    test_blocks(HYPERCALL_BUFFER(bitmap), bitmap, r->pages_dirtied);
    test_rearm(HYPERCALL_BUFFER(bitmap), bitmap);

    /* What one refresh costs: one hypercall for every domain. */
    nd = MAX_DOMS;
    nv = MAX_RECS;
    t0 = rdtsc();
    xc_dirty_stats_all(xch, doms, &nd, vcpus, &nv, &now);
    t1 = rdtsc();
    printk("cost: one xc_dirty_stats_all for %u domains, %u vCPUs: %lu ticks\n",
           nd, nv, (unsigned long)(t1 - t0));
    nd = MAX_BLOCKS;
    t0 = rdtsc();
    xc_dirty_blocks(xch, domu, blk0, &nd, NULL);
    t1 = rdtsc();
    printk("cost: one xc_dirty_blocks for %u blocks: %lu ticks\n",
           nd, (unsigned long)(t1 - t0));
    {
        static uint64_t ec[80];
        unsigned int nr = 80;

        t0 = rdtsc();
        xc_vcpu_exit_counts(xch, domu, 0, ec, &nr);
        t1 = rdtsc();
        printk("cost: one xc_vcpu_exit_counts (%u reasons): %lu ticks\n",
               nr, (unsigned long)(t1 - t0));
    }

    xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0);
    xc_domain_unpause(xch, domu);
    ctrl->go = DT_GO_STOP;
    while ( ctrl->stopped != nr_vcpus )
        hypercall_yield();
    xc_hypercall_buffer_free(xch, bitmap);

    if ( !bad && !failures && xtf_status() <= STATUS_SUCCESS )
        xtf_success("Success: counters consistent, every bitmap exact\n");
}
