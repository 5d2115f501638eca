/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest save, x86 HVM: the records after the memory.
 *
 *   X86_TSC_INFO   (xg_sr_common_x86.c)
 *   HVM_PARAMS     this hypervisor has no HVMOP_get_param: there are no
 *                  parameters to carry, and the record says so (count 0;
 *                  the spec would allow eliding it, the restorer accepts
 *                  both)
 *   HVM_CONTEXT    XEN_DOMCTL_gethvmcontext as it comes: HEADER, one CPU
 *                  record per initialised vCPU, END
 */
#include <stdlib.h>

#include "xg_sr_common.h"

/* The HEADER's gtsc_khz, for X86_TSC_INFO; 0 if there is no HEADER. */
static uint32_t context_tsc_khz(const uint8_t *buf, uint32_t len)
{
    struct hvm_save_descriptor desc;
    struct hvm_save_header hdr;

    if ( len < sizeof(desc) + sizeof(hdr) )
        return 0;
    memcpy(&desc, buf, sizeof(desc));
    if ( desc.typecode != HVM_SAVE_CODE(HEADER) || desc.length != sizeof(hdr) )
        return 0;
    memcpy(&hdr, buf + sizeof(desc), sizeof(hdr));
    return hdr.gtsc_khz;
}

int x86_hvm_end_of_checkpoint(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    struct xc_sr_rec_hvm_params params = { .count = 0 };
    uint8_t *buf = NULL;
    int len, rc = -1;

    len = xc_domain_hvm_getcontext(xch, ctx->domid, NULL, 0);
    if ( len <= 0 )
    {
        PERROR("save: cannot get the size of d%u's HVM context", ctx->domid);
        return -1;
    }
    buf = malloc((size_t)len);
    if ( !buf )
    {
        ERROR("save: cannot allocate %d octets for the HVM context", len);
        errno = ENOMEM;
        return -1;
    }
    len = xc_domain_hvm_getcontext(xch, ctx->domid, buf, (uint32_t)len);
    if ( len <= 0 )
    {
        PERROR("save: cannot get d%u's HVM context", ctx->domid);
        goto out;
    }
    ctx->save.tsc_khz = context_tsc_khz(buf, (uint32_t)len);

    if ( write_x86_tsc_info(ctx) ||
         write_record(ctx, REC_TYPE_HVM_PARAMS, &params, sizeof(params)) ||
         write_record(ctx, REC_TYPE_HVM_CONTEXT, buf, (size_t)len) )
        goto out;
    rc = 0;

 out:
    free(buf);
    return rc;
}
