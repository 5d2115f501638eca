/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * EXTENSION (this project, NOT in Xen): dirty-page tracking through libxl.
 *
 * Global log-dirty mode and its bitmap (XEN_DOMCTL_shadow_op), dirty-VRAM
 * tracking (XEN_DMOP_track_dirty_vram), the hypervisor's counters
 * (XEN_DOMCTL_get_dirty_stats / get_exit_counts) and a dirty-rate
 * measurement built from them.  See LIBXL_HAVE_DIRTY_TRACKING in libxl.h.
 */
#include "libxl_internal.h"

/* Largest pfn space we will size a bitmap for: 2^32 pfns = 16 TiB. */
#define MAX_BITMAP_PFNS (1ULL << 32)
/* Xen's limit on one dirty-VRAM range: 1 GiB of frames. */
#define MAX_VRAM_PFNS (1U << 18)

static int check_domain(libxl_ctx *ctx, uint32_t domid)
{
    int rc = libxl_domain_info(ctx, NULL, domid);

    if (rc == ERROR_DOMAIN_NOTFOUND)
        LOGD(ERROR, domid, "Non-existant domain");
    return rc;
}

int libxl_domain_set_logdirty(libxl_ctx *ctx, uint32_t domid, bool enable)
{
    unsigned int sop = enable ? XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY
                              : XEN_DOMCTL_SHADOW_OP_OFF;
    int rc = check_domain(ctx, domid);

    if (rc)
        return rc;
    if (xc_shadow_control(ctx->xch, domid, sop, NULL, 0) < 0) {
        rc = libxl__xc_error(errno);
        LOGED(ERROR, domid, "%s log-dirty mode",
              enable ? "enabling" : "disabling");
        return rc;
    }
    return 0;
}

int libxl_domain_get_dirty_stats(libxl_ctx *ctx, uint32_t domid,
                                 libxl_dirty_stats *stats)
{
    xen_domctl_dirty_stats_t st;
    xen_dirty_vcpu_stats_t *vcpus = NULL;
    unsigned int nr, room;
    libxl_dominfo info;
    int rc;

    libxl_dominfo_init(&info);
    rc = libxl_domain_info(ctx, &info, domid);
    if (rc == ERROR_DOMAIN_NOTFOUND)
        LOGD(ERROR, domid, "Non-existant domain");
    nr = info.vcpu_max_id + 1;
    libxl_dominfo_dispose(&info);
    if (rc)
        return rc;

    /* Room for every vCPU; once more if vCPUs were added meanwhile. */
    for (;;) {
        room = nr;
        free(vcpus);
        vcpus = calloc(room ? room : 1, sizeof(*vcpus));
        if (!vcpus)
            return ERROR_NOMEM;
        memset(&st, 0, sizeof(st));
        if (xc_dirty_stats(ctx->xch, domid, &st, vcpus, &nr) < 0)
            goto fail;
        if (nr <= room)
            break;                  /* vCPUs were added meanwhile: again */
    }

    libxl_dirty_stats_dispose(stats);
    libxl_dirty_stats_init(stats);
    stats->logdirty = !!(st.mode & XEN_DIRTY_MODE_LOGDIRTY);
    stats->vram = !!(st.mode & XEN_DIRTY_MODE_VRAM);
    switch (st.mechanism) {
    case XEN_DIRTY_MECH_PML:
        stats->mechanism = LIBXL_DIRTY_MECHANISM_PML;
        break;
    case XEN_DIRTY_MECH_WP:
        stats->mechanism = LIBXL_DIRTY_MECHANISM_WP;
        break;
    default:
        stats->mechanism = LIBXL_DIRTY_MECHANISM_NONE;
        break;
    }
    stats->dirty_pages = st.dirty_pages;
    stats->fault_count = st.fault_count;
    stats->pml_full_exits = st.pml_full_exits;
    stats->clean_calls = st.clean_calls;
    stats->peek_calls = st.peek_calls;
    stats->vram_calls = st.vram_calls;
    stats->num_vcpus = (int)nr;
    stats->vcpus = calloc(nr ? nr : 1, sizeof(*stats->vcpus));
    if (!stats->vcpus) {
        free(vcpus);
        stats->num_vcpus = 0;
        return ERROR_NOMEM;
    }
    for (unsigned int i = 0; i < nr; i++) {
        libxl_dirty_vcpu_stats *v = &stats->vcpus[i];

        libxl_dirty_vcpu_stats_init(v);
        v->vcpuid = i;
        v->pml_full_exits = vcpus[i].pml_full_exits;
        v->pml_entries = vcpus[i].pml_entries;
        v->wp_faults = vcpus[i].wp_faults;
        v->pages_dirtied = vcpus[i].pages_dirtied;
        v->ple_exits = vcpus[i].ple_exits;
        v->exits_total = vcpus[i].exits_total;
    }
    free(vcpus);
    return 0;

 fail:
    rc = libxl__xc_error(errno);
    LOGED(ERROR, domid, "getting dirty-tracking counters");
    free(vcpus);
    return rc;
}

/* OR the first 'bits' bits of src into dst. */
static void bitmap_or(uint8_t *dst, const uint8_t *src, uint64_t bits)
{
    uint64_t bytes = bits / 8;

    for (uint64_t i = 0; i < bytes; i++)
        dst[i] |= src[i];
    if (bits % 8)
        dst[bytes] |= src[bytes] & ((1u << (bits % 8)) - 1);
}

/*
 * One CLEAN or PEEK of 'pages' bits into *acc (grown to hold them, OR'ed
 * in).  *covered_r: how many pages the hypervisor covered (fewer than
 * asked: that is the whole pfn space).
 */
static int logdirty_op(libxl_ctx *ctx, uint32_t domid, unsigned int sop,
                       uint64_t pages, uint8_t **acc, uint64_t *acc_bits,
                       uint64_t *covered_r)
{
    int nr_pages = (int)((pages / 8 + XC_PAGE_SIZE - 1) / XC_PAGE_SIZE);
    DECLARE_HYPERCALL_BUFFER(uint8_t, bitmap);
    long long ret;
    int rc = 0;

    bitmap = xc_hypercall_buffer_alloc_pages(ctx->xch, bitmap, nr_pages);
    if (!bitmap) {
        LOGD(ERROR, domid, "allocating a %d-page dirty bitmap", nr_pages);
        return ERROR_NOMEM;
    }
    ret = xc_logdirty_control(ctx->xch, domid, sop, HYPERCALL_BUFFER(bitmap),
                              pages, 0, NULL);
    if (ret < 0) {
        int e = errno;

        if (e == EINVAL) {
            rc = ERROR_NOT_READY;       /* not in log-dirty mode */
        } else if (e == ENOMEM) {
            /* The hypervisor could not record every page: all are suspect. */
            LOGD(ERROR, domid, "the hypervisor lost dirty bits (out of "
                 "memory): every page must be treated as dirty");
            rc = ERROR_NOMEM;
        } else {
            errno = e;
            LOGED(ERROR, domid, "log-dirty %s",
                  sop == XEN_DOMCTL_SHADOW_OP_CLEAN ? "CLEAN" : "PEEK");
            rc = ERROR_FAIL;
        }
        goto out;
    }
    if ((uint64_t)ret > pages)
        ret = (long long)pages;
    if ((uint64_t)ret > *acc_bits) {
        uint64_t old = (*acc_bits + 7) / 8, new = ((uint64_t)ret + 7) / 8;
        uint8_t *grown = realloc(*acc, new ? new : 1);

        if (!grown) {
            rc = ERROR_NOMEM;
            goto out;
        }
        memset(grown + old, 0, new - old);
        *acc = grown;
        *acc_bits = (uint64_t)ret;
    }
    bitmap_or(*acc, bitmap, (uint64_t)ret);
    *covered_r = (uint64_t)ret;

 out:
    xc_hypercall_buffer_free_pages(ctx->xch, bitmap, nr_pages);
    return rc;
}

int libxl_domain_dirty_bitmap(libxl_ctx *ctx, uint32_t domid, bool clean,
                              uint8_t **bitmap_r, uint64_t *nr_pfns_r)
{
    unsigned int sop = clean ? XEN_DOMCTL_SHADOW_OP_CLEAN
                             : XEN_DOMCTL_SHADOW_OP_PEEK;
    libxl_dominfo info;
    uint8_t *acc = NULL;
    uint64_t acc_bits = 0, pages, covered;
    int rc;

    *bitmap_r = NULL;
    *nr_pfns_r = 0;

    libxl_dominfo_init(&info);
    rc = libxl_domain_info(ctx, &info, domid);
    if (rc == ERROR_DOMAIN_NOTFOUND)
        LOGD(ERROR, domid, "Non-existant domain");
    if (rc)
        goto out;

    /*
     * The hypervisor covers min(pages asked, highest mapped pfn + 1).
     * Start from the domain's current size (rounded up to whole bitmap
     * pages of 32768 pfns) and double until it covers less than asked:
     * then it has covered everything.  Bits from several CLEANs are OR'ed
     * together, so a page dirtied between two of them is still reported
     * (once).  (max_memkb may be "unlimited": no help here.)
     */
    pages = info.current_memkb / (XC_PAGE_SIZE / 1024);
    if (pages >= MAX_BITMAP_PFNS)
        pages = MAX_BITMAP_PFNS - 1;
    pages = (pages + 1 + 32767) & ~32767ULL;
    for (;;) {
        rc = logdirty_op(ctx, domid, sop, pages, &acc, &acc_bits, &covered);
        if (rc)
            goto out;
        if (covered < pages)
            break;
        if (pages >= MAX_BITMAP_PFNS) {
            LOGD(ERROR, domid, "pfn space larger than %llu pages",
                 (unsigned long long)MAX_BITMAP_PFNS);
            rc = ERROR_FAIL;
            goto out;
        }
        pages *= 2;
    }
    if (!acc)
        acc = calloc(1, 1);
    if (!acc) {
        rc = ERROR_NOMEM;
        goto out;
    }
    *bitmap_r = acc;
    *nr_pfns_r = acc_bits;
    acc = NULL;

 out:
    free(acc);
    libxl_dominfo_dispose(&info);
    return rc;
}

static xendevicemodel_handle *dmod_handle(libxl_ctx *ctx)
{
    if (!ctx->dmod) {
        ctx->dmod = xendevicemodel_open(ctx->lg, 0);
        if (!ctx->dmod)
            LOGE(ERROR, "cannot open the device-model interface");
    }
    return ctx->dmod;
}

int libxl_domain_track_vram(libxl_ctx *ctx, uint32_t domid,
                            uint64_t first_pfn, uint32_t nr,
                            uint8_t **bitmap_r)
{
    xendevicemodel_handle *dmod;
    unsigned long dummy = 0, *bm;
    size_t words = ((size_t)nr + 63) / 64;
    int rc;

    if (bitmap_r)
        *bitmap_r = NULL;
    if (nr > MAX_VRAM_PFNS) {
        LOGD(ERROR, domid, "VRAM range of %u pages exceeds the limit of %u "
             "(1 GiB)", nr, MAX_VRAM_PFNS);
        return ERROR_INVAL;
    }
    rc = check_domain(ctx, domid);
    if (rc)
        return rc;
    dmod = dmod_handle(ctx);
    if (!dmod)
        return ERROR_FAIL;

    bm = nr ? calloc(words, sizeof(*bm)) : &dummy;
    if (!bm)
        return ERROR_NOMEM;
    if (xendevicemodel_track_dirty_vram(dmod, (domid_t)domid, first_pfn, nr,
                                        bm) < 0) {
        rc = libxl__xc_error(errno);
        LOGED(ERROR, domid, "tracking dirty VRAM (pfns %#"PRIx64"+%u)",
              first_pfn, nr);
        goto out;
    }
    if (bitmap_r && nr) {
        /* x86 is little-endian: the words' bytes are the bitmap's bytes. */
        *bitmap_r = (uint8_t *)bm;
        bm = &dummy;
    }
 out:
    if (bm != &dummy)
        free(bm);
    return rc;
}

int libxl_vcpu_exit_counts(libxl_ctx *ctx, uint32_t domid, uint32_t vcpu,
                           uint64_t **counts_r, unsigned int *nr_reasons_r)
{
    unsigned int room = 80, nr;     /* Intel defines ~70 basic reasons */
    uint64_t *counts = NULL;
    int rc = check_domain(ctx, domid);

    *counts_r = NULL;
    *nr_reasons_r = 0;
    if (rc)
        return rc;
    for (;;) {
        free(counts);
        counts = calloc(room, sizeof(*counts));
        if (!counts)
            return ERROR_NOMEM;
        nr = room;
        if (xc_vcpu_exit_counts(ctx->xch, domid, vcpu, counts, &nr) < 0) {
            rc = libxl__xc_error(errno);
            LOGED(ERROR, domid, "getting exit counters of vCPU %u", vcpu);
            free(counts);
            return rc;
        }
        if (nr <= room)
            break;
        room = nr;
    }
    *counts_r = counts;
    *nr_reasons_r = nr;
    return 0;
}

/* ---- dirty rate ------------------------------------------------------------ */

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(uint32_t ms)
{
    struct timespec ts = { .tv_sec = ms / 1000,
                           .tv_nsec = (long)(ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

static uint64_t count_bits(const uint8_t *bm, uint64_t bits)
{
    uint64_t n = 0;

    for (uint64_t i = 0; i < bits / 8; i++)
        n += (uint64_t)__builtin_popcount(bm[i]);
    if (bits % 8)
        n += (uint64_t)__builtin_popcount(bm[bits / 8] &
                                          ((1u << (bits % 8)) - 1));
    return n;
}

/* Bits set in 'after' and not in 'before' (both may differ in size). */
static uint64_t count_new_bits(const uint8_t *before, uint64_t before_bits,
                               const uint8_t *after, uint64_t after_bits)
{
    uint64_t n = 0;

    for (uint64_t p = 0; p < after_bits; p++) {
        bool a = (after[p / 8] >> (p % 8)) & 1;
        bool b = p < before_bits && ((before[p / 8] >> (p % 8)) & 1);

        n += a && !b;
    }
    return n;
}

static void stats_delta(libxl_dirty_stats *d, const libxl_dirty_stats *a,
                        const libxl_dirty_stats *b)
{
    libxl_dirty_stats_dispose(d);
    libxl_dirty_stats_init(d);
    d->logdirty = b->logdirty;
    d->vram = b->vram;
    d->mechanism = b->mechanism;
    d->dirty_pages = b->dirty_pages - a->dirty_pages;
    d->fault_count = b->fault_count - a->fault_count;
    d->pml_full_exits = b->pml_full_exits - a->pml_full_exits;
    d->clean_calls = b->clean_calls - a->clean_calls;
    d->peek_calls = b->peek_calls - a->peek_calls;
    d->vram_calls = b->vram_calls - a->vram_calls;
    d->vcpus = calloc(b->num_vcpus ? b->num_vcpus : 1, sizeof(*d->vcpus));
    if (!d->vcpus)
        return;
    d->num_vcpus = b->num_vcpus;
    for (int i = 0; i < b->num_vcpus; i++) {
        const libxl_dirty_vcpu_stats *x = &b->vcpus[i];
        libxl_dirty_vcpu_stats *v = &d->vcpus[i];
        libxl_dirty_vcpu_stats zero;

        libxl_dirty_vcpu_stats_init(&zero);
        const libxl_dirty_vcpu_stats *y = i < a->num_vcpus ? &a->vcpus[i]
                                                           : &zero;
        libxl_dirty_vcpu_stats_init(v);
        v->vcpuid = x->vcpuid;
        v->pml_full_exits = x->pml_full_exits - y->pml_full_exits;
        v->pml_entries = x->pml_entries - y->pml_entries;
        v->wp_faults = x->wp_faults - y->wp_faults;
        v->pages_dirtied = x->pages_dirtied - y->pages_dirtied;
        v->ple_exits = x->ple_exits - y->ple_exits;
        v->exits_total = x->exits_total - y->exits_total;
    }
}

int libxl_domain_measure_dirty_rate(libxl_ctx *ctx, uint32_t domid,
                                    uint32_t duration_ms,
                                    uint64_t *dirty_pages_r,
                                    uint64_t *elapsed_ns_r,
                                    libxl_dirty_stats *delta_r)
{
    libxl_dirty_stats before, after;
    uint8_t *bm0 = NULL, *bm1 = NULL;
    uint64_t bits0 = 0, bits1 = 0, t0, t1;
    bool was_on, enabled = false;
    int rc, rc2;

    libxl_dirty_stats_init(&before);
    libxl_dirty_stats_init(&after);

    rc = libxl_domain_get_dirty_stats(ctx, domid, &before);
    if (rc)
        goto out;
    was_on = before.logdirty;
    if (!was_on) {
        rc = libxl_domain_set_logdirty(ctx, domid, true);
        if (rc)
            goto out;
        enabled = true;
    }

    /*
     * Our own log-dirty session: CLEAN, wait, CLEAN, count.  Someone
     * else's (a migration, `xl log-dirty on`): never CLEAN, which would
     * take their dirty pages away; PEEK twice and count the pages that
     * became dirty (an underestimate if they CLEAN meanwhile).
     */
    rc = libxl_domain_dirty_bitmap(ctx, domid, enabled, &bm0, &bits0);
    if (rc)
        goto restore;
    rc = libxl_domain_get_dirty_stats(ctx, domid, &before);
    if (rc)
        goto restore;
    t0 = now_ns();
    sleep_ms(duration_ms);
    rc = libxl_domain_dirty_bitmap(ctx, domid, enabled, &bm1, &bits1);
    t1 = now_ns();
    if (rc)
        goto restore;
    rc = libxl_domain_get_dirty_stats(ctx, domid, &after);
    if (rc)
        goto restore;

    *dirty_pages_r = enabled ? count_bits(bm1, bits1)
                             : count_new_bits(bm0, bits0, bm1, bits1);
    *elapsed_ns_r = t1 - t0;
    if (delta_r)
        stats_delta(delta_r, &before, &after);

 restore:
    if (enabled) {
        rc2 = libxl_domain_set_logdirty(ctx, domid, false);
        if (!rc)
            rc = rc2;
    }
 out:
    free(bm0);
    free(bm1);
    libxl_dirty_stats_dispose(&before);
    libxl_dirty_stats_dispose(&after);
    return rc;
}
