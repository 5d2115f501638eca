/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest save/restore: X86_TSC_INFO.
 *
 * As Xen's write_x86_tsc_info / handle_x86_tsc_info: the saver writes
 * what XEN_DOMCTL_gettscinfo says (mode, rate, elapsed ns, incarnation),
 * the restorer checks the record and hands it to XEN_DOMCTL_settscinfo.
 * This hypervisor never emulates RDTSC: the guest's TSC is the host's, so
 * it honours TSC_MODE_DEFAULT at the host's rate and NEVER_EMULATE, and
 * refuses (EOPNOTSUPP) a rate it would have to emulate -- a stream from a
 * host with another TSC frequency -- rather than let the guest's clock
 * run at the wrong speed.
 */
#include <inttypes.h>

#include "xg_sr_common.h"

int write_x86_tsc_info(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    struct xc_sr_rec_x86_tsc_info tsc = { 0 };

    if ( xc_domain_get_tsc_info(xch, ctx->domid, &tsc.mode, &tsc.nsec, &tsc.khz,
                                &tsc.incarnation) )
    {
        PERROR("save: cannot get d%u's TSC information", ctx->domid);
        return -1;
    }
    return write_record(ctx, REC_TYPE_X86_TSC_INFO, &tsc, sizeof(tsc));
}

int handle_x86_tsc_info(struct xc_sr_context *ctx, struct xc_sr_record *rec)
{
    xc_interface *xch = ctx->xch;
    struct xc_sr_rec_x86_tsc_info *tsc = rec->data;

    if ( ctx->restore.seen_tsc_info )
    {
        REC_ERROR(ctx, rec, "a second X86_TSC_INFO record");
        return -1;
    }
    if ( rec->length != sizeof(*tsc) )
    {
        REC_ERROR(ctx, rec, "length is not %zu", sizeof(*tsc));
        return -1;
    }
    if ( tsc->_res1 )
    {
        REC_ERROR(ctx, rec, "reserved field is %#x, not zero", tsc->_res1);
        return -1;
    }
    if ( tsc->mode > SR_TSC_MODE_NEVER_EMULATE )
    {
        REC_ERROR(ctx, rec, "unknown TSC mode %u", tsc->mode);
        return -1;
    }
    if ( xc_domain_set_tsc_info(xch, ctx->domid, tsc->mode, tsc->nsec, tsc->khz,
                                tsc->incarnation) )
    {
        REC_ERROR(ctx, rec, "TSC mode %u at %u kHz refused by the hypervisor "
                  "(%d = %s)%s", tsc->mode, tsc->khz, errno,
                  xc_strerror(xch, errno), errno == EOPNOTSUPP ?
                  ": it would need RDTSC emulation, which this hypervisor "
                  "does not do" : "");
        return -1;
    }
    ctx->restore.tsc = *tsc;
    ctx->restore.seen_tsc_info = true;
    SR_DPRINTF(ctx, "restore: TSC mode %u, %u kHz, nsec %" PRIu64
               ", incarnation %u", tsc->mode, tsc->khz, tsc->nsec,
               tsc->incarnation);
    return 0;
}
