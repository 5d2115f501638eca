/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest save/restore: X86_TSC_INFO.
 *
 * This hypervisor has no XEN_DOMCTL_gettscinfo / settscinfo: a guest's
 * TSC is the host's (no offset, no scaling, never emulated), which is
 * TSC_MODE_DEFAULT at the frequency the HVM context's header records.
 * The saver writes that; the restorer checks the record and, as there is
 * nothing to set, keeps it only for the log.
 */
#include <inttypes.h>

#include "xg_sr_common.h"

int write_x86_tsc_info(struct xc_sr_context *ctx)
{
    struct xc_sr_rec_x86_tsc_info tsc = {
        .mode = SR_TSC_MODE_DEFAULT,
        .khz = ctx->save.tsc_khz,
        .nsec = 0,
        .incarnation = 0,
    };

    return write_record(ctx, REC_TYPE_X86_TSC_INFO, &tsc, sizeof(tsc));
}

int handle_x86_tsc_info(struct xc_sr_context *ctx, struct xc_sr_record *rec)
{
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
    if ( tsc->mode != SR_TSC_MODE_DEFAULT )
    {
        REC_ERROR(ctx, rec, "TSC mode %u cannot be set here (only 0, "
                  "TSC_MODE_DEFAULT: no XEN_DOMCTL_settscinfo)", tsc->mode);
        return -1;
    }
    ctx->restore.tsc = *tsc;
    ctx->restore.seen_tsc_info = true;
    SR_DPRINTF(ctx, "restore: TSC mode %u, %u kHz, nsec %" PRIu64
               ", incarnation %u (not applied: the host's TSC)",
               tsc->mode, tsc->khz, tsc->nsec, tsc->incarnation);
    return 0;
}
