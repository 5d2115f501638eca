/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest: xc_domain_save, writing the migration stream (version 3)
 * of an x86 HVM (PVH) guest:
 *
 *   IMAGE_HEADER, DOMAIN_HEADER, STATIC_DATA_END,
 *   PAGE_DATA ...                  (live: round 1 all memory, later rounds
 *                                   what log-dirty CLEAN reported, then
 *                                   the rest with the guest suspended)
 *   X86_TSC_INFO, HVM_PARAMS, HVM_CONTEXT, END
 *
 * Nothing is lost on failure: log-dirty is turned off and a pause made
 * here undone, so the guest runs on where it was.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "xg_sr_common.h"

#define BITS_PER_UL         (8 * sizeof(unsigned long))
#define BITMAP_LONGS(n)     (((n) + BITS_PER_UL - 1) / BITS_PER_UL)

/* Set bits (no libgcc in the test kernels: no __builtin_popcountl). */
static unsigned int hweight_ul(unsigned long w)
{
    unsigned int n = 0;

    for ( ; w; w &= w - 1 )
        n++;
    return n;
}

static bool test_bit_ul(const unsigned long *bm, unsigned long i)
{
    return (bm[i / BITS_PER_UL] >> (i % BITS_PER_UL)) & 1;
}

static uint16_t cpu_to_be16(uint16_t v) { return __builtin_bswap16(v); }
static uint32_t cpu_to_be32(uint32_t v) { return __builtin_bswap32(v); }
static uint64_t cpu_to_be64(uint64_t v) { return __builtin_bswap64(v); }

void xc_save_params_init(struct xc_save_params *params)
{
    memset(params, 0, sizeof(*params));
    params->policy = XC_PRECOPY_DOWNTIME;
    params->downtime_ns = XC_SAVE_DEFAULT_DOWNTIME_NS;
    params->max_rounds = XC_SAVE_DEFAULT_MAX_ROUNDS;
    params->auto_converge = true;
}

static int write_headers(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    struct xc_sr_ihdr ihdr = {
        .marker = cpu_to_be64(IHDR_MARKER),
        .id = cpu_to_be32(IHDR_ID),
        .version = cpu_to_be32(IHDR_VERSION),
        .options = cpu_to_be16(IHDR_OPT_LITTLE_ENDIAN),
    };
    struct xc_sr_dhdr dhdr = {
        .type = DHDR_TYPE_X86_HVM,
        .page_shift = XC_PAGE_SHIFT,
    };
    int ver = xc_version(xch, XENVER_version, NULL);

    if ( ver < 0 )
    {
        PERROR("save: cannot read the hypervisor's version");
        return -1;
    }
    dhdr.xen_major = (uint32_t)ver >> 16;
    dhdr.xen_minor = (uint32_t)ver & 0xffff;

    if ( write_exact(ctx, &ihdr, sizeof(ihdr)) ||
         write_exact(ctx, &dhdr, sizeof(dhdr)) )
        return -1;
    /* x86 HVM static data: no CPUID or MSR policy here (docs). */
    return write_record(ctx, REC_TYPE_STATIC_DATA_END, NULL, 0);
}

/*
 * Keep the batch's RAM: the hypervisor's types (getpageframeinfo3) mark
 * holes and the pages it owns (shared_info, grant frames) XTAB, and those
 * are left out of the stream altogether (Xen lists them as XTAB without
 * data; a restorer treats an absent pfn the same).  The number kept.
 */
static int drop_holes(struct xc_sr_context *ctx, unsigned int *n)
{
    xc_interface *xch = ctx->xch;
    xen_pfn_t *pfns = ctx->save.batch_pfns, *types = ctx->save.batch_types;
    unsigned int i, kept = 0;

    memcpy(types, pfns, *n * sizeof(*types));
    if ( xc_get_pfn_type_batch(xch, ctx->domid, *n, types) )
    {
        PERROR("save: cannot get the types of %u pfns of d%u from %#" PRI_xen_pfn,
               *n, ctx->domid, pfns[0]);
        return -1;
    }
    for ( i = 0; i < *n; i++ )
    {
        uint32_t type = (uint32_t)(types[i] & XEN_DOMCTL_PFINFO_LTAB_MASK);

        if ( (types[i] & ~(xen_pfn_t)XEN_DOMCTL_PFINFO_LTAB_MASK) != pfns[i] )
        {
            ERROR("save: getpageframeinfo3 gave %#" PRI_xen_pfn " for pfn %#"
                  PRI_xen_pfn, types[i], pfns[i]);
            errno = EIO;
            return -1;
        }
        if ( type == XEN_DOMCTL_PFINFO_XTAB )
        {
            ctx->save.holes++;
            continue;
        }
        pfns[kept++] = pfns[i];
    }
    *n = kept;
    return 0;
}

/* The batch as one PAGE_DATA record; unmappable pfns go as XTAB. */
static int flush_batch(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    unsigned int n = ctx->save.nr_batch, i, nr_data = 0;
    struct xc_sr_rec_page_data_header hdr;
    uint64_t *words = NULL;
    int *err = NULL;
    uint8_t *map = NULL;
    const void **parts = NULL;
    size_t *lens = NULL;
    uint64_t t_start, off0;
    int rc = -1;

    if ( !n )
        return 0;
    t_start = xg_sr_now_ns();
    if ( drop_holes(ctx, &n) )
        return -1;
    ctx->save.nr_batch = n;
    if ( !n )
        return 0;
    hdr = (struct xc_sr_rec_page_data_header){ .count = n };

    words = malloc(n * sizeof(*words));
    err = malloc(n * sizeof(*err));
    parts = malloc((n + 2) * sizeof(*parts));
    lens = malloc((n + 2) * sizeof(*lens));
    if ( !words || !err || !parts || !lens )
    {
        ERROR("save: cannot allocate a batch of %u pages", n);
        errno = ENOMEM;
        goto out;
    }

    map = xenforeignmemory_map(ctx->fmem, ctx->domid, PROT_READ, n,
                               ctx->save.batch_pfns, err);
    if ( !map )
    {
        PERROR("save: cannot map %u pages of d%u from pfn %#" PRI_xen_pfn,
               n, ctx->domid, ctx->save.batch_pfns[0]);
        goto out;
    }

    parts[0] = &hdr;
    lens[0] = sizeof(hdr);
    parts[1] = words;
    lens[1] = n * sizeof(*words);
    for ( i = 0; i < n; i++ )
    {
        uint64_t type = err[i] ? SR_PFINFO_XTAB : SR_PFINFO_NOTAB;

        words[i] = ctx->save.batch_pfns[i] | (type << PAGE_DATA_TYPE_SHIFT);
        if ( err[i] )
            continue;
        parts[2 + nr_data] = map + (size_t)i * XC_PAGE_SIZE;
        lens[2 + nr_data] = XC_PAGE_SIZE;
        nr_data++;
    }

    off0 = ctx->offset;
    rc = write_split_record(ctx, REC_TYPE_PAGE_DATA, parts, lens, 2 + nr_data);
    if ( !rc )
    {
        ctx->save.summary.pages_sent += nr_data;
        ctx->save.round_bytes += XC_PAGE_SIZE * (uint64_t)nr_data;
    }
    xenforeignmemory_unmap(ctx->fmem, map, n);
    ctx->save.nr_batch = 0;
    if ( !rc )
        save_rate_limit(ctx, ctx->offset - off0, t_start);

 out:
    free(words);
    free(err);
    free(parts);
    free(lens);
    return rc;
}

/*
 * Live rounds with auto-converge send smaller records (batch_limit, set by
 * the throttle step after each) so the guest's pauses stay short.
 */
static int add_to_batch(struct xc_sr_context *ctx, xen_pfn_t pfn)
{
    unsigned int limit = ctx->save.live ? ctx->save.batch_limit
                                        : SAVE_BATCH_SIZE;

    if ( ctx->save.nr_batch >= limit || ctx->save.nr_batch == SAVE_BATCH_SIZE )
    {
        if ( flush_batch(ctx) )
            return -1;
        if ( ctx->save.live && save_throttle_step(ctx) )
            return -1;
    }
    ctx->save.batch_pfns[ctx->save.nr_batch++] = pfn;
    return 0;
}

/* Every pfn (bitmap NULL) or those set in the bitmap; the count sent. */
static int send_pages(struct xc_sr_context *ctx, const unsigned long *bm,
                      uint64_t *sent)
{
    uint64_t before = ctx->save.summary.pages_sent;
    unsigned long pfn;

    if ( ctx->save.live && save_throttle_begin(ctx) )
        return -1;
    for ( pfn = 0; pfn < ctx->save.p2m_size; pfn++ )
    {
        if ( bm && !bm[pfn / BITS_PER_UL] )
        {
            pfn |= BITS_PER_UL - 1;
            continue;
        }
        if ( bm && !test_bit_ul(bm, pfn) )
            continue;
        if ( add_to_batch(ctx, pfn) )
            return -1;
    }
    if ( flush_batch(ctx) )
        return -1;
    if ( ctx->save.live && save_throttle_end(ctx) )
        return -1;
    *sent = ctx->save.summary.pages_sent - before;
    return 0;
}

static int suspend_domain(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    struct save_callbacks *cb = ctx->save.callbacks;

    if ( cb && cb->suspend )
    {
        if ( cb->suspend(cb->data) != 1 )
        {
            ERROR("save: the suspend callback failed for d%u", ctx->domid);
            errno = EIO;
            return -1;
        }
        return 0;
    }
    if ( xc_domain_pause(xch, ctx->domid) )
    {
        PERROR("save: cannot pause d%u", ctx->domid);
        return -1;
    }
    ctx->save.paused = true;
    return 0;
}

static int enable_logdirty(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;

    if ( xc_shadow_control(xch, ctx->domid,
                           XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0) )
    {
        /* On already (e.g. VRAM tracking): off, then on, as Xen does. */
        if ( errno != EINVAL ||
             xc_shadow_control(xch, ctx->domid, XEN_DOMCTL_SHADOW_OP_OFF,
                               NULL, 0) ||
             xc_shadow_control(xch, ctx->domid,
                               XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0) )
        {
            PERROR("save: cannot enable log-dirty mode for d%u", ctx->domid);
            return -1;
        }
    }
    ctx->save.logdirty = true;
    return 0;
}

/* CLEAN (final: LOGDIRTY_FINAL) into bm; the number of dirty pages. */
static long long clean_bitmap(struct xc_sr_context *ctx,
                              xc_hypercall_buffer_t *bm_buf, bool final)
{
    xc_interface *xch = ctx->xch;
    unsigned long *bm = bm_buf->hbuf;
    unsigned long i, dirty = 0;
    long long rc;

    memset(bm, 0, BITMAP_LONGS(ctx->save.p2m_size) * sizeof(*bm));
    rc = xc_logdirty_control(xch, ctx->domid, XEN_DOMCTL_SHADOW_OP_CLEAN,
                             bm_buf, ctx->save.p2m_size,
                             final ? XEN_DOMCTL_SHADOW_LOGDIRTY_FINAL : 0,
                             NULL);
    if ( rc < 0 )
    {
        PERROR("save: log-dirty CLEAN of d%u failed", ctx->domid);
        return -1;
    }
    for ( i = 0; i < BITMAP_LONGS(ctx->save.p2m_size); i++ )
        dirty += hweight_ul(bm[i]);
    return (long long)dirty;
}

static int send_memory_live(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    struct save_callbacks *cb = ctx->save.callbacks;
    size_t longs = BITMAP_LONGS(ctx->save.p2m_size);
    unsigned long *pending = NULL;
    struct xc_save_round_stats st;
    unsigned int iteration;
    uint64_t t0, t_start, final_sent;
    long long dirty;
    int policy, rc = -1;
    DECLARE_HYPERCALL_BUFFER(unsigned long, bm);

    bm = xc_hypercall_buffer_alloc_pages(
        xch, bm, (int)((longs * sizeof(*bm) + XC_PAGE_SIZE - 1) >> XC_PAGE_SHIFT));
    pending = calloc(longs, sizeof(*pending));
    if ( !bm || !pending )
    {
        ERROR("save: cannot allocate the dirty bitmaps (%lu pfns)",
              ctx->save.p2m_size);
        errno = ENOMEM;
        goto out;
    }
    if ( enable_logdirty(ctx) )
        goto out;

    t_start = xg_sr_now_ns();
    for ( iteration = 1; ; iteration++ )
    {
        memset(&st, 0, sizeof(st));
        st.iteration = iteration;
        st.throttle = ctx->save.throttle;
        ctx->save.round_bytes = 0;
        t0 = xg_sr_now_ns();
        if ( send_pages(ctx, iteration == 1 ? NULL : pending, &st.pages_sent) )
            goto out;
        st.paused_ns = ctx->save.round_paused_ns;
        st.max_pause_ns = ctx->save.round_max_pause_ns;
        dirty = clean_bitmap(ctx, HYPERCALL_BUFFER(bm), false);
        if ( dirty < 0 )
            goto out;
        memcpy(pending, bm, longs * sizeof(*pending));
        st.time_ns = xg_sr_now_ns() - t0;
        st.pages_dirtied = (uint64_t)dirty;
        ctx->save.summary.rounds = iteration;

        if ( cb && cb->precopy_policy )
        {
            struct precopy_stats ps = {
                .iteration = iteration,
                .total_written = (unsigned long)ctx->save.summary.pages_sent,
                .dirty_count = (long)dirty,
            };

            save_precopy_decide(ctx, &st);      /* the statistics only */
            policy = cb->precopy_policy(ps, cb->data);
        }
        else
            policy = save_precopy_decide(ctx, &st);
        save_report_round(ctx, &st);

        if ( policy == XGS_POLICY_ABORT )
        {
            ERROR("save: the pre-copy policy abandoned the migration of d%u "
                  "after round %u", ctx->domid, iteration);
            errno = ECANCELED;
            goto out;
        }
        if ( policy != XGS_POLICY_CONTINUE_PRECOPY )
        {
            /* Xen's hook decides for itself: only our policies report. */
            if ( !(cb && cb->precopy_policy) &&
                 !ctx->save.summary.converged && save_not_converged(ctx, &st) )
                goto out;
            break;
        }
    }

    /*
     * Suspend, and send what is still dirty.  A throttle pause still on
     * ends once suspended (the pauses nest), so the guest does not run in
     * between; a caller's suspend callback gets it running.
     */
    if ( cb && cb->suspend && save_throttle_release(ctx) )
        goto out;
    t0 = xg_sr_now_ns();
    ctx->save.summary.downtime_ns = t0;         /* start, until the end */
    if ( suspend_domain(ctx) )
        goto out;
    if ( save_throttle_release(ctx) )
        goto out;
    ctx->save.live = false;                     /* no throttling now */
    dirty = clean_bitmap(ctx, HYPERCALL_BUFFER(bm), true);
    if ( dirty < 0 )
        goto out;
    for ( size_t i = 0; i < longs; i++ )
        pending[i] |= bm[i];
    memset(&st, 0, sizeof(st));
    st.iteration = iteration + 1;
    st.final = true;
    ctx->save.round_bytes = 0;
    if ( send_pages(ctx, pending, &final_sent) )
        goto out;
    st.pages_sent = final_sent;
    st.time_ns = xg_sr_now_ns() - t0;
    if ( st.time_ns )
        st.bandwidth = ctx->save.round_bytes * 1000000000ULL / st.time_ns;
    ctx->save.summary.final_pages = final_sent;
    save_report_round(ctx, &st);
    ctx->save.summary.total_ns = xg_sr_now_ns() - t_start;
    rc = 0;

 out:
    xc_hypercall_buffer_free_pages(
        xch, bm, (int)((longs * sizeof(*bm) + XC_PAGE_SIZE - 1) >> XC_PAGE_SHIFT));
    free(pending);
    return rc;
}

static int send_memory_nonlive(struct xc_sr_context *ctx)
{
    uint64_t sent, t0 = xg_sr_now_ns();

    ctx->save.summary.downtime_ns = t0;
    if ( suspend_domain(ctx) )
        return -1;
    if ( send_pages(ctx, NULL, &sent) )
        return -1;
    ctx->save.summary.rounds = 0;
    ctx->save.summary.final_pages = sent;
    ctx->save.summary.converged = true;     /* nothing to converge */
    return 0;
}

/* The pfn space: the domain's maximum, or what log-dirty covers. */
static int setup(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    xc_dominfo_t *info = &ctx->dominfo;
    xen_pfn_t max_gpfn = 0;

    if ( xc_domain_getinfo(xch, ctx->domid, 1, info) != 1 ||
         info->domid != ctx->domid )
    {
        ERROR("save: no domain d%u", ctx->domid);
        errno = ESRCH;
        return -1;
    }
    if ( !info->hvm )
    {
        ERROR("save: d%u is not an HVM (PVH) domain: PV guests cannot be "
              "saved here", ctx->domid);
        errno = EINVAL;
        return -1;
    }
    if ( info->dying || info->shutdown )
    {
        ERROR("save: d%u is %s", ctx->domid,
              info->dying ? "dying" : "shut down");
        errno = EINVAL;
        return -1;
    }

    /*
     * As Xen's x86_hvm_setup: every gfn up to the highest the p2m maps
     * (the special pages and ACPI tables sit far above RAM); the holes are
     * found batch by batch (drop_holes).
     */
    if ( xc_domain_maximum_gpfn(xch, ctx->domid, &max_gpfn) < 0 )
    {
        PERROR("save: cannot get d%u's highest gfn", ctx->domid);
        return -1;
    }
    if ( max_gpfn >= SR_MAX_P2M_SIZE || !info->nr_pages )
    {
        ERROR("save: d%u has %lu pages up to gfn %#" PRI_xen_pfn ": nothing to "
              "save, or beyond %#lx pfns", ctx->domid, info->nr_pages, max_gpfn,
              SR_MAX_P2M_SIZE);
        errno = EINVAL;
        return -1;
    }
    ctx->save.p2m_size = max_gpfn + 1;

    ctx->save.batch_pfns = malloc(SAVE_BATCH_SIZE * sizeof(xen_pfn_t));
    ctx->save.batch_types = malloc(SAVE_BATCH_SIZE * sizeof(xen_pfn_t));
    ctx->fmem = xenforeignmemory_open(xch->error_handler, 0);
    if ( !ctx->save.batch_pfns || !ctx->save.batch_types || !ctx->fmem )
    {
        PERROR("save: cannot set up");
        return -1;
    }
    return 0;
}

static void cleanup(struct xc_sr_context *ctx, bool failed)
{
    xc_interface *xch = ctx->xch;
    int saved_errno = errno;

    if ( ctx->save.logdirty &&
         xc_shadow_control(xch, ctx->domid, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0) )
        PERROR("save: cannot turn log-dirty mode off for d%u", ctx->domid);
    if ( ctx->save.throttled && xc_domain_unpause(xch, ctx->domid) )
        PERROR("save: cannot unpause d%u after throttling", ctx->domid);
    if ( failed && ctx->save.paused )
    {
        if ( xc_domain_unpause(xch, ctx->domid) )
            PERROR("save: cannot resume d%u", ctx->domid);
        else
            ERROR("save: d%u resumed after the failure", ctx->domid);
    }
    if ( ctx->fmem )
        xenforeignmemory_close(ctx->fmem);
    free(ctx->save.batch_pfns);
    free(ctx->save.batch_types);
    errno = saved_errno;
}

int xc_domain_save_params(xc_interface *xch, int io_fd, uint32_t dom,
                          uint32_t flags, struct save_callbacks *callbacks,
                          xc_stream_type_t stream_type, int recv_fd,
                          const struct xc_save_params *params)
{
    struct xc_sr_context ctx = {
        .xch = xch, .domid = dom, .fd = io_fd,
    };
    int rc = -1;

    (void)recv_fd;
    if ( !xch )
    {
        errno = EINVAL;
        return -1;
    }
    if ( stream_type != XC_STREAM_PLAIN )
    {
        ERROR("save: checkpointed streams (Remus, COLO) are not supported");
        errno = EOPNOTSUPP;
        return -1;
    }
    if ( params )
        ctx.save.params = *params;
    else
        xc_save_params_init(&ctx.save.params);
    ctx.save.flags = flags;
    ctx.save.callbacks = callbacks;
    ctx.save.live = flags & XCFLAGS_LIVE;

    if ( setup(&ctx) )
        goto out;
    SR_DPRINTF(&ctx, "save: d%u, %s, %lu pfns", dom,
               ctx.save.live ? "live" : "not live", ctx.save.p2m_size);
    if ( write_headers(&ctx) )
        goto out;
    if ( ctx.save.live ? send_memory_live(&ctx) : send_memory_nonlive(&ctx) )
        goto out;
    if ( x86_hvm_end_of_checkpoint(&ctx) )
        goto out;
    if ( write_record(&ctx, REC_TYPE_END, NULL, 0) )
        goto out;
    ctx.save.summary.downtime_ns = xg_sr_now_ns() - ctx.save.summary.downtime_ns;
    ctx.save.summary.octets = ctx.offset;
    rc = 0;

 out:
    cleanup(&ctx, rc != 0);
    if ( ctx.save.params.summary )
        *ctx.save.params.summary = ctx.save.summary;
    return rc;
}

int xc_domain_save(xc_interface *xch, int io_fd, uint32_t dom,
                   uint32_t flags, struct save_callbacks *callbacks,
                   xc_stream_type_t stream_type, int recv_fd)
{
    return xc_domain_save_params(xch, io_fd, dom, flags, callbacks,
                                 stream_type, recv_fd, NULL);
}
