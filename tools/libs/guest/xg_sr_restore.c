/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest: xc_domain_restore, reading the migration stream (versions
 * 2 and 3) of an x86 HVM (PVH) guest into a domain the caller created.
 *
 * Every field is checked before it is used, and every problem is reported
 * with the offset of the record (or header) and its type:
 *
 *   - the image header (marker, id, version, options, reserved bits) and
 *     the domain header (type, page size, reserved bits);
 *   - each record's length against its type, zero padding, and order:
 *     STATIC_DATA_END first (inferred at the first PAGE_DATA in a version
 *     2 stream), PAGE_DATA before HVM_CONTEXT, HVM_PARAMS before
 *     HVM_CONTEXT, each of X86_TSC_INFO, HVM_PARAMS, HVM_CONTEXT at most
 *     once, END last and only after HVM_CONTEXT;
 *   - PAGE_DATA: count, reserved bits, page types, pfns within the
 *     domain's maximum, and the length matching the pages present;
 *   - unknown optional records are skipped; unknown or unsupported
 *     mandatory ones fail the restore (the spec's rule).
 *
 * The HVM context is loaded at END, after all memory (as Xen does).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "xg_sr_common.h"

#define BITS_PER_UL         (8 * sizeof(unsigned long))

static uint16_t be16_to_cpu(uint16_t v) { return __builtin_bswap16(v); }
static uint32_t be32_to_cpu(uint32_t v) { return __builtin_bswap32(v); }
static uint64_t be64_to_cpu(uint64_t v) { return __builtin_bswap64(v); }

static int read_headers(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    struct xc_sr_ihdr ihdr;
    struct xc_sr_dhdr dhdr;
    uint16_t options;

    if ( read_exact(ctx, &ihdr, sizeof(ihdr), "the image header") )
        return -1;
    errno = EINVAL;
    if ( be64_to_cpu(ihdr.marker) != IHDR_MARKER )
    {
        ERROR("restore: offset 0: image header: marker %#" PRIx64 " is not "
              "%#llx (not a migration stream, or a legacy one)",
              be64_to_cpu(ihdr.marker), IHDR_MARKER);
        return -1;
    }
    if ( be32_to_cpu(ihdr.id) != IHDR_ID )
    {
        ERROR("restore: offset 0x8: image header: id %#x is not %#x (\"XENF\")",
              be32_to_cpu(ihdr.id), IHDR_ID);
        return -1;
    }
    ctx->restore.format_version = be32_to_cpu(ihdr.version);
    if ( ctx->restore.format_version != 2 && ctx->restore.format_version != 3 )
    {
        ERROR("restore: offset 0xc: image header: version %u is not 2 or 3",
              ctx->restore.format_version);
        return -1;
    }
    options = be16_to_cpu(ihdr.options);
    if ( options & IHDR_OPT_BIG_ENDIAN )
    {
        ERROR("restore: offset 0x10: image header: a big-endian stream "
              "cannot be restored on x86");
        return -1;
    }
    if ( options & ~IHDR_OPT_BIG_ENDIAN || ihdr._res1 || ihdr._res2 )
    {
        ERROR("restore: offset 0x10: image header: reserved bits set "
              "(options %#x, reserved %#x %#x)", options,
              be16_to_cpu(ihdr._res1), be32_to_cpu(ihdr._res2));
        return -1;
    }

    if ( read_exact(ctx, &dhdr, sizeof(dhdr), "the domain header") )
        return -1;
    errno = EINVAL;
    if ( dhdr.type != DHDR_TYPE_X86_HVM )
    {
        ERROR("restore: offset 0x18: domain header: type %u is not x86 HVM "
              "(%u)%s", dhdr.type, DHDR_TYPE_X86_HVM,
              dhdr.type == DHDR_TYPE_X86_PV ? ": PV guests are not supported"
                                            : "");
        return -1;
    }
    if ( dhdr.page_shift != XC_PAGE_SHIFT )
    {
        ERROR("restore: offset 0x1c: domain header: page_shift %u is not %u",
              dhdr.page_shift, XC_PAGE_SHIFT);
        return -1;
    }
    if ( dhdr._res1 )
    {
        ERROR("restore: offset 0x1e: domain header: reserved field is %#x, "
              "not zero", dhdr._res1);
        return -1;
    }
    SR_DPRINTF(ctx, "restore: stream version %u, saved on Xen %u.%u",
               ctx->restore.format_version, dhdr.xen_major, dhdr.xen_minor);
    return 0;
}

static bool populated(struct xc_sr_context *ctx, xen_pfn_t pfn)
{
    return pfn < ctx->restore.populated_pfns &&
           ((ctx->restore.populated[pfn / BITS_PER_UL] >> (pfn % BITS_PER_UL)) & 1);
}

/*
 * The bitmap covers the pfns seen so far, grown in steps of 64 Ki pfns:
 * an HVM guest's special pages and ACPI tables sit just below 4 GiB,
 * far above its RAM, and most of the space between is never used.
 */
static int mark_populated(struct xc_sr_context *ctx, xen_pfn_t pfn)
{
    if ( pfn >= ctx->restore.populated_pfns )
    {
        unsigned long want = (pfn | 0xffffUL) + 1;
        size_t old_longs = ctx->restore.populated_pfns / BITS_PER_UL;
        size_t new_longs = want / BITS_PER_UL;
        unsigned long *bm = realloc(ctx->restore.populated,
                                    new_longs * sizeof(*bm));

        if ( !bm )
        {
            errno = ENOMEM;
            return -1;
        }
        memset(bm + old_longs, 0, (new_longs - old_longs) * sizeof(*bm));
        ctx->restore.populated = bm;
        ctx->restore.populated_pfns = want;
    }
    ctx->restore.populated[pfn / BITS_PER_UL] |= 1UL << (pfn % BITS_PER_UL);
    return 0;
}

/* Populate the pfns not yet populated among pfns[0..n). */
static int populate_pfns(struct xc_sr_context *ctx, struct xc_sr_record *rec,
                         const xen_pfn_t *pfns, unsigned int n)
{
    xc_interface *xch = ctx->xch;
    xen_pfn_t *todo = malloc(n * sizeof(*todo));
    unsigned int i, nr = 0;
    int rc = -1;

    if ( !todo )
    {
        errno = ENOMEM;
        return -1;
    }
    for ( i = 0; i < n; i++ )
    {
        if ( populated(ctx, pfns[i]) )
            continue;
        /* Mark first: a pfn twice in one batch is populated once. */
        if ( mark_populated(ctx, pfns[i]) )
            goto out;
        todo[nr++] = pfns[i];
    }
    if ( nr && xc_domain_populate_physmap_exact(xch, ctx->domid, nr, 0, 0,
                                                todo) )
    {
        REC_ERROR(ctx, rec, "cannot populate %u pages of d%u (%d = %s)", nr,
                  ctx->domid, errno, xc_strerror(xch, errno));
        goto out;
    }
    ctx->restore.summary.populated += nr;
    rc = 0;
 out:
    free(todo);
    return rc;
}

static int handle_page_data(struct xc_sr_context *ctx, struct xc_sr_record *rec)
{
    xc_interface *xch = ctx->xch;
    struct xc_sr_rec_page_data_header *hdr = rec->data;
    const uint64_t *words;
    xen_pfn_t *pfns = NULL, *data_pfns = NULL;
    unsigned int i, count, nr_pfns = 0, nr_data = 0;
    const uint8_t *pages;
    uint8_t *map = NULL;
    uint64_t need;
    int rc = -1;

    if ( rec->length < sizeof(*hdr) )
    {
        REC_ERROR(ctx, rec, "shorter than its %zu-octet header", sizeof(*hdr));
        return -1;
    }
    count = hdr->count;
    if ( !count || count > MAX_BATCH_SIZE )
    {
        REC_ERROR(ctx, rec, "count %u is not within 1-%u", count, MAX_BATCH_SIZE);
        return -1;
    }
    if ( hdr->_res1 )
    {
        REC_ERROR(ctx, rec, "reserved field is %#x, not zero", hdr->_res1);
        return -1;
    }
    if ( rec->length < sizeof(*hdr) + count * sizeof(uint64_t) )
    {
        REC_ERROR(ctx, rec, "too short for its %u pfns", count);
        return -1;
    }
    words = (const uint64_t *)(hdr + 1);

    pfns = malloc(count * sizeof(*pfns));
    data_pfns = malloc(count * sizeof(*data_pfns));
    if ( !pfns || !data_pfns )
    {
        errno = ENOMEM;
        goto out;
    }
    for ( i = 0; i < count; i++ )
    {
        uint64_t pfn = words[i] & PAGE_DATA_PFN_MASK;
        unsigned int type = (unsigned int)(words[i] >> PAGE_DATA_TYPE_SHIFT);

        if ( words[i] & PAGE_DATA_RES_MASK )
        {
            REC_ERROR(ctx, rec, "pfn[%u] %#" PRIx64 " has reserved bits set",
                      i, words[i]);
            goto inval;
        }
        switch ( type )
        {
        case SR_PFINFO_NOTAB:
        case SR_PFINFO_XALLOC:
            /* How many fit is the hypervisor's to say (max_pages). */
            if ( pfn >= SR_MAX_P2M_SIZE )
            {
                REC_ERROR(ctx, rec, "pfn[%u] %#" PRIx64 " is beyond the %#lx "
                          "pfns a guest may have here", i, pfn, SR_MAX_P2M_SIZE);
                goto inval;
            }
            pfns[nr_pfns++] = pfn;
            if ( type == SR_PFINFO_NOTAB )
                data_pfns[nr_data++] = pfn;
            break;
        case SR_PFINFO_XTAB:
            break;                      /* not present: nothing to do */
        case SR_PFINFO_BROKEN:
            REC_ERROR(ctx, rec, "pfn[%u] %#" PRIx64 " is BROKEN: broken pages "
                      "cannot be restored here", i, pfn);
            goto inval;
        default:
            REC_ERROR(ctx, rec, "pfn[%u] %#" PRIx64 " has type %#x, %s", i,
                      pfn, type,
                      (type >= SR_PFINFO_L1TAB && type <= SR_PFINFO_L4TAB) ||
                      (type >= SR_PFINFO_L1TAB_PIN && type <= SR_PFINFO_L4TAB_PIN)
                      ? "a page-table type, which no HVM stream has"
                      : "which is reserved");
            goto inval;
        }
    }

    need = sizeof(*hdr) + count * sizeof(uint64_t) +
           (uint64_t)nr_data * XC_PAGE_SIZE;
    if ( rec->length != need )
    {
        REC_ERROR(ctx, rec, "%u pfns with %u pages of data need %" PRIu64
                  " octets", count, nr_data, need);
        goto inval;
    }

    if ( nr_pfns && populate_pfns(ctx, rec, pfns, nr_pfns) )
        goto out;
    if ( nr_data )
    {
        map = xenforeignmemory_map(ctx->fmem, ctx->domid, PROT_READ | PROT_WRITE,
                                   nr_data, data_pfns, NULL);
        if ( !map )
        {
            REC_ERROR(ctx, rec, "cannot map %u pages of d%u (%d = %s)",
                      nr_data, ctx->domid, errno, xc_strerror(xch, errno));
            goto out;
        }
        pages = (const uint8_t *)(words + count);
        memcpy(map, pages, (size_t)nr_data * XC_PAGE_SIZE);
        xenforeignmemory_unmap(ctx->fmem, map, nr_data);
        ctx->restore.summary.pages += nr_data;
    }
    rc = 0;
    goto out;

 inval:
    errno = EINVAL;
 out:
    free(pfns);
    free(data_pfns);
    return rc;
}

/* A record that has no place in this stream, or no support here. */
static int unsupported(struct xc_sr_context *ctx, struct xc_sr_record *rec,
                       const char *why)
{
    REC_ERROR(ctx, rec, "%s", why);
    errno = EOPNOTSUPP;
    return -1;
}

static int handle_static_data_end(struct xc_sr_context *ctx,
                                  struct xc_sr_record *rec, bool inferred)
{
    struct restore_callbacks *cb = ctx->restore.callbacks;

    if ( ctx->restore.seen_static_data_end )
    {
        REC_ERROR(ctx, rec, "a second STATIC_DATA_END");
        errno = EINVAL;
        return -1;
    }
    if ( !inferred && rec->length )
    {
        REC_ERROR(ctx, rec, "STATIC_DATA_END has a body");
        errno = EINVAL;
        return -1;
    }
    ctx->restore.seen_static_data_end = true;
    if ( cb && cb->static_data_done &&
         cb->static_data_done(XGR_SDD_MISSING_CPUID | XGR_SDD_MISSING_MSR,
                              cb->data) )
    {
        REC_ERROR(ctx, rec, "the static_data_done callback failed");
        errno = EIO;
        return -1;
    }
    return 0;
}

/* One record; 1 at END, 0 to go on, -1 on failure. */
static int process_record(struct xc_sr_context *ctx, struct xc_sr_record *rec)
{
    bool after_sde = ctx->restore.seen_static_data_end;

    /* A version 2 stream has no STATIC_DATA_END: infer it. */
    if ( !after_sde && ctx->restore.format_version == 2 &&
         rec->type == REC_TYPE_PAGE_DATA )
    {
        if ( handle_static_data_end(ctx, rec, true) )
            return -1;
        after_sde = true;
    }

    switch ( rec->type )
    {
    case REC_TYPE_END:
        if ( rec->length )
        {
            REC_ERROR(ctx, rec, "END has a body");
            errno = EINVAL;
            return -1;
        }
        if ( !ctx->restore.seen_context )
        {
            REC_ERROR(ctx, rec, "the stream ends without %s",
                      after_sde ? "an HVM_CONTEXT record" : "STATIC_DATA_END");
            errno = EINVAL;
            return -1;
        }
        return 1;

    case REC_TYPE_STATIC_DATA_END:
        return handle_static_data_end(ctx, rec, false);

    case REC_TYPE_X86_CPUID_POLICY:
    case REC_TYPE_X86_MSR_POLICY:
        if ( after_sde )
            break;
        return unsupported(ctx, rec, "CPUID/MSR policies cannot be set on "
                           "this hypervisor (no XEN_DOMCTL_set_cpu_policy)");

    case REC_TYPE_PAGE_DATA:
    case REC_TYPE_X86_TSC_INFO:
    case REC_TYPE_HVM_PARAMS:
    case REC_TYPE_HVM_CONTEXT:
        if ( !after_sde )
            break;
        if ( ctx->restore.seen_context )
        {
            REC_ERROR(ctx, rec, "after HVM_CONTEXT, which must come last");
            errno = EINVAL;
            return -1;
        }
        if ( rec->type == REC_TYPE_PAGE_DATA )
            return handle_page_data(ctx, rec);
        if ( rec->type == REC_TYPE_X86_TSC_INFO )
            return handle_x86_tsc_info(ctx, rec) ? (errno = EINVAL, -1) : 0;
        if ( rec->type == REC_TYPE_HVM_PARAMS )
            return handle_hvm_params(ctx, rec);
        return handle_hvm_context(ctx, rec);

    case REC_TYPE_X86_PV_INFO:
    case REC_TYPE_X86_PV_P2M_FRAMES:
    case REC_TYPE_X86_PV_VCPU_BASIC:
    case REC_TYPE_X86_PV_VCPU_EXTENDED:
    case REC_TYPE_X86_PV_VCPU_XSAVE:
    case REC_TYPE_X86_PV_VCPU_MSRS:
    case REC_TYPE_SHARED_INFO:
        return unsupported(ctx, rec, "a PV record in an x86 HVM stream");
    case REC_TYPE_TOOLSTACK:
        return unsupported(ctx, rec, "deprecated and not supported");
    case REC_TYPE_VERIFY:
    case REC_TYPE_CHECKPOINT:
    case REC_TYPE_CHECKPOINT_DIRTY_PFN_LIST:
        return unsupported(ctx, rec, "checkpointed and verify streams are "
                           "not supported");
    default:
        if ( rec->type & REC_TYPE_OPTIONAL )
        {
            SR_DPRINTF(ctx, "restore: offset %#" PRIx64 ": skipping optional "
                       "record type %#x (%u octets)", rec->offset, rec->type,
                       rec->length);
            return 0;
        }
        return unsupported(ctx, rec, "an unknown mandatory record");
    }

    /* Out of order with respect to STATIC_DATA_END. */
    REC_ERROR(ctx, rec, "%s", after_sde ? "after STATIC_DATA_END, but static "
              "data must come before it" : "before STATIC_DATA_END");
    errno = EINVAL;
    return -1;
}

static int setup(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    xc_dominfo_t *info = &ctx->dominfo;
    unsigned long max;

    if ( xc_domain_getinfo(xch, ctx->domid, 1, info) != 1 ||
         info->domid != ctx->domid )
    {
        ERROR("restore: no domain d%u", ctx->domid);
        errno = ESRCH;
        return -1;
    }
    if ( !info->hvm )
    {
        ERROR("restore: d%u is not an HVM (PVH) domain", ctx->domid);
        errno = EINVAL;
        return -1;
    }
    max = info->max_memkb >> (XC_PAGE_SHIFT - 10);
    if ( !max || max > SR_MAX_P2M_SIZE )
    {
        ERROR("restore: d%u's maximum memory (%lu KiB) is not set or too "
              "large: set it before restoring", ctx->domid, info->max_memkb);
        errno = EINVAL;
        return -1;
    }
    ctx->restore.max_pages = max;
    ctx->fmem = xenforeignmemory_open(xch->error_handler, 0);
    if ( !ctx->fmem )
    {
        PERROR("restore: cannot set up");
        return -1;
    }
    return 0;
}

static int restore(struct xc_sr_context *ctx)
{
    struct xc_sr_record rec;
    int rc;

    if ( setup(ctx) || read_headers(ctx) )
        return -1;
    for ( ;; )
    {
        if ( read_record(ctx, &rec) )
            return -1;
        ctx->restore.summary.records++;
        rc = process_record(ctx, &rec);
        free(rec.data);
        if ( rc < 0 )
            return -1;
        if ( rc == 1 )
            break;
    }
    return x86_hvm_stream_complete(ctx);
}

int xc_domain_restore_rings(xc_interface *xch, int io_fd, uint32_t dom,
                            struct xc_restore_rings *rings,
                            struct restore_callbacks *callbacks,
                            struct xc_restore_summary *summary)
{
    struct xc_sr_context ctx = { .xch = xch, .domid = dom, .fd = io_fd };
    int rc, saved_errno;

    if ( !xch )
    {
        errno = EINVAL;
        return -1;
    }
    ctx.restore.callbacks = callbacks;
    ctx.restore.rings = rings;
    if ( rings )
        rings->store_gfn = rings->console_gfn = 0;
    rc = restore(&ctx);
    saved_errno = errno;
    ctx.restore.summary.octets = ctx.offset;
    if ( summary )
        *summary = ctx.restore.summary;
    if ( ctx.fmem )
        xenforeignmemory_close(ctx.fmem);
    free(ctx.restore.populated);
    free(ctx.restore.context);
    errno = saved_errno;
    return rc;
}

int xc_domain_restore_summary(xc_interface *xch, int io_fd, uint32_t dom,
                              struct restore_callbacks *callbacks,
                              struct xc_restore_summary *summary)
{
    return xc_domain_restore_rings(xch, io_fd, dom, NULL, callbacks, summary);
}

int xc_domain_restore(xc_interface *xch, int io_fd, uint32_t dom,
                      unsigned int store_evtchn, unsigned long *store_mfn,
                      uint32_t store_domid, unsigned int console_evtchn,
                      unsigned long *console_mfn, uint32_t console_domid,
                      xc_stream_type_t stream_type,
                      struct restore_callbacks *callbacks, int send_back_fd)
{
    struct xc_restore_rings rings = {
        .store_evtchn = store_evtchn, .store_domid = store_domid,
        .console_evtchn = console_evtchn, .console_domid = console_domid,
    };
    int rc;

    (void)send_back_fd;
    if ( stream_type != XC_STREAM_PLAIN )
    {
        if ( xch )
            ERROR("restore: checkpointed streams (Remus, COLO) are not "
                  "supported");
        errno = EOPNOTSUPP;
        return -1;
    }
    rc = xc_domain_restore_rings(xch, io_fd, dom, &rings, callbacks, NULL);
    if ( store_mfn )
        *store_mfn = rings.store_gfn;
    if ( console_mfn )
        *console_mfn = rings.console_gfn;
    return rc;
}
