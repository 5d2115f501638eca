/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control domain as the fuzzer: a seeded sequence of domctl, sysctl,
 * dm_op and memory_op calls with random commands, random domain ids
 * (itself, DOMID_SELF, the writer, the witness, a domain it created,
 * nonexistent and invalid ids), random field values, bad handles and
 * pointers, huge sizes and ranges, against a running writer domU
 * (tests/dirtier) in global log-dirty mode.  Every result must be a
 * success or one of Xen's error numbers, and every K steps an exact
 * log-dirty round (writer paused, CLEAN, compared with its own record:
 * tests/common/dirty-check.c) proves that no dirty page was lost.
 *
 * What the fuzzer may not do, because it would legitimately change the
 * domains it checks: destroy the writer or the witness, load register
 * state into them (sethvmcontext), shut them down; it may pause them, and
 * every pause is undone after the step.  A call that legitimately resets
 * tracking of the writer (a successful shadow_op or VRAM call) is followed
 * by a new baseline.  Domains it creates are destroyed at the end.
 *
 * Guest command line: domu=<writer> (1), witness=<id> (2), seed=<n> (1),
 * iters=<n> (300), check=<K> (10), trace=1, calls=<mask> (which calls:
 * 1 domctl, 2 sysctl, 4 dm_op, 8 memory_op; default 15), ops=<list>: default, all, and
 * the classes that once crashed the host, all on by default since their
 * fixes: gfn-wide (foreign mappings and populate beyond the
 * guest-physical address width), vram-wrap (track_dirty_vram with
 * first_pfn + nr wrapping), and map-dup (found by this fuzzer: foreign
 * mappings left in place when the writer powers off; two of one frame
 * made the teardown free it twice).
 */
#include "dirty-check.h"
#include <xendevicemodel.h>
#include <errno.h>
#include <string.h>
#include "public/memory.h"
#include "public/sysctl.h"
#include "public/hvm/dm_op.h"
#include "public/ext/dirty_stats.h"
#include "public/ext/domain_memory.h"

const char test_title[] = "Control-domain fuzzer: domctl/sysctl/dm_op/memory_op against a tracked writer";

#define FMEM_WINDOW_LO  0x80000000UL    /* libxenforeignmemory's window ... */
#define FMEM_WINDOW_HI  0xc0000000UL    /* ... never handed out as a pointer */
#define FUZZ_GFN_LO     0xbf000UL       /* the window's top 16 MiB: our own maps */
#define NOT_RAM_VA      0xc0000000UL
#define UNMAPPED_VA     0x8000000000UL

/* Each once took the host down; fixed, they are on by default. */
static bool gfn_wide = true, vram_wrap = true, map_dup = true, trace_on;
static uint64_t rng;
static uint8_t *scratch;
static unsigned long scratch_size = 16 * 1024, image_lo, image_hi, self_pages;
static uint32_t witness, victim = DOMID_INVALID;
static unsigned int paused[2];          /* our pauses of the writer, witness */
static unsigned long calls[4], ok, errs[128], resyncs, checks;
static xendevicemodel_handle *dmod;
static xc_hypercall_buffer_t *bmbuf;
static unsigned long *bitmap;

static uint64_t rnd(void)
{
    uint64_t x = (rng += 0x9e3779b97f4a7c15ULL);

    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }
static bool chance(unsigned int pc) { return below(100) < pc; }

/* Never our own image or the foreign-mapping window: see fuzz-guest. */
static uint64_t sane(uint64_t v)
{
    if ( v >= image_lo && v < image_hi )
        v |= 0x40000000UL;
    if ( v >= FMEM_WINDOW_LO && v < FMEM_WINDOW_HI )
        v += 0x40000000UL;
    return v;
}

/* A pointer nothing can be read from or written to. */
static uint64_t bad_pointer(void)
{
    static const uint64_t bad[] = {
        UNMAPPED_VA, NOT_RAM_VA, 0x0000800000000000UL, 0x8000000000000000UL,
        0xfffffffffffff000UL, ~0UL,
    };

    return bad[below(ARRAY_SIZE(bad))];
}

static uint64_t pointer(void)
{
    if ( chance(60) )
        return (unsigned long)scratch + 1024 + below(scratch_size - 1024);
    return chance(20) ? 0 : bad_pointer();
}

static uint64_t value(void)
{
    static const uint64_t edge[] = {
        0, 1, 2, 0xff, 0xffff, 0x7ff0, 0x7ff4, 0x7fffffff, 0xffffffff,
        0x100000000UL, 0x7fffffffffffffffUL, 0x8000000000000000UL, ~0UL,
    };

    switch ( below(6) )
    {
    case 0: return edge[below(ARRAY_SIZE(edge))];
    case 1: return below(64);
    case 2: return pointer();
    case 3: return sane((uint32_t)rnd());
    case 4: return sane(1UL << below(64));
    default: return sane(rnd());
    }
}

static void fill(void *p, size_t bytes)
{
    uint64_t *q = p;
    size_t i;

    for ( i = 0; i < bytes / 8; i++ )
        q[i] = value();
}

static uint16_t domid(void)
{
    const uint16_t ids[] = {
        0, DOMID_SELF, domu, domu, domu, witness, victim, 77, DOMID_INVALID,
        0x7fff, 0xffff,
    };

    return chance(90) ? ids[below(ARRAY_SIZE(ids))] : (uint16_t)rnd();
}

/* Frames for foreign mappings and populate: never our RAM's owners' maps. */
static uint64_t gfn(void)
{
    switch ( below(gfn_wide ? 5 : 4) )
    {
    case 0:  return below(self_pages);                  /* our RAM (-EBUSY) or hole */
    case 1:  return FUZZ_GFN_LO + below(0x1000);
    case 2:  return 0xc0000 + below(0x40000);           /* 3..4 GiB */
    case 3:  return below(2 * domu_pages);              /* the writer's, and beyond */
    default: return chance(50) ? ~0UL - below(16) : 1UL << (36 + below(28));
    }
}

static void count(long rc)
{
    if ( trace_on )
        printk("  = %ld\n", rc);
    if ( rc >= 0 )
        ok++;
    else if ( -rc < (long)ARRAY_SIZE(errs) )
        errs[-rc]++;
    if ( rc < -133 )
    {
        failures++;
        xtf_failure("Fail: a call returned %ld: not a Xen errno\n", rc);
    }
}

/* ---- the calls --------------------------------------------------------------- */

static const uint32_t domctls[] = {
    XEN_DOMCTL_createdomain, XEN_DOMCTL_destroydomain, XEN_DOMCTL_pausedomain,
    XEN_DOMCTL_unpausedomain, XEN_DOMCTL_getdomaininfo, XEN_DOMCTL_shadow_op,
    XEN_DOMCTL_max_mem, XEN_DOMCTL_gethvmcontext, XEN_DOMCTL_sethvmcontext,
    XEN_DOMCTL_get_dirty_stats, XEN_DOMCTL_get_exit_counts,
    XEN_DOMCTL_get_paging_mempool_size, XEN_DOMCTL_set_paging_mempool_size,
    XEN_DOMCTL_get_domain_memory,
};

/* Returns true when the writer's tracking may have been reset legitimately. */
static bool fuzz_domctl(void)
{
    struct xen_domctl *d = (void *)scratch;
    static const uint32_t shadow_ops[] = {
        XEN_DOMCTL_SHADOW_OP_OFF, XEN_DOMCTL_SHADOW_OP_ENABLE_TEST,
        XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, XEN_DOMCTL_SHADOW_OP_CLEAN,
        XEN_DOMCTL_SHADOW_OP_PEEK, XEN_DOMCTL_SHADOW_OP_GET_ALLOCATION,
        XEN_DOMCTL_SHADOW_OP_SET_ALLOCATION, XEN_DOMCTL_SHADOW_OP_ENABLE, 99,
    };
    unsigned long arg = chance(90) ? (unsigned long)d : pointer();
    uint32_t cmd;
    long rc;

    fill(d, sizeof(*d));
    d->cmd = cmd = chance(80) ? domctls[below(ARRAY_SIZE(domctls))] : below(100);
    d->interface_version = chance(90) ? XEN_DOMCTL_INTERFACE_VERSION : value();
    d->domain = domid();
    if ( cmd == XEN_DOMCTL_shadow_op && chance(80) )
        d->u.shadow_op.op = shadow_ops[below(ARRAY_SIZE(shadow_ops))];
    if ( cmd == XEN_DOMCTL_shadow_op && chance(50) )
        d->u.shadow_op.mb = 0;

    /*
     * Not the writer's nor the witness's end, nor new register state, nor
     * their paging pool shrunk under them (a domain whose pool is taken
     * away dies at its next split, as on Xen: that is the control
     * domain's power, not a finding).
     */
    if ( (cmd == XEN_DOMCTL_destroydomain || cmd == XEN_DOMCTL_sethvmcontext ||
          cmd == XEN_DOMCTL_set_paging_mempool_size ||
          (cmd == XEN_DOMCTL_shadow_op &&
           d->u.shadow_op.op == XEN_DOMCTL_SHADOW_OP_SET_ALLOCATION)) &&
         (d->domain == domu || d->domain == witness) )
        d->domain = chance(50) ? victim : 77;

    if ( trace_on )
        printk("domctl %u dom %#x arg %#lx\n", cmd, d->domain, arg);
    rc = hypercall6(__HYPERVISOR_domctl, arg, 0, 0, 0, 0);
    count(rc);
    if ( rc || arg != (unsigned long)d )
        return false;

    switch ( cmd )
    {
    case XEN_DOMCTL_createdomain:
        printk("created d%u\n", d->domain);
        if ( victim == DOMID_INVALID )
            victim = d->domain;
        else
            xc_domain_destroy(xch, d->domain);
        break;
    case XEN_DOMCTL_destroydomain:
        if ( d->domain == victim )
            victim = DOMID_INVALID;
        break;
    case XEN_DOMCTL_pausedomain:
    case XEN_DOMCTL_unpausedomain:
        if ( d->domain == domu || d->domain == witness )
        {
            unsigned int *p = &paused[d->domain == witness];

            if ( cmd == XEN_DOMCTL_pausedomain )
                (*p)++;
            else if ( *p )
                (*p)--;
        }
        break;
    case XEN_DOMCTL_shadow_op:
        return d->domain == domu;
    }
    return false;
}

static void fuzz_sysctl(void)
{
    struct xen_sysctl *s = (void *)scratch;
    static const uint32_t cmds[] = {
        XEN_SYSCTL_readconsole, XEN_SYSCTL_physinfo, XEN_SYSCTL_getdomaininfolist,
    };
    unsigned long arg = chance(90) ? (unsigned long)s : pointer();

    fill(s, sizeof(*s));
    s->cmd = chance(80) ? cmds[below(ARRAY_SIZE(cmds))] : below(64);
    s->interface_version = chance(90) ? XEN_SYSCTL_INTERFACE_VERSION : value();
    if ( trace_on )
        printk("sysctl %u arg %#lx\n", s->cmd, arg);
    count(hypercall6(__HYPERVISOR_sysctl, arg, 0, 0, 0, 0));
}

static bool fuzz_dm_op(void)
{
    struct xen_dm_op_buf *bufs = (void *)scratch;
    struct xen_dm_op *op = (void *)(scratch + 64);
    struct xen_dm_op_track_dirty_vram *t = &op->u.track_dirty_vram;
    static const unsigned long nrs[] = { 0, 1, 2, 2, 2, 3, 0xffffffff };
    uint16_t dom = domid();
    unsigned long nr_bufs = chance(90) ? nrs[below(ARRAY_SIZE(nrs))] : value();
    unsigned long arg = chance(90) ? (unsigned long)bufs : pointer();
    long rc;

    fill(scratch, 1024);
    bufs[0].h.p = chance(80) ? (void *)op : (void *)pointer();
    bufs[0].size = chance(80) ? sizeof(*op) : value();
    if ( chance(80) )
        bufs[1].h.p = scratch + 1024;
    op->op = chance(80) ? XEN_DMOP_track_dirty_vram : below(32);
    if ( chance(80) )
        op->pad = 0;
    if ( chance(80) )
        t->pad = 0;
    if ( chance(50) )
        t->first_pfn = below(2 * domu_pages);
    if ( chance(50) )
        t->nr = below(1024);
    /* first_pfn + nr wrapping is the known vram-wrap crash. */
    if ( !vram_wrap && t->first_pfn + t->nr < t->first_pfn )
        t->first_pfn >>= 1;

    if ( trace_on )
        printk("dm_op dom %#x nr_bufs %#lx op %u first %#lx nr %#x\n", dom, nr_bufs,
               op->op, (unsigned long)t->first_pfn, t->nr);
    rc = hypercall6(__HYPERVISOR_dm_op, dom, nr_bufs, arg, 0, 0);
    count(rc);
    return !rc && dom == domu;
}

static void fuzz_memory_op(void)
{
    static const unsigned long cmds[] = {
        XENMEM_populate_physmap, XENMEM_add_to_physmap_batch,
        XENMEM_add_to_physmap_batch, XENMEM_remove_from_physmap,
        XENMEM_decrease_reservation, XENMEM_increase_reservation,
    };
    unsigned long cmd = chance(90) ? cmds[below(ARRAY_SIZE(cmds))] : value();
    unsigned long arg = chance(90) ? (unsigned long)scratch : pointer();
    /* At the end of RAM: a batch larger than 64 reads zeros, then faults. */
    xen_pfn_t *gfns = (void *)(scratch + scratch_size - 64 * sizeof(xen_pfn_t)), mine[64];
    xen_ulong_t *idxs = (void *)(scratch + 2048);
    unsigned int i;
    long rc;

    fill(scratch, 4096);
    /*
     * Entries past our 64 come from the start-info page, which earlier
     * calls (readconsole...) may have filled: zeros again, so a long batch
     * meets frames in use (our RAM) and then the end of RAM, never random
     * frames (beyond the address width: the known gfn-wide crash).
     */
    memset(scratch + scratch_size, 0, PAGE_SIZE);
    for ( i = 0; i < 64; i++ )
    {
        gfns[i] = gfn();
        idxs[i] = chance(70) ? below(domu_pages) : value();
        mine[i] = gfns[i];
    }
    if ( cmd == XENMEM_add_to_physmap_batch )
    {
        struct xen_add_to_physmap_batch *b = (void *)scratch;

        b->domid = chance(70) ? DOMID_SELF : domid();
        b->space = chance(90) ? XENMAPSPACE_gmfn_foreign : value();
        b->size = chance(80) ? below(64) : value();
        b->u.foreign_domid = domid();
        if ( chance(80) )
            b->idxs.p = idxs;
        /* Exactly the frames in mine[] may get mappings (undone below). */
        b->gpfns.p = chance(80) ? gfns : (void *)bad_pointer();
        b->errs.p = chance(80) ? (void *)(scratch + 3072) : (void *)bad_pointer();
    }
    else if ( cmd == XENMEM_populate_physmap || cmd == XENMEM_decrease_reservation ||
              cmd == XENMEM_increase_reservation )
    {
        struct xen_memory_reservation *r = (void *)scratch;

        if ( chance(80) )
            r->extent_start.p = gfns;
        r->nr_extents = chance(80) ? below(64) : value();
        r->extent_order = chance(80) ? (chance(50) ? 0 : 9) : value();
        r->domid = domid();
        /*
         * Ballooning (and unmapped frames) only for a domain of our own or
         * none: the writer's pages are its record, our own are our code.
         */
        if ( cmd != XENMEM_populate_physmap )
            r->domid = chance(50) ? victim : chance(50) ? 77 : DOMID_INVALID;
    }
    else if ( cmd == XENMEM_remove_from_physmap )
    {
        struct xen_remove_from_physmap *r = (void *)scratch;

        r->domid = chance(80) ? DOMID_SELF : domid();
        r->gpfn = gfns[0];
    }

    if ( trace_on )
        printk("memory_op %#lx arg %#lx\n", cmd, arg);
    rc = hypercall6(__HYPERVISOR_memory_op, cmd, arg, 0, 0, 0);
    count(rc);

    if ( trace_on && cmd == XENMEM_add_to_physmap_batch && !rc )
    {
        const struct xen_add_to_physmap_batch *b = (void *)scratch;
        const int *e = (void *)(scratch + 3072);

        printk("  batch: domid %#x space %u size %u foreign d%u\n", b->domid, b->space,
               b->size, b->u.foreign_domid);
        for ( i = 0; i < 64 && i < b->size; i++ )
            if ( b->errs.p == (void *)e && !e[i] )
                printk("  mapped gfn %#lx\n", (unsigned long)mine[i]);
    }

    /*
     * Undo our foreign mappings (above our RAM, and in its holes: the
     * VGA hole is not RAM); libxenforeignmemory's own window is left alone.
     * Kept (class map-dup), two mappings of one frame of the writer are
     * still there when it powers off, and tearing us down then frees that
     * frame twice: "Xen BUG at common/page_alloc.c:143" (not fixed yet).
     */
    if ( cmd == XENMEM_add_to_physmap_batch && !map_dup )
        for ( i = 0; i < 64; i++ )
            if ( mine[i] < (FMEM_WINDOW_LO >> PAGE_SHIFT) || mine[i] >= FUZZ_GFN_LO )
            {
                struct xen_remove_from_physmap r = { .domid = DOMID_SELF, .gpfn = mine[i] };

                long r2 = hypercall6(__HYPERVISOR_memory_op, XENMEM_remove_from_physmap,
                                     (unsigned long)&r, 0, 0, 0);

                if ( trace_on && r2 != -XEN_ENOENT )
                    printk("  unmap gfn %#lx: %ld\n", (unsigned long)mine[i], r2);
            }
}

/* ---- checking ------------------------------------------------------------------ */

/* A new baseline: VRAM tracking off, global log-dirty on, CLEAN while paused. */
static void resync(void)
{
    resyncs++;
    xendevicemodel_track_dirty_vram(dmod, domu, 0, 0, NULL);
    xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0);
    pause_and_measure(&last);
    if ( logdirty_op(XEN_DOMCTL_SHADOW_OP_CLEAN, bmbuf, NULL) )
    {
        failures++;
        xtf_failure("Fail: CLEAN for a new baseline: %d\n", -errno);
    }
    xc_domain_unpause(xch, domu);
}

/* Undo the step's pauses of the writer and the witness. */
static void unpause_all(void)
{
    for ( ; paused[0]; paused[0]-- )
        xc_domain_unpause(xch, domu);
    for ( ; paused[1]; paused[1]-- )
        xc_domain_unpause(xch, witness);
}

static bool parse_ops(void)
{
    char v[64];
    const char *s;

    if ( !cmdline_get_str("ops", v, sizeof(v)) )
        return true;
    for ( s = v; *s; )
    {
        size_t n = strcspn(s, ",");

        if ( (n == 3 && !strncmp(s, "all", 3)) )
            gfn_wide = vram_wrap = map_dup = true;
        else if ( n == 8 && !strncmp(s, "gfn-wide", 8) )
            gfn_wide = true;
        else if ( n == 9 && !strncmp(s, "vram-wrap", 9) )
            vram_wrap = true;
        else if ( n == 7 && !strncmp(s, "map-dup", 7) )
            map_dup = true;
        else if ( !(n == 7 && !strncmp(s, "default", 7)) )
            return false;
        s += n + (s[n] == ',');
    }
    return true;
}

extern const char _image_start[];

static bool scratch_init(void)
{
    const struct hvm_memmap_table_entry *mm;
    unsigned long top = 0, i;

    if ( !start_info || !start_info->memmap_paddr )
        return false;
    mm = (const void *)(uintptr_t)start_info->memmap_paddr;
    for ( i = 0; i < start_info->memmap_entries; i++ )
        if ( mm[i].type == XEN_HVM_MEMMAP_TYPE_RAM && mm[i].addr + mm[i].size > top )
            top = mm[i].addr + mm[i].size;
    scratch = (uint8_t *)(top - scratch_size);
    self_pages = top >> PAGE_SHIFT;
    image_lo = (unsigned long)_image_start;
    image_hi = (unsigned long)scratch;
    return true;
}

void test_main(void)
{
    DECLARE_HYPERCALL_BUFFER(unsigned long, bm);
    unsigned long seed = cmdline_ulong("seed", 1), iters = cmdline_ulong("iters", 300);
    unsigned long every = cmdline_ulong("check", 10), i;
    unsigned int kinds = cmdline_ulong("calls", 15);

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    witness = cmdline_ulong("witness", 2);
    trace_on = cmdline_ulong("trace", 0);
    if ( !parse_ops() )
        return xtf_error("Error: ops= takes default, all, gfn-wide, vram-wrap, map-dup\n");
    if ( !scratch_init() )
        return xtf_error("Error: no memory map\n");
    dmod = xendevicemodel_open(NULL, 0);
    if ( !dmod )
        return xtf_error("Error: cannot open libxendevicemodel\n");
    if ( dc_attach(cmdline_ulong("domu", 1)) )
        return;
    /* Everything is parsed: the start-info page is ours to lose from now on. */
    start_info = NULL;
    cmdline = "";
    memset(scratch, 0, scratch_size + PAGE_SIZE);

    bm = xc_hypercall_buffer_alloc(xch, bm, DIV_ROUND_UP(domu_pages, 8));
    if ( !bm )
        return xtf_error("Error: no hypercall buffer\n");
    bitmap = bm;
    bmbuf = HYPERCALL_BUFFER(bm);

    rng = seed;
    printk("fuzz: seed %lu, %lu steps, a log-dirty check every %lu, writer d%u, witness d%u%s%s%s\n",
           seed, iters, every, domu, witness, gfn_wide ? ", gfn-wide" : "",
           vram_wrap ? ", vram-wrap" : "", map_dup ? ", map-dup" : "");

    pause_and_measure(&last);
    ctrl->go = DT_GO_RUN;
    if ( xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0) )
        return xtf_failure("Fail: ENABLE_LOGDIRTY: %d\n", -errno);
    xc_domain_unpause(xch, domu);

    for ( i = 0; i < iters && failures < 10; i++ )
    {
        bool reset = false;
        unsigned int k = below(20);

        k = k < 9 ? 0 : k < 12 ? 1 : k < 15 ? 2 : 3;
        if ( !(kinds & (1u << k)) )
            continue;
        if ( k == 0 )
            reset = fuzz_domctl(), calls[0]++;
        else if ( k == 1 )
            fuzz_sysctl(), calls[1]++;
        else if ( k == 2 )
            reset = fuzz_dm_op(), calls[2]++;
        else
            fuzz_memory_op(), calls[3]++;
        unpause_all();

        if ( reset )
            resync();
        else if ( (i + 1) % every == 0 )
        {
            char what[32];

            snprintf(what, sizeof(what), "check after step %lu", i + 1);
            checks++;
            clean_rounds(what, bmbuf, bitmap, 1, 50 + below(400), true);
        }
    }

    ctrl->go = DT_GO_STOP;
    while ( ctrl->stopped != nr_vcpus )
        hypercall_yield();
    if ( victim != DOMID_INVALID )
        xc_domain_destroy(xch, victim);
    xc_hypercall_buffer_free(xch, bm);

    printk("summary: %lu steps: domctl=%lu sysctl=%lu dm_op=%lu memory_op=%lu\n",
           i, calls[0], calls[1], calls[2], calls[3]);
    printk("summary: %lu succeeded, errors:", ok);
    for ( unsigned int e = 0; e < ARRAY_SIZE(errs); e++ )
        if ( errs[e] )
            printk(" -%u=%lu", e, errs[e]);
    printk("\nsummary: %lu log-dirty checks, %lu new baselines, %lu bitmaps wrong\n",
           checks, resyncs, failures);
    if ( !failures && xtf_status() <= STATUS_SUCCESS )
        xtf_success("Success: every call failed or succeeded cleanly, no dirty page lost\n");
}
