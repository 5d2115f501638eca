/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest restore, x86 HVM: HVM_PARAMS, HVM_CONTEXT, and loading the
 * context when the stream is complete.
 *
 * HVM_CONTEXT is Xen's save format (public/hvm/save.h): descriptors
 * { u16 typecode; u16 instance; u32 length; } each followed by its data;
 * it must start with HEADER and end with END exactly at the record's end.
 * Only HEADER, CPU, LAPIC, LAPIC_REGS, MTRR and END exist on this
 * hypervisor.  The context is kept
 * and loaded (XEN_DOMCTL_sethvmcontext) after all memory, at END.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "xg_sr_common.h"

int handle_hvm_params(struct xc_sr_context *ctx, struct xc_sr_record *rec)
{
    struct xc_sr_rec_hvm_params *hdr = rec->data;
    const struct xc_sr_rec_hvm_params_entry *entry;
    uint32_t i;

    errno = EINVAL;
    if ( ctx->restore.seen_params )
    {
        REC_ERROR(ctx, rec, "a second HVM_PARAMS record");
        return -1;
    }
    ctx->restore.seen_params = true;
    if ( rec->length == 0 )
        return 0;                       /* the spec's erratum 1: tolerated */
    if ( rec->length < sizeof(*hdr) )
    {
        REC_ERROR(ctx, rec, "shorter than its %zu-octet header", sizeof(*hdr));
        return -1;
    }
    if ( hdr->_res1 )
    {
        REC_ERROR(ctx, rec, "reserved field is %#x, not zero", hdr->_res1);
        return -1;
    }
    if ( rec->length != sizeof(*hdr) + (uint64_t)hdr->count * sizeof(*entry) )
    {
        REC_ERROR(ctx, rec, "count %u needs %" PRIu64 " octets", hdr->count,
                  sizeof(*hdr) + (uint64_t)hdr->count * sizeof(*entry));
        return -1;
    }
    entry = (const void *)(hdr + 1);
    for ( i = 0; i < hdr->count; i++ )
    {
        if ( entry[i].index >= HVM_NR_PARAMS )
        {
            REC_ERROR(ctx, rec, "param[%u]: index %" PRIu64 " is not below "
                      "HVM_NR_PARAMS (%u)", i, entry[i].index, HVM_NR_PARAMS);
            return -1;
        }
        if ( entry[i].index == HVM_PARAM_STORE_EVTCHN ||
             entry[i].index == HVM_PARAM_CONSOLE_EVTCHN )
        {
            /* The destination's own ports (Xen never sends these). */
            REC_ERROR(ctx, rec, "param[%u]: index %" PRIu64 " is an event "
                      "channel of the source", i, entry[i].index);
            return -1;
        }
    }
    /* As Xen's handle_hvm_params: each set as it comes; the hypervisor checks it. */
    for ( i = 0; i < hdr->count; i++ )
    {
        if ( entry[i].index == HVM_PARAM_STORE_PFN )
            ctx->restore.store_gfn = entry[i].value;
        else if ( entry[i].index == HVM_PARAM_CONSOLE_PFN )
            ctx->restore.console_gfn = entry[i].value;
        if ( xc_hvm_param_set(ctx->xch, ctx->domid, (uint32_t)entry[i].index,
                              entry[i].value) )
        {
            REC_ERROR(ctx, rec, "param[%u]: index %" PRIu64 " = %#" PRIx64
                      " refused by the hypervisor (%d = %s)", i, entry[i].index,
                      entry[i].value, errno, xc_strerror(ctx->xch, errno));
            return -1;
        }
    }
    SR_DPRINTF(ctx, "restore: %u HVM parameters set (xenstore ring %#" PRIx64
               ", console ring %#" PRIx64 ")", hdr->count,
               ctx->restore.store_gfn, ctx->restore.console_gfn);
    return 0;
}

/* Check the context's structure; the hypervisor checks every value. */
static int check_context(struct xc_sr_context *ctx, struct xc_sr_record *rec)
{
    const uint8_t *buf = rec->data;
    uint32_t off = 0, len = rec->length;
    unsigned int n = 0;

    while ( off + sizeof(struct hvm_save_descriptor) <= len )
    {
        struct hvm_save_descriptor desc;

        memcpy(&desc, buf + off, sizeof(desc));
        if ( desc.length > len - off - sizeof(desc) )
        {
            REC_ERROR(ctx, rec, "context record %u (type %u) at %#x: length "
                      "%u runs past the end", n, desc.typecode, off,
                      desc.length);
            return -1;
        }
        if ( n == 0 && (desc.typecode != HVM_SAVE_CODE(HEADER) ||
                        desc.length != sizeof(struct hvm_save_header)) )
        {
            REC_ERROR(ctx, rec, "context does not start with a HEADER "
                      "(type %u, length %u)", desc.typecode, desc.length);
            return -1;
        }
        if ( n == 0 )
        {
            struct hvm_save_header hdr;

            memcpy(&hdr, buf + off + sizeof(desc), sizeof(hdr));
            if ( hdr.magic != HVM_FILE_MAGIC || hdr.version != HVM_FILE_VERSION )
            {
                REC_ERROR(ctx, rec, "context HEADER: magic %#x version %u, "
                          "not %#x version %u", hdr.magic, hdr.version,
                          HVM_FILE_MAGIC, HVM_FILE_VERSION);
                return -1;
            }
        }
        else if ( desc.typecode == HVM_SAVE_CODE(CPU) )
        {
            if ( desc.length != sizeof(struct hvm_hw_cpu) ||
                 desc.instance > ctx->dominfo.max_vcpu_id )
            {
                REC_ERROR(ctx, rec, "context CPU record for vCPU %u (length "
                          "%u): d%u has vCPUs 0-%u and CPU records are %zu "
                          "octets", desc.instance, desc.length, ctx->domid,
                          ctx->dominfo.max_vcpu_id, sizeof(struct hvm_hw_cpu));
                return -1;
            }
        }
        else if ( desc.typecode == HVM_SAVE_CODE(LAPIC) ||
                  desc.typecode == HVM_SAVE_CODE(LAPIC_REGS) )
        {
            size_t want = desc.typecode == HVM_SAVE_CODE(LAPIC)
                          ? sizeof(struct hvm_hw_lapic)
                          : sizeof(struct hvm_hw_lapic_regs);

            if ( desc.length != want || desc.instance > ctx->dominfo.max_vcpu_id )
            {
                REC_ERROR(ctx, rec, "context %s record for vCPU %u (length "
                          "%u): d%u has vCPUs 0-%u and these records are %zu "
                          "octets", desc.typecode == HVM_SAVE_CODE(LAPIC)
                          ? "LAPIC" : "LAPIC_REGS", desc.instance, desc.length,
                          ctx->domid, ctx->dominfo.max_vcpu_id, want);
                return -1;
            }
        }
        else if ( desc.typecode == HVM_SAVE_CODE(MTRR) )
        {
            if ( desc.length != sizeof(struct hvm_hw_mtrr) ||
                 desc.instance > ctx->dominfo.max_vcpu_id )
            {
                REC_ERROR(ctx, rec, "context MTRR record for vCPU %u (length "
                          "%u): d%u has vCPUs 0-%u and MTRR records are %zu "
                          "octets", desc.instance, desc.length, ctx->domid,
                          ctx->dominfo.max_vcpu_id, sizeof(struct hvm_hw_mtrr));
                return -1;
            }
        }
        else if ( desc.typecode == HVM_SAVE_CODE(END) )
        {
            if ( desc.length || off + sizeof(desc) != len )
            {
                REC_ERROR(ctx, rec, "context END at %#x is not the last %zu "
                          "octets", off, sizeof(desc));
                return -1;
            }
            return 0;
        }
        else
        {
            REC_ERROR(ctx, rec, "context record type %u is not supported by "
                      "this hypervisor (only HEADER, CPU, LAPIC, LAPIC_REGS, MTRR, END)", desc.typecode);
            return -1;
        }
        off += sizeof(desc) + desc.length;
        n++;
    }
    REC_ERROR(ctx, rec, "context has no END record");
    return -1;
}

int handle_hvm_context(struct xc_sr_context *ctx, struct xc_sr_record *rec)
{
    errno = EINVAL;
    if ( !rec->length || rec->length > HVM_CONTEXT_MAX )
    {
        REC_ERROR(ctx, rec, "length is not within 1-%u", HVM_CONTEXT_MAX);
        return -1;
    }
    if ( check_context(ctx, rec) )
        return -1;
    /* Keep it for the end of the stream. */
    ctx->restore.context = rec->data;
    ctx->restore.context_len = rec->length;
    rec->data = NULL;
    ctx->restore.seen_context = true;
    return 0;
}

/*
 * As Xen's x86_hvm_stream_complete: the new domain's ring ports into its
 * HVM parameters, and its grant table seeded with the rings for the
 * backends (xenstored maps the store ring through its grant).
 */
static int set_up_rings(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    struct xc_restore_rings *r = ctx->restore.rings;

    if ( xc_hvm_param_set(xch, ctx->domid, HVM_PARAM_STORE_EVTCHN, r->store_evtchn) ||
         xc_hvm_param_set(xch, ctx->domid, HVM_PARAM_CONSOLE_EVTCHN, r->console_evtchn) )
    {
        PERROR("restore: cannot set d%u's xenstore and console event channels "
               "(%u, %u)", ctx->domid, r->store_evtchn, r->console_evtchn);
        return -1;
    }
    if ( (ctx->restore.store_gfn || ctx->restore.console_gfn) &&
         xc_dom_gnttab_seed(xch, ctx->domid, true,
                            ctx->restore.console_gfn ?: INVALID_PFN,
                            ctx->restore.store_gfn ?: INVALID_PFN,
                            r->console_domid, r->store_domid) )
    {
        PERROR("restore: cannot seed d%u's grant table with its rings", ctx->domid);
        return -1;
    }
    r->store_gfn = ctx->restore.store_gfn;
    r->console_gfn = ctx->restore.console_gfn;
    return 0;
}

int x86_hvm_stream_complete(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    struct restore_callbacks *cb = ctx->restore.callbacks;

    if ( ctx->restore.rings && set_up_rings(ctx) )
        return -1;

    if ( xc_domain_hvm_setcontext(xch, ctx->domid, ctx->restore.context,
                                  ctx->restore.context_len) )
    {
        PERROR("restore: the hypervisor refused the HVM context (%u octets) "
               "for d%u", ctx->restore.context_len, ctx->domid);
        return -1;
    }
    if ( cb && cb->restore_results )
        cb->restore_results(0, 0, cb->data);
    SR_DPRINTF(ctx, "restore: d%u: %" PRIu64 " records, %" PRIu64 " pages "
               "written, %" PRIu64 " populated", ctx->domid,
               ctx->restore.summary.records, ctx->restore.summary.pages,
               ctx->restore.summary.populated);
    return 0;
}
